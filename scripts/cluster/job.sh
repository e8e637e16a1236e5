# What the batch scripts of scripts/cluster/ share (docs/cluster.md):
# loading the site's modules, building yinsh on the node, running a step
# with the job's signals passed on, and a database on node-local disk
# copied home when the job ends. Sourced (not run) by each .sbatch script
# after `set -euo pipefail`; every function reads the script's settings.

JOB=${SLURM_JOB_NAME:-yinsh}

# MODULES: names for `module load` (Lmod or Environment Modules), e.g.
# "gcc/12 openmpi/4.1 cmake", loaded before anything is built or run. A
# batch shell need not have the login shell's `module` function: it is
# read from the usual init scripts when missing.
job_modules() {
  [ -n "${MODULES:-}" ] || return 0
  set +u # init scripts and modulefiles read variables that may be unset
  if ! type module >/dev/null 2>&1; then
    for init in /etc/profile.d/lmod.sh /etc/profile.d/modules.sh /usr/share/lmod/lmod/init/bash \
      /usr/share/modules/init/bash; do
      if [ -f "$init" ]; then
        . "$init"
        break
      fi
    done
  fi
  # shellcheck disable=SC2086 # a list of names
  module load $MODULES
  set -u
}

# BUILD=1: configure and build yinsh on this node before running it, into
# BUILD_DIR (default SRC/build-node-<node name>), and run that build. The
# build is for this node's CPU (-march=native) unless NATIVE=OFF (a
# portable build). Tasks sharing a node take turns (flock); a build that
# is up to date costs seconds.
job_build() {
  [ "${BUILD:-0}" = 1 ] || return 0
  BUILD_DIR=${BUILD_DIR:-$SRC/build-node-${SLURMD_NODENAME:-$(hostname -s)}}
  mkdir -p "$BUILD_DIR"
  echo "$JOB: building yinsh in $BUILD_DIR (-DYINSH_NATIVE=${NATIVE:-ON})" >&2
  (
    if command -v flock >/dev/null 2>&1; then flock 9; fi
    cmake -S "$SRC" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DYINSH_TESTS=OFF \
      -DYINSH_NATIVE="${NATIVE:-ON}" >&2
    cmake --build "$BUILD_DIR" -j "${SLURM_CPUS_PER_TASK:-1}" --target yinsh >&2
  ) 9>"$BUILD_DIR/.build-lock"
  YINSH=$BUILD_DIR/yinsh
}

# Runs a step (the launcher and yinsh) in the background and waits for it
# to end, passing TERM (and INT, as TERM) on to it: Slurm's warning signal
# (#SBATCH --signal=B:TERM@...) reaches only this shell, and yinsh, told
# to stop, stores the games it has finished. The script goes on only once
# the step has ended, so the EXIT trap of job_home_db copies the database
# after its last write. Returns the step's exit status.
job_run() {
  JOB_STEP=
  trap job_forward TERM INT
  "$@" &
  JOB_STEP=$!
  while kill -0 "$JOB_STEP" 2>/dev/null; do wait "$JOB_STEP" || true; done
  local rc=0
  wait "$JOB_STEP" || rc=$?
  trap - TERM INT
  return "$rc"
}
job_forward() {
  echo "$JOB: signalled: stopping the run (its finished games are kept)" >&2
  if [ -n "${JOB_STEP:-}" ]; then kill -TERM "$JOB_STEP" 2>/dev/null || true; fi
}

# Copies the SQLite database $1 to $2, with its write-ahead log when one
# is left (a writer killed outright), replacing what $2 held only once the
# whole copy is there. Run only while nothing writes $1. One && chain:
# called in an `if`, a function runs without set -e.
job_db_copy() {
  rm -f "$2.part" "$2.part-wal" &&
    cp "$1" "$2.part" &&
    { [ ! -f "$1-wal" ] || cp "$1-wal" "$2.part-wal"; } &&
    rm -f "$2-wal" "$2-shm" &&
    mv -f "$2.part" "$2" &&
    { [ ! -f "$2.part-wal" ] || mv -f "$2.part-wal" "$2-wal"; }
}

# HOME_DB set: the database's home, on a shared file system; the job plays
# into DB on this node's local disk instead. DB starts as a copy of HOME_DB
# (when it exists), and an EXIT trap, which runs however the script ends
# (success, a failure, a signal), copies it back to HOME_DB and then
# removes the local copy. A failed copy leaves the local copy in place
# and says where.
job_home_db() {
  [ -n "${HOME_DB:-}" ] || return 0
  mkdir -p "$(dirname "$DB")" "$(dirname "$HOME_DB")"
  if [ -f "$HOME_DB" ]; then
    job_db_copy "$HOME_DB" "$DB"
    echo "$JOB: playing in $DB, a copy of $HOME_DB" >&2
  fi
  trap job_copy_home EXIT
}
job_copy_home() {
  local rc=$?
  trap - EXIT
  if [ -f "$DB" ]; then
    if job_db_copy "$DB" "$HOME_DB"; then
      echo "$JOB: $DB copied to $HOME_DB" >&2
      rm -f "$DB" "$DB-wal" "$DB-shm"
    else
      echo "$JOB: copying $DB to $HOME_DB failed: the database stays on $(hostname -s) at $DB" >&2
      [ "$rc" != 0 ] || rc=1
    fi
  fi
  exit "$rc"
}
