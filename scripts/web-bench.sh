#!/usr/bin/env bash
# Load figures of the web game, in one run on loopback, for each storage setup:
#   sqlite-1      one `mancala serve` on a fresh SQLite file (the default)
#   postgres-1    one instance on a fresh PostgreSQL database
#   postgres-2    two instances on one fresh PostgreSQL database, the requests of every
#                 client taking turns between them (a load balancer without stickiness)
# Each plays many concurrent games against the server(s) for a while and prints one JSON
# line (moves per second, move latency percentiles), with the load average before and
# after on standard error.
#
# Usage: scripts/web-bench.sh [GAMES_AT_ONCE] [SECONDS] [SETUP...]
#        (defaults: 32 10 sqlite-1 postgres-1 postgres-2)
#   Throughput: each client plays as fast as the server answers, so the servers run
#   with their per-client rate limits raised out of the way.
# Usage: scripts/web-bench.sh --hostile [PLAYERS] [SECONDS] [ABUSERS] [SETUP...]
#        (defaults: 32 20 2 sqlite-1)
#   Normal players (a move every 250 ms each, and 4 against the computer) play
#   throughout, while abusers (ABUSERS threads of each kind: expensive computer
#   opponents, creation floods, live stream floods, oversized and malformed requests)
#   are off and on in alternating 6 s windows, against the server's default limits; the
#   first 2 s of each window are left out. Reports the move latency and throughput
#   without and with the abusers in one run of about 2 * SECONDS seconds; interleaving
#   makes whatever else loads the machine weigh on both alike. Clients are told apart
#   by X-Forwarded-For addresses (the servers trust them here: on loopback every client
#   is 127.0.0.1). On postgres-2 each instance keeps its own limits.
#
# PostgreSQL is a throwaway cluster made here (Debian's server binaries under
# /usr/lib/postgresql/*/bin; as root it runs as the `postgres` user through runuser),
# with the server's default durability: fsync on, synchronous_commit on.
# Without PostgreSQL installed only sqlite-1 runs. WEB_BENCH_PG_OPTIONS adds server
# settings, e.g. WEB_BENCH_PG_OPTIONS="-c synchronous_commit=off"; SERVER_ARGS adds
# options to every `mancala serve`.
#
# After each setup a line on standard error says where the CPU went: seconds used by
# the mancala servers, by PostgreSQL (its server processes) and by the load client,
# against what the machine's cores could give in that time.
#
# BASELINE=/path/to/an/older/mancala compares two servers in one run: each setup runs
# ROUNDS times (default 3) with the older server and then this one, taking turns, the
# load client always this build's (an older server without the rate-limit options runs
# without them; it had no limits). Each line then starts with "server":"baseline" or
# "server":"this".
set -euo pipefail
cd "$(dirname "$0")/.."
hostile=
if [ "${1:-}" = "--hostile" ]; then hostile=1; shift; fi
games="${1:-32}"
secs="${2:-$([ -n "$hostile" ] && echo 20 || echo 10)}"
shift $(( $# > 2 ? 2 : $# ))
abusers=2
if [ -n "$hostile" ] && [ $# -gt 0 ]; then abusers=$1; shift; fi
setups=("$@")
if [ ${#setups[@]} -eq 0 ]; then
  if [ -n "$hostile" ]; then setups=(sqlite-1); else setups=(sqlite-1 postgres-1 postgres-2); fi
fi
if [ -n "$hostile" ]; then
  limits=(--trust-forwarded-for)
else
  open=100000000/1s
  limits=(--rate-create "$open" --rate-join "$open" --rate-move "$open" --rate-read "$open")
fi

cargo build --release --quiet
bin=$PWD/${CARGO_TARGET_DIR:-target}/release/mancala
server_bin=$bin
server_name=this
work=$(mktemp -d)
servers=()
pg_bin=""
pg_dir=""
pg_port=""

as_pg() {  # runs a PostgreSQL program, as `postgres` when root (initdb refuses root)
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_servers() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  servers=()
}

cleanup() {
  stop_servers
  [ -z "$pg_dir" ] || as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$work" ${pg_dir:+"$pg_dir"}
}
trap cleanup EXIT

free_port() {  # a loopback port nobody listens on now
  local port
  while :; do
    port=$(( 20000 + RANDOM % 40000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

start_postgres() {  # a throwaway cluster in its own directory, owned by its server
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  pg_dir=$(mktemp -d)
  [ "$(id -u)" != 0 ] || chown postgres: "$pg_dir"
  pg_port=$(free_port)
  as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U mancala --auth=trust -E UTF8 >/dev/null
  as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
    -o "-p $pg_port -h 127.0.0.1 -k $pg_dir -c max_connections=100 ${WEB_BENCH_PG_OPTIONS:-}" \
    start >/dev/null
}

cpu_of() {  # CPU seconds used by the given processes (and the children they waited for)
  local ticks=0 pid f
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    # Fields after the command: utime stime cutime cstime are 12..15 of the rest.
    read -ra f <<<"$(sed 's/^.*) //' "/proc/$pid/stat")"
    ticks=$(( ticks + f[11] + f[12] + f[13] + f[14] ))
  done
  echo "scale=1; $ticks / $(getconf CLK_TCK)" | bc
}

postgres_pids() {  # the cluster's processes: the postmaster and its children
  [ -n "$pg_dir" ] || return 0
  local main
  main=$(head -1 "$pg_dir/data/postmaster.pid")
  echo "$main" $(pgrep -P "$main")
}

new_pg_database() {  # prints the URL of a fresh database named $1
  as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U mancala "$1"
  echo "postgres://mancala@127.0.0.1:$pg_port/$1"
}

start_server() {  # starts `mancala serve --db $1`; sets $addr to its address
  local log="$work/server${#servers[@]}.log"
  # shellcheck disable=SC2086 # SERVER_ARGS are words
  local args=("${limits[@]}")
  # An older server (BASELINE) without the rate limits had none to raise.
  "$server_bin" serve --help | grep -q -- --rate-move || args=()
  RUST_LOG=warn,mancala=info "$server_bin" serve --addr 127.0.0.1:0 --db "$1" "${args[@]}" \
    ${SERVER_ARGS:-} >/dev/null 2>"$log" &
  servers+=($!)
  addr=""
  for _ in $(seq 200); do
    addr=$(grep -o 'serving on http://[0-9.:]*' "$log" | sed 's/serving on //' || true)
    [ -n "$addr" ] && break
    sleep 0.1
  done
  [ -n "$addr" ] || { echo "the server did not start:" >&2; cat "$log" >&2; exit 1; }
}

run() {  # run NAME DB INSTANCES
  local name=$1 db=$2 n=$3 urls=()
  for _ in $(seq "$n"); do start_server "$db"; urls+=(--url "$addr"); done
  echo "$name: $n instance(s), $games games at once, ${secs}s, load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  local servers_before pg_before client_times
  servers_before=$(cpu_of "${servers[@]}")
  pg_before=$(cpu_of $(postgres_pids))
  exec 3>&1  # the figures go to standard output through fd 3, the timing is captured
  local bench=(--games "$games" --seconds "$secs")
  [ -z "$hostile" ] || bench+=(--hostile --pause-ms 250 --computer-games 4 --abusers "$abusers")
  client_times=$( { TIMEFORMAT='%U %S %R'; time RUST_LOG=warn "$bin" bench web "${urls[@]}" \
    "${bench[@]}" | sed "s/^{/{\"setup\":\"$name\",${BASELINE:+\"server\":\"$server_name\",}/" >&3; } 2>&1 )
  exec 3>&-
  local servers_after pg_after
  servers_after=$(cpu_of "${servers[@]}")
  pg_after=$(cpu_of $(postgres_pids))
  read -r cu cs wall <<<"$(tail -1 <<<"$client_times")"
  echo "$name: load after: $(cut -d' ' -f1-3 /proc/loadavg); CPU seconds:" \
    "servers $(echo "$servers_after - $servers_before" | bc)," \
    "postgres $(echo "$pg_after - $pg_before" | bc)," \
    "client $(echo "$cu + $cs" | bc)," \
    "of $(echo "$(nproc) * $wall" | bc) on $(nproc) cores" >&2
  stop_servers
}

run_setup() {  # run_setup SETUP: one run of it with $server_bin
  local setup=$1
  case "$setup" in
    sqlite-1) rm -f "$work"/games.sqlite*; run sqlite-1 "$work/games.sqlite" 1 ;;
    postgres-1|postgres-2)
      if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        echo "$setup: SKIPPED, no PostgreSQL server binaries (apt-get install postgresql)" >&2
        return
      fi
      [ -n "$pg_dir" ] || start_postgres
      db=$(new_pg_database "bench_${setup/-/_}_$RANDOM$RANDOM")
      run "$setup" "$db" "${setup#postgres-}" ;;
    *) echo "unknown setup $setup (sqlite-1, postgres-1, postgres-2)" >&2; exit 2 ;;
  esac
}

for setup in "${setups[@]}"; do
  if [ -z "${BASELINE:-}" ]; then
    run_setup "$setup"
    continue
  fi
  for _ in $(seq "${ROUNDS:-3}"); do
    server_bin=$BASELINE server_name=baseline run_setup "$setup"
    server_bin=$bin server_name=this run_setup "$setup"
  done
done
