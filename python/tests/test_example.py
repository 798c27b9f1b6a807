"""The training example of docs/python.md (python/examples/tabular_q.py) learns."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "tabular_q.py"


def load_example():
    spec = importlib.util.spec_from_file_location("tabular_q", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tabular_q_learning_beats_random_play_against_the_random_opponent():
    example = load_example()
    q = example.train(episodes=3000)
    rng = np.random.default_rng(1)

    def greedy(obs, info):
        legal = np.flatnonzero(info["action_mask"])
        return int(legal[np.argmax(q[tuple(obs)][legal])])

    def random_policy(obs, info):
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    learned, baseline = example.win_rate(greedy, 500), example.win_rate(random_policy, 500)
    assert learned > baseline + 0.1, (learned, baseline)
