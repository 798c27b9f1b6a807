#!/usr/bin/env bash
# Speed figures of the rules core and the engine, one JSON line each, from a release
# build, on one thread each.
# Usage: scripts/bench.sh [SECONDS] [--baseline OLD_BINARY]
#   SECONDS     per playout and MCTS figure (default 3)
#   --baseline  also run every figure with OLD_BINARY (an earlier build's
#               target/release/mancala, kept aside), alternating old and new figure by
#               figure, so both are measured in the same run under the same load
set -euo pipefail
cd "$(dirname "$0")/.."
secs=3
baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline="$2"; shift ;;
    [0-9]*) secs="$1" ;;
    *) echo "usage: $0 [SECONDS] [--baseline OLD_BINARY]" >&2; exit 2 ;;
  esac
  shift
done
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/mancala

# One figure: the label, then the arguments of `mancala bench`; with a baseline, the
# old binary's line first.
figure() {
  local label="$1"; shift
  if [ -n "$baseline" ]; then
    printf '%-28s ' "$label (before)"
    "$baseline" bench "$@"
    printf '%-28s ' "$label (after)"
  else
    printf '%-28s ' "$label"
  fi
  "$bin" bench "$@"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for v in kalah oware oware-simplified; do
  figure "$v playouts" playouts --variant "$v" --seconds "$secs"
done
figure "kalah perft" perft --variant kalah --depth 11
figure "oware perft" perft --variant oware --depth 10
for v in kalah oware; do
  figure "$v search" search --variant "$v" --depth 14
done
figure "kalah search 20" search --variant kalah --depth 20
for v in kalah oware; do
  figure "$v mcts" mcts --variant "$v" --seconds "$secs"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
