#!/usr/bin/env bash
# Load figures of the web game: starts `mancala serve` on a free loopback port with a
# fresh database, plays many concurrent games against it for a while, prints one JSON
# line (moves per second, move latency percentiles), and stops the server.
# Usage: scripts/web-bench.sh [GAMES_AT_ONCE] [SECONDS]    (defaults: 32 10)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-32}"
secs="${2:-10}"
cargo build --release --quiet
bin=target/release/mancala
dir=$(mktemp -d)
log="$dir/server.log"
"$bin" serve --addr 127.0.0.1:0 --db "$dir/games.sqlite" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
  addr=$(grep -o 'serving on http://[0-9.:]*' "$log" | sed 's/serving on //' || true)
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "the server did not start:"; cat "$log"; exit 1; }
echo "server $addr, $games games at once, ${secs}s, load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
RUST_LOG=warn "$bin" bench web --url "$addr" --games "$games" --seconds "$secs"
