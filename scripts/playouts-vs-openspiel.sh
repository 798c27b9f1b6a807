#!/usr/bin/env bash
# Random games a second: the suite's rules core (`mancala bench playouts`, one thread)
# against OpenSpiel's C++ (two uniform random bots playing whole games inside
# `pyspiel.evaluate_bots`, one call a game, so Python's share is one call in a game of
# some 50 moves), on Kalah(6,4) (OpenSpiel's "mancala", whose game ends as soon as either
# row is empty: ours with --end-rule either-side-empty) and Oware(6,4), alternating the two
# programs ROUNDS times in one run. The goal (issue 51): at least ten times OpenSpiel.
# Usage: scripts/playouts-vs-openspiel.sh [ROUNDS] [SECONDS]   (defaults 3 and 3)
# OpenSpiel comes from the Python environment of the tests (target/python-venv), installed
# there when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
secs="${2:-3}"
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import pyspiel' 2>/dev/null ||
  "$venv/bin/pip" install --quiet --disable-pip-version-check open-spiel

openspiel() {
  "$venv/bin/python" - "$1" "$secs" <<'PY'
import sys, time
import pyspiel

game = pyspiel.load_game(sys.argv[1])
seconds = float(sys.argv[2])
bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
games, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    for _ in range(100):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
print(f"{games / (time.perf_counter() - start):.0f}")
PY
}

# The games a second of `bench playouts`' JSON line ("games_per_sec":226336.3...).
ours() {
  "$bin" bench playouts "$@" --seconds "$secs" |
    sed 's/.*"games_per_sec":\([0-9]*\).*/\1/'
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in "kalah mancala --end-rule either-side-empty" "oware oware"; do
  set -- $pair
  variant=$1 theirs_name=$2
  shift 2
  for round in $(seq "$rounds"); do
    a=$(ours --variant "$variant" "$@")
    b=$(openspiel "$theirs_name")
    echo "$variant round $round: ours $a games/s, OpenSpiel C++ $b games/s, ratio $(awk "BEGIN { printf \"%.1f\", $a / $b }")x"
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
