#!/usr/bin/env bash
# Speed figures of the rules core, one JSON line each, from a release build.
# Usage: scripts/bench.sh [SECONDS]   (default 3 seconds per playout figure)
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
