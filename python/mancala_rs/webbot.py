"""A Python turn function at a seat of a web game (``mancala serve``, docs/api.md).

    from mancala_rs import webbot
    seat = webbot.create("http://127.0.0.1:8080", variant="oware", opponent="medium")
    view = webbot.play(seat, choose)        # choose(game) -> house, until the game ends
    print(view["result"])

``create`` starts a game (against a computer player, or ``opponent="human"`` for a
friend, who joins with ``seat.invite``); ``join`` takes seat 2 of a game by its invite
(or of a public one); ``play`` plays a seat with a turn function, the same functions
``python -m mancala_rs.engine`` plays: each turn it gets a :class:`mancala_rs.Game` of
the whole game from its start (so the repetition rule sees the history) and returns a
house, 1..H in the mover's sowing order. Only the standard library's HTTP client is
used. The server's errors are :class:`WebError` with its message and status; a move
refused for being illegal among them.
"""

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional

from mancala_rs._core import Game

TurnFunction = Callable[[Game], int]


class WebError(RuntimeError):
    """An error answer of the server: ``status`` (404, 409, 422, ...) and its message."""

    def __init__(self, status: int, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Seat:
    """A seat at a web game: the server, the game, the seat number and its token (and,
    for a game against a friend created here, the invite secret to pass on)."""

    base: str
    game_id: str
    seat: int
    token: str
    invite: Optional[str] = None


def _call(base: str, method: str, path: str, body: Any = None,
          token: Optional[str] = None, attempts: int = 5) -> Dict[str, Any]:
    """One request to ``base + /api + path``; JSON in and out. A 429 (too many
    requests) is waited out as its ``Retry-After`` says, a few times."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    url = base.rstrip("/") + "/api" + path
    for attempt in range(attempts):
        request = urllib.request.Request(url, method=method, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as e:
            if e.code == 429 and attempt + 1 < attempts:
                time.sleep(float(e.headers.get("Retry-After") or 1))
                continue
            try:
                message = json.load(e).get("error", e.reason)
            except ValueError:
                message = str(e.reason)
            raise WebError(e.code, message) from None
    raise AssertionError("unreachable")


def create(base: str, variant: str = "kalah", opponent: str = "medium",
           **settings: Any) -> Seat:
    """Creates a game on the server at ``base`` (``http://HOST:PORT``) and takes seat 1.
    ``settings`` are the other fields of ``POST /api/games`` (``houses``, ``seeds``,
    the game's rule options, ``name``, ``first``, ``public``, ...)."""
    body = {"variant": variant, "opponent": opponent, **settings}
    answer = _call(base, "POST", "/games", body)
    return Seat(base, answer["id"], answer["seat"], answer["token"], answer.get("invite"))


def join(base: str, game_id: str, invite: Optional[str] = None,
         name: Optional[str] = None) -> Seat:
    """Takes seat 2 of a game against a friend, with its invite secret (none for a
    public game)."""
    body: Dict[str, Any] = {}
    if invite is not None:
        body["invite"] = invite
    if name is not None:
        body["name"] = name
    answer = _call(base, "POST", f"/games/{game_id}/join", body)
    return Seat(base, game_id, answer["seat"], answer["token"])


def view(seat: Seat) -> Dict[str, Any]:
    """The game as the server shows it (``GET /api/games/{id}``)."""
    return _call(seat.base, "GET", f"/games/{seat.game_id}")


def game_of(view: Dict[str, Any]) -> Game:
    """A :class:`Game` of a game view: its rules, the seat that moved first, and its
    moves replayed from the start."""
    rules = dict(view["rules"])
    # Besides the board, a view's rules are the game's options, under the keyword
    # arguments Game takes.
    start = Game(view["variant"], houses=rules.pop("houses"), seeds=rules.pop("seeds"), **rules)
    if view.get("first", 1) != 1:
        fields = start.notation.split(" ")
        start = Game.from_notation(" ".join(fields[:-1] + [str(view["first"])]))
    for house in view["moves"]:
        start.play(house)
    return start


def play(seat: Seat, choose: TurnFunction, poll: float = 0.2,
         timeout: Optional[float] = None) -> Dict[str, Any]:
    """Plays ``seat`` with ``choose(game) -> house`` until the game is over; returns the
    last view (``view["result"]``, ``view["end"]``). Between its turns it reads the game
    every ``poll`` seconds. Raises :class:`WebError` for the server's refusals (an
    illegal house among them) and ``TimeoutError`` after ``timeout`` seconds."""
    deadline = None if timeout is None else time.monotonic() + timeout
    current = view(seat)
    while not current["over"]:
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"game {seat.game_id} is not over after {timeout} s")
        if not current["started"] or current["to_move"] != seat.seat:
            time.sleep(poll)
            current = view(seat)
            continue
        house = int(choose(game_of(current)))
        body = {"house": house, "ply": current["ply"]}
        try:
            current = _call(seat.base, "POST", f"/games/{seat.game_id}/moves", body,
                            seat.token)
        except WebError as e:
            if e.status != 409:
                raise
            # The game moved on meanwhile (a takeback, a clock, a resignation): read
            # it again and carry on from there.
            current = view(seat)
    return current
