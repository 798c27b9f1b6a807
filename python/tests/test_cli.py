"""`pip install ./python` gives a pip user the whole suite: the package's version, and
the `mancala` command in the environment's bin/ beside python (built by build.rs into
the wheel's scripts)."""

import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import mancala_rs


def installed_mancala():
    path = shutil.which("mancala", path=str(Path(sys.executable).parent))
    assert path, f"no mancala command beside {sys.executable}: pip install ./python again"
    return path


def test_the_package_says_its_version():
    # The crate's version, which maturin also gives the distribution.
    assert mancala_rs.__version__ == version("mancala-rs")
    assert mancala_rs.__version__.count(".") == 2


def test_the_mancala_command_is_installed_beside_python():
    mancala = installed_mancala()
    done = subprocess.run([mancala, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.split() == ["mancala", mancala_rs.__version__]


def test_the_installed_command_plays_a_python_bot(tmp_path):
    (tmp_path / "mybot.py").write_text("def choose(game):\n    return max(game.legal_moves())\n")
    bot = f"ext:{sys.executable} -m mancala_rs.engine mybot:choose"
    done = subprocess.run(
        [installed_mancala(), "match", "--p1", bot, "--p2", "greedy", "--games", "2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "forfeit" not in done.stdout + done.stderr
