#!/usr/bin/env bash
# The main job: installs what is missing, builds Yinsh Lab (Release), then
# runs a self-play experiment into the default database results/yinsh.db
# and prints its summary. A few minutes on a 2-core machine.
#   GAMES   games in the run (default 400)
#   AGENT   both sides' agent (default mcts:sims=300)
#   SEED    the run seed (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-400}
AGENT=${AGENT:-mcts:sims=300}
SEED=${SEED:-1}

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

echo "== self-play: $GAMES games, $AGENT against itself, seed $SEED, into results/yinsh.db ==" >&2
build/yinsh selfplay --games "$GAMES" --agent "$AGENT" --seed "$SEED" --db results/yinsh.db
