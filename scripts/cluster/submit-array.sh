#!/bin/bash
# Submits the job array of shards and, after all of its tasks have ended
# (afterany: a failed task leaves its indices missing, which the merge
# reports), the merge job. Settings pass through the environment.
#   bash scripts/cluster/submit-array.sh [N]     (N shards, default 16)
set -euo pipefail
here=$(dirname "$0")
N=${1:-16}
jid=$(sbatch --parsable --export=ALL --array="1-$N" "$here/selfplay-array.sbatch")
sbatch --parsable --export=ALL --dependency="afterany:$jid" "$here/merge.sbatch"
