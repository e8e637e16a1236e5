#!/usr/bin/env bash
# Appends one line to results/bench-history.csv: the speed figures of a
# yinsh build with the commit and compiler they belong to, so that a
# regression shows as a step from one line to the next. The figures are
# medians of ROUNDS rounds of scripts/bench-measure.sh (perft, random games
# on one thread, MCTS simulations, at bench's default sizes), each over the
# CPU time (the columns compared from line to line: other work on the
# machine hardly moves them) and over the wall clock as bench prints it.
# A claim that one build is faster than another is a same-run ratio:
# scripts/bench-vs.sh.
#
#   scripts/bench-history.sh [BINARY]     (default build/yinsh)
#   ROUNDS     rounds (default 5)
#   COMMIT     the commit the binary was built from (default: HEAD, with
#              "-dirty" when tracked files have changes)
#   COMPILER   for a binary whose `bench` prints no "build:" line (older
#              than that line): its compiler and OpenMP runtime, as text
#   CSV        the file (default results/bench-history.csv)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/yinsh}
[ -x "$bin" ] || { echo "bench-history: $bin is not an executable" >&2; exit 2; }
ROUNDS=${ROUNDS:-5}
csv=${CSV:-$root/results/bench-history.csv}
if [ -z "${COMMIT:-}" ]; then
    COMMIT=$(git -C "$root" rev-parse --short HEAD)
    git -C "$root" diff --quiet HEAD -- || COMMIT="$COMMIT-dirty"
fi
. "$root/scripts/bench-measure.sh"
unset QUICK # the history holds bench's default sizes only
bench_sizes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build=$(bench_build "$bin")
build=${build:-${COMPILER:-}}
[ -n "$build" ] || { echo "bench-history: $bin prints no build line; set COMPILER" >&2; exit 2; }
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
for r in $(seq 1 "$ROUNDS"); do
    bench_measure b "$bin"
    printf 'round %d done\n' "$r" >&2
done
med() { bench_stats "$tmp/b.$1" | awk '{printf "%.6g", $1}'; }

[ -f "$csv" ] || echo "date,commit,build,machine,rounds,perft_M_leaves_s_cpu,random_games_s_cpu,mcts_sims_s_cpu,perft_M_leaves_s_wall,random_games_s_wall,mcts_sims_s_wall" >"$csv"
# fields with commas in quotes (RFC 4180)
line="$(date -u +%Y-%m-%d),$COMMIT,\"$build\",\"$cpu, $(nproc) CPUs\",$ROUNDS"
line="$line,$(med perft_cpu),$(med games_cpu),$(med mcts_cpu),$(med perft),$(med games),$(med mcts)"
echo "$line" >>"$csv"
echo "$line"
