"""Every example of docs/python.md runs as written, in the order of the page, in one
namespace (as a reader pastes them into one session), in a directory of its own:

- ``pycon`` blocks are doctests: each output shown is checked;
- ``python`` blocks are run; one whose first line is ``# NAME.py`` is that file,
  written out for the examples after it to import; one whose first line is
  ``# from python/examples/NAME.py`` is an excerpt, and each of its lines must be in
  that file;
- ``sh`` blocks that run ``mancala match`` or ``python -m mancala_rs...`` are run
  with the ``mancala`` command on PATH. The others (installing, the full-screen
  terminal game, the benchmark) are not.

The web bot's example plays against this test's own ``mancala serve`` (the fixture
of conftest.py) in place of the address written in the page."""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, mancala_binary

PAGE = REPO / "docs" / "python.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
WRITTEN_ADDRESS = "http://127.0.0.1:8080"
RUN_SH = re.compile(r"^(mancala match|python3? -m mancala_rs)")


def blocks():
    return BLOCK.findall(PAGE.read_text())


def run_python(code, namespace, name):
    exec(compile(code, name, "exec"), namespace)


def run_doctest(code, namespace, name):
    test = doctest.DocTestParser().get_doctest(code, namespace, name, str(PAGE), 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    runner.run(test, out=failures.append, clear_globs=False)
    namespace.update(test.globs)  # a DocTest runs in a copy of the namespace given
    assert not failures, "".join(failures)


def run_sh(code, cwd, env):
    """Runs the block's commands that are examples (see the module's doc); how many."""
    ran = 0
    for line in code.replace("\\\n", " ").splitlines():
        line = line.split("  #")[0].strip()
        if not RUN_SH.match(line):
            continue
        done = subprocess.run(shlex.split(line), cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        ran += 1
    return ran


def test_the_page_has_examples_of_every_kind():
    kinds = {kind for kind, _ in blocks()}
    assert {"pycon", "python", "sh"} <= kinds


def test_every_example_runs_as_written(tmp_path, monkeypatch, server):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    binary = mancala_binary()
    env = dict(os.environ)
    # The `mancala` command and this Python first on PATH, as in an activated venv.
    env["PATH"] = os.pathsep.join(
        [str(Path(sys.executable).parent), str(binary.parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    # ext: players started from the examples' own Python code find the same.
    monkeypatch.setenv("PATH", env["PATH"])
    namespace = {"__name__": "__docs__"}
    ran = {"pycon": 0, "python": 0, "sh": 0}
    for i, (kind, code) in enumerate(blocks()):
        name = f"{PAGE.name} block {i + 1}"
        first = code.splitlines()[0] if code.strip() else ""
        if kind == "pycon":
            run_doctest(code, namespace, name)
            ran["pycon"] += 1
        elif kind == "python" and first.startswith("# from python/examples/"):
            source = (REPO / first.removeprefix("# from ").strip()).read_text()
            for line in code.splitlines()[1:]:
                assert line.strip() in source, f"{name}: {line!r} is not in {first}"
        elif kind == "python" and re.fullmatch(r"# \w+\.py", first):
            (tmp_path / first[2:]).write_text(code)
        elif kind == "python":
            run_python(code.replace(WRITTEN_ADDRESS, server), namespace, name)
            ran["python"] += 1
        elif kind == "sh":
            ran["sh"] += run_sh(code, tmp_path, env)
    assert ran == {"pycon": 3, "python": 6, "sh": 1}


def test_the_page_says_what_building_needs():
    text = PAGE.read_text()
    assert "Rust toolchain" in text and "rustup" in text
    assert "__version__" in text
