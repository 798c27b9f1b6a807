"""Random games agree with OpenSpiel's Kalah (its `mancala`, which ends as soon as
either row is empty: our `either-side-empty` end rule) and Oware, position by position
and in the result. scripts/test.sh installs open-spiel into its virtual environment;
without it the tests are skipped, except under CI=true where they fail."""

import random

import pytest

import mancala_rs
from conftest import require

GAMES = 100


@pytest.fixture(scope="module")
def pyspiel():
    try:
        import pyspiel
    except ImportError:
        require("open-spiel", "pip install open-spiel")
    return pyspiel


def kalah_board(state):
    b = [int(x) for x in state.observation_tensor(0)[:14]]
    # Pits 1..6 are player 1's, 7 its store, 8..13 player 2's, 0 its store.
    return (b[1:7], b[8:14]), [b[7], b[0]]


def oware_board(game, state):
    params = game.get_parameters()
    h = params["num_houses_per_player"]
    total = 2 * h * params["num_seeds_per_house"]
    v = [round(x * total) for x in state.observation_tensor(0)]
    return (v[:h], v[h:2 * h]), [v[2 * h], v[2 * h + 1]]


def house_of(name, state, action):
    """The house (1..H, the mover's sowing order) of an OpenSpiel action."""
    if name == "kalah":
        # Actions are pits: 1..6 for player 1, 8..13 for player 2.
        return action if state.current_player() == 0 else action - 7
    return action + 1


def play_both(pyspiel, name, seed):
    """One random game in OpenSpiel and in mancala_rs, checked at every ply."""
    if name == "kalah":
        theirs = pyspiel.load_game("mancala")
        ours = mancala_rs.Game("kalah", end_rule="either-side-empty")
    else:
        theirs = pyspiel.load_game("oware(num_houses_per_player=6,num_seeds_per_house=4)")
        ours = mancala_rs.Game("oware")
    state = theirs.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        rows, stores = kalah_board(state) if name == "kalah" else oware_board(theirs, state)
        assert (list(ours.houses), ours.stores) == (list(rows), stores), \
            f"{name} game {seed} at ply {ours.ply}"
        assert ours.to_move == state.current_player() + 1
        legal = state.legal_actions()
        assert ours.legal_moves() == sorted(house_of(name, state, a) for a in legal)
        action = rng.choice(legal)
        house = house_of(name, state, action)
        state.apply_action(action)
        ours.play(house)
    assert ours.is_over(), f"{name} game {seed}: OpenSpiel ended it at ply {ours.ply}"
    margin = state.returns()[0]
    winner = ours.result[0]
    assert winner == (None if margin == 0 else (1 if margin > 0 else 2))
    return ours.ply


@pytest.mark.parametrize("name", ["kalah", "oware"])
def test_random_games_agree_with_openspiel(pyspiel, name):
    plies = sum(play_both(pyspiel, name, seed) for seed in range(GAMES))
    assert plies > GAMES * 20
