#!/bin/sh
# The Slurm scripts of scripts/cluster/ (there is no Slurm here): each must
# parse (bash -n), and their yinsh lines must work, run here at small
# sizes with the environment Slurm would give them: the job array's three
# tasks and the merge, then the MPI job (mpirun --oversubscribe -np 3 as
# its launcher, when the build has MPI). Both databases must hold the same
# games, each run finished. Then what needs no Slurm of the rest, with fake
# tools (module, cmake, sbatch, launchers) and a fake job environment: the
# commented site settings, the build on the node (BUILD=1, NATIVE=OFF)
# after the modules (MODULES), the node-local database copied home by the
# EXIT trap (HOME_DB: after a success, a failure and a signal passed on to
# the step; LOCAL=1 for a shard), and the options submit-array.sh gives
# sbatch.
# Usage: cluster_check.sh YINSH SOURCE_DIR [MPIEXEC]
set -eu
# absolute paths: the checks run in a temporary folder
case $1 in
  */*) yinsh=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
  *) yinsh=$1 ;;
esac
src=$(cd "$2" && pwd)
mpiexec=${3:-}
for f in "$src"/scripts/cluster/*.sbatch "$src"/scripts/cluster/*.sh; do
  bash -n "$f" || { echo "cluster_check: $f does not parse" >&2; exit 1; }
done
for f in "$src"/scripts/cluster/*.sbatch; do
  grep -q '^##SBATCH --partition=' "$f" && grep -q '^##SBATCH --account=' "$f" ||
    { echo "cluster_check: $f lacks the commented site settings (partition, account)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export YINSH="$yinsh" GAMES=24 AGENT=mcts:sims=20 SEED=4 SHARDS="$tmp/shards" SLURM_CPUS_PER_TASK=1 SRC="$src"
cd "$tmp"
for k in 1 2 3; do
  SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 RUN=cl bash "$src/scripts/cluster/selfplay-array.sbatch" >task.out 2>&1 ||
    { echo "cluster_check: array task $k failed (exit $?):" >&2; cat task.out >&2; exit 1; }
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

# ---- what needs no Slurm, with fake tools ----------------------------------
mkdir -p "$tmp/bin" "$tmp/src"
ln -s "$src/scripts" "$tmp/src/scripts" # a source folder whose builds land in $tmp
export TOOLS_LOG="$tmp/tools.log" REAL_YINSH="$yinsh"
: >"$TOOLS_LOG"
# module and cmake write down how they were called; cmake --build DIR
# leaves DIR/yinsh, which runs the real one
cat >"$tmp/bin/module" <<'TOOL'
#!/bin/sh
echo "module $*" >>"$TOOLS_LOG"
TOOL
cat >"$tmp/bin/cmake" <<'TOOL'
#!/bin/sh
echo "cmake $*" >>"$TOOLS_LOG"
if [ "$1" = --build ]; then
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$REAL_YINSH" >"$2/yinsh"
  chmod +x "$2/yinsh"
fi
TOOL
chmod +x "$tmp/bin/module" "$tmp/bin/cmake"

# BUILD=1 NATIVE=OFF: the modules, then a portable build into the node's
# folder, then the task plays with that build
PATH="$tmp/bin:$PATH" SRC="$tmp/src" SLURMD_NODENAME=node7 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 \
  YINSH=/nonexistent BUILD=1 NATIVE=OFF MODULES="gcc/12 openmpi" GAMES=4 RUN=cb SHARDS="$tmp/bshards" \
  bash "$src/scripts/cluster/selfplay-array.sbatch" >build.out 2>&1 || { cat build.out >&2; exit 1; }
bdir="$tmp/src/build-node-node7"
sed -n 1p "$TOOLS_LOG" | grep -qx "module load gcc/12 openmpi" &&
  sed -n 2p "$TOOLS_LOG" | grep -q -- "^cmake -S $tmp/src -B $bdir .*-DYINSH_NATIVE=OFF" &&
  sed -n 2p "$TOOLS_LOG" | grep -q -- "-DCMAKE_BUILD_TYPE=Release" &&
  sed -n 3p "$TOOLS_LOG" | grep -q -- "^cmake --build $bdir .*--target yinsh" ||
  { echo "cluster_check: BUILD=1 NATIVE=OFF MODULES=...: not the module load and the portable build wanted:" >&2; cat "$TOOLS_LOG" >&2; exit 1; }
"$yinsh" export --db "$tmp/bshards/shard-1.db" --run cb | grep -q '^\[Index "3"\]' ||
  { echo "cluster_check: the task built on the node did not play its shard" >&2; cat build.out >&2; exit 1; }
# BUILD=1 alone builds for the node's CPU (the merge job too)
: >"$TOOLS_LOG"
PATH="$tmp/bin:$PATH" SRC="$tmp/src" SLURMD_NODENAME=node8 YINSH=/nonexistent BUILD=1 SHARDS="$tmp/bshards" \
  DB="$tmp/bmerged.db" bash "$src/scripts/cluster/merge.sbatch" >bmerge.out 2>&1 || { cat bmerge.out >&2; exit 1; }
grep -q -- "^cmake -S $tmp/src -B $tmp/src/build-node-node8 .*-DYINSH_NATIVE=ON" "$TOOLS_LOG" ||
  { echo "cluster_check: BUILD=1: not a native build on the node:" >&2; cat "$TOOLS_LOG" >&2; exit 1; }

# HOME_DB: the MPI job plays into a copy on the node's local disk, copied
# home when the job ends: after a success, after a failure, and after a
# signal (the script passes it on to the step, waits for the step to end,
# then copies). A fake scheduler: the job id, the node's disk, and
# launchers in place of srun.
cat >"$tmp/bin/launch-fail" <<'TOOL'
#!/bin/sh
# the step runs, then the launcher fails
"$@"
exit 3
TOOL
cat >"$tmp/bin/launch-signal" <<'TOOL'
#!/bin/sh
# As srun: TERM is passed on to the step, and the launcher waits for it.
# Once the run has stored a game it signals the job's script, as Slurm's
# --signal does; after the step it writes to the database once more (the
# run "late"), which a copy made before the launcher ended would lack.
"$@" &
step=$!
trap 'kill -TERM $step 2>/dev/null' TERM
while kill -0 $step 2>/dev/null &&
  ! "$REAL_YINSH" export --db "$LATE_DB" --run cs 2>/dev/null | grep -q '^\[Index'; do
  sleep 0.05
done
kill -TERM $PPID
while :; do
  wait $step
  rc=$?
  kill -0 $step 2>/dev/null || break
done
"$REAL_YINSH" selfplay --games 2 --agent random --seed 1 --run late --db "$LATE_DB" --quiet >/dev/null
exit $rc
TOOL
chmod +x "$tmp/bin/launch-fail" "$tmp/bin/launch-signal"
home="$tmp/home/cl.db"
local_db="$tmp/node/yinsh-77/cl.db"

# a success: the run copied home, the local copy removed
SLURM_JOB_ID=77 LOCAL_DIR="$tmp/node" HOME_DB="$home" LAUNCH=env RUN=cl \
  bash "$src/scripts/cluster/selfplay-mpi.sbatch" >home.out 2>&1 || { cat home.out >&2; exit 1; }
[ -f "$home" ] && [ ! -f "$local_db" ] && [ "$(hash_of "$home" cl)" = "$one" ] ||
  { echo "cluster_check: HOME_DB: the finished run is not at home, or the local copy was left:" >&2; cat home.out >&2; exit 1; }

# a failure: the job's status is the step's, and the database still goes home
rm -f "$home"
rc=0
SLURM_JOB_ID=77 LOCAL_DIR="$tmp/node" HOME_DB="$home" LAUNCH="$tmp/bin/launch-fail" RUN=cl \
  bash "$src/scripts/cluster/selfplay-mpi.sbatch" >fail.out 2>&1 || rc=$?
[ "$rc" = 3 ] && [ "$(hash_of "$home" cl)" = "$one" ] ||
  { echo "cluster_check: HOME_DB: a failed job (status $rc) did not copy its database home:" >&2; cat fail.out >&2; exit 1; }

# a signal: passed on to the step, which stops (status 143) keeping the
# games it finished; the copy waits for the step's end (it holds "late");
# then a resume on another node (a fresh local disk) starts from the home
# copy and finishes the run as one process plays it. (A run long enough to
# be signalled halfway: 40 games at 100 simulations.)
"$yinsh" selfplay --games 40 --agent mcts:sims=100 --seed 4 --db "$tmp/one-s.db" --run cs --quiet >/dev/null
one_s=$(hash_of "$tmp/one-s.db" cs)
rm -f "$home"
rc=0
SLURM_JOB_ID=78 LOCAL_DIR="$tmp/node" HOME_DB="$home" LAUNCH="$tmp/bin/launch-signal" \
  LATE_DB="$tmp/node/yinsh-78/cl.db" RUN=cs GAMES=40 AGENT=mcts:sims=100 \
  bash "$src/scripts/cluster/selfplay-mpi.sbatch" >signal.out 2>&1 || rc=$?
stored=$("$yinsh" export --db "$home" --run cs 2>/dev/null | grep -c '^\[Index' || true)
grep -q "signalled: stopping the run" signal.out && "$yinsh" export --db "$home" --run late >/dev/null 2>&1 &&
  { [ "$stored" = 40 ] || [ "$rc" = 143 ]; } ||
  { echo "cluster_check: HOME_DB: after a signal (status $rc, $stored games) the database was not copied home after the step:" >&2
    cat signal.out >&2; exit 1; }
SLURM_JOB_ID=79 LOCAL_DIR="$tmp/node2" HOME_DB="$home" LAUNCH=env RUN=cs RESUME=1 TAKE_OVER=1 \
  bash "$src/scripts/cluster/selfplay-mpi.sbatch" >resume.out 2>&1 || { cat resume.out >&2; exit 1; }
[ "$(hash_of "$home" cs)" = "$one_s" ] ||
  { echo "cluster_check: HOME_DB: the run resumed from the home copy is not the run of one process" >&2; exit 1; }

# LOCAL=1: an array task plays its shard on the node's disk, copied to SHARDS
SLURM_ARRAY_JOB_ID=55 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 LOCAL=1 LOCAL_DIR="$tmp/anode" \
  SHARDS="$tmp/lshards" GAMES=4 RUN=cl4 bash "$src/scripts/cluster/selfplay-array.sbatch" >local.out 2>&1 ||
  { cat local.out >&2; exit 1; }
[ ! -f "$tmp/anode/yinsh-55-1/shard-1.db" ] &&
  "$yinsh" export --db "$tmp/lshards/shard-1.db" --run cl4 | grep -q '^\[Index "3"\]' ||
  { echo "cluster_check: LOCAL=1: the shard was not copied to SHARDS:" >&2; cat local.out >&2; exit 1; }

# submit-array.sh: the array, then the merge after it, both with the options given
cat >"$tmp/bin/sbatch" <<'TOOL'
#!/bin/sh
echo "sbatch $*" >>"$TOOLS_LOG"
echo "4242;cluster1"
TOOL
chmod +x "$tmp/bin/sbatch"
: >"$TOOLS_LOG"
PATH="$tmp/bin:$PATH" bash "$src/scripts/cluster/submit-array.sh" 3 -p part -A acct >submit.out 2>&1 ||
  { cat submit.out >&2; exit 1; }
sed -n 1p "$TOOLS_LOG" | grep -q -- "--array=1-3 -p part -A acct .*/selfplay-array.sbatch$" &&
  sed -n 2p "$TOOLS_LOG" | grep -q -- "--dependency=afterany:4242 -p part -A acct .*/merge.sbatch$" ||
  { echo "cluster_check: submit-array.sh 3 -p part -A acct: not the sbatch calls wanted:" >&2; cat "$TOOLS_LOG" >&2; exit 1; }

