"""What the Gymnasium and PettingZoo environments share: observations from one
player's side and action masks, both read off a Game."""

from typing import Any, Optional

import numpy as np

from mancala_rs._core import Game, variant_info


def total_seeds(game: Game) -> int:
    """Every seed on the board and in the stores (the largest count a house can hold)."""
    first, second = game.houses
    return sum(first) + sum(second) + sum(game.stores)


def observation_size(game: Game) -> int:
    """The length of ``observation``: 2H+2, and 2 more in a game with claimed houses."""
    extra = 2 if variant_info(game.variant)["claims"] else 0
    return 2 * game.houses_per_side + 2 + extra


def observation(game: Game, player: int) -> np.ndarray:
    """int32 from ``player``'s side (1 or 2): its houses in sowing order, the
    opponent's, its store, the opponent's store; in a game whose captures claim houses
    then the house of the opponent's row it has claimed and the opponent's of its
    row, each as that row's owner numbers it, 0 for none (see ``observation_size``)."""
    rows = game.houses
    stores = game.stores
    me, them = player - 1, 2 - player
    values = rows[me] + rows[them] + [stores[me], stores[them]]
    if variant_info(game.variant)["claims"]:
        claimed = game.claimed
        values += [claimed[me] or 0, claimed[them] or 0]
    return np.array(values, dtype=np.int32)


def action_mask(game: Game, player: Optional[int] = None) -> np.ndarray:
    """(H,) int8: 1 for each house ``player`` may sow now (all 0 when it is not its
    turn or the game is over). Action ``a`` sows house ``a + 1``."""
    mask = np.zeros(game.houses_per_side, dtype=np.int8)
    if player is None or game.to_move == player:
        for house in game.legal_moves():
            mask[house - 1] = 1
    return mask


def house_of(action: Any) -> int:
    """The house action ``action`` sows: ``action + 1``. An action is a whole number
    (an int, numpy's, a one-element array, or a float with no fraction); anything else
    is refused rather than truncated: ValueError for 1.5 or NaN, TypeError for what is
    not a number."""
    value = np.asarray(action)
    if value.size != 1:
        raise ValueError(f"an action is one number, not {action!r}")
    item = value.reshape(()).item()
    if isinstance(item, bool) or not isinstance(item, (int, float)):
        raise TypeError(f"an action must be a whole number, not {action!r}")
    if isinstance(item, float):
        if not item.is_integer():
            raise ValueError(f"an action must be a whole number, not {action!r}")
        item = int(item)
    return item + 1
