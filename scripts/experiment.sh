#!/usr/bin/env bash
# The main job: installs what is missing, builds Yinsh Lab (Release), then
# runs the study file studies/main.ini (`yinsh study`): a small version of
# the balance study (results/balance.md) into the default database
# yinsh.db at the repository's top (self-play in both variants at three
# strengths, the same agent on both sides, 200 games each; .gitignore
# covers it), and prints its report (also written, with its pictures, to
# results/report/, which .gitignore covers too). 11 s of play on a 2-core
# machine, after the build.
#
# The study file fixes every run's name and seed, so running this again
# plays nothing (each run is already complete) and an interrupted job picks
# up where it stopped. For another study, copy studies/main.ini, change it
# (a new `name`, so that its runs do not clash with these), and pass it:
#   bash scripts/experiment.sh my-study.ini
#   THREADS  self-play threads (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
STUDY=${1:-studies/main.ini}
THREADS=${THREADS:-$(nproc)}

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

build/yinsh study "$STUDY" --threads "$THREADS"
