"""Type stubs of the native module (Rust, PyO3)."""

from typing import Any, Dict, List, Optional, Sequence, SupportsFloat, SupportsIndex, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Game",
    "Player",
    "VectorGame",
    "best_move",
    "solve",
    "player_names",
    "read_records",
    "write_records",
    "variant_info",
    "__version__",
    "VARIANTS",
]

__version__: str
"""The package's version (that of its crate)."""

VARIANTS: List[str]
"""The variants' keys: "kalah", "oware", "oware-simplified", "togyzkumalak"."""

def variant_info(variant: str) -> Dict[str, Any]:
    """What a variant is: its key, display name, rules text, standard board
    (default_houses, default_seeds), limits, rule options, and whether it has stores,
    extra turns, a repetition rule and claimed houses (``claims``, and ``claim_word``,
    what the game calls one, or "")."""

@final
class Game:
    """A game of any shipped game (``VARIANTS``) or of a game description of one's own
    (``rules``): the start position, the moves played and the position they lead to,
    with the repetition rule. The board is the game's standard one unless ``houses``
    and ``seeds`` are given.

    Houses are numbered 1..H in the mover's sowing order; player 1 moves first."""

    def __new__(
        cls,
        variant: str = "kalah",
        houses: Optional[int] = None,
        seeds: Optional[int] = None,
        rules: Optional[str] = None,
        **options: Union[bool, str, None],
    ) -> "Game":
        """A new game from the rules' start position. ``options`` are the game's rule
        options, each under its key with ``_`` for ``-`` as ``variant_info(KEY)``
        lists them: a switch True or False, any other option one of its values
        (Kalah: ``empty_capture=True``, ``end_rule="either-side-empty"``); a keyword
        of no option is a TypeError. ``rules`` is a game description in TOML
        (docs/rules-format.md; ``mancala variants show KEY`` prints one), given
        instead of ``variant`` and its options. ValueError for a bad board, a refused
        description (with its field and why), or an option the game does not take."""
    @staticmethod
    def from_notation(notation: str) -> "Game":
        """A game starting from a position in the one-line notation."""
    @staticmethod
    def from_record(text: str, variant: str = "kalah", houses: Optional[int] = None, seeds: Optional[int] = None) -> "Game":
        """The game of a record holding exactly one game; the rules given are for text
        without tags."""
    @property
    def variant(self) -> str:
        """The variant's key, one of ``VARIANTS``."""
    @property
    def rules(self) -> str:
        """The rules in words, e.g. "kalah(6,4) either-side-empty"."""
    @property
    def houses_per_side(self) -> int:
        """Houses per side."""
    @property
    def notation(self) -> str:
        """The current position in the one-line notation."""
    @property
    def start_notation(self) -> str:
        """The start position in the one-line notation."""
    @property
    def moves(self) -> List[int]:
        """The houses played so far."""
    def legal_moves(self) -> List[int]:
        """The legal houses (1..H) of the player to move; empty once over."""
    def play(self, house: Union[SupportsIndex, SupportsFloat]) -> None:
        """Sow ``house`` (an int, or a float that is a whole number); ValueError with the
        rules' reason if illegal or not whole, TypeError if not a number (nothing changes)."""
    def undo(self) -> bool:
        """Take back the last move; False if none was played."""
    @property
    def claimed(self) -> Tuple[Optional[int], Optional[int]]:
        """In a game whose captures claim houses: the house of player 2's row player 1
        has claimed (as player 2 numbers it) or None, then player 2's; (None, None) in
        games without claims."""
    @property
    def houses(self) -> Tuple[List[int], List[int]]:
        """Seeds in each house: player 1's row, then player 2's, each in sowing order."""
    @property
    def stores(self) -> List[int]:
        """The stores (Oware: seeds captured) of players 1 and 2."""
    @property
    def to_move(self) -> Optional[int]:
        """1 or 2; None once the game is over."""
    def is_over(self) -> bool:
        """Whether the game has ended."""
    @property
    def result(self) -> Optional[Tuple[Optional[int], List[int]]]:
        """None while the game goes on, then (winner 1, 2 or None for a draw, [score 1,
        score 2]) with the seeds swept at the end."""
    @property
    def end_reason(self) -> Optional[str]:
        """Why the game ended, e.g. "no-seeds", "majority", "repetition"; None while it goes on."""
    @property
    def ply(self) -> int:
        """Plies played."""
    def copy(self) -> "Game":
        """An independent copy."""
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int:
        """Consistent with ``==``; it changes as moves are played."""
    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickles by the record: the start position and the moves."""
    def __setstate__(self, state: Tuple[str, List[int], str]) -> None: ...
    def to_record(self, names: Optional[Tuple[str, str]] = None) -> str:
        """The game as a game record (docs/records.md)."""

@final
class Player:
    """A computer player from a spec ("expert", "greedy", "random:seed=3",
    "alphabeta:ms=200", "ext:COMMAND", ...), keeping its state (and an external
    engine's process) between moves."""

    def __new__(cls, spec: str = "expert", seed: int = 0) -> "Player": ...
    @property
    def spec(self) -> str:
        """The spec as the engine writes it."""
    def choose(self, game: Game) -> int:
        """The house this player sows in ``game`` (the GIL released while it thinks);
        ValueError for a finished game, RuntimeError if an external engine fails."""
    def prepare(self, game: Game, seconds: float = 60.0) -> bool:
        """Wait up to ``seconds`` for what the player builds in the background; whether ready."""
    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickles by the spec and seed (an unpickled player starts afresh)."""

@final
class VectorGame:
    """``n`` games of one rule set stepped together with numpy arrays; a game that ends
    in a step is reported by that step, then starts again."""

    def __new__(
        cls,
        n: int,
        variant: str = "kalah",
        houses: Optional[int] = None,
        seeds: Optional[int] = None,
        seed: int = 0,
        rules: Optional[str] = None,
        **options: Union[bool, str, None],
    ) -> "VectorGame":
        """``rules`` is a game description in TOML, given instead of ``variant``;
        ``options`` are the rule options, as ``Game`` takes them."""
    def __len__(self) -> int: ...
    @property
    def num_houses(self) -> int:
        """Houses per side: actions are 1..num_houses."""
    def reset(self) -> None:
        """Start every game again."""
    def observations(self) -> npt.NDArray[np.int32]:
        """(n, 2H+2): the mover's houses, the opponent's, the mover's store, the
        opponent's; in a game whose captures claim houses (n, 2H+4), then the two
        claimed houses (the environments' layout)."""
    def to_move(self) -> npt.NDArray[np.int8]:
        """The player to move in each game, 1 or 2."""
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(n, H): whether each house is legal in each game."""
    def legal_bits(self) -> npt.NDArray[np.int64]:
        """(n,): each game's legal houses as bits, house h as bit h - 1."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal house for each game (seeded by ``seed``)."""
    def step(
        self, actions: "npt.ArrayLike"
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Sow one house (1..H) in every game: (rewards for the movers, terminations).
        Integers, or floats that are whole numbers; ValueError, playing nothing, if any
        action is illegal or not whole."""
    def last_results(self) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """(winners: 1, 2, 0 for a draw, -1 not ended; (n, 2) final scores) of the last step."""
    def game(self, i: int) -> Game:
        """Game ``i`` (negative counts from the end) as a ``Game`` starting from its
        current position (no history); IndexError for no such game."""
    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickles by the settings and each game's record (reseeds the random actions,
        so that original and copy draw the same from then on)."""
    def __setstate__(self, state: Tuple[Any, ...]) -> None: ...

def best_move(game: Game, player: str = "expert", seed: int = 0) -> int:
    """The house the computer player ``player`` (any spec ``mancala match`` takes,
    "ext:COMMAND" included) sows in ``game`` (GIL released)."""

def solve(
    game: Game, seconds: Optional[float] = None, table_mb: int = 256, force: bool = False
) -> Dict[str, Any]:
    """The exact value under perfect play: {"value", "best_moves", "move_values",
    "nodes", "seconds"}; TimeoutError when ``seconds`` run out (GIL released)."""

def player_names(variant: str = "kalah") -> List[str]:
    """The computer players that play ``variant``."""

def read_records(text: str, variant: str = "kalah", houses: Optional[int] = None, seeds: Optional[int] = None) -> List[Game]:
    """Every game of a text of game records."""

def write_records(games: Sequence[Game]) -> str:
    """Games written as one text of records."""
