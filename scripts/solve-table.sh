#!/usr/bin/env bash
# Solves Kalah and Oware boards exactly with `mancala solve` and prints a Markdown table
# of the values (player 1's margin under perfect play), best first moves, nodes and
# times.
# Usage: scripts/solve-table.sh [--big] [--kalah65] [--time-limit SECONDS] [--hash-mb MB] [--write]
#   default: small boards (Kalah H<=6,S<=3 and (4,4) under every rule option;
#            Oware H<=3,S<=3)
#   --big:   also Kalah(5,4), (4,5) and (6,4) under every rule option, and Oware(4,2)
#            and (3,4) (24 seeds in play: --force)
#   --kalah65: also Kalah(6,5)'s value and a best move (--best-only) under every rule
#            option (about 7 minutes each on 2 cores; give a --time-limit above 600 to
#            see how long one that misses the 10-minute target takes)
#   --write: put the table into docs/measurements/solver.md, between its "solve-table" markers (the
#            README carries no measurements)
# A solve that runs out of time is shown as "out of time" with the limit.
set -euo pipefail
cd "$(dirname "$0")/.."

big=0
kalah65=0
limit=600
hash_mb=8192
write=0
while [ $# -gt 0 ]; do
  case "$1" in
    --big) big=1 ;;
    --kalah65) kalah65=1 ;;
    --time-limit) limit="$2"; shift ;;
    --hash-mb) hash_mb="$2"; shift ;;
    --write) write=1 ;;
    *) echo "usage: $0 [--big] [--kalah65] [--time-limit SECONDS] [--hash-mb MB] [--write]" >&2; exit 2 ;;
  esac
  shift
done

cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala
table=$(mktemp)
trap 'rm -f "$table"' EXIT

solve() { # variant houses seeds [rule options...]
  local variant=$1 h=$2 s=$3
  shift 3
  local opts="${*:-default}"
  local json row lim=$limit
  if json=$("$bin" solve --variant "$variant" --houses "$h" --seeds "$s" "$@" \
      --hash-mb "$hash_mb" --time-limit "$lim" --json 2>&1); then
    row=$(python3 - "$variant" "$h" "$s" "$opts" "$json" <<'PY'
import json, sys
variant, h, s, opts, text = sys.argv[1:]
r = json.loads(text)
values = " ".join(f"{k}:{v:+d}" for k, v in r["move_values"].items())
best = " ".join(map(str, r["best_moves"]))
print(f"| {variant}({h},{s}) | {opts} | {r['value']:+d} | {best} | {values} | {r['nodes']} | {r['seconds']:.3f} | {r['memory_bytes'] / 2**20:.0f} |")
PY
)
  else
    row="| $variant($h,$s) | $opts | – | – | ${json//$'\n'/ } | – | > $lim | – |"
  fi
  echo "$row" | tee -a "$table"
}

kalah_all_options() { # houses seeds [more options...]
  local h=$1 s=$2
  shift 2
  solve kalah "$h" "$s" "$@"
  solve kalah "$h" "$s" --empty-capture "$@"
  solve kalah "$h" "$s" --end-rule either-side-empty "$@"
  solve kalah "$h" "$s" --empty-capture --end-rule either-side-empty "$@"
}

header="| board | rule options | value | best first moves | move values | nodes | seconds | MiB |
|---|---|---:|---|---|---:|---:|---:|"
stamp="Measured $(date -u +%Y-%m-%d) with \`scripts/solve-table.sh$([ "$big" = 1 ] && echo ' --big')$([ "$kalah65" = 1 ] && echo ' --kalah65') --time-limit $limit --hash-mb $hash_mb\` on $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "$stamp"
echo
echo "$header"
for h in 1 2 3 4 5 6; do
  for s in 1 2 3; do
    kalah_all_options "$h" "$s"
  done
done
kalah_all_options 4 4
for h in 1 2 3; do
  for s in 1 2 3; do
    solve oware "$h" "$s"
  done
done
if [ "$big" = 1 ]; then
  kalah_all_options 5 4
  kalah_all_options 4 5
  kalah_all_options 6 4
  solve oware 4 2
  solve oware 3 4 --force
fi
if [ "$kalah65" = 1 ]; then
  kalah_all_options 6 5 --best-only
fi
stamp="$stamp Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."

if [ "$write" = 1 ]; then
  # Replace the lines between "<!-- solve-table -->" and "<!-- /solve-table -->".
  put() { # file rows-file
    python3 - "$1" "$2" "$stamp" "$header" <<'PY'
import sys
path, rows_path, stamp, header = sys.argv[1:]
rows = open(rows_path).read().rstrip("\n")
text = open(path).read()
start, end = "<!-- solve-table -->", "<!-- /solve-table -->"
a, b = text.index(start) + len(start), text.index(end)
open(path, "w").write(text[:a] + f"\n{stamp}\n\n{header}\n{rows}\n" + text[b:])
PY
  }
  put docs/measurements/solver.md "$table"
  echo "wrote docs/measurements/solver.md" >&2
fi
