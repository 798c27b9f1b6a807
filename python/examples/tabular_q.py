"""Tabular Q-learning on Kalah(3,3) against a random opponent, with the Gymnasium
environment: no deep-learning library, a dict for the table.

    python python/examples/tabular_q.py [episodes]

Prints the win rate of the greedy learned policy against the random opponent, and
the win rate of a random policy for comparison.
"""

import sys
from collections import defaultdict
from typing import Any, Callable, DefaultDict, Dict, Tuple

import gymnasium
import numpy as np
import numpy.typing as npt

import mancala_rs.gymnasium  # noqa: F401 (registers mancala_rs/Kalah-v0)


Table = DefaultDict[Tuple[int, ...], npt.NDArray[np.float64]]
Policy = Callable[[npt.NDArray[np.int32], Dict[str, Any]], int]


def make_env() -> gymnasium.Env[npt.NDArray[np.int32], int]:
    return gymnasium.make("mancala_rs/Kalah-v0", houses=3, seeds=3, opponent="random")


def train(episodes: int, alpha: float = 0.2, gamma: float = 1.0, epsilon: float = 0.1,
          seed: int = 0) -> Table:
    env, rng = make_env(), np.random.default_rng(seed)
    actions = env.action_space
    assert isinstance(actions, gymnasium.spaces.Discrete)
    q: Table = defaultdict(lambda: np.zeros(int(actions.n)))
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            state, legal = tuple(obs), np.flatnonzero(info["action_mask"])
            if rng.random() < epsilon:
                action = int(rng.choice(legal))
            else:
                action = int(legal[np.argmax(q[state][legal])])
            obs, reward, done, _, info = env.step(action)
            legal_next = np.flatnonzero(info["action_mask"])
            future = 0.0 if done else q[tuple(obs)][legal_next].max()
            target = float(reward) + gamma * future
            q[state][action] += alpha * (target - q[state][action])
    return q


def win_rate(policy: Policy, games: int = 1000, seed: int = 10_000) -> float:
    env, wins = make_env(), 0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(policy(obs, info))
        wins += float(reward) > 0
    return wins / games


def main() -> None:
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    q = train(episodes)
    rng = np.random.default_rng(1)

    def greedy(obs: npt.NDArray[np.int32], info: Dict[str, Any]) -> int:
        legal = np.flatnonzero(info["action_mask"])
        return int(legal[np.argmax(q[tuple(obs)][legal])])

    def random_policy(obs: npt.NDArray[np.int32], info: Dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    print(f"after {episodes} episodes: learned {win_rate(greedy):.1%}, "
          f"random {win_rate(random_policy):.1%} of games won against random")


if __name__ == "__main__":
    main()
