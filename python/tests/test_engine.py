"""`python -m mancala_rs.engine module:function` against the protocol and a real
`mancala match`."""

import json
import subprocess
import sys
import textwrap

import pytest

from conftest import mancala_binary

BOT = textwrap.dedent("""
    def choose(game):
        # The last legal house: simple, deterministic, and easy to check.
        return game.legal_moves()[-1]

    def broken(game):
        return 99

    def crash(game):
        raise RuntimeError("boom")
""")


@pytest.fixture
def bot_dir(tmp_path):
    (tmp_path / "mybot.py").write_text(BOT)
    return tmp_path


def converse(bot_dir, target, lines):
    out = subprocess.run(
        [sys.executable, "-m", "mancala_rs.engine", target],
        input="".join(line + "\n" for line in lines),
        capture_output=True, text=True, cwd=bot_dir, timeout=60,
    )
    return out.stdout.splitlines(), out.stderr, out.returncode


def test_the_protocol_lines(bot_dir):
    lines, _, code = converse(bot_dir, "mybot:choose", [
        "protocol 1",
        "newgame",
        "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 1",
        "go ms 100",
        "position oware 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1",
        "go ms 100",
        "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 3",
        "go ms 100",
        "frobnicate",
        "quit",
        "protocol 1",  # after quit: never read
    ])
    assert code == 0
    assert lines[:2] == ["id name mybot:choose", "ready"]
    assert lines[2] == "bestmove 6"
    assert lines[3] == "bestmove 6"
    assert lines[4] == "error move 2 (3): house 3 is empty"
    assert lines[5] == "error no position to move in"
    assert lines[6].startswith("error unknown command")
    assert len(lines) == 7


def test_a_function_that_fails_is_answered_with_error(bot_dir):
    start = "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1"
    lines, _, _ = converse(bot_dir, "mybot:broken", ["protocol 1", start, "go ms 10"])
    assert lines[-1] == "error the turn function returned 99, not one of [1, 2, 3, 4, 5, 6]"
    lines, err, _ = converse(bot_dir, "mybot:crash", ["protocol 1", start, "go ms 10"])
    assert lines[-1] == "error the turn function raised RuntimeError: boom"
    assert "Traceback" in err


def test_a_missing_function_exits_with_status_2(bot_dir):
    _, err, code = converse(bot_dir, "mybot:nothing", [])
    assert code == 2 and "cannot load mybot:nothing" in err


@pytest.mark.parametrize("variant", ["kalah", "oware"])
def test_a_python_function_plays_a_mancala_match(bot_dir, variant):
    binary = mancala_binary()
    out = subprocess.run(
        [str(binary), "match", "--variant", variant,
         "--p1", f"ext:{sys.executable} -m mancala_rs.engine mybot:choose",
         "--p2", "greedy", "--games", "2", "--swap", "--ext-ms", "200",
         "--ext-grace-ms", "5000", "--jobs", "1", "--json"],
        capture_output=True, text=True, cwd=bot_dir, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["games"] == 2
    assert report["forfeits"] == 0, out.stderr


def test_best_move_and_player_take_an_external_engine(bot_dir, monkeypatch):
    import mancala_rs
    monkeypatch.chdir(bot_dir)
    spec = f"ext:{sys.executable} -m mancala_rs.engine mybot:choose"
    game = mancala_rs.Game("oware")
    assert mancala_rs.best_move(game, spec) == 6
    player = mancala_rs.Player(spec)
    assert player.spec == spec
    for _ in range(6):  # one engine process answers move after move
        expected = game.legal_moves()[-1]
        assert player.choose(game) == expected
        game.play(expected)
    broken = mancala_rs.Player(f"ext:{sys.executable} -m mancala_rs.engine mybot:broken")
    with pytest.raises(RuntimeError, match="the turn function returned 99"):
        broken.choose(game)
    with pytest.raises(ValueError, match="ext:COMMAND"):
        mancala_rs.Player("ext:")


def test_an_engine_that_cannot_start_is_a_value_error(bot_dir, monkeypatch):
    # As docs/python.md says: failing to start is a ValueError, failing mid-game
    # (above) a RuntimeError.
    import mancala_rs
    monkeypatch.chdir(bot_dir)
    game = mancala_rs.Game()
    with pytest.raises(ValueError, match="no_such_module"):
        mancala_rs.Player(f"ext:{sys.executable} -m mancala_rs.engine no_such_module:f").choose(game)
    with pytest.raises(ValueError, match="no-such-program"):
        mancala_rs.best_move(game, "ext:no-such-program")


WAITING_BOT = textwrap.dedent("""
    import time
    from pathlib import Path

    def wait_for_answer(game):
        # Says it has been asked, then answers only once the test's main thread has
        # written the answer file: which it can do only if the thread that asked
        # (inside best_move) let go of the GIL.
        Path("asked").touch()
        for _ in range(1000):
            if Path("answer").exists():
                return int(Path("answer").read_text())
            time.sleep(0.01)
        raise TimeoutError("no answer file")
""")


def test_best_move_releases_the_gil_while_it_waits(tmp_path, monkeypatch):
    import threading
    import time

    import mancala_rs
    (tmp_path / "waiting.py").write_text(WAITING_BOT)
    monkeypatch.chdir(tmp_path)
    player = mancala_rs.Player(f"ext:{sys.executable} -m mancala_rs.engine waiting:wait_for_answer")
    result = {}
    thread = threading.Thread(
        target=lambda: result.update(move=player.choose(mancala_rs.Game())))
    thread.start()
    # Python code in this thread runs while the other waits in Rust for the engine;
    # if best_move kept the GIL, this loop would not run until the engine had given
    # up (it waits 10 s) and the engine's move would be a RuntimeError instead.
    for _ in range(3000):
        if (tmp_path / "asked").exists():
            break
        time.sleep(0.01)
    (tmp_path / "answer").write_text("4")
    thread.join(timeout=60)
    assert result == {"move": 4}
