#!/usr/bin/env bash
# Two yinsh builds measured in one run, so that a speed claim is a ratio of
# figures taken under the same load. A shared machine drifts by tens of
# percent over minutes; alternating the binaries round by round (A B, then
# B A, ...) and taking medians cancels most of the drift, which timing each
# build in its own run cannot.
#
#   scripts/bench-vs.sh OTHER_BINARY [THIS_BINARY]    (THIS default: build/yinsh)
#
# Each round runs each binary once (scripts/bench-measure.sh: one process
# per figure: perft, random games, MCTS simulations), each figure taken
# over the wall clock as bench prints it and over the CPU time, which other
# processes on the cores hardly stretch. Printed per figure: the median of
# each binary, its spread (min-max), THIS / OTHER of the medians (above 1:
# THIS is faster) and of the best runs. The counts the two print (perft
# nodes, the playout totals, the MCTS hash) must agree: the builds must
# play the same games; if they do not, the script says so and exits 1.
#   ROUNDS     rounds (default 5)
#   DEPTH      perft depth (default 5, bench's)
#   GAMES      random games (default 200000, bench's)
#   SIMS, POSITIONS   bench --mcts size (defaults 1000, 100)
#   QUICK=1    small sizes (depth 4, 20000 games, 20 positions): a smoke run
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
other=$1
this=${2:-$root/build/yinsh}
for b in "$other" "$this"; do
    [ -x "$b" ] || { echo "bench-vs: $b is not an executable" >&2; exit 2; }
done
ROUNDS=${ROUNDS:-5}
. "$root/scripts/bench-measure.sh"
bench_sizes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for b in other this; do
    bin=${!b}
    build=$(bench_build "$bin")
    printf '%-6s %s (%s)\n' "$b:" "$bin" "${build:-its bench prints no build line}"
done
echo "rounds $ROUNDS: bench --threads 1 --depth $DEPTH --games 1; bench --threads 1 --depth 1 --games $GAMES;" \
     "bench --mcts --sims $SIMS --positions $POSITIONS"
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then bench_measure other "$other"; bench_measure this "$this"
    else bench_measure this "$this"; bench_measure other "$other"; fi
    printf 'round %d done\n' "$r" >&2
done

printf '\n%-34s %24s %24s %10s %10s\n' "figure: median (min-max)" "other" "this" "this/other" "best/best"
for f in perft:"perft, M leaves/s" games:"random games/s, 1 thread" mcts:"bench --mcts simulations/s"; do
    for clock in "" _cpu; do
        key=${f%%:*}$clock label="${f#*:}"
        [ -z "$clock" ] && label="$label, wall" || label="$label, CPU"
        read -r mo lo ho < <(bench_stats "$tmp/other.$key")
        read -r mt lt ht < <(bench_stats "$tmp/this.$key")
        awk -v l="$label" -v mo="$mo" -v lo="$lo" -v ho="$ho" -v mt="$mt" -v lt="$lt" -v ht="$ht" 'BEGIN {
            f = mo < 10000 ? "%.1f" : "%.0f"
            a = sprintf(f " (" f "-" f ")", mo, lo, ho); b = sprintf(f " (" f "-" f ")", mt, lt, ht)
            printf "%-34s %24s %24s %9.3fx %9.3fx\n", l, a, b, mt / mo, ht / ho }'
    done
done
if cmp -s "$tmp/other.counts" "$tmp/this.counts"; then
    echo "counts: identical (perft nodes, playout totals, MCTS hash)"
else
    echo "COUNTS DIFFER: the two builds do not play the same games" >&2
    diff "$tmp/other.counts" "$tmp/this.counts" >&2 || true
    exit 1
fi
