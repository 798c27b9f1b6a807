"""A PettingZoo AEC environment: both players are agents.

    from mancala_rs.pettingzoo import env

    e = env(variant="oware")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_1`` (moves first) and ``player_2``. Each observation is a dict:
``"observation"``, (2H+2,) int32 from that agent's side (its houses, the opponent's,
its store, the opponent's), and ``"action_mask"``, (H,) int8. Action ``a`` sows house
``a + 1``. In Kalah a player whose last seed lands in its store moves again, so the
same agent may be selected twice in a row. Rewards: 1 to the winner, -1 to the loser,
0 to both for a draw, when the game ends. An illegal action raises ValueError in the
actions' numbers ("action 2 (house 3) is illegal: house 3 is empty"). Render modes:
None, "ansi", "human" (printed at every reset and step) and "rgb_array" (a picture, player 1's
row below). The environment pickles (the game by its record).
"""

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces
import gymnasium
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mancala_rs._core import Game
from mancala_rs._render import board_image
from mancala_rs._spaces import (
    action_mask,
    house_of,
    observation,
    observation_size,
    total_seeds,
)

AGENTS = ["player_1", "player_2"]


def env(**kwargs: Any) -> AECEnv:
    """The environment (``raw_env``) wrapped to enforce PettingZoo's call order."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's convention)
    """Any variant of the suite between two agents; the keyword arguments are
    ``Game``'s (variant, houses, seeds, rules and the rule options) and ``render_mode``
    ("ansi", "human" or "rgb_array")."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "mancala_rs_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, render_mode: Optional[str] = None, **rules: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._rules = rules
        self.game = Game(**rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n = self.game.houses_per_side
        high = total_seeds(self.game)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, high, shape=(observation_size(self.game),), dtype=np.int32),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        player = AGENTS.index(agent) + 1
        return {
            "observation": observation(self.game, player),
            "action_mask": action_mask(self.game, player),
        }

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        # The game has no randomness of its own: the seed is accepted for the API.
        self.game = Game(**self._rules)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._play(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_over():
            winner = self.game.result[0]
            for i, a in enumerate(AGENTS):
                if winner is not None:
                    self.rewards[a] = 1.0 if winner == i + 1 else -1.0
            self.terminations = {a: True for a in self.agents}
        else:
            # Kalah's extra move: the mover may be selected again.
            self.agent_selection = AGENTS[self.game.to_move - 1]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _play(self, action: Any) -> None:
        """Plays ``action`` (house ``action + 1``), its refusal in the actions' numbers:
        the agent chose action 2, so "house 3 is empty" alone would not say which."""
        house = house_of(action)
        try:
            self.game.play(house)
        except ValueError as e:
            n = self.game.houses_per_side
            if 1 <= house <= n:
                raise ValueError(f"action {house - 1} (house {house}) is illegal: {e}") from None
            raise ValueError(f"there is no action {house - 1} (actions are 0 to {n - 1})") from None

    def render(self) -> Union[str, np.ndarray, None]:
        """As the render mode says: None without one (with a warning), the board as text
        ("ansi"), printed ("human", returns None) or as a picture ("rgb_array")."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                'render() without a render mode: give one, e.g. env(render_mode="ansi")')
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.game, 1)
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


__all__ = ["AGENTS", "env", "raw_env"]
