#!/usr/bin/env bash
# The strength ladder over the whole catalogue: for every game `mancala variants` lists,
# on its own standard board, medium against easy and hard against medium (and expert
# against hard with TOP=expert), GAMES games a row with seats swapped, printed as one
# Markdown table. The openings are those of scripts/ladder.sh: 4 random plies, redrawn
# until a 12-ply search scores the position within 2 seeds either way (--balanced 2),
# the same for both games of a pair. See docs/ladder.md, "Every game of the catalogue".
# Usage: scripts/ladder-catalogue.sh [GAMES [TOP [VARIANT...]]]
#   GAMES: games a row (default 20, that is 10 pairs: a 95% interval of about +-20
#   points); TOP: hard (default) or expert, the highest level compared; VARIANT...: the
#   games to play (default: every game of the catalogue). Run by hand from the
#   repository root: on 2 loaded cores about 40 minutes for every game but Ohvalhu and
#   Endodoi, whose big relay boards take 15 to over 35 minutes a row.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-20}"
top="${2:-hard}"
shift 2 || shift $#
case "$top" in
  hard | expert) ;;
  *) echo "TOP must be hard or expert, not '$top'" >&2; exit 2 ;;
esac
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  # The table's first column is the key; it ends with a blank line and a note.
  mapfile -t variants < <("$bin" variants | awk 'NF == 0 { exit } { print $1 }')
fi

err=$(mktemp)
trap 'rm -f "$err"' EXIT

field() { # name json: a number field of the match's JSON summary
  sed "s/.*\"$1\":\([0-9.e-]*\).*/\1/" <<<"$2"
}

row() { # variant p1 p2 target
  local variant=$1 p1=$2 p2=$3 target=$4 start json rules pct lo hi ok
  start=$(date +%s)
  # A failed match is a row that says why, not the end of the run.
  if ! json=$("$bin" match --variant "$variant" --p1 "$p1" --p2 "$p2" \
    --games "$games" --swap --seed 1 --opening-plies 4 --balanced 2 --json 2>"$err"); then
    printf '| %s | %s | %s | %s | failed: %s |\n' "$variant" "$p1" "$p2" "$games" \
      "$(tr '\n|' ' /' <"$err")"
    return
  fi
  rules=$(sed 's/.*"rules":"\([^"]*\)".*/\1/' <<<"$json")
  pct=$(awk -v r="$(field p1_score_rate "$json")" 'BEGIN { printf "%.1f%%", 100 * r }')
  lo=$(awk -v r="$(field p1_score_low "$json")" 'BEGIN { printf "%.1f%%", 100 * r }')
  hi=$(awk -v r="$(field p1_score_high "$json")" 'BEGIN { printf "%.1f%%", 100 * r }')
  ok=$(awk -v r="$(field p1_score_rate "$json")" -v t="$target" \
    'BEGIN { print (r >= t ? "yes" : "**no**") }')
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s to %s | %d%% | %s | %s | %ds |\n' \
    "$rules" "$p1" "$p2" "$games" "$(field p1_wins "$json")" "$(field draws "$json")" \
    "$(field p2_wins "$json")" "$pct" "$lo" "$hi" \
    "$(awk -v t="$target" 'BEGIN { printf "%d", 100 * t }')" "$ok" \
    "$(field repeated "$json")" "$(($(date +%s) - start))"
}

echo "| rules | p1 | p2 | games | p1 wins | draws | p1 losses | p1 score | 95% interval | target | met | repeated | time |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for variant in "${variants[@]}"; do
  row "$variant" medium easy 0.75
  row "$variant" hard medium 0.75
  if [ "$top" = expert ]; then
    row "$variant" expert hard 0.75
  fi
done
