import copy

import pytest

import mancala_rs
from conftest import random_game


def test_kalah_start_and_extra_move():
    game = mancala_rs.Game()
    assert game.variant == "kalah"
    assert game.houses == ([4] * 6, [4] * 6)
    assert game.stores == [0, 0]
    assert game.to_move == 1
    assert game.legal_moves() == [1, 2, 3, 4, 5, 6]
    game.play(3)  # four seeds from house 3: the last lands in the store
    assert game.to_move == 1
    assert game.houses == ([4, 4, 0, 5, 5, 5], [4] * 6)
    assert game.stores == [1, 0]
    game.play(6)
    assert game.to_move == 2
    assert game.moves == [3, 6]


def test_illegal_moves_raise_the_rules_message_and_change_nothing():
    game = mancala_rs.Game()
    game.play(3)
    before = game.notation
    with pytest.raises(ValueError, match="^house 3 is empty$"):
        game.play(3)
    with pytest.raises(ValueError, match=r"^there is no house 7 \(houses are 1 to 6\)$"):
        game.play(7)
    with pytest.raises(ValueError, match=r"^there is no house -2 \(houses are 1 to 6\)$"):
        game.play(-2)
    assert game.notation == before and game.moves == [3]


def test_oware_must_feed_message():
    game = mancala_rs.Game.from_notation("oware 3x2 1,0,1/5 0,0,0/5 1")
    # Player 1 must give player 2 seeds: only house 3 (the last) reaches them.
    assert game.legal_moves() == [3]
    with pytest.raises(ValueError, match="does not give the opponent any seeds"):
        game.play(1)


def test_rule_options_are_checked_with_the_sessions_messages():
    assert mancala_rs.Game("kalah", empty_capture=True).rules == "kalah(6,4) empty-capture"
    assert mancala_rs.Game("kalah", end_rule="either-side-empty").rules == \
        "kalah(6,4) either-side-empty"
    with pytest.raises(ValueError, match="^oware takes no rule options; end-rule is a Kalah option$"):
        mancala_rs.Game("oware", end_rule="either-side-empty")
    # The options are keyword arguments made from the games' lists of options: a
    # keyword of no option is Python's own TypeError, a wrong value the rules' words.
    with pytest.raises(TypeError, match="unexpected keyword argument 'sowing'"):
        mancala_rs.Game("kalah", sowing="clockwise")
    with pytest.raises(ValueError, match="empty_capture must be True or False"):
        mancala_rs.Game("kalah", empty_capture="yes")
    with pytest.raises(ValueError, match='unknown end-rule "never" \\(expected mover-cannot-move'):
        mancala_rs.Game("kalah", end_rule="never")
    assert mancala_rs.Game("kalah", empty_capture=None).rules == "kalah(6,4)"
    batch = mancala_rs.VectorGame(2, "kalah", empty_capture=True)
    assert batch.num_houses == 6
    with pytest.raises(TypeError, match="unexpected keyword argument 'sowing'"):
        mancala_rs.VectorGame(2, "kalah", sowing=1)
    with pytest.raises(ValueError, match="unknown variant"):
        mancala_rs.Game("chess")
    with pytest.raises(ValueError, match="houses per side must be between 1 and 16, not 17"):
        mancala_rs.Game(houses=17)
    with pytest.raises(ValueError, match="not 300"):
        mancala_rs.Game(houses=300)


def test_a_whole_game_ends_with_a_result_that_adds_up():
    game = mancala_rs.Game()
    for house in random_game("kalah", seed=3):
        assert game.result is None and game.end_reason is None
        game.play(house)
    assert game.is_over() and game.to_move is None and game.legal_moves() == []
    winner, scores = game.result
    assert sum(scores) == 48
    assert winner == (None if scores[0] == scores[1] else (1 if scores[0] > scores[1] else 2))
    assert game.end_reason == "no-seeds"
    with pytest.raises(ValueError, match="^the game is over$"):
        game.play(1)


