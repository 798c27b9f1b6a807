#!/usr/bin/env python3
"""OpenSpiel's MCTS bot behind the mancala engine line protocol (docs/engine-protocol.md).

Run by scripts/openspiel-match.sh (which installs open-spiel into a virtual
environment); on its own:

    python3 scripts/openspiel_engine.py [--sims 100000] [--seed 1]
    python3 scripts/openspiel_engine.py --check 200 --mancala target/release/mancala

The bot is pyspiel.MCTSBot (C++) with a RandomRolloutEvaluator (one random playout a
leaf), UCT constant 2 and MCTS-solver on: it thinks for the `go ms` budget, or for
`--sims` simulations whatever the budget (pyspiel's bot cannot stop at whichever
comes first: with a wall-clock limit it ignores its simulation count). OpenSpiel's `mancala` is Kalah(6,4) ending as
soon as either row is empty (`--end-rule either-side-empty`; the suite's default waits
until the player to move cannot move); its `oware` is Oware(H,S). Other rules (other
Kalah sizes or options, simplified Oware) are answered with `error`. `--check N` plays N random games in OpenSpiel and
compares every position with `mancala replay`, to show that both implement the same
rules.
"""

import argparse
import random
import subprocess
import sys
import json

import pyspiel


def openspiel_game(notation):
    """The OpenSpiel game for a start position in the position notation, or an error."""
    fields = notation.split()
    variant, size = fields[0], fields[1]
    houses, seeds = (int(x) for x in size.split("x"))
    start_row = ",".join([str(seeds)] * houses) + "/0"
    if fields[2] != start_row or fields[3] != start_row or fields[4] != "1":
        raise ValueError("only games from the rules' start position are supported")
    if variant == "kalah+either-side-empty" and (houses, seeds) == (6, 4):
        return pyspiel.load_game("mancala")
    if variant == "oware":
        return pyspiel.load_game(
            f"oware(num_houses_per_player={houses},num_seeds_per_house={seeds})")
    raise ValueError(f"OpenSpiel has no game for {variant} {size}")


def is_kalah(game):
    return game.get_type().short_name == "mancala"


def action_of(game, state, house):
    """OpenSpiel's action for sowing `house` (1-based, the mover's sowing order)."""
    if is_kalah(game):
        # Pits 1..6 are player 0's, 8..13 player 1's, both in sowing order.
        return house if state.current_player() == 0 else 7 + house
    return house - 1


def house_of(game, state, action):
    if is_kalah(game):
        return action if state.current_player() == 0 else action - 7
    return action + 1


class Engine:
    def __init__(self, args):
        self.args = args
        self.game = None
        self.state = None
        self.moves_made = 0

    def position(self, words):
        notation = " ".join(words[:5])
        game = openspiel_game(notation)
        state = game.new_initial_state()
        moves = words[6:] if len(words) > 5 and words[5] == "moves" else []
        for i, word in enumerate(moves):
            action = action_of(game, state, int(word))
            if action not in state.legal_actions():
                raise ValueError(f"move {i + 1} ({word}) is illegal here")
            state.apply_action(action)
        self.game, self.state = game, state

    def go(self, ms):
        if self.state is None or self.state.is_terminal():
            raise ValueError("no position to move in")
        self.moves_made += 1
        evaluator = pyspiel.RandomRolloutEvaluator(1, self.args.seed + self.moves_made)
        # With a wall-clock limit the bot ignores its simulation count, so one or the
        # other: a little under the budget (Python's overhead), or --sims alone.
        seconds = -1.0 if self.args.sims else max(0.001, ms / 1000.0 * 0.9 - 0.005)
        bot = pyspiel.MCTSBot(self.game, evaluator, self.args.uct_c, self.args.sims or 10**9,
                              self.args.memory_mb, True,
                              self.args.seed + self.moves_made, False,
                              pyspiel.ChildSelectionPolicy.UCT, seconds)
        action = bot.step(self.state)
        return house_of(self.game, self.state, action)


def serve(args):
    engine = Engine(args)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "protocol":
                limit = f"sims={args.sims}" if args.sims else "time"
                reply = [f"id name openspiel-mcts({limit})", "ready"]
            elif words[0] == "newgame":
                reply = []
            elif words[0] == "position":
                engine.position(words[1:])
                reply = []
            elif words[0] == "go" and len(words) == 3 and words[1] == "ms":
                reply = [f"bestmove {engine.go(int(words[2]))}"]
            elif words[0] == "quit":
                return
            else:
                reply = [f"error unknown command {line.strip()!r}"]
        except (ValueError, pyspiel.SpielError) as e:
            reply = [f"error {e}"]
        for r in reply:
            print(r, flush=True)


def board_of(game, state):
    """(player 1's houses, player 2's houses, stores) as `mancala replay` writes them."""
    if is_kalah(game):
        b = [int(x) for x in state.observation_tensor(0)[:14]]
        return [b[1:7], b[8:14]], [b[7], b[0]]
    t = state.observation_tensor(0)
    total = game.get_parameters()["num_houses_per_player"] * 2 * \
        game.get_parameters()["num_seeds_per_house"]
    v = [round(x * total) for x in t]
    h = game.get_parameters()["num_houses_per_player"]
    return [v[:h], v[h:2 * h]], [v[2 * h], v[2 * h + 1]]


def check(args):
    """Random games in OpenSpiel, replayed by `mancala replay`: same positions, same end."""
    rng = random.Random(args.seed)
    for n in range(args.check):
        name, flags = rng.choice([
            ("kalah+either-side-empty 6x4", ["--end-rule", "either-side-empty"]),
            ("oware 6x4", ["--variant", "oware"]),
        ])
        variant, size = name.split()
        h, s = (int(x) for x in size.split("x"))
        row = ",".join([str(s)] * h) + "/0"
        game = openspiel_game(f"{variant} {size} {row} {row} 1")
        state = game.new_initial_state()
        houses, states = [], []
        while not state.is_terminal() and len(houses) < 400:
            states.append(board_of(game, state))
            action = rng.choice(state.legal_actions())
            houses.append(house_of(game, state, action))
            state.apply_action(action)
        out = subprocess.run([args.mancala, "replay", *flags, *map(str, houses)],
                             capture_output=True, text=True, check=True).stdout
        ours = [json.loads(line) for line in out.splitlines()]
        for ply, (rows, stores) in enumerate(states):
            if ours[ply]["houses"] != rows or ours[ply]["stores"] != stores:
                sys.exit(f"game {n} ({name}) differs at ply {ply}: OpenSpiel {rows} "
                         f"{stores}, mancala {ours[ply]['houses']} {ours[ply]['stores']}")
        if state.is_terminal():
            theirs = state.returns()[0]
            result = ours[-1]["result"]
            if not ours[-1]["over"]:
                sys.exit(f"game {n} ({name}): OpenSpiel ended it, mancala did not")
            margin = result["scores"][0] - result["scores"][1]
            if (margin > 0) - (margin < 0) != (theirs > 0) - (theirs < 0):
                sys.exit(f"game {n} ({name}): results differ: {theirs} vs {result}")
    print(f"{args.check} random games: the same positions and results in both")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sims", type=int, default=0,
                   help="simulations a move (default: as many as the go budget allows)")
    p.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration constant")
    p.add_argument("--memory-mb", type=int, default=1000, help="MCTS tree memory limit")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", type=int, metavar="N", help="compare N random games with mancala")
    p.add_argument("--mancala", default="mancala", help="the mancala binary, for --check")
    args = p.parse_args()
    if args.check:
        check(args)
    else:
        serve(args)


if __name__ == "__main__":
    main()
