#!/usr/bin/env bash
# Simulations per second of one agent spec in two yinsh builds, measured in
# one run: seeded self-play games on one thread (`selfplay --threads 1
# --no-db`), the binaries alternating round by round (A B, then B A, ...)
# so that drift of a shared machine's load cancels. Each build must print
# the same play hash (the same games, so the same simulations): the ratio
# of CPU times is then the ratio of speeds. Works with builds older than
# `bench --mcts --agent`.
#
#   scripts/bench-agent-vs.sh OTHER_BINARY THIS_BINARY [SPEC]
#     SPEC default mcts:sims=400,rollout=4,eval=eval/weights/tuned.txt
#   ROUNDS (default 5), GAMES (default 20), SEED (default 7), ARGS (more
#   selfplay options, e.g. "--opening random:2 --variant blitz"; default none)
#
# Printed: per build the median CPU seconds (min-max), THIS / OTHER of the
# speeds (above 1: THIS is faster; of the medians, of the best runs, and
# round by round with their median), the simulations (games' actions times
# sims, less forced actions, are not counted: both builds run the same).
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
other=$1 this=$2
spec=${3:-mcts:sims=400,rollout=4,eval=eval/weights/tuned.txt}
ROUNDS=${ROUNDS:-5} GAMES=${GAMES:-20} SEED=${SEED:-7} ARGS=${ARGS:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "spec: $spec; $GAMES games, seed $SEED${ARGS:+, $ARGS}, one thread; $ROUNDS rounds"
measure() { # NAME BINARY
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$2" selfplay --games "$GAMES" --agent "$spec" --seed "$SEED" \
        --no-db --quiet --threads 1 $ARGS | sed -n 's/^hash *\([0-9a-f]*\).*/\1/p' >>"$tmp/$1.hash"
    awk '{print $1 + $2}' "$tmp/t" >>"$tmp/$1.cpu"
}
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then measure other "$other"; measure this "$this"
    else measure this "$this"; measure other "$other"; fi
done
stats() { sort -g "$1" | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
    printf "%.3f %.3f %.3f\n", m, v[1], v[NR]}'; }
read -r mo lo ho < <(stats "$tmp/other.cpu")
read -r mt lt ht < <(stats "$tmp/this.cpu")
printf 'other: median %.3f CPU s (%.3f-%.3f)\nthis:  median %.3f CPU s (%.3f-%.3f)\n' "$mo" "$lo" "$ho" "$mt" "$lt" "$ht"
awk -v a="$mo" -v b="$mt" -v la="$lo" -v lb="$lt" 'BEGIN {printf "this/other speed: %.3fx (medians), %.3fx (best runs)\n", a / b, la / lb}'
# each round's pair on its own: drift slower than a round cancels in it
paste "$tmp/other.cpu" "$tmp/this.cpu" | awk '{printf "%.3f\n", $1 / $2}' >"$tmp/ratio"
printf 'this/other speed, round by round: %s (median %.3fx)\n' "$(paste -sd' ' "$tmp/ratio")" "$(stats "$tmp/ratio" | cut -d' ' -f1)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$(sort -u "$tmp/other.hash" "$tmp/this.hash" | wc -l)" = 1 ]; then
    echo "play hashes: identical ($(head -1 "$tmp/this.hash")): the same games, the same simulations"
else
    echo "PLAY HASHES DIFFER: the builds do not play the same games" >&2
    exit 1
fi
