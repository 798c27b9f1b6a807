import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import mancala_rs
import mancala_rs.gymnasium  # noqa: F401 (registers the environments)
from mancala_rs.pettingzoo import env as aec_env

IDS = [
    "mancala_rs/Kalah-v0",
    "mancala_rs/Oware-v0",
    "mancala_rs/SimplifiedOware-v0",
    "mancala_rs/OwareSimplified-v0",
    "mancala_rs/TogyzKumalak-v0",
    # Played by the description engine: relay sowing; clockwise sowing.
    "mancala_rs/Ayoayo-v0",
    "mancala_rs/Woli-v0",
]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env(env_id):
    env = gymnasium.make(env_id, opponent="greedy")
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("agent_player", [1, 2, None])
def test_gymnasium_episodes_against_the_opponent(agent_player):
    env = gymnasium.make("mancala_rs/Kalah-v0", opponent="random", agent_player=agent_player,
                         render_mode="ansi")
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        terminated = False
        while not terminated:
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated and env.observation_space.contains(obs)
        game = env.unwrapped.game
        winner = game.result[0]
        me = env.unwrapped._me
        assert reward == (0 if winner is None else (1 if winner == me else -1))
        assert "game over" in env.render()


def test_gymnasium_illegal_action_loses():
    env = gymnasium.make("mancala_rs/Kalah-v0")
    env.reset(seed=1)
    env.step(2)  # house 3: an extra move, so house 3 is empty on the agent's turn
    obs, reward, terminated, _, info = env.step(2)
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)


def test_gymnasium_refuses_unknown_opponents():
    with pytest.raises(ValueError, match="unknown player"):
        gymnasium.make("mancala_rs/Oware-v0", opponent="grandmaster")


@pytest.mark.parametrize("variant", mancala_rs.VARIANTS)
def test_pettingzoo_api_test(variant):
    api_test(aec_env(variant=variant), num_cycles=500)


def test_pettingzoo_game_follows_the_rules():
    env = aec_env(variant="kalah")
    env.reset(seed=0)
    game = mancala_rs.Game()
    rng = np.random.default_rng(1)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert agent == f"player_{game.to_move}"
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        game.play(action + 1)
        assert env.unwrapped.game.notation == game.notation
    winner = game.result[0]
    expected = {f"player_{p}": 0 if winner is None else (1 if winner == p else -1)
                for p in (1, 2)}
    assert final == expected


def test_togyz_kumalak_observation_carries_the_tuzdyks():
    env = gymnasium.make("mancala_rs/TogyzKumalak-v0", opponent="random")
    obs, _ = env.reset(seed=1)
    assert env.observation_space.shape == (2 * 9 + 2 + 2,)
    assert obs.shape == (22,) and list(obs[-2:]) == [0, 0]
    game = mancala_rs.Game.from_notation("togyzkumalak 3x3 1,0,1/6 2,x,1/7 2")
    from mancala_rs._spaces import observation
    # Player 2's side: its houses, player 1's, stores, then the tuzdyk it owns (none)
    # and player 1's (house 2 of player 2's row).
    assert list(observation(game, 2)) == [2, 0, 1, 1, 0, 1, 7, 6, 0, 2]
