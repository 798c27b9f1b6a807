"""What the Gymnasium and PettingZoo environments share: observations from one
player's side and action masks, both read off a Game."""

from typing import Optional

import numpy as np

from mancala_rs._core import Game


def total_seeds(game: Game) -> int:
    """Every seed on the board and in the stores (the largest count a house can hold)."""
    first, second = game.houses
    return sum(first) + sum(second) + sum(game.stores)


def observation(game: Game, player: int) -> np.ndarray:
    """(2H+2,) int32 from ``player``'s side (1 or 2): its houses in sowing order, the
    opponent's, its store, the opponent's store."""
    rows = game.houses
    stores = game.stores
    me, them = player - 1, 2 - player
    return np.array(rows[me] + rows[them] + [stores[me], stores[them]], dtype=np.int32)


def action_mask(game: Game, player: Optional[int] = None) -> np.ndarray:
    """(H,) int8: 1 for each house ``player`` may sow now (all 0 when it is not its
    turn or the game is over). Action ``a`` sows house ``a + 1``."""
    mask = np.zeros(game.houses_per_side, dtype=np.int8)
    if player is None or game.to_move == player:
        for house in game.legal_moves():
            mask[house - 1] = 1
    return mask