# A whole study as a job array (study-array.sbatch, merge.sbatch,
# study-report.sbatch): three tasks, one run again (it resumes its shard),
# the merge, then the report job, which plays nothing; the games are those
# of the study played whole by one process. Then submit-study.sh's sbatch
# calls, and its refusal of a missing file.
mkdir -p "$tmp/st" "$tmp/whole"
cat >"$tmp/st/s.ini" <<'INI'
[study]
name = cs
db = cs.db
seed = 40
games = 6
variants = standard, blitz
opening = random:4
[agent random]
spec = random
[agent s20]
spec = mcts:sims=20
games = 4
[ladder]
levels = random, s20
games = 4
[report]
out = report
plots = no
INI
cp "$tmp/st/s.ini" "$tmp/whole/s.ini"
(
  cd "$tmp/st"
  for k in 1 2 3 2; do
    SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 STUDY=s.ini SHARDS=sh bash "$src/scripts/cluster/study-array.sbatch" \
      >task.out 2>&1 || { echo "cluster_check: study array task $k failed:" >&2; cat task.out >&2; exit 1; }
  done
  SHARDS=sh DB=cs.db bash "$src/scripts/cluster/merge.sbatch" >merge.out 2>&1 || { cat merge.out >&2; exit 1; }
  STUDY=s.ini bash "$src/scripts/cluster/study-report.sbatch" >report.out 2>&1 || { cat report.out >&2; exit 1; }
  grep -q "6 complete, 0 unfinished, 0 to play" report.out && [ -f report/report.md ] ||
    { echo "cluster_check: the study's report job did not find every run merged:" >&2; cat merge.out report.out >&2; exit 1; }
) || exit 1
(cd "$tmp/whole" && "$yinsh" study s.ini --quiet) || exit 1
for r in cs-standard-random cs-blitz-s20 cs-standard-s20-vs-random; do
  [ "$(hash_of "$tmp/st/cs.db" $r)" = "$(hash_of "$tmp/whole/cs.db" $r)" ] ||
    { echo "cluster_check: the study's run $r from shards is not the run of one process" >&2; exit 1; }
