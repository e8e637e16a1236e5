#!/usr/bin/env bash
# Appends one line to results/bench-history.csv: the speed figures of a
# yinsh build (medians of ROUNDS runs of `bench --threads 1` and `bench
# --mcts`, the sizes bench uses by default), with the commit and compiler
# they belong to, so that a regression shows as a step from one line to the
# next. Figures on one line come from one run of this script; two lines
# are only comparable when nothing else ran on the machine. A claim that
# one build is faster than another is a same-run ratio: scripts/bench-vs.sh.
#
#   scripts/bench-history.sh [BINARY]     (default build/yinsh)
#   ROUNDS     runs of each benchmark (default 5)
#   COMMIT     the commit the binary was built from (default: HEAD, with
#              "-dirty" when the working tree has changes)
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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq 1 "$ROUNDS"); do
    "$bin" bench --threads 1 >"$tmp/bench.$r"
    "$bin" bench --mcts >"$tmp/mcts.$r"
    grep -q "nodes [0-9]* (expected [0-9]*, ok)" "$tmp/bench.$r" ||
        { echo "bench-history: perft count is wrong:" >&2; cat "$tmp/bench.$r" >&2; exit 1; }
done
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
perft=$(cat "$tmp"/bench.* | sed -n 's/^perft: nodes.*, \([0-9.]*\) million leaves\/s$/\1/p' | median)
games=$(cat "$tmp"/bench.* | sed -n 's/^playouts: 1 thread: [0-9.]* s, \([0-9]*\) games\/s.*/\1/p' | median)
mcts=$(cat "$tmp"/mcts.* | sed -n 's/.*, \([0-9]*\) simulations\/s on one thread$/\1/p' | median)
build=$(sed -n 's/^build: //p' "$tmp/bench.1")
build=${build:-${COMPILER:-}}
[ -n "$build" ] || { echo "bench-history: $bin prints no build line; set COMPILER" >&2; exit 2; }
cpu=$(sed -n 's/^machine: //p' "$tmp/bench.1")

[ -f "$csv" ] || echo "date,commit,build,machine,rounds,perft_M_leaves_s,random_games_s,mcts_sims_s" >"$csv"
# fields with commas in quotes (RFC 4180)
line="$(date -u +%Y-%m-%d),$COMMIT,\"$build\",\"$cpu\",$ROUNDS,$perft,$games,$mcts"
echo "$line" >>"$csv"
echo "$line"
