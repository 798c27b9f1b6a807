"""Shared helpers. Under CI=true a missing tool (the mancala binary, open-spiel) fails
the test that needs it instead of skipping it: CI must run everything."""

import os
import random
import re
import subprocess
import threading
import time
from pathlib import Path
from typing import List

import pytest

import mancala_rs

REPO = Path(__file__).resolve().parents[2]


def require(what: str, why: str) -> None:
    """Skips the test for a developer without ``what``; fails it under CI."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing under CI ({why})")
    pytest.skip(f"{what} is missing ({why})")


def mancala_binary() -> Path:
    """The suite's binary: $MANCALA_BIN, else target/debug/mancala."""
    path = Path(os.environ.get("MANCALA_BIN", REPO / "target" / "debug" / "mancala"))
    if not path.is_file():
        require(str(path), "build it with `cargo build -p mancala`")
    return path


def random_game(variant: str, seed: int, **rules) -> List[int]:
    """The houses of a whole game of random legal moves."""
    rng = random.Random(seed)
    game = mancala_rs.Game(variant, **rules)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game.moves


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A `mancala serve` on 127.0.0.1, port 0 (the server says which it took on
    standard error), with an SQLite file of its own and room for a test's requests."""
    db = tmp_path_factory.mktemp("serve") / "games.sqlite"
    process = subprocess.Popen(
        [str(mancala_binary()), "serve", "--addr", "127.0.0.1:0", "--db", str(db),
         "--rate-create", "1000/1m", "--rate-join", "1000/1m",
         "--rate-move", "10000/1m", "--rate-read", "100000/1m"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    base, seen = None, []
    deadline = time.monotonic() + 60
    while base is None and time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"serving on (http://[^/\s]+)", line)
        if found:
            base = found.group(1)
    if base is None:
        process.kill()
        pytest.fail("mancala serve did not start:\n" + "".join(seen))
    # Keep reading its log so that the pipe never fills.
    threading.Thread(target=process.stderr.read, daemon=True).start()
    yield base
    process.terminate()
    process.wait(timeout=30)
