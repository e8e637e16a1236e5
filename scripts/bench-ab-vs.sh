#!/usr/bin/env bash
# The speed of one alpha-beta search set (`yinsh bench --ab ...`) in two
# yinsh builds, measured in one run: short runs, the builds alternating
# pair by pair (A B, then B A, ...), and each pair's ratio of CPU times
# taken on its own, so that drift of a shared machine's speed slower than
# a pair cancels; the median of the pairs is the figure. Each run must
# print the same hash (the same searches: every action, score and count),
# or the ratio means nothing and the script fails.
#
#   scripts/bench-ab-vs.sh OTHER_BINARY THIS_BINARY [BENCH_AB_ARGS...]
#     e.g. --placement --agent SPEC --depth 5 --positions 14
#   PAIRS (default 12); each run should take a second or more
#
# Printed: each build's CPU seconds run by run, OTHER / THIS of each pair
# (above 1: THIS is faster), their median, range and how many are above 1.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
other=$1 this=$2
shift 2
PAIRS=${PAIRS:-12}
case "$PAIRS" in '' | *[!0-9]* | 0) echo "bench-ab-vs.sh: PAIRS must be a number from 1, not '$PAIRS'" >&2; exit 2 ;; esac
for b in "$other" "$this"; do [ -x "$b" ] || { echo "bench-ab-vs.sh: no executable '$b'" >&2; exit 2; }; done
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench --ab $*; $PAIRS pairs"
measure() { # NAME BINARY BENCH_AB_ARGS...
    local name=$1 bin=$2
    shift 2
    if ! /usr/bin/time -f "%U %S" -o "$tmp/t" "$bin" bench --ab "$@" >"$tmp/out" 2>&1; then
        echo "bench-ab-vs.sh: $bin bench --ab failed:" >&2
        cat "$tmp/out" >&2
        exit 1
    fi
    grep -o 'hash [0-9a-f]*' "$tmp/out" | tail -1 | cut -d' ' -f2 >>"$tmp/$name.hash"
    awk '{print $1 + $2}' "$tmp/t" >>"$tmp/$name.cpu"
}
for r in $(seq 1 "$PAIRS"); do
    if [ $((r % 2)) = 1 ]; then measure other "$other" "$@"; measure this "$this" "$@"
    else measure this "$this" "$@"; measure other "$other" "$@"; fi
done
echo "other: $(paste -sd' ' "$tmp/other.cpu") CPU s"
echo "this:  $(paste -sd' ' "$tmp/this.cpu") CPU s"
paste "$tmp/other.cpu" "$tmp/this.cpu" | awk '$1 <= 0 || $2 <= 0 {
    print "bench-ab-vs.sh: a run took 0 CPU s, too short to time: a larger set (--depth, --positions)" > "/dev/stderr"; exit 1 }
    {printf "%.3f\n", $1 / $2}' >"$tmp/ratio.raw"
sort -g "$tmp/ratio.raw" >"$tmp/ratio"
awk '{v[NR] = $1; up += $1 > 1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
    printf "this/other speed: %.3fx, the median of %d pairs (%.3f-%.3f; %d of them above 1)\n", m, NR, v[1], v[NR], up}' "$tmp/ratio"
if [ "$(sort -u "$tmp/other.hash" "$tmp/this.hash" | wc -l)" = 1 ] && [ -s "$tmp/this.hash" ] && [ -n "$(head -1 "$tmp/this.hash")" ]; then
    echo "hashes: identical ($(head -1 "$tmp/this.hash")): the same searches"
else
    echo "HASHES DIFFER (or none printed): the builds do not search the same" >&2
    exit 1
fi
