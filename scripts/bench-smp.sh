#!/usr/bin/env bash
# Time to a fixed depth of alpha-beta searches with threads, in one run:
# one-thread search and several threaded specs alternating round by round
# (the order rotated each round), each round's speed-up taken on its own
# (the one-thread run's wall seconds over the spec's, in that round) so
# that the drift of a shared machine slower than a round cancels; the
# median of the rounds is the figure.
#
#   scripts/bench-smp.sh BINARY SEED SPEC1 [SPEC2...]
#     e.g. build/yinsh 7 best:threads=2 best:threads=2,smp=defer
#   ROUNDS (default 5), DEPTH (default 11), POSITIONS (default 16),
#   BASE (the one-thread spec, default best)
#
# Printed: every run (spec, wall seconds, positions), then per spec the
# median speed-up over BASE (its range), and its positions over BASE's
# (median): above 1, the threads repeat work.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
bin=$1 seed=$2
shift 2
ROUNDS=${ROUNDS:-5} DEPTH=${DEPTH:-11} POSITIONS=${POSITIONS:-16} BASE=${BASE:-best}
for v in ROUNDS DEPTH POSITIONS; do
    case "${!v}" in '' | *[!0-9]* | 0) echo "bench-smp.sh: $v must be a number from 1, not '${!v}'" >&2; exit 2 ;; esac
done
[ -x "$bin" ] || { echo "bench-smp.sh: no executable '$bin'" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
specs=("$BASE" "$@")
echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench --ab --depth $DEPTH --positions $POSITIONS --seed $seed; $ROUNDS rounds"
for r in $(seq 1 "$ROUNDS"); do
    n=${#specs[@]}
    for k in $(seq 0 $((n - 1))); do
        i=$(((k + r - 1) % n))
        spec=${specs[$i]}
        if ! "$bin" bench --ab --agent "$spec" --depth "$DEPTH" --positions "$POSITIONS" --seed "$seed" >"$tmp/out" 2>&1; then
            echo "bench-smp.sh: bench --ab --agent $spec failed:" >&2
            cat "$tmp/out" >&2
            exit 1
        fi
        line=$(grep -m1 'fixed depth:' "$tmp/out")
        pos=$(sed -n 's/.*fixed depth: \([0-9]*\) positions.*/\1/p' <<<"$line")
        secs=$(sed -n 's/.*, \([0-9.]*\) s$/\1/p' <<<"$line")
        if [ -z "$pos" ] || [ -z "$secs" ]; then echo "bench-smp.sh: cannot read '$line'" >&2; exit 1; fi
        awk -v s="$secs" 'BEGIN {exit !(s > 0)}' ||
            { echo "bench-smp.sh: $spec took $secs s, too short to time: a deeper search (DEPTH)" >&2; exit 1; }
        echo "round $r: $spec: $secs s, $pos positions"
        echo "$r $secs $pos" >>"$tmp/$i"
    done
done
for i in $(seq 1 $((${#specs[@]} - 1))); do
    join "$tmp/0" "$tmp/$i" | awk '{print $2 / $4, $5 / $3}' >"$tmp/ratio"
    sort -g -k1,1 "$tmp/ratio" | awk -v spec="${specs[$i]}" '{v[NR] = $1} END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%s: %.2fx the speed of one thread (median of %d rounds; %.2f to %.2f)", spec, m, NR, v[1], v[NR] }'
    sort -g -k2,2 "$tmp/ratio" | awk '{v[NR] = $2} END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf ", %.2f times its positions\n", m }'
done
