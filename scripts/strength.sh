#!/usr/bin/env bash
# The strength measurements of docs/measurements/ladder.md ("Against OpenSpiel", "Accuracy",
# "Two threads"), printed as Markdown tables. Timed players: the figures depend on the
# machine and its load, which the output records.
#
# Usage: scripts/strength.sh [GAMES_100MS] [GAMES_500MS] [GAMES_THREADS]
#   (defaults 20 10 20; about 40 minutes on 2 cores)
# Installs open-spiel into .venv-openspiel when missing (scripts/openspiel-match.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
g100=${1:-20} g500=${2:-10} gthreads=${3:-20}
cargo build --release --quiet -p mancala
bin=${CARGO_TARGET_DIR:-target}/release/mancala
field() { sed "s/.*\"$1\":\([0-9.e-]*\).*/\1/" <<<"$2"; }
pct() { awk -v r="$1" 'BEGIN { printf "%.1f%%", 100 * r }'; }

echo "Started $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores."
echo
echo "### Against OpenSpiel's MCTS bot"
echo
echo "| rules | ms a move | p1 | games | p1 wins | draws | p1 losses | p1 score | 95% interval | forfeits | time |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
openspiel_row() { # variant ms p1 games
  local start json
  start=$(date +%s)
  json=$(scripts/openspiel-match.sh --variant "$1" --ms "$2" --p1 "$3" --games "$4" -- --json)
  printf '| %s(6,4) | %s | %s | %s | %s | %s | %s | %s | %s to %s | %s | %ds |\n' \
    "$1" "$2" "$3" "$(field games "$json")" "$(field p1_wins "$json")" \
    "$(field draws "$json")" "$(field p2_wins "$json")" \
    "$(pct "$(field p1_score_rate "$json")")" "$(pct "$(field p1_score_low "$json")")" \
    "$(pct "$(field p1_score_high "$json")")" "$(field forfeits "$json")" \
    "$(( $(date +%s) - start ))"
}
for variant in kalah oware; do
  openspiel_row "$variant" 100 master "$g100"
  openspiel_row "$variant" 100 expert "$g100"
done

echo
echo "### Accuracy against perfect play"
echo
echo "300 Kalah(6,4) positions with at most 20 seeds in play, reached by random moves from"
echo "the start (\`mancala bench accuracy\`): the share of moves that keep the exact value"
echo "(the final margin), and the share that keep the result (win, draw or loss)."
echo
echo "| player | positions | value kept | share | result kept | share | time |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
"$bin" bench accuracy --positions 300 --max-seeds 20 easy medium hard expert \
  alphabeta:ms=100 mcts:ms=100 master:ms=100,solve=0,probe=0 master:ms=100,solve=0 \
  master:ms=100 |
  while read -r json; do
    [[ -n $json ]] || continue
    player=$(sed 's/.*"player":"\([^"]*\)".*/\1/' <<<"$json")
    printf '| %s | %s | %s | %s | %s | %s | %.1fs |\n' "$player" "$(field positions "$json")" \
      "$(field exact "$json")" "$(pct "$(field share "$json")")" \
      "$(field result_kept "$json")" "$(pct "$(field result_share "$json")")" \
      "$(field seconds "$json")"
  done

echo
echo "### Two threads against one"
echo
echo "Speed (\`mancala bench threads --ms 500 --positions 10\`, all threads counted):"
echo
echo "| rules | search | threads | per second | depth |"
echo "| --- | --- | --- | --- | --- |"
for variant in kalah oware; do
  "$bin" bench threads --variant "$variant" --ms 500 --positions 10 |
    while read -r json; do
      [[ -n $json ]] || continue
      search=$(sed 's/.*"search":"\([^"]*\)".*/\1/' <<<"$json")
      printf '| %s(6,4) | %s | %s | %.0f | %.1f |\n' "$variant" "$search" \
        "$(field threads "$json")" "$(field per_sec "$json")" "$(field depth "$json")"
    done
done
echo
echo "Matches at 100 ms a move, one game at a time (\`--jobs 1\`):"
echo
echo "| rules | p1 | p2 | games | p1 score | 95% interval | time |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
threads_row() { # variant p1 p2
  local start json
  start=$(date +%s)
  json=$("$bin" match --variant "$1" --p1 "$2" --p2 "$3" --games "$gthreads" --swap \
    --seed 1 --opening-plies 4 --balanced 2 --jobs 1 --json)
  printf '| %s(6,4) | %s | %s | %s | %s | %s to %s | %ds |\n' "$1" "$2" "$3" \
    "$(field games "$json")" "$(pct "$(field p1_score_rate "$json")")" \
    "$(pct "$(field p1_score_low "$json")")" "$(pct "$(field p1_score_high "$json")")" \
    "$(( $(date +%s) - start ))"
}
for variant in kalah oware; do
  threads_row "$variant" alphabeta:ms=100,threads=2 alphabeta:ms=100
  threads_row "$variant" mcts:ms=100,threads=2 mcts:ms=100
done

echo
echo "### Against OpenSpiel at 500 ms"
echo
echo "| rules | ms a move | p1 | games | p1 wins | draws | p1 losses | p1 score | 95% interval | forfeits | time |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for variant in kalah oware; do
  openspiel_row "$variant" 500 master "$g500"
done
echo
echo "Finished $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
