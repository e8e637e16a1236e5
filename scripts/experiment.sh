#!/usr/bin/env bash
# The main job: installs what is missing, builds Yinsh Lab (Release), then
# runs a small version of the balance study (results/balance.md,
# scripts/balance.sh) into the default database results/yinsh.db: self-play
# in both variants at a few strengths, the same agent on both sides, and
# prints `yinsh report` for these runs (also written, with its pictures, to
# results/report/). A few minutes on a 2-core machine.
#   GAMES   games per variant and strength (default 200)
#   LEVELS  the agents, one per strength (default "random mcts:sims=100 mcts:sims=300")
#   SEED    the first run seed (default 1; run k uses SEED+k, so the games
#           are the same every time, though the run names are new)
#   OUT     where the report goes (default results/report)
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-200}
LEVELS=${LEVELS:-random mcts:sims=100 mcts:sims=300}
SEED=${SEED:-1}
OUT=${OUT:-results/report}
DB=results/yinsh.db

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

# A run name must be new in the database: the names carry this
# invocation's time and process id.
stamp="study-$(date -u +%Y%m%d-%H%M%S)-$$"
runs=()
seed=$SEED
for agent in $LEVELS; do
  label=$(printf '%s' "$agent" | sed -e 's/^mcts://' -e 's/[=,:]//g')
  for variant in standard blitz; do
    name="$stamp-$variant-$label"
    echo "== $name: $GAMES games, $variant, $agent against itself, seed $seed ==" >&2
    build/yinsh selfplay --games "$GAMES" --variant "$variant" --agent "$agent" --seed "$seed" \
                --run "$name" --db "$DB" >/dev/null
    runs+=("$name")
    seed=$((seed + 1))
  done
done

echo "== report: $OUT/report.md ==" >&2
build/yinsh report --db "$DB" --runs "$(IFS=,; echo "${runs[*]}")" --out "$OUT"
