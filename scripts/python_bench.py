#!/usr/bin/env python3
"""Steps a second of random self-play: OpenSpiel's Python loop against mancala_rs.

    scripts/python-bench.sh [--n 1024] [--seconds 3] [--min-ratio 50]

OpenSpiel: one game at a time, ``state.apply_action(random.choice(state.legal_actions()))``
until the game ends, then a new game (its Kalah is ``mancala``, Kalah(6,4) ending as
soon as either row is empty; its Oware is Oware(6,4)). mancala_rs: ``VectorGame(n)``
with the same rules, the random legal moves drawn in numpy from ``legal_mask()``
(a uniform draw per game, masked, arg-max), ``step`` playing them and resetting the
games that end. A step is one move in one game. Also shown: ``VectorGame`` with moves
drawn in Rust (``random_actions()``) and a Python loop over one ``mancala_rs.Game``.
Exits with status 1 if a numpy-policy ratio is below ``--min-ratio``.
"""

import argparse
import random
import sys
import time

import numpy as np

import mancala_rs

RULES = {
    "kalah": ("mancala", dict(variant="kalah", end_rule="either-side-empty")),
    "oware": ("oware", dict(variant="oware")),
}


def timed(run, seconds):
    """Steps a second of ``run(steps_so_far) -> steps`` called until ``seconds`` pass."""
    steps, start = 0, time.perf_counter()
    while True:
        steps += run()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def openspiel_loop(name, seconds):
    import pyspiel
    game = pyspiel.load_game(name)
    rng = random.Random(1)

    def one_game():
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps
    return timed(one_game, seconds)


def game_loop(rules, seconds):
    rng = random.Random(1)

    def one_game():
        game = mancala_rs.Game(**rules)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        return game.ply
    return timed(one_game, seconds)


def vector_numpy(rules, n, seconds):
    vec = mancala_rs.VectorGame(n, **rules)
    rng = np.random.default_rng(1)

    def batch():
        for _ in range(100):
            mask = vec.legal_mask()
            draw = np.where(mask, rng.random(mask.shape), -1.0)
            vec.step(draw.argmax(axis=1) + 1)
        return 100 * n
    return timed(batch, seconds)


def vector_rust(rules, n, seconds):
    vec = mancala_rs.VectorGame(n, seed=1, **rules)

    def batch():
        for _ in range(100):
            vec.step(vec.random_actions())
        return 100 * n
    return timed(batch, seconds)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1024, help="games in the VectorGame")
    p.add_argument("--seconds", type=float, default=3.0, help="time for each measurement")
    p.add_argument("--min-ratio", type=float, default=50.0)
    args = p.parse_args()
    ok = True
    print(f"{'rules':8} {'OpenSpiel loop':>15} {'Game loop':>12} "
          f"{'Vector+numpy':>14} {'Vector+Rust':>13} {'ratio':>7}   (steps a second)")
    for label, (spiel_name, rules) in RULES.items():
        theirs = openspiel_loop(spiel_name, args.seconds)
        single = game_loop(rules, args.seconds)
        numpy_policy = vector_numpy(rules, args.n, args.seconds)
        rust_policy = vector_rust(rules, args.n, args.seconds)
        ratio = numpy_policy / theirs
        ok &= ratio >= args.min_ratio
        print(f"{label:8} {theirs:15,.0f} {single:12,.0f} {numpy_policy:14,.0f} "
              f"{rust_policy:13,.0f} {ratio:6.0f}x")
    print(f"VectorGame n={args.n}; ratio = Vector+numpy / OpenSpiel loop "
          f"(at least {args.min_ratio:g}x wanted): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
