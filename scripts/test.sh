#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds and runs the tests
# in Release with the default compiler (clang) and again with gcc, checks
# the pinned games of a build without -march=native (all three must play
# the same games), builds and tests under AddressSanitizer +
# UndefinedBehaviorSanitizer, runs every fuzz target for a bounded time,
# and the ThreadSanitizer check of a multi-threaded self-play run (and of
# an MPI job's rank 0 receiving games, where the build has MPI). Any
# failure fails the script.
#   FUZZ_SECONDS   fuzzing time per target (default 30)
#   JOBS           parallel build jobs (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}

bash scripts/setup.sh

step() { printf '\n== %s ==\n' "$*"; }

# configure DIR COMPILER ARGS...: DIR configured for COMPILER. CMake keeps
# the compiler a build directory was first configured with, so a directory
# left from another compiler starts afresh.
configure() {
  local dir=$1 cc=$2 want had
  shift 2
  want=$(command -v "$cc") || { echo "test.sh: no $cc on PATH (scripts/setup.sh installs it)" >&2; exit 1; }
  if [ -f "$dir/CMakeCache.txt" ]; then
    had=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
    [ "$had" = "$want" ] || rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$want" "$@" >/dev/null
}

step "Release build (clang, the default compiler) and tests"
configure build clang -DCMAKE_BUILD_TYPE=Release -DYINSH_WERROR=ON
cmake --build build -j"$JOBS"
ctest --test-dir build --output-on-failure -j"$JOBS"

step "Release build with gcc: tests, and the same pinned games"
# Games must not depend on the compiler: bench_quick (in ctest) holds this
# build to the same pinned counts and play hashes as the clang build.
configure build-gcc gcc -DCMAKE_BUILD_TYPE=Release -DYINSH_WERROR=ON
cmake --build build-gcc -j"$JOBS"
ctest --test-dir build-gcc --output-on-failure -j"$JOBS"

step "Portable build (no -march=native): the same pinned games"
# Without AVX2 the engine's three-lane sets are scalar words, not vectors
# (engine/geometry.h): another code path, which must play the same games.
configure build-portable clang -DCMAKE_BUILD_TYPE=Release -DYINSH_WERROR=ON -DYINSH_NATIVE=OFF -DYINSH_TESTS=OFF
cmake --build build-portable -j"$JOBS" --target yinsh
sh tests/bench_quick.sh build-portable/yinsh "$ROOT"

step "AddressSanitizer + UndefinedBehaviorSanitizer build and tests (assertions on)"
# Debug keeps assert(): the engine rechecks every derived field of the
# position after each make and unmake (pos_check).
configure build-asan clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DYINSH_WERROR=ON \
      -DYINSH_SANITIZE=address,undefined
cmake --build build-asan -j"$JOBS"
# (intercept_tls_get_addr=0: tests/CMakeLists.txt says why; ctest sets the
# same for its tests)
# (tests/lsan.supp: a leak of Criterion's own runner, not ours)
ASAN_OPTIONS=intercept_tls_get_addr=0:detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" ctest --test-dir build-asan --output-on-failure -j"$JOBS"

# Every parser of outside text has a libFuzzer target with a seed corpus
# (tests/fuzz/CMakeLists.txt lists them: the YPN, action and game-record
# parsers, the agent-spec parser, the weights loader, the INI reader of
# study files, the UYI command reader with its bounded line reader, the
# engines file reader, the boardspace.net record reader, the opening-book
# reader), built by CMake from the concept libraries. Each runs for
# FUZZ_SECONDS on a copy of its corpus.
step "libFuzzer targets (AddressSanitizer + UndefinedBehaviorSanitizer)"
configure build-fuzz clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DYINSH_WERROR=ON \
      -DYINSH_TESTS=OFF -DYINSH_FUZZ=ON -DYINSH_SANITIZE=address,undefined
cmake --build build-fuzz -j"$JOBS" --target fuzz
mkdir -p build-fuzz/run
while read -r name corpus; do
    step "Fuzzing $name (${FUZZ_SECONDS}s)"
    rm -rf "build-fuzz/run/corpus-$name" && mkdir -p "build-fuzz/run/corpus-$name"
    (cd build-fuzz/run && "../tests/fuzz/$name" -max_total_time="$FUZZ_SECONDS" -max_len=4096 -print_final_stats=1 \
       "corpus-$name" "$ROOT/tests/fuzz/$corpus" 2>"$name.log") ||
        { tail -40 "build-fuzz/run/$name.log"; echo "fuzzer $name found a problem" >&2; exit 1; }
    grep -E "stat::number_of_executed_units" "build-fuzz/run/$name.log" || true
done <build-fuzz/fuzz-targets.txt

if [ -f scripts/tsan.sh ]; then
  step "ThreadSanitizer: multi-threaded self-play"
  bash scripts/tsan.sh
fi

step "all tests passed"
