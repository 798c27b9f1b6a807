#!/usr/bin/env bash
# MCTS simulations a second: the suite's MCTS on two threads (`mancala bench threads`)
# against OpenSpiel's C++ MCTSBot (one random rollout per simulation, as ours), on
# Kalah(6,4) (OpenSpiel's "mancala") and Oware(6,4), from a release build, in one run.
# Usage: scripts/mcts-speed-vs-openspiel.sh [SECONDS]   (per OpenSpiel figure; default 5)
# OpenSpiel comes from the Python environment of the tests (target/python-venv), installed
# there when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-5}"
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import pyspiel' 2>/dev/null ||
  "$venv/bin/pip" install --quiet --disable-pip-version-check open-spiel

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in "kalah mancala" "oware oware"; do
  set -- $pair
  ours=$("$bin" bench threads --variant "$1" --threads 2 --ms 500 --positions 10)
  theirs=$("$venv/bin/python" - "$2" "$secs" <<'PY'
import sys, time
import pyspiel

game = pyspiel.load_game(sys.argv[1])
seconds = float(sys.argv[2])
state = game.new_initial_state()
sims, start, seed = 0, time.perf_counter(), 1
# 20,000 simulations a search from the start, as scripts/openspiel_engine.py builds
# the bot (C++, one random rollout a simulation, MCTS-solver on).
while time.perf_counter() - start < seconds:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, 20000, 1000, True, seed, False,
                          pyspiel.ChildSelectionPolicy.UCT, -1.0)
    bot.step(state)
    sims += 20000
    seed += 1
print(f"{sims / (time.perf_counter() - start):.0f}")
PY
)
  echo "$1 ours (2 threads): $ours"
  echo "$1 OpenSpiel C++ MCTSBot (1 thread): $theirs sims/s"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
