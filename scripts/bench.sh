#!/usr/bin/env bash
# Speed figures of the rules core and the engine, one JSON line each, from a release
# build, on one thread each.
# Usage: scripts/bench.sh [SECONDS]   (default 3 seconds per playout and MCTS figure)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-3}"
cargo build --release --quiet
bin=target/release/mancala
for v in kalah oware oware-simplified; do
  printf '%-18s playouts  ' "$v"
  "$bin" bench playouts --variant "$v" --seconds "$secs"
done
printf '%-18s perft     ' kalah
"$bin" bench perft --variant kalah --depth 11
printf '%-18s perft     ' oware
"$bin" bench perft --variant oware --depth 10
for v in kalah oware; do
  printf '%-18s search    ' "$v"
  "$bin" bench search --variant "$v" --depth 14
done
printf '%-18s search    ' kalah
"$bin" bench search --variant kalah --depth 20
for v in kalah oware; do
  printf '%-18s mcts      ' "$v"
  "$bin" bench mcts --variant "$v" --seconds "$secs"
done
