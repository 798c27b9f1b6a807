import pytest

import mancala_rs


@pytest.mark.parametrize("spec", ["random", "random:seed=4", "greedy", "robot", "easy",
                                  "medium", "expert", "alphabeta:depth=4", "mcts:sims=200",
                                  "fewest", "most"])
def test_best_move_is_legal_for_every_kind_of_player(spec):
    game = mancala_rs.Game()
    game.play(3)
    assert mancala_rs.best_move(game, spec) in game.legal_moves()


def test_best_move_with_the_robot_from_the_start():
    # The robot sows a house whose last seed lands in the store first: house 3.
    assert mancala_rs.best_move(mancala_rs.Game(), "robot") == 3


def test_oware_players():
    game = mancala_rs.Game("oware")
    assert mancala_rs.best_move(game, "expert") in game.legal_moves()
    with pytest.raises(ValueError, match="robot"):
        mancala_rs.best_move(game, "robot")


def test_bad_specs_and_finished_games_are_refused():
    with pytest.raises(ValueError, match="unknown player"):
        mancala_rs.best_move(mancala_rs.Game(), "grandmaster")
    with pytest.raises(ValueError, match="person"):
        mancala_rs.best_move(mancala_rs.Game(), "human")
    with pytest.raises(ValueError, match="unknown player"):
        mancala_rs.Player("grandmaster")
    game = mancala_rs.Game("oware-simplified", houses=1, seeds=4)
    for _ in range(3):
        game.play(1)
    with pytest.raises(ValueError, match="the game is over"):
        mancala_rs.best_move(game, "greedy")


def test_a_player_plays_a_whole_game_against_another():
    players = {1: mancala_rs.Player("greedy"), 2: mancala_rs.Player("random", seed=5)}
    game = mancala_rs.Game("kalah", houses=4, seeds=3)
    while not game.is_over():
        game.play(players[game.to_move].choose(game))
    assert sum(game.result[1]) == 24
    assert players[1].spec == "greedy"


def test_random_players_repeat_for_a_seed():
    def moves(seed):
        p = mancala_rs.Player("random", seed=seed)
        game = mancala_rs.Game()
        while not game.is_over():
            game.play(p.choose(game))
        return game.moves
    assert moves(1) == moves(1)


def test_solve_gives_every_moves_value_and_the_best():
    game = mancala_rs.Game("kalah", houses=3, seeds=2)
    s = mancala_rs.solve(game)
    assert set(s["move_values"]) == set(game.legal_moves())
    assert s["value"] == max(s["move_values"].values())
    assert s["best_moves"] and all(s["move_values"][m] == s["value"] for m in s["best_moves"])
    # The value is the margin perfect play reaches: playing a best move and solving
    # again gives the same value (to player 1) when player 1 moves again, or its
    # value as player 2 sees it otherwise.
    game.play(s["best_moves"][0])
    if not game.is_over():
        assert mancala_rs.solve(game)["value"] == s["value"]


def test_solve_oware_and_the_perfect_player_agree():
    game = mancala_rs.Game("oware", houses=3, seeds=2)
    s = mancala_rs.solve(game)
    assert mancala_rs.best_move(game, "perfect") in s["best_moves"]


def test_solve_refuses_simplified_oware():
    with pytest.raises(ValueError, match="does not handle"):
        mancala_rs.solve(mancala_rs.Game("oware-simplified", houses=3, seeds=2))


def test_player_names():
    assert "robot" in mancala_rs.player_names("kalah")
    assert "robot" not in mancala_rs.player_names("oware")
