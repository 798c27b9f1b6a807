"""Everything a replay buffer, multiprocessing or Ray sends between processes pickles:
games (by their record; they hash as they compare), batches, players, environments."""

import copy
import pickle

import gymnasium
import numpy as np
import pytest

import mancala_rs
import mancala_rs.gymnasium  # noqa: F401 (registers the environments)
from conftest import random_game
from mancala_rs.pettingzoo import env as aec_env

PROTOCOLS = range(2, pickle.HIGHEST_PROTOCOL + 1)


def round_trip(obj, protocol=pickle.HIGHEST_PROTOCOL):
    return pickle.loads(pickle.dumps(obj, protocol=protocol))


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("variant", mancala_rs.VARIANTS)
def test_a_game_pickles_to_an_equal_game(variant, protocol):
    game = mancala_rs.Game(variant)
    for house in random_game(variant, seed=5)[:30]:
        game.play(house)
    again = round_trip(game, protocol)
    assert again == game and hash(again) == hash(game)
    assert (again.notation, again.moves, again.start_notation) == \
        (game.notation, game.moves, game.start_notation)
    assert again.legal_moves() == game.legal_moves()


def test_a_game_keeps_its_rule_options_and_start_through_pickle():
    game = mancala_rs.Game("kalah", houses=4, seeds=3, empty_capture=True,
                           end_rule="either-side-empty")
    game.play(2)
    assert round_trip(game).rules == game.rules == \
        "kalah(4,3) empty-capture either-side-empty"
    custom = mancala_rs.Game.from_notation("oware 6x4 4,4,4,4,4,0/0 5,5,5,5,4,4/0 2")
    custom.play(1)
    assert round_trip(custom) == custom


def test_an_unpickled_game_keeps_the_repetition_history():
    # Simplified Oware on one house of 4 seeds: the third move brings back a position
    # seen before the second, which an unpickled game must remember.
    game = mancala_rs.Game("oware-simplified", houses=1, seeds=4)
    game.play(1)
    game.play(1)
    again = round_trip(game)
    again.play(1)
    assert again.end_reason == "repetition"


def test_games_hash_as_they_compare():
    a, b = mancala_rs.Game(), mancala_rs.Game()
    a.play(3)
    b.play(3)
    assert a == b and hash(a) == hash(b)
    table = {a: "seen"}
    assert table[b] == "seen"
    b.play(1)
    assert a != b and b not in table
    assert len({mancala_rs.Game(), mancala_rs.Game(), copy.deepcopy(a), a}) == 2


@pytest.mark.parametrize("variant", ["kalah", "oware", "togyzkumalak"])
def test_a_batch_pickles_and_goes_on_as_the_original(variant):
    vec = mancala_rs.VectorGame(64, variant=variant, seed=3)
    for _ in range(150):  # through ends and restarts, into long Oware runs
        vec.step(vec.random_actions())
    again = round_trip(vec)
    assert len(again) == 64 and again.num_houses == vec.num_houses
    assert (again.observations() == vec.observations()).all()
    assert all((a == b).all() for a, b in zip(again.last_results(), vec.last_results()))
    for _ in range(300):
        actions = vec.random_actions()
        assert (again.random_actions() == actions).all()
        assert all((a == b).all() for a, b in zip(again.step(actions), vec.step(actions)))
    assert (again.observations() == vec.observations()).all()
    assert all((a == b).all() for a, b in zip(again.last_results(), vec.last_results()))


def test_a_batch_keeps_the_repetition_history_through_pickle():
    # As for a Game: the third move repeats a position seen before the pickle.
    vec = mancala_rs.VectorGame(2, variant="oware-simplified", houses=1, seeds=4)
    vec.step([1, 1])
    vec.step([1, 1])
    rewards, done = round_trip(vec).step([1, 1])
    assert done.tolist() == [True, True] and rewards.tolist() == [0, 0]


def test_a_player_pickles_by_its_spec_and_seed():
    player = mancala_rs.Player("random", seed=9)
    again = round_trip(player)
    assert (again.spec, repr(again)) == (player.spec, repr(player))
    game = mancala_rs.Game()
    assert again.choose(game) == mancala_rs.Player("random", seed=9).choose(game)
    assert round_trip(mancala_rs.Player("alphabeta:depth=3")).spec == "alphabeta:depth=3"


def test_a_gymnasium_environment_pickles_mid_episode():
    env = gymnasium.make("mancala_rs/Oware-v0", opponent="greedy")
    obs, info = env.reset(seed=2)
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    again = round_trip(env)
    assert (again.unwrapped.game == env.unwrapped.game)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
        a, b = env.step(action), again.step(action)
        assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
        done = a[2]


def test_a_pettingzoo_environment_pickles_mid_game():
    env = aec_env(variant="kalah")
    env.reset(seed=0)
    env.step(0)
    again = round_trip(env)
    assert again.unwrapped.game == env.unwrapped.game
    assert again.agent_selection == env.agent_selection
    again.step(int(np.flatnonzero(again.observe(again.agent_selection)["action_mask"])[0]))
