"""The environments' ``rgb_array`` rendering: a small picture of the board drawn with
numpy alone (no drawing library to install)."""

import numpy as np

from mancala_rs._core import Game

CELL = 32  # pixels a house takes, its margin included
PIT = 26  # pixels of a house's square
DOT = 4  # pixels of a seed
DOTS_PER_ROW = 4
MAX_DOTS = 16  # seeds shown one by one in a house; more light the house up

BOARD = (120, 78, 40)
HOUSE = (82, 50, 24)
FULL_HOUSE = (140, 96, 56)
SEED = (236, 220, 170)
CLAIMED = (200, 40, 40)
TO_MOVE = (250, 200, 60)


def board_image(game: Game, bottom: int = 1) -> np.ndarray:
    """The board as an RGB image, uint8 of shape ``(2 * CELL + 16, (H + 2) * CELL, 3)``:
    ``bottom``'s row (1 or 2) below, its houses 1..H from left to right and its store on
    the right; the other row above, right to left, its store on the left. A seed is a
    dot (a house with more than 16 lights up), a claimed house has a red frame, and a bar
    marks the row of the player to move."""
    h = game.houses_per_side
    image = np.empty((2 * CELL + 16, (h + 2) * CELL, 3), dtype=np.uint8)
    image[:] = BOARD
    rows = game.houses
    stores = game.stores
    me, them = bottom - 1, 2 - bottom
    claimed = game.claimed
    for i in range(h):
        # The bottom row's house i+1 at column i+1; the top row's at column h-i.
        _house(image, 8 + CELL, (i + 1) * CELL, rows[me][i], claimed[them] == i + 1)
        _house(image, 8, (h - i) * CELL, rows[them][i], claimed[me] == i + 1)
    _store(image, (h + 1) * CELL, stores[me])
    _store(image, 0, stores[them])
    if game.to_move is not None:
        y = 2 * CELL + 10 if game.to_move == bottom else 2
        image[y:y + 4, CELL:(h + 1) * CELL] = TO_MOVE
    return image


def _house(image: np.ndarray, top: int, left: int, seeds: int, claimed: bool) -> None:
    y, x = top + (CELL - PIT) // 2, left + (CELL - PIT) // 2
    if claimed:
        image[y - 2:y + PIT + 2, x - 2:x + PIT + 2] = CLAIMED
    image[y:y + PIT, x:x + PIT] = FULL_HOUSE if seeds > MAX_DOTS else HOUSE
    _dots(image, y + 3, x + 3, min(seeds, MAX_DOTS))


def _store(image: np.ndarray, left: int, seeds: int) -> None:
    y, x = 8 + (CELL - PIT) // 2, left + (CELL - PIT) // 2
    height = 2 * CELL - (CELL - PIT)
    image[y:y + height, x:x + PIT] = HOUSE
    # As many rows of dots as fit (9 of 4), then the store lights up.
    shown = min(seeds, DOTS_PER_ROW * (height - 4) // (DOT + 2))
    if seeds > shown:
        image[y:y + height, x:x + PIT] = FULL_HOUSE
    _dots(image, y + 3, x + 3, shown)


def _dots(image: np.ndarray, top: int, left: int, count: int) -> None:
    for k in range(count):
        row, col = divmod(k, DOTS_PER_ROW)
        y, x = top + row * (DOT + 2), left + col * (DOT + 2)
        image[y:y + DOT, x:x + DOT] = SEED
