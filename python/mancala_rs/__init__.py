"""The mancala family (Kalah, Oware, Togyz Kumalak) for Python, on the rules, players and solver of the mancala suite.

>>> import mancala_rs
>>> game = mancala_rs.Game("kalah", houses=6, seeds=4)
>>> game.play(3)          # the last seed lands in the store: player 1 moves again
>>> game.to_move
1
>>> mancala_rs.best_move(game, "greedy") in game.legal_moves()
True

``Game``, ``VectorGame`` and ``Player`` pickle (``Game`` by its record; it hashes as
it compares). ``__version__`` is the package's version.

Submodules: ``mancala_rs.gymnasium`` (registers ``mancala_rs/Kalah-v0`` and friends),
``mancala_rs.pettingzoo`` (an AEC environment), ``mancala_rs.engine`` (a Python
function behind the suite's engine protocol).
"""

from mancala_rs._core import (
    VARIANTS,
    __version__,
    Game,
    Player,
    VectorGame,
    best_move,
    player_names,
    read_records,
    solve,
    variant_info,
    write_records,
)

__all__ = [
    "VARIANTS",
    "__version__",
    "Game",
    "Player",
    "VectorGame",
    "best_move",
    "player_names",
    "read_records",
    "solve",
    "variant_info",
    "write_records",
]
