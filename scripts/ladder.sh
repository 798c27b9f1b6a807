#!/usr/bin/env bash
# The strength ladder: each level against the one below it, and alpha-beta at 100 ms a
# move against greedy, 200 games each with seats swapped, printed as a Markdown table.
# Both games of a pair start from the same balanced opening: 4 random plies, redrawn
# until a 12-ply search scores the position within 2 seeds either way (--balanced 2),
# so that deterministic players do not replay one game 100 times and no pair starts
# from a position one seat wins whoever sits there. See docs/ladder.md.
# Usage: scripts/ladder.sh [GAMES [VARIANT...]]   (run by hand: about 20 minutes on 2
# idle cores for the default, kalah and oware; each variant on its own default board:
# 6x4 for those, 9x9 for `scripts/ladder.sh 100 togyzkumalak`)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
shift || true
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(kalah oware)
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala

row() { # variant p1 p2 target
  local variant=$1 p1=$2 p2=$3 target=$4 start json rate
  start=$(date +%s)
  json=$("$bin" match --variant "$variant" --p1 "$p1" --p2 "$p2" \
    --games "$games" --swap --seed 1 --opening-plies 4 --balanced 2 --json)
  rate=$(sed 's/.*"p1_score_rate":\([0-9.e-]*\).*/\1/' <<<"$json")
  local w=$(sed 's/.*"p1_wins":\([0-9]*\).*/\1/' <<<"$json")
  local l=$(sed 's/.*"p2_wins":\([0-9]*\).*/\1/' <<<"$json")
  local d=$(sed 's/.*"draws":\([0-9]*\).*/\1/' <<<"$json")
  local rules=$(sed 's/.*"rules":"\([^"]*\)".*/\1/' <<<"$json")
  local pct ok
  pct=$(awk -v r="$rate" 'BEGIN { printf "%.1f%%", 100 * r }')
  ok=$(awk -v r="$rate" -v t="$target" 'BEGIN { print (r >= t ? "yes" : "**no**") }')
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %d%% | %s | %ds |\n' \
    "$rules" "$p1" "$p2" "$games" "$w" "$d" "$l" "$pct" \
    "$(awk -v t="$target" 'BEGIN { printf "%d", 100 * t }')" "$ok" "$(( $(date +%s) - start ))"
}

echo "| rules | p1 | p2 | games | p1 wins | draws | p1 losses | p1 score | target | met | time |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for variant in "${variants[@]}"; do
  row "$variant" medium easy 0.75
  row "$variant" hard medium 0.75
  row "$variant" expert hard 0.75
  row "$variant" alphabeta:ms=100 greedy 0.90
done
