#!/usr/bin/env bash
# One of the suite's players against OpenSpiel's MCTS bot (pyspiel.MCTSBot with random
# rollouts and MCTS-solver) at equal time per move, through the engine line protocol
# (docs/engine-protocol.md; the bridge is scripts/openspiel_engine.py).
#
# Usage: scripts/openspiel-match.sh [--variant kalah|oware] [--ms MS] [--games N]
#                                   [--p1 SPEC] [--sims N] [-- MORE MATCH ARGS]
#   --variant  kalah (default; OpenSpiel's `mancala`, which ends the game as soon as
#              either row is empty, so the match uses --end-rule either-side-empty)
#              or oware; 6 houses, 4 seeds
#   --ms       time per move for both players (default 500)
#   --games    games, in seat-swapped pairs from balanced openings (default 20)
#   --p1       our player (default master); it gets ms=MS when it takes a time budget
#   --sims     give OpenSpiel a fixed number of simulations instead of the time
# Installs open-spiel into .venv-openspiel (or $OPENSPIEL_VENV) when it is missing,
# builds the release binary, and prints `mancala match`'s table (or JSON with -- --json).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=kalah ms=500 games=20 p1=master sims=
while [[ $# -gt 0 ]]; do
  case $1 in
    --variant) variant=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --p1) p1=$2; shift 2 ;;
    --sims) sims=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
  esac
done

venv=${OPENSPIEL_VENV:-.venv-openspiel}
if ! "$venv/bin/python" -c 'import pyspiel' 2>/dev/null; then
  echo "installing open-spiel into $venv ..." >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet open-spiel
fi
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala

case $variant in
  kalah) rules=(--variant kalah --end-rule either-side-empty) ;;
  oware) rules=(--variant oware) ;;
  *) echo "OpenSpiel plays kalah(6,4) and oware(6,4) only, not $variant" >&2; exit 2 ;;
esac
# Our player thinks for the budget when it takes one (its spec gets ms=MS).
case ${p1%%:*} in
  alphabeta|mcts|perfect|master) [[ $p1 == *:* ]] && p1="$p1,ms=$ms" || p1="$p1:ms=$ms" ;;
esac
bridge="ext:$venv/bin/python scripts/openspiel_engine.py${sims:+ --sims $sims}"
exec "$bin" match "${rules[@]}" --houses 6 --seeds 4 --p1 "$p1" --p2 "$bridge" \
  --ext-ms "$ms" --ext-grace-ms 1000 --games "$games" --swap --seed 1 \
  --opening-plies 4 --balanced 2 --jobs 1 "$@"