done
: >"$TOOLS_LOG"
PATH="$tmp/bin:$PATH" bash "$src/scripts/cluster/submit-study.sh" "$tmp/st/s.ini" 3 -p part >submit.out 2>&1 ||
  { cat submit.out >&2; exit 1; }
sed -n 1p "$TOOLS_LOG" | grep -q -- "--array=1-3 -p part .*/study-array.sbatch$" &&
  sed -n 2p "$TOOLS_LOG" | grep -q -- "--dependency=afterany:4242 -p part .*/merge.sbatch$" &&
  sed -n 3p "$TOOLS_LOG" | grep -q -- "--dependency=afterok:4242 -p part .*/study-report.sbatch$" &&
  grep -q "as 3 shards into $tmp/shards, merged into cs.db" submit.out ||
  { echo "cluster_check: submit-study.sh s.ini 3 -p part: not the sbatch calls wanted:" >&2; cat "$TOOLS_LOG" submit.out >&2; exit 1; }
if PATH="$tmp/bin:$PATH" bash "$src/scripts/cluster/submit-study.sh" "$tmp/st/none.ini" >submit.out 2>&1; then
  echo "cluster_check: submit-study.sh took a missing study file" >&2; exit 1
fi
echo "cluster_check: BUILD=1 (portable and native) after MODULES, HOME_DB copied home (success, failure, signal, resumed), LOCAL=1, submit-array.sh's options; a study as an array, merged and reported, and submit-study.sh"
