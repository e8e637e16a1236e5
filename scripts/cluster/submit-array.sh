#!/bin/bash
# Submits the job array of shards and, after all of its tasks have ended
# (afterany: a failed task leaves its indices missing, which the merge
# reports), the merge job. Settings pass through the environment; sbatch
# options after N (a partition, an account, a QOS) go to both jobs.
#   bash scripts/cluster/submit-array.sh [N] [SBATCH OPTION...]   (N shards, default 16)
#   bash scripts/cluster/submit-array.sh 16 -p PARTITION -A ACCOUNT
set -euo pipefail
here=$(dirname "$0")
N=16
case "${1:-}" in
  '' | *[!0-9]*) ;;
  *) N=$1; shift ;;
esac
jid=$(sbatch --parsable --export=ALL --array="1-$N" "$@" "$here/selfplay-array.sbatch")
jid=${jid%%;*} # "id;cluster" on a federation
sbatch --parsable --export=ALL --dependency="afterany:$jid" "$@" "$here/merge.sbatch"
