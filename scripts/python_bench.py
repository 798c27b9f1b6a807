#!/usr/bin/env python3
"""Steps a second of random self-play: OpenSpiel's Python loop against mancala_rs.

    scripts/python-bench.sh [--n 1024] [--seconds 3] [--min-ratio 50]

OpenSpiel: one game at a time, ``state.apply_action(random.choice(state.legal_actions()))``
until the game ends, then a new game (its Kalah is ``mancala``, Kalah(6,4) ending as
soon as either row is empty; its Oware is Oware(6,4)). mancala_rs: ``VectorGame(n)``
with the same rules, ``step`` playing a random legal move in every game (resetting the
games that end), the moves drawn in numpy from ``legal_mask()`` by two policies:
"argmax" (a uniform number per house, the illegal ones masked out, the arg-max) and
"lookup" (see ``lookup_policy``), and a third from ``legal_bits()`` ("bits", see
``bits_policy``). A step is one move in one game. Also shown: a Python
loop over one ``mancala_rs.Game``, and ``VectorGame`` with the moves drawn in Rust
(``random_actions()``). Exits with status 1 if the lookup policy's ratio is below
``--min-ratio``.
"""

import argparse
import math
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


def lookup_policy(houses):
    """A random legal move per game in two numpy operations: the legal houses as bits
    (``legal_mask() @ 2**h``), then a table row for those bits at a uniform random
    column. Row ``bits`` holds the legal houses repeated over lcm(1..H) columns, so a
    uniform column is a uniform legal house."""
    width = math.lcm(*range(1, houses + 1))
    table = np.zeros((1 << houses, width), dtype=np.int64)
    for bits in range(1, 1 << houses):
        legal = [h + 1 for h in range(houses) if bits >> h & 1]
        table[bits] = [legal[c % len(legal)] for c in range(width)]
    weights = 1 << np.arange(houses)

    def policy(mask, rng):
        return table[mask @ weights, rng.integers(0, width, len(mask))]
    return policy


def bits_policy(houses):
    """A random legal move per game from ``legal_bits()``: the lookup policy's table
    flattened, read at ``bits * width + column`` for a uniform random column, one
    ``take`` and no product (the bits come from Rust, not from ``mask @ 2**h``)."""
    width = math.lcm(*range(1, houses + 1))
    table = np.zeros((1 << houses, width), dtype=np.int64)
    for bits in range(1, 1 << houses):
        legal = [h + 1 for h in range(houses) if bits >> h & 1]
        table[bits] = [legal[c % len(legal)] for c in range(width)]
    flat = table.ravel()

    def policy(bits, rng):
        return flat.take(bits * width + rng.integers(0, width, len(bits)))
    return policy


def vector_bits(rules, n, seconds):
    vec = mancala_rs.VectorGame(n, **rules)
    rng = np.random.default_rng(1)
    policy = bits_policy(vec.num_houses)

    def batch():
        for _ in range(100):
            vec.step(policy(vec.legal_bits(), rng))
        return 100 * n
    return timed(batch, seconds)


def vector_lookup(rules, n, seconds):
    vec = mancala_rs.VectorGame(n, **rules)
    rng = np.random.default_rng(1)
    policy = lookup_policy(vec.num_houses)

    def batch():
        for _ in range(100):
            vec.step(policy(vec.legal_mask(), rng))
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
    print(f"{'rules':6} {'OpenSpiel':>10} {'Game':>10} {'V+argmax':>11} {'V+lookup':>11} "
          f"{'V+bits':>11} {'V+Rust':>11} {'argmax':>7} {'lookup':>7} {'bits':>7}")
    for label, (spiel_name, rules) in RULES.items():
        theirs = openspiel_loop(spiel_name, args.seconds)
        single = game_loop(rules, args.seconds)
        argmax = vector_numpy(rules, args.n, args.seconds)
        lookup = vector_lookup(rules, args.n, args.seconds)
        bits = vector_bits(rules, args.n, args.seconds)
        rust = vector_rust(rules, args.n, args.seconds)
        ok &= lookup / theirs >= args.min_ratio
        print(f"{label:6} {theirs:10,.0f} {single:10,.0f} {argmax:11,.0f} {lookup:11,.0f} "
              f"{bits:11,.0f} {rust:11,.0f} {argmax / theirs:6.1f}x {lookup / theirs:6.1f}x "
              f"{bits / theirs:6.1f}x")
    print(f"steps a second; VectorGame n={args.n}; the ratios are to OpenSpiel's loop; "
          f"at least {args.min_ratio:g}x wanted with the lookup policy: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
