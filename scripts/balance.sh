#!/usr/bin/env bash
# The balance study behind results/balance.md: self-play in both variants at
# five strengths (random play, MCTS at 50, 200, 600 and 1000 simulations
# per move, the same agent on both sides), every run with a fixed seed and
# name, into one study database, then `yinsh report` on those runs.
#
# Every number in results/balance.md comes from the runs below. Game i of a
# run depends only on (seed, i), so rerunning this script on any machine
# and any number of threads gives the same games and the same report
# (the timings in it aside).
#
# The script can be interrupted and rerun: a finished run is skipped, an
# unfinished one is resumed (`yinsh selfplay --resume`).
#   DB      the study database (default results/balance.db; not committed)
#   OUT     where the report and its pictures go (default results/balance)
#   YINSH   the yinsh binary (default: build/yinsh, built here in Release)
#   THREADS self-play threads (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-results/balance.db}
OUT=${OUT:-results/balance}
THREADS=${THREADS:-$(nproc)}

if [ -z "${YINSH:-}" ]; then
  bash scripts/setup.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" >/dev/null
  YINSH=build/yinsh
fi

# name                     variant   agent          games  seed
RUNS="
balance-standard-random    standard  random          2000  5101
balance-blitz-random       blitz     random          2000  5102
balance-standard-sims50    standard  mcts:sims=50     800  5103
balance-blitz-sims50       blitz     mcts:sims=50     800  5104
balance-standard-sims200   standard  mcts:sims=200    800  5105
balance-blitz-sims200      blitz     mcts:sims=200    800  5106
balance-standard-sims600   standard  mcts:sims=600   1600  5107
balance-blitz-sims600      blitz     mcts:sims=600   1600  5108
balance-standard-sims1000  standard  mcts:sims=1000  1600  5109
balance-blitz-sims1000     blitz     mcts:sims=1000  1600  5110
"

names=()
while read -r name variant agent games seed; do
  [ -n "$name" ] || continue
  names+=("$name")
  state=$( { sqlite3 "$DB" "SELECT CASE WHEN finished_at IS NULL THEN 'open' ELSE 'done' END FROM run WHERE name = '$name'" 2>/dev/null; } || true)
  case "$state" in
    done) echo "== $name: finished, skipped ==" >&2 ;;
    open) echo "== $name: resuming ==" >&2
          "$YINSH" selfplay --resume "$name" --db "$DB" --threads "$THREADS" ;;
    *)    echo "== $name: $games games, $variant, $agent, seed $seed ==" >&2
          "$YINSH" selfplay --games "$games" --variant "$variant" --agent "$agent" --seed "$seed" \
                   --run "$name" --db "$DB" --threads "$THREADS" ;;
  esac
done <<< "$RUNS"

runs=$(IFS=,; echo "${names[*]}")
"$YINSH" report --db "$DB" --runs "$runs" --out "$OUT"
