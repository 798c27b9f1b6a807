"""A Python turn function behind the suite's engine line protocol.

    python -m mancala_rs.engine mybot:choose

speaks the protocol of docs/engine-protocol.md on standard input and output, asking
``mybot.choose(game)`` for each move: it gets a :class:`mancala_rs.Game` (a copy, the
whole game since its start) and returns a house, 1..H in the mover's sowing order. So

    mancala match --p1 'ext:python -m mancala_rs.engine mybot:choose' --p2 greedy

plays the function, and so does ``mancala tui --p2 'ext:python -m mancala_rs.engine
mybot:choose'``; for the web game see :mod:`mancala_rs.webbot`. The module is imported
from the current directory or ``sys.path``. A function that
raises, or returns a house that is not legal, is answered with ``error`` (the match
scores that as a forfeit) and its traceback goes to standard error.
"""

import argparse
import importlib
import sys
import traceback
from typing import Callable, List, Optional, TextIO

from mancala_rs._core import Game

PROTOCOL_VERSION = 1

TurnFunction = Callable[[Game], int]


def load(target: str) -> TurnFunction:
    """The function named by ``module:function`` (``package.module:function`` too)."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"expected module:function, not {target!r}")
    obj = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{target} is not a function")
    return obj


class Engine:
    """The engine's state between lines: the last position given."""

    def __init__(self, choose: TurnFunction, name: str):
        self.choose = choose
        self.name = name
        self.game: Optional[Game] = None

    def handle(self, words: List[str]) -> List[str]:
        """The reply lines to one command line (already split into words)."""
        command = words[0]
        if command == "protocol":
            if words[1:] != [str(PROTOCOL_VERSION)]:
                return [f"error this engine speaks protocol {PROTOCOL_VERSION}"]
            return [f"id name {self.name}", "ready"]
        if command == "newgame":
            self.game = None
            return []
        if command == "position":
            return self.position(words[1:])
        if command == "go":
            return self.go()
        return [f"error unknown command {' '.join(words)!r}"]

    def position(self, words: List[str]) -> List[str]:
        self.game = None
        moves: List[str] = []
        if "moves" in words:
            at = words.index("moves")
            words, moves = words[:at], words[at + 1 :]
        try:
            game = Game.from_notation(" ".join(words))
            for i, house in enumerate(moves):
                try:
                    game.play(int(house))
                except ValueError as e:
                    return [f"error move {i + 1} ({house}): {e}"]
        except ValueError as e:
            return [f"error {e}"]
        self.game = game
        return []

    def go(self) -> List[str]:
        if self.game is None or self.game.is_over():
            return ["error no position to move in"]
        try:
            house = self.choose(self.game.copy())
        except Exception as e:  # the function's bug is reported, the engine goes on
            traceback.print_exc(file=sys.stderr)
            return [f"error the turn function raised {type(e).__name__}: {e}"]
        if isinstance(house, bool) or not isinstance(house, int) \
                or house not in self.game.legal_moves():
            return [f"error the turn function returned {house!r}, not one of "
                    f"{self.game.legal_moves()}"]
        return [f"bestmove {house}"]


def serve(engine: Engine, lines: TextIO, out: TextIO) -> None:
    """Answers the controller's lines until ``quit`` or the end of input."""
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        for reply in engine.handle(words):
            out.write(reply + "\n")
        out.flush()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mancala_rs.engine",
        description="Play a Python turn function through the mancala engine protocol.")
    parser.add_argument("target", help="module:function; the function takes a Game and "
                        "returns a house 1..H")
    parser.add_argument("--name", help="the engine's name (default: the target)")
    args = parser.parse_args(argv)
    # `python -m` puts the current directory first on sys.path already; a script run
    # another way still finds the user's module there.
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        choose = load(args.target)
    except (ImportError, AttributeError, ValueError) as e:
        print(f"cannot load {args.target}: {e}", file=sys.stderr)
        return 2
    serve(Engine(choose, args.name or args.target), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
