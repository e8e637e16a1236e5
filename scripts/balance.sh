#!/usr/bin/env bash
# The balance study behind results/balance.md: the study file
# studies/balance.ini (`yinsh study`): self-play in both variants at five
# strengths (random play, MCTS at 50, 200, 600 and 1000 simulations per
# move, the same agent on both sides), every run with a fixed seed and
# name, into one study database (results/balance.db), then the report of
# those runs (results/balance/).
#
# Every number in results/balance.md comes from these runs. Game i of a
# run depends only on (seed, i), so rerunning this script on any machine
# and any number of threads gives the same games and the same report
# (the timings in it aside).
#
# The script can be interrupted and rerun: a finished run is skipped, an
# unfinished one is resumed, a missing one played. The database and the
# report folder are named in the study file.
#   YINSH   the yinsh binary (default: build/yinsh, built here in Release)
#   THREADS self-play threads (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-$(nproc)}

if [ -z "${YINSH:-}" ]; then
  bash scripts/setup.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" >/dev/null
  YINSH=build/yinsh
fi

"$YINSH" study studies/balance.ini --threads "$THREADS"
