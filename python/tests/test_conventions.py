"""Gymnasium's and PettingZoo's conventions as research code relies on them: render
modes, action masks for maskable algorithms, actions in the environment's numbers; and
batch observations laid out as the environments' are."""

import io
from contextlib import redirect_stdout

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mancala_rs
import mancala_rs.gymnasium
from mancala_rs._spaces import observation
from mancala_rs.pettingzoo import env as aec_env

IDS = ["Kalah-v0", "Oware-v0", "SimplifiedOware-v0", "OwareSimplified-v0", "TogyzKumalak-v0"]


def test_every_game_of_the_catalogue_is_registered_and_the_docstring_names_real_ids():
    registered = sorted(k for k in gymnasium.registry if k.startswith("mancala_rs/"))
    names = [mancala_rs.gymnasium.env_name(v) for v in mancala_rs.VARIANTS]
    assert registered == sorted(f"mancala_rs/{n}-v0" for n in names + ["OwareSimplified"])
    for env_id in IDS + ["Ayoayo-v0", "MangalaTurkey-v0"]:
        assert f"``mancala_rs/{env_id}``" in mancala_rs.gymnasium.__doc__
        assert f"mancala_rs/{env_id}" in registered


@pytest.mark.parametrize("render_mode", ["ansi", "human", "rgb_array"])
def test_check_env_passes_in_every_render_mode(render_mode):
    env = gymnasium.make("mancala_rs/TogyzKumalak-v0", render_mode=render_mode)
    with redirect_stdout(io.StringIO()):
        check_env(env.unwrapped, skip_render_check=False)


def test_without_a_render_mode_render_returns_none():
    env = gymnasium.make("mancala_rs/Kalah-v0")
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render mode"):
        assert env.unwrapped.render() is None


def test_human_mode_prints_the_board_on_reset_and_on_every_step():
    env = gymnasium.make("mancala_rs/Kalah-v0", render_mode="human", opponent="greedy")
    out = io.StringIO()
    with redirect_stdout(out):
        env.reset(seed=0)
    assert out.getvalue() == str(env.unwrapped.game) + "\n"
    with redirect_stdout(out):
        env.step(0)
    assert out.getvalue().endswith(str(env.unwrapped.game) + "\n")
    assert out.getvalue().count("\n") > 2 * str(env.unwrapped.game).count("\n")


def test_rgb_array_draws_the_board():
    env = gymnasium.make("mancala_rs/Kalah-v0", render_mode="rgb_array", houses=4)
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[1] == (4 + 2) * mancala_rs._render.CELL
    # A house of 4 seeds shows 4 seed dots: count the seed colour in one house.
    seed = np.all(image == mancala_rs._render.SEED, axis=2)
    house_1 = seed[40:72, 32:64]
    assert house_1.sum() == 4 * mancala_rs._render.DOT ** 2
    env.step(0)  # house 1 is sown: its dots are gone
    seed = np.all(env.render() == mancala_rs._render.SEED, axis=2)
    assert seed[40:72, 32:64].sum() == 0


def test_a_tuzdyk_is_framed_in_the_picture():
    game = mancala_rs.Game.from_notation("togyzkumalak 3x3 1,0,1/6 2,x,1/7 2")
    from mancala_rs._render import CLAIMED, board_image
    image = board_image(game, 1)
    assert np.all(image == CLAIMED, axis=2).any()
    assert not np.all(board_image(mancala_rs.Game("togyzkumalak"), 1) == CLAIMED, axis=2).any()


def test_action_masks_for_maskable_algorithms():
    env = gymnasium.make("mancala_rs/Kalah-v0")
    _, info = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and (masks == info["action_mask"].astype(bool)).all()
    env.step(2)  # an extra move: house 3 is now empty
    assert env.unwrapped.action_masks().tolist() == [True, True, False, True, True, True]


def test_gymnasium_refuses_a_fractional_action_rather_than_truncating_it():
    env = gymnasium.make("mancala_rs/Kalah-v0")
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^an action must be a whole number, not 1\.9$"):
        env.unwrapped.step(1.9)
    obs, reward, *_ = env.unwrapped.step(np.float32(2.0))  # whole: action 2
    assert env.unwrapped.game.moves[0] == 3


def test_pettingzoo_names_an_illegal_action_by_its_number():
    env = aec_env(variant="kalah")
    env.reset(seed=0)
    env.step(2)  # house 3: the last seed in the store, the same player again
    with pytest.raises(ValueError, match=r"^action 2 \(house 3\) is illegal: house 3 is empty$"):
        env.step(2)
    with pytest.raises(ValueError, match=r"^there is no action 6 \(actions are 0 to 5\)$"):
        env.step(6)


@pytest.mark.parametrize("render_mode", [None, "ansi", "human", "rgb_array"])
def test_pettingzoo_render_modes(render_mode):
    env = aec_env(variant="oware", render_mode=render_mode)
    out = io.StringIO()
    with redirect_stdout(out):
        env.reset(seed=0)
        env.step(0)
    if render_mode == "human":
        assert out.getvalue().count("to move") == 2  # once on reset, once on the step
    elif render_mode is None:
        with pytest.warns(UserWarning, match="without a render mode"):
            assert env.render() is None
    elif render_mode == "ansi":
        assert env.render() == str(env.unwrapped.game)
    else:
        assert env.render().dtype == np.uint8


@pytest.mark.parametrize("variant", mancala_rs.VARIANTS)
def test_batch_observations_are_the_environments(variant):
    vec = mancala_rs.VectorGame(16, variant=variant, seed=4)
    env = gymnasium.make(f"mancala_rs/{mancala_rs.gymnasium.env_name(variant)}-v0")
    for _ in range(120):
        vec.step(vec.random_actions())
    obs = vec.observations()
    assert obs.shape == (16,) + env.observation_space.shape
    for i in range(16):
        game = vec.game(i)
        assert obs[i].tolist() == observation(game, game.to_move).tolist()
        assert env.observation_space.contains(obs[i])


def test_togyz_kumalak_batches_carry_the_tuzdyks():
    vec = mancala_rs.VectorGame(256, variant="togyzkumalak", seed=1)
    seen = False
    for _ in range(200):
        vec.step(vec.random_actions())
        obs = vec.observations()
        assert obs.shape == (256, 22)
        seen = seen or (obs[:, -2:] > 0).any()
    assert seen  # random games claim tuzdyks, and the batch shows them
