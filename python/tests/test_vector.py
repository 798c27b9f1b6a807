import numpy as np
import pytest

import mancala_rs


def observation_of(game):
    me = game.to_move
    rows, stores = game.houses, game.stores
    return rows[me - 1] + rows[2 - me] + [stores[me - 1], stores[2 - me]]


@pytest.mark.parametrize("variant", ["kalah", "oware", "oware-simplified"])
def test_vector_games_agree_with_games_move_by_move_and_reset(variant):
    n = 8
    vec = mancala_rs.VectorGame(n, variant=variant, houses=4, seeds=3, seed=7)
    games = [mancala_rs.Game(variant, houses=4, seeds=3) for _ in range(n)]
    finished = 0
    for _ in range(400):
        obs, mask, to_move = vec.observations(), vec.legal_mask(), vec.to_move()
        assert obs.shape == (n, 10) and obs.dtype == np.int32
        assert mask.shape == (n, 4) and mask.dtype == np.bool_
        assert (vec.legal_bits() == mask @ (1 << np.arange(4))).all()
        for i, game in enumerate(games):
            assert obs[i].tolist() == observation_of(game)
            assert [h + 1 for h in np.flatnonzero(mask[i])] == game.legal_moves()
            assert to_move[i] == game.to_move
        actions = vec.random_actions()
        movers = [g.to_move for g in games]
        rewards, done = vec.step(actions)
        winners, scores = vec.last_results()
        for i, game in enumerate(games):
            game.play(int(actions[i]))
            assert done[i] == game.is_over()
            if game.is_over():
                finished += 1
                winner, final = game.result
                assert winners[i] == (winner or 0) and scores[i].tolist() == final
                assert rewards[i] == (0 if winner is None else (1 if winner == movers[i] else -1))
                games[i] = mancala_rs.Game(variant, houses=4, seeds=3)
            else:
                assert rewards[i] == 0 and winners[i] == -1
    assert finished > 10  # the loop went through whole games and their resets


def test_an_illegal_action_plays_nothing():
    vec = mancala_rs.VectorGame(3)
    vec.step([3, 1, 1])
    before = vec.observations()
    with pytest.raises(ValueError, match=r"^game 0: house 3 is empty$"):
        vec.step(np.array([3, 2, 2]))
    with pytest.raises(ValueError, match=r"^game 2: there is no house 0"):
        vec.step([1, 2, 0])
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        vec.step([1, 2])
    assert (vec.observations() == before).all()


def test_random_actions_repeat_for_a_seed_and_are_legal():
    a, b = mancala_rs.VectorGame(64, seed=3), mancala_rs.VectorGame(64, seed=3)
    for _ in range(50):
        xa, xb = a.random_actions(), b.random_actions()
        assert (xa == xb).all()
        mask = a.legal_mask()
        assert mask[np.arange(64), xa - 1].all()
        a.step(xa)
        b.step(xb)


def test_game_copy_and_reset():
    vec = mancala_rs.VectorGame(2, variant="oware")
    vec.step([1, 2])
    game = mancala_rs.Game("oware")
    game.play(2)
    assert vec.game(1).notation == game.notation and vec.game(1).moves == []
    with pytest.raises(IndexError):
        vec.game(2)
    vec.reset()
    assert vec.game(1).notation == mancala_rs.Game("oware").notation
    assert len(vec) == 2 and vec.num_houses == 6
    with pytest.raises(ValueError):
        mancala_rs.VectorGame(0)


@pytest.mark.parametrize("variant,houses", [("togyzkumalak", 9), ("kalah", 12), ("oware", 8)])
def test_masks_and_bits_of_boards_up_to_and_past_eight_houses(variant, houses):
    vec = mancala_rs.VectorGame(16, variant=variant, houses=houses, seeds=3, seed=2)
    games = [mancala_rs.Game(variant, houses=houses, seeds=3) for _ in range(16)]
    for _ in range(60):
        mask, bits = vec.legal_mask(), vec.legal_bits()
        assert mask.shape == (16, houses)
        for i, game in enumerate(games):
            legal = [h + 1 for h in np.flatnonzero(mask[i])]
            assert legal == game.legal_moves()
            assert int(bits[i]) == sum(1 << (h - 1) for h in legal)
        actions = vec.random_actions()
        _, done = vec.step(actions)
        for i, game in enumerate(games):
            game.play(int(actions[i]))
            if done[i]:
                games[i] = mancala_rs.Game(variant, houses=houses, seeds=3)