def test_simplified_oware_ends_on_a_repeated_position():
    game = mancala_rs.Game("oware-simplified", houses=1, seeds=4)
    for _ in range(3):
        game.play(1)
    assert game.is_over()
    assert game.end_reason == "repetition"
    assert game.result == (None, [0, 0])


def test_notation_both_ways():
    game = mancala_rs.Game("oware")
    game.play(6)
    text = game.notation
    assert text == "oware 6x4 4,4,4,4,4,0/0 5,5,5,5,4,4/0 2"
    back = mancala_rs.Game.from_notation(text)
    assert back.houses == game.houses and back.to_move == 2
    assert back.start_notation == text and back.moves == []
    with pytest.raises(ValueError):
        mancala_rs.Game.from_notation("oware 6x4 nonsense")


def test_records_written_and_read_back():
    game = mancala_rs.Game()
    for house in random_game("kalah", seed=11):
        game.play(house)
    text = game.to_record(names=("Ann", "Bob"))
    assert '[Player1 "Ann"]' in text and '[Player2 "Bob"]' in text
    back = mancala_rs.Game.from_record(text)
    assert back == game and back.result == game.result
    both = mancala_rs.write_records([game, mancala_rs.Game("oware")])
    games = mancala_rs.read_records(both)
    assert [g.variant for g in games] == ["kalah", "oware"]
    assert games[0].moves == game.moves
    # A bare list of houses, read with the rules given.
    assert mancala_rs.read_records("3 6 6 1", variant="kalah")[0].moves == [3, 6, 6, 1]
    with pytest.raises(ValueError, match="holds 2 games"):
        mancala_rs.Game.from_record(both)
    with pytest.raises(ValueError):
        mancala_rs.read_records("3 3")  # house 3 is empty the second time


def test_copies_are_independent():
    game = mancala_rs.Game()
    game.play(1)
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert other == game
        other.play(2)
        assert other != game and game.moves == [1]


def test_undo():
    game = mancala_rs.Game()
    game.play(3)
    assert game.undo() and game.moves == [] and game.houses == ([4] * 6, [4] * 6)
    assert not game.undo()


def test_str_shows_the_board():
    text = str(mancala_rs.Game())
    assert "player 1 to move" in text


def test_togyz_kumalak_standard_board_tuzdyk_and_record():
    game = mancala_rs.Game("togyzkumalak")
    assert game.houses == ([9] * 9, [9] * 9)
    assert game.claimed == (None, None)
    # House 9's nine seeds: one back into it, eight onto player 2's houses 1-8; the
    # last makes house 8 hold 10, an even count: captured.
    game.play(9)
    assert game.stores == [10, 0]
    # A tuzdyk from a position: player 1's last seed makes player 2's house 2 hold 3.
    # House 3's three seeds: one back into it, then player 2's houses 1 and 2.
    game = mancala_rs.Game.from_notation("togyzkumalak 3x3 1,0,3/3 1,2,1/7 1")
    game.play(3)
    assert game.claimed == (2, None)
    assert game.notation == "togyzkumalak 3x3 1,0,1/6 2,x,1/7 2"
    again = mancala_rs.Game.from_record(game.to_record())
    assert again.notation == game.notation and again.claimed == (2, None)
    assert mancala_rs.Game("kalah").claimed == (None, None)


def test_variant_info_describes_every_variant():
    infos = [mancala_rs.variant_info(v) for v in mancala_rs.VARIANTS]
    assert [i["key"] for i in infos] == mancala_rs.VARIANTS
    togyz = mancala_rs.variant_info("togyzkumalak")
    assert (togyz["name"], togyz["default_houses"], togyz["claims"]) == ("Togyz Kumalak", 9, True)
    assert (togyz["claim_word"], mancala_rs.variant_info("kalah")["claim_word"]) == ("tuzdyk", "")
    assert mancala_rs.variant_info("kalah")["options"] == ["empty-capture", "end-rule"]
    with pytest.raises(ValueError, match="unknown variant"):
        mancala_rs.variant_info("chess")
