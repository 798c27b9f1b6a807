#!/usr/bin/env bash
# Solves Kalah and Oware boards exactly with `mancala solve` and prints a Markdown table
# of the values (player 1's margin under perfect play), best first moves, nodes and
# times. Usage: scripts/solve-table.sh [--big] [--time-limit SECONDS]
#   default: small boards (Kalah H<=6,S<=3 and (4,4) under every rule option; Oware H<=2,S<=3 and (3,1))
#   --big:   also Kalah(6,4) under every rule option (and Kalah(5,4), Kalah(4,5))
# A solve that runs out of time is shown as "out of time" with the limit.
set -euo pipefail
cd "$(dirname "$0")/.."

big=0
limit=600
while [ $# -gt 0 ]; do
  case "$1" in
    --big) big=1 ;;
    --time-limit) limit="$2"; shift ;;
    *) echo "usage: $0 [--big] [--time-limit SECONDS]" >&2; exit 2 ;;
  esac
  shift
done

cargo build --release --quiet -p mancala
bin=target/release/mancala

echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| board | rule options | value | best first moves | move values | nodes | seconds |"
echo "|---|---|---:|---|---|---:|---:|"

solve() { # variant houses seeds [rule options...]
  local variant=$1 h=$2 s=$3
  shift 3
  local opts="${*:-default}"
  local json
  if json=$("$bin" solve --variant "$variant" --houses "$h" --seeds "$s" "$@" \
      --hash-mb 2048 --time-limit "$limit" --json 2>&1); then
    python3 - "$variant" "$h" "$s" "$opts" "$json" <<'PY'
import json, sys
variant, h, s, opts, text = sys.argv[1:]
r = json.loads(text)
values = " ".join(f"{k}:{v:+d}" for k, v in r["move_values"].items())
best = " ".join(map(str, r["best_moves"]))
print(f"| {variant}({h},{s}) | {opts} | {r['value']:+d} | {best} | {values} | {r['nodes']} | {r['seconds']:.3f} |")
PY
  else
    echo "| $variant($h,$s) | $opts | – | – | ${json//$'\n'/ } | – | > $limit |"
  fi
}

kalah_all_options() { # houses seeds
  solve kalah "$1" "$2"
  solve kalah "$1" "$2" --empty-capture
  solve kalah "$1" "$2" --end-rule either-side-empty
  solve kalah "$1" "$2" --empty-capture --end-rule either-side-empty
}

for h in 1 2 3 4 5 6; do
  for s in 1 2 3; do
    kalah_all_options "$h" "$s"
  done
done
kalah_all_options 4 4
for h in 1 2; do
  for s in 1 2 3; do
    solve oware "$h" "$s"
  done
done
solve oware 3 1
if [ "$big" = 1 ]; then
  kalah_all_options 5 4
  kalah_all_options 4 5
  kalah_all_options 6 4
fi
