"""Games of one's own: ``Game(rules=TOML)`` plays a game description
(docs/rules-format.md), refuses a bad one with its field, and pickles across processes."""

import json
import pickle
import subprocess
import sys

import pytest

import mancala_rs

# Oware without the duty to feed an opponent who has no seeds.
NO_FEEDING = """
format = 1
key = "oware-no-feeding"
name = "Oware without feeding"

[board]
houses = 6
seeds = 4

[sowing]
skip_origin = true

[[capture]]
kind = "count"
counts = [2, 3]
run = true

[end]
majority = true
empty = "mover-cannot-move"
leftover = "own-row-unless-decided"
repetition = true
"""

def test_a_description_is_played_by_its_own_rules():
    own = mancala_rs.Game(rules=NO_FEEDING)
    assert own.variant == "oware-no-feeding"
    assert (own.houses_per_side, own.legal_moves()) == (6, [1, 2, 3, 4, 5, 6])
    # North has no seeds: in Oware South must feed them, and only house 6 reaches
    # North's row; without feeding house 5 is legal too.
    oware = mancala_rs.Game.from_notation("oware 6x4 0,0,0,0,1,1/23 0,0,0,0,0,0/23 1")
    assert oware.legal_moves() == [6]
    notation = oware.notation.replace("oware", "oware-no-feeding", 1)
    assert mancala_rs.Game.from_notation(notation).legal_moves() == [5, 6]


def test_a_shipped_games_description_is_that_game():
    oware = mancala_rs.Game("oware")
    text = NO_FEEDING.replace('key = "oware-no-feeding"', 'key = "oware"')
    assert mancala_rs.Game(rules=text).variant == "oware"
    assert mancala_rs.Game(rules=text, seeds=3).notation != oware.notation


def test_a_bad_description_is_refused_with_its_field():
    with pytest.raises(ValueError, match=r"rules: board\.seeds"):
        mancala_rs.Game(rules=NO_FEEDING.replace("seeds = 4", 'seeds = "four"'))
    with pytest.raises(ValueError, match="not both"):
        mancala_rs.Game("oware", rules=NO_FEEDING)
    with pytest.raises(ValueError, match="written in it"):
        mancala_rs.Game(rules=NO_FEEDING, empty_capture=True)


def test_a_game_of_ones_own_unpickles_in_a_fresh_process():
    game = mancala_rs.Game(rules=NO_FEEDING)
    for house in [3, 1, 4]:
        game.play(house)
    batch = mancala_rs.VectorGame(3, rules=NO_FEEDING, seed=1)
    batch.step(batch.random_actions())
    data = pickle.dumps((game, batch))
    script = (
        "import json, pickle, sys\n"
        "game, batch = pickle.loads(sys.stdin.buffer.read())\n"
        "print(json.dumps([game.variant, game.moves, game.legal_moves(), len(batch)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], input=data, capture_output=True, check=True
    ).stdout.decode()
    assert json.loads(out) == ["oware-no-feeding", game.moves, game.legal_moves(), 3]
