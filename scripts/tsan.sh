#!/bin/sh
# ThreadSanitizer check of self-play: builds yinsh with clang,
# -fsanitize=thread and LLVM's OpenMP runtime (libomp-dev, which TSan
# understands) in its own build directory, then plays small multi-threaded
# runs: with the database, a resume, and without the database. Any report
# from TSan fails the script (exit status 66).
#
#   scripts/tsan.sh            (build dir: build-tsan; TSAN_BUILD overrides)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TSAN_BUILD:-$root/build-tsan}
cc=${TSAN_CC:-clang}

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DYINSH_SANITIZE=thread -DYINSH_TESTS=OFF -DYINSH_NATIVE=OFF >/dev/null
cmake --build "$build" -j2 --target yinsh >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ignore_noninstrumented_modules=1 ${TSAN_OPTIONS:-}"
yinsh="$build/yinsh"

echo "tsan: 2 threads, mcts vs random, with the database"
"$yinsh" selfplay --games 12 --white mcts:sims=40 --black random --threads 2 --seed 1 \
    --db "$tmp/t.db" --run tsan --quiet >/dev/null
echo "tsan: 2 threads, a run cut short and resumed"
"$yinsh" selfplay --games 200 --agent random --threads 2 --seed 2 --db "$tmp/t.db" --run cut --quiet \
    >/dev/null &
pid=$!
sleep 1
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
"$yinsh" selfplay --resume cut --db "$tmp/t.db" --threads 2 --quiet >/dev/null
echo "tsan: 2 threads, no database, progress on"
"$yinsh" selfplay --games 40 --agent random --threads 2 --seed 3 --no-db >/dev/null 2>"$tmp/progress"
echo "tsan: no race reported"
