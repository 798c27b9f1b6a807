"""Gymnasium environments: one player against a built-in opponent.

Importing this module registers one environment a game of the catalogue (``VARIANTS``),
named by the game's display name (``env_name``): ``mancala_rs/Kalah-v0``,
``mancala_rs/Oware-v0``, ``mancala_rs/SimplifiedOware-v0``,
``mancala_rs/TogyzKumalak-v0``, ``mancala_rs/Ayoayo-v0``, ``mancala_rs/MangalaTurkey-v0``
and so on, and ``mancala_rs/OwareSimplified-v0`` (the earlier id of
``SimplifiedOware-v0``)::

    import gymnasium
    import mancala_rs.gymnasium  # noqa: F401 (registers the environments)

    env = gymnasium.make("mancala_rs/Kalah-v0", opponent="greedy")
    obs, info = env.reset(seed=1)
    action = int(np.flatnonzero(info["action_mask"])[0])   # house action + 1
    obs, reward, terminated, truncated, info = env.step(action)

Actions are 0..H-1 (action ``a`` sows house ``a + 1``); ``info["action_mask"]`` and
``action_masks()`` (for maskable algorithms such as sb3-contrib's MaskablePPO) mark the
legal ones. Observations are from the agent's side (see ``observation``). The reward is
1 for a win, -1 for a loss, 0 for a draw, given when the game ends; an illegal action
ends the episode at once with reward -1 and ``info["illegal_move"]``; what is not a
whole number is refused (ValueError, TypeError) rather than truncated.

Render modes: None (``render()`` returns None), "ansi" (the board as text), "human"
(the board printed at every reset and step) and "rgb_array" (a small picture of the
board, uint8 (height, width, 3)). An environment pickles (the game by its record, the
opponent by its spec and seed: an unpickled opponent starts afresh).
"""

import re
from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from mancala_rs._core import VARIANTS, Game, Player, variant_info
from mancala_rs._render import board_image
from mancala_rs._spaces import (
    action_mask,
    house_of,
    observation,
    observation_size,
    total_seeds,
)


class MancalaEnv(gymnasium.Env):
    """One game a episode against ``opponent`` (any computer player spec: "random",
    "greedy", "expert", ...). ``agent_player`` is 1 (moves first), 2, or None to take
    a seat at random each episode. Render modes: "ansi" (the board as text), "human"
    (printed at every reset and step) and "rgb_array" (a picture, the agent's row
    below)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        variant: str = "kalah",
        houses: Optional[int] = None,
        seeds: Optional[int] = None,
        opponent: str = "random",
        agent_player: Optional[int] = 1,
        render_mode: Optional[str] = None,
        **options: Any,
    ):
        if agent_player not in (1, 2, None):
            raise ValueError(f"agent_player must be 1, 2 or None, not {agent_player!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._rules = dict(variant=variant, houses=houses, seeds=seeds, **options)
        self.game = Game(**self._rules)
        Player(opponent)  # refuses an unknown spec now, not at the first move
        self.opponent_spec = opponent
        self.agent_player = agent_player
        self.render_mode = render_mode
        n = self.game.houses_per_side
        self.observation_space = spaces.Box(
            0, total_seeds(self.game), shape=(observation_size(self.game),), dtype=np.int32)
        self.action_space = spaces.Discrete(n)
        self._opponent = Player(opponent)
        self._me = 1

    def _info(self, **extra: Any) -> Dict[str, Any]:
        return {"action_mask": action_mask(self.game, self._me), **extra}

    def _reward(self) -> float:
        winner = self.game.result[0]
        return 0.0 if winner is None else (1.0 if winner == self._me else -1.0)

    def _opponent_moves(self) -> None:
        while not self.game.is_over() and self.game.to_move != self._me:
            self.game.play(self._opponent.choose(self.game))

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(**self._rules)
        self._me = self.agent_player or int(self.np_random.integers(1, 3))
        # The opponent's randomness follows the episode's seed, so a seeded reset
        # replays the same episode for the same actions.
        self._opponent = Player(self.opponent_spec, seed=int(self.np_random.integers(2**63)))
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return observation(self.game, self._me), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        house = house_of(action)
        if house not in self.game.legal_moves():
            obs = observation(self.game, self._me)
            return obs, -1.0, True, False, self._info(illegal_move=True)
        self.game.play(house)
        self._opponent_moves()
        over = self.game.is_over()
        reward = self._reward() if over else 0.0
        if self.render_mode == "human":
            self.render()
        return observation(self.game, self._me), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """(H,) bool: the legal actions now, as maskable algorithms (sb3-contrib's
        MaskablePPO) ask for them; ``info["action_mask"]`` as bools."""
        return action_mask(self.game, self._me).astype(bool)

    def render(self) -> Union[str, np.ndarray, None]:
        """As the render mode says: None without one (as Gymnasium's environments,
        with a warning), the board as text ("ansi"), printed ("human", returns None)
        or as a picture ("rgb_array")."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() without a render mode: give one to gymnasium.make, e.g. "
                'render_mode="ansi"')
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.game, self._me)
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env_name(variant: str) -> str:
    """The environment's name for a variant: the words of its display name, each
    capitalised, without spaces or punctuation, which an environment id cannot hold
    ("Kalah", "SimplifiedOware", "TogyzKumalak", "MangalaTurkey" for "Mangala
    (Turkey)")."""
    words = re.findall(r"\w+", variant_info(variant)["name"])
    return "".join(w[:1].upper() + w[1:] for w in words)


def register() -> None:
    """Registers ``mancala_rs/<Name>-v0`` for every variant (``Kalah-v0``,
    ``Ayoayo-v0``, ...; already done on import),
    and ``OwareSimplified-v0``, the earlier name of ``SimplifiedOware-v0``."""
    names = [(env_name(v), v) for v in VARIANTS] + [("OwareSimplified", "oware-simplified")]
    for name, variant in names:
        env_id = f"mancala_rs/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mancala_rs.gymnasium:MancalaEnv",
                kwargs={"variant": variant},
            )


register()

__all__ = ["MancalaEnv", "register"]
