"""Shared helpers. Under CI=true a missing tool (the mancala binary, open-spiel) fails
the test that needs it instead of skipping it: CI must run everything."""

import os
import random
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
