#!/bin/bash
# Submits a whole study file to Slurm (docs/cluster.md, "A study on a
# cluster"): the job array of N shards (study-array.sbatch), the merge of
# the shards into the study's database once every task has ended
# (merge.sbatch, afterany: a failed task's games are played by the last
# job), then the report (study-report.sbatch). sbatch options after N (a
# partition, an account, a QOS) go to all three.
#   bash scripts/cluster/submit-study.sh STUDY.ini [N] [SBATCH OPTION...]
#   bash scripts/cluster/submit-study.sh studies/replication.ini 16 -p PARTITION -A ACCOUNT
set -euo pipefail
here=$(dirname "$0")
STUDY=${1:?usage: submit-study.sh STUDY.ini [N] [SBATCH OPTION...]}
shift
[ -f "$STUDY" ] || { echo "submit-study.sh: no study file '$STUDY'" >&2; exit 2; }
N=16
case "${1:-}" in
  '' | *[!0-9]*) ;;
  *) N=$1; shift ;;
esac
# the study's database: its [study] section's db (default yinsh.db)
DB=$(awk '/^\[/ { s = ($0 ~ /^\[study\]/) } s && /^[ \t]*db[ \t]*=/ { sub(/^[^=]*=[ \t]*/, ""); sub(/[ \t]+[#;].*$/, ""); sub(/[ \t]+$/, ""); print; exit }' "$STUDY")
DB=${DB:-yinsh.db}
name=$(basename "$STUDY" .ini)
export STUDY DB SHARDS=${SHARDS:-results/shards-$name}
"${YINSH:-build/yinsh}" study "$STUDY" --check >/dev/null # the file, before anything is queued
jid=$(sbatch --parsable --export=ALL --array="1-$N" "$@" "$here/study-array.sbatch")
jid=${jid%%;*} # "id;cluster" on a federation
mid=$(sbatch --parsable --export=ALL --dependency="afterany:$jid" "$@" "$here/merge.sbatch")
mid=${mid%%;*}
sbatch --parsable --export=ALL --dependency="afterok:$mid" "$@" "$here/study-report.sbatch"
echo "submit-study.sh: $STUDY as $N shards into $SHARDS, merged into $DB, then the report" >&2
