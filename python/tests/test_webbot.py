"""`mancala_rs.webbot`: Python turn functions play seats of games on a real
`mancala serve` on loopback."""

import threading

import pytest

import mancala_rs
from mancala_rs import webbot


def recording(choose):
    """``choose`` that also keeps the houses it returned, and checks the game it is
    given is one where it is to move."""
    chosen = []

    def turn(game):
        assert not game.is_over()
        house = choose(game)
        chosen.append(house)
        return house
    turn.chosen = chosen
    return turn


def test_a_function_plays_a_whole_game_against_the_computer(server):
    seat = webbot.create(server, variant="kalah", opponent="greedy", name="Py")
    turn = recording(lambda game: game.legal_moves()[-1])
    final = webbot.play(seat, turn, poll=0.05, timeout=120)
    assert final["over"] and final["result"] is not None
    mine = [m["house"] for m in final["history"] if m["seat"] == 1]
    assert mine == turn.chosen and len(mine) > 3
    # The game replayed here ends as the server says it did.
    game = webbot.game_of(final)
    winner, scores = game.result
    assert scores == final["result"]["scores"] and winner == final["result"]["winner"]


def test_oware_with_the_computer_moving_first(server):
    seat = webbot.create(server, variant="oware", opponent="random", first=2)
    turn = recording(lambda game: game.legal_moves()[0])
    final = webbot.play(seat, turn, poll=0.05, timeout=120)
    assert final["over"] and final["first"] == 2
    assert final["history"][0]["seat"] == 2
    assert [m["house"] for m in final["history"] if m["seat"] == 1] == turn.chosen


def test_two_functions_play_a_game_against_a_friend(server):
    host = webbot.create(server, variant="kalah", opponent="human", houses=4, seeds=3,
                         empty_capture=True, end_rule="either-side-empty")
    guest = webbot.join(server, host.game_id, invite=host.invite, name="Guest")
    assert guest.seat == 2
    results = {}

    def run(seat, choose):
        results[seat.seat] = webbot.play(seat, choose, poll=0.02, timeout=120)
    threads = [threading.Thread(target=run, args=(host, lambda g: g.legal_moves()[0])),
               threading.Thread(target=run, args=(guest, lambda g: g.legal_moves()[-1]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    assert results[1]["over"] and results[2]["over"]
    # The same game, played here move by move with the two policies, ends alike.
    game = mancala_rs.Game("kalah", houses=4, seeds=3, empty_capture=True,
                           end_rule="either-side-empty")
    while not game.is_over():
        moves = game.legal_moves()
        game.play(moves[0] if game.to_move == 1 else moves[-1])
    assert game.moves == results[1]["moves"]
    assert list(game.result[1]) == results[1]["result"]["scores"]


def test_an_illegal_house_is_the_servers_error(server):
    seat = webbot.create(server, variant="kalah", opponent="greedy")
    with pytest.raises(webbot.WebError) as error:
        webbot.play(seat, lambda game: 9, timeout=60)
    assert error.value.status == 422
    assert "no house 9" in error.value.message
    with pytest.raises(webbot.WebError) as error:
        webbot.view(webbot.Seat(server, "no-such-game", 1, "x"))
    assert error.value.status == 404
