#!/usr/bin/env bash
# Load figures of the web game: starts `mancala serve` on a free loopback port with a
# fresh database, plays many concurrent games against it for a while, prints one JSON
# line, and stops the server.
#
# Usage: scripts/web-bench.sh [GAMES_AT_ONCE] [SECONDS]               (defaults: 32 10)
#   Throughput: each client plays as fast as the server answers, so the server runs
#   with its per-client rate limits raised out of the way.
# Usage: scripts/web-bench.sh --hostile [PLAYERS] [SECONDS] [ABUSERS] (defaults: 32 20 2)
#   Normal players (a move every 250 ms each, and 4 against the computer) play
#   throughout, while abusers (ABUSERS threads of each kind: expensive computer
#   opponents, creation floods, live stream floods, oversized and malformed requests)
#   are off and on in alternating 6 s windows, against the server's default limits; the
#   first 2 s of each window are left out. Reports the move latency and throughput
#   without and with the abusers in one run of about 2 * SECONDS seconds; interleaving
#   makes whatever else loads the machine weigh on both alike. Clients are told apart by X-Forwarded-For
#   addresses (the server trusts them here: on loopback every client is 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
hostile=
if [ "${1:-}" = "--hostile" ]; then hostile=1; shift; fi
games="${1:-32}"
secs="${2:-$([ -n "$hostile" ] && echo 20 || echo 10)}"
abusers="${3:-2}"
cargo build --release --quiet
bin=target/release/mancala
dir=$(mktemp -d)
log="$dir/server.log"
if [ -n "$hostile" ]; then
  limits=(--trust-forwarded-for)
else
  open=100000000/1s
  limits=(--rate-create "$open" --rate-join "$open" --rate-move "$open" --rate-read "$open")
fi
RUST_LOG=warn,mancala=info "$bin" serve --addr 127.0.0.1:0 --db "$dir/games.sqlite" "${limits[@]}" ${SERVER_ARGS:-} 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
  addr=$(grep -o 'serving on http://[0-9.:]*' "$log" | sed 's/serving on //' || true)
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "the server did not start:"; cat "$log"; exit 1; }
echo "server $addr, $games games at once, ${secs}s, load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ -n "$hostile" ]; then
  RUST_LOG=warn "$bin" bench web --url "$addr" --games "$games" --seconds "$secs" \
    --hostile --pause-ms 250 --computer-games 4 --abusers "$abusers"
else
  RUST_LOG=warn "$bin" bench web --url "$addr" --games "$games" --seconds "$secs"
fi
cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$server/stat")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); server CPU time: ${cpu} s" >&2
