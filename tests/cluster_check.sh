#!/bin/sh
# The Slurm scripts of scripts/cluster/ (there is no Slurm here): each must
# parse (bash -n), and their yinsh lines must work, run here at small
# sizes with the environment Slurm would give them: the job array's three
# tasks and the merge, then the MPI job (mpirun --oversubscribe -np 3 as
# its launcher, when the build has MPI). Both databases must hold the same
# games, each run finished.
# Usage: cluster_check.sh YINSH SOURCE_DIR [MPIEXEC]
set -eu
yinsh=$1
src=$2
mpiexec=${3:-}
for f in "$src"/scripts/cluster/*.sbatch "$src"/scripts/cluster/*.sh; do
  bash -n "$f" || { echo "cluster_check: $f does not parse" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export YINSH="$yinsh" GAMES=24 AGENT=mcts:sims=20 SEED=4 SHARDS="$tmp/shards" SLURM_CPUS_PER_TASK=1
cd "$tmp"
for k in 1 2 3; do
  SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 RUN=cl bash "$src/scripts/cluster/selfplay-array.sbatch" >/dev/null 2>&1 ||
    { echo "cluster_check: array task $k failed" >&2; exit 1; }
done
# a task run again resumes its shard and plays nothing
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=3 RUN=cl bash "$src/scripts/cluster/selfplay-array.sbatch" >/dev/null 2>&1 ||
  { echo "cluster_check: array task 2, run again, failed" >&2; exit 1; }
DB="$tmp/merged.db" bash "$src/scripts/cluster/merge.sbatch" >merge.out 2>&1 || { cat merge.out >&2; exit 1; }
grep -q "24/24 games: finished" merge.out || { echo "cluster_check: the merge did not finish the run:" >&2; cat merge.out >&2; exit 1; }

# a run's games as records, without what differs between copies of it
# (the uid, dates, commit)
hash_of() {
  "$yinsh" export --db "$1" --run "$2" | grep -v '^\[\(Date\|RunUid\|Version\|Commit\)' | cksum
}
"$yinsh" selfplay --games 24 --agent mcts:sims=20 --seed 4 --db "$tmp/one.db" --run cl --quiet >/dev/null
one=$(hash_of "$tmp/one.db" cl)
[ "$(hash_of "$tmp/merged.db" cl)" = "$one" ] || { echo "cluster_check: the merged shards are not the run of one process" >&2; exit 1; }

if [ -n "$mpiexec" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  # (the ASan build: LeakSanitizer cannot see into Open MPI's plugins,
  # unloaded at exit; no leak check in the ranks, as in test_mpi)
  if [ -n "${ASAN_OPTIONS:-}" ]; then export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"; fi
  LAUNCH="$mpiexec --oversubscribe -np 3" DB="$tmp/mpi.db" RUN=cl bash "$src/scripts/cluster/selfplay-mpi.sbatch" \
    >mpi.out 2>&1 || { cat mpi.out >&2; exit 1; }
  [ "$(hash_of "$tmp/mpi.db" cl)" = "$one" ] || { echo "cluster_check: the MPI job's run is not the run of one process" >&2; exit 1; }
  LAUNCH="$mpiexec --oversubscribe -np 2" DB="$tmp/mpi.db" RUN=cl RESUME=1 bash "$src/scripts/cluster/selfplay-mpi.sbatch" \
    >mpi.out 2>&1 || { cat mpi.out >&2; exit 1; }
  echo "cluster_check: the array, the merge and the MPI job give the games of one process"
else
  echo "cluster_check: the array and the merge give the games of one process (no MPI in this build: its job not run)"
fi
