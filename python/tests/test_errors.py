"""Bad arguments are refused in the library's own words, naming the value given:
ValueError for a number out of range or not whole, IndexError for a game that is not
in a batch, TypeError for what is not a number at all. Never an OverflowError from a
conversion, never a float silently truncated."""

import math

import numpy as np
import pytest

import mancala_rs


def test_game_play_takes_whole_floats_and_refuses_the_others():
    game = mancala_rs.Game()
    game.play(3.0)
    game.play(np.float64(1.0))
    game.play(np.int32(2))
    game.play(np.array(4))
    assert game.moves == [3, 1, 2, 4]
    before = game.notation
    with pytest.raises(ValueError, match=r"^a house must be a whole number, not 1\.9$"):
        game.play(1.9)
    with pytest.raises(ValueError, match=r"^a house must be a whole number, not nan$"):
        game.play(math.nan)
    with pytest.raises(ValueError, match=r"^a house must be a whole number, not inf$"):
        game.play(np.inf)
    with pytest.raises(TypeError, match=r"^a house must be a whole number, not True$"):
        game.play(True)
    with pytest.raises(TypeError, match=r"^a house must be a whole number, not '3' \(str\)$"):
        game.play("3")
    with pytest.raises(ValueError, match=r"^there is no house 7 \(houses are 1 to 6\)$"):
        game.play(7.0)
    with pytest.raises(ValueError, match=r"^there is no house -1 "):
        game.play(-1)
    assert game.notation == before


def test_vector_step_refuses_floats_with_a_fraction_and_nan():
    vec = mancala_rs.VectorGame(4)
    before = vec.observations()
    with pytest.raises(ValueError, match=r"^game 0: a house must be a whole number, not 1\.9$"):
        vec.step(np.full(4, 1.9))
    with pytest.raises(ValueError, match=r"^game 2: a house must be a whole number, not nan$"):
        vec.step(np.array([1.0, 2.0, np.nan, 3.0]))
    with pytest.raises(TypeError, match=r"^actions must be whole numbers \(houses\), not an array of bool$"):
        vec.step(np.ones(4, dtype=bool))
    with pytest.raises(TypeError, match="not an array of <U1"):
        vec.step(["1", "2", "3", "4"])
    with pytest.raises(ValueError, match=r"^actions must be one house for each game, shape \(4,\), not \[2, 2\]$"):
        vec.step(np.ones((2, 2), dtype=np.int64))
    with pytest.raises(ValueError, match=r"^game 0: there is no house 9223372036854775807 "):
        vec.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    with pytest.raises(ValueError, match="^3 actions for 4 games$"):
        vec.step(np.ones(3, dtype=np.int64))
    assert (vec.observations() == before).all()


def test_vector_step_takes_whole_floats_and_every_integer_type():
    for actions in ([1, 2, 3, 4], np.full(4, 3.0), np.arange(1, 5, dtype=np.uint8),
                    np.arange(1, 5, dtype=np.int32), np.repeat(np.arange(1, 5), 2)[::2]):
        vec, ref = mancala_rs.VectorGame(4), mancala_rs.VectorGame(4)
        vec.step(actions)
        ref.step(np.asarray(actions, dtype=np.int64))
        assert (vec.observations() == ref.observations()).all()


def test_a_board_out_of_range_is_named_as_given():
    with pytest.raises(ValueError, match=r"^houses per side must be between 1 and \d+, not -1$"):
        mancala_rs.Game("kalah", houses=-1)
    with pytest.raises(ValueError, match=r"^houses per side must be between 1 and \d+, not 300$"):
        mancala_rs.Game("kalah", houses=300)
    with pytest.raises(ValueError, match=r"^seeds per house must be between 1 and \d+, not -4$"):
        mancala_rs.VectorGame(2, seeds=-4)


def test_negative_counts_seeds_and_times_are_value_errors():
    with pytest.raises(ValueError, match="^the number of games must be at least 1, not -5$"):
        mancala_rs.VectorGame(-5)
    with pytest.raises(ValueError, match="^the number of games must be at least 1, not 0$"):
        mancala_rs.VectorGame(0)
    seed_message = r"^seed must be a whole number from 0 to 18446744073709551615, not -1$"
    with pytest.raises(ValueError, match=seed_message):
        mancala_rs.best_move(mancala_rs.Game(), "random", seed=-1)
    with pytest.raises(ValueError, match=seed_message):
        mancala_rs.Player("random", seed=-1)
    with pytest.raises(ValueError, match=seed_message):
        mancala_rs.VectorGame(2, seed=-1)
    assert mancala_rs.best_move(mancala_rs.Game(), "random", seed=2**64 - 1) in range(1, 7)
    game = mancala_rs.Game("kalah", houses=3, seeds=2)
    with pytest.raises(ValueError, match=r"^seconds must be a number of seconds, 0 or more, not -1\.0$"):
        mancala_rs.solve(game, seconds=-1)
    with pytest.raises(ValueError, match=r"^seconds must be a number of seconds, 0 or more, not nan$"):
        mancala_rs.solve(game, seconds=math.nan)
    with pytest.raises(ValueError, match="^table_mb must be at least 1, not -3$"):
        mancala_rs.solve(game, table_mb=-3)
    with pytest.raises(ValueError, match=r"^seconds must be a number of seconds, 0 or more, not -2\.0$"):
        mancala_rs.Player("greedy").prepare(game, seconds=-2)


def test_a_batch_is_indexed_as_a_list():
    vec = mancala_rs.VectorGame(4)
    vec.step([1, 2, 3, 4])
    assert vec.game(-1).notation == vec.game(3).notation
    assert vec.game(-4).notation == vec.game(0).notation
    with pytest.raises(IndexError, match=r"^no game -5: the batch has games 0 to 3$"):
        vec.game(-5)
    with pytest.raises(IndexError, match=r"^no game 4: the batch has games 0 to 3$"):
        vec.game(4)
