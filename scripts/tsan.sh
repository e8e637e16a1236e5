#!/bin/sh
# ThreadSanitizer check of self-play: builds yinsh with clang,
# -fsanitize=thread and LLVM's OpenMP runtime (libomp-dev, which TSan
# understands) in its own build directory, then plays small multi-threaded
# runs: with the database, a resume, without the database, tree-parallel
# search (mcts:threads=2) and Lazy SMP alpha-beta (ab:threads=3) inside
# games, and (where the
# build has MPI) an MPI job's rank 0 receiving games. Any report
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
# Tree-parallel MCTS inside one game (mcts:threads=2): the search's own
# pthreads share one tree beside the OpenMP game threads; with the solver
# and evaluated leaves too, so that proofs and priors are shared as well.
echo "tsan: tree-parallel search, threads=2 in games on 2 OpenMP threads"
"$yinsh" selfplay --games 4 --white mcts:sims=300,threads=2 --black mcts:sims=200,rollout=4,solver=1,prior=1,threads=2 \
    --threads 2 --seed 5 --no-db --quiet >/dev/null
# Lazy SMP alpha-beta inside one game (ab:threads=3): the helpers share
# the transposition table without locks (selfplay/search/ab.c) and stop
# with the caller's search.
echo "tsan: tree-parallel PUCT, threads=2 and batches of 4, in games on 2 OpenMP threads"
"$yinsh" selfplay --games 2 --agent mcts:sims=200,c=1,eval=net:eval/nets/pv32.nnue,puct=1,threads=2,batch=4,noise=0.25 \
    --threads 2 --seed 7 --no-db --quiet >/dev/null
echo "tsan: Lazy SMP alpha-beta, threads=3 in games on 2 OpenMP threads"
"$yinsh" selfplay --games 2 --white ab:depth=4,threads=3,tech=killers+asp+lmr+nmp+fut+qs --black random \
    --threads 2 --seed 6 --no-db --quiet >/dev/null
# ABDADA (ab:smp=abdada): the threads also share a table of the positions
# being searched, marked and cleared with atomics.
echo "tsan: ABDADA alpha-beta, threads=3 in games on 2 OpenMP threads"
"$yinsh" selfplay --games 2 --white ab:depth=5,threads=3,smp=abdada,tech=killers+asp+lmr+nmp+fut+qs --black random \
    --threads 2 --seed 6 --no-db --quiet >/dev/null
# DEFER (ab:smp=defer): Lazy SMP whose helpers defer over that table, the
# main thread marking only.
echo "tsan: Lazy SMP with deferring helpers alpha-beta, threads=3 in games on 2 OpenMP threads"
"$yinsh" selfplay --games 2 --white ab:depth=5,threads=3,smp=defer,tech=killers+asp+lmr+nmp+fut+qs --black random \
    --threads 2 --seed 6 --no-db --quiet >/dev/null
# SKIP (ab:smp=skip): Lazy SMP whose helpers skip depths, read the main
# thread's completed depth and leave a depth it completes.
echo "tsan: Lazy SMP with helpers skipping depths alpha-beta, threads=3 in games on 2 OpenMP threads"
"$yinsh" selfplay --games 2 --white ab:depth=6,threads=3,smp=skip,tech=killers+asp+lmr+nmp+fut+qs --black random \
    --threads 2 --seed 6 --no-db --quiet >/dev/null
# The rank-0 receive path of an MPI job (selfplay/play/distribute.c): rank 0's
# serve thread hands the other ranks' games to the writer beside its own
# game threads. Only where the build has MPI and mpirun is installed.
if [ -f "$build/CMakeFiles/play.dir/selfplay/play/distribute.c.o" ] && command -v mpirun >/dev/null; then
  echo "tsan: MPI, 3 ranks of 2 threads, with the database"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 3 \
      -x TSAN_OPTIONS "$yinsh" selfplay --games 30 --white mcts:sims=20 --black random --threads 2 --seed 4 \
      --db "$tmp/mpi.db" --run mpi --quiet >/dev/null
fi
echo "tsan: no race reported"
