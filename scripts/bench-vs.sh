#!/usr/bin/env bash
# Two yinsh builds measured in one run, so that a speed claim is a ratio of
# figures taken under the same load. A shared machine drifts by tens of
# percent over minutes; alternating the binaries round by round (A B, then
# B A, ...) and taking medians cancels most of the drift, which timing each
# build in its own run cannot.
#
#   scripts/bench-vs.sh OTHER_BINARY [THIS_BINARY]    (THIS default: build/yinsh)
#
# Each round runs, for each binary, one process per figure: perft with bulk
# counting (`bench --threads 1 --depth D --games 1`), random games on one
# thread (`bench --threads 1 --depth 1 --games G`) and MCTS simulations
# (`bench --mcts`). Each figure is taken twice: as bench prints it (work over
# wall-clock time) and as work over the process's CPU time (user + system).
# Other processes that share the cores stretch the wall clock but hardly
# the CPU time, so on a busy machine the CPU-time figures are the steadier;
# on an idle one the two agree. Printed per figure: the median of each
# binary, its spread (min-max), THIS / OTHER of the medians (above 1: THIS
# is faster) and of the best runs. The counts the two print (perft nodes,
# the playout totals, the MCTS hash) must agree: the builds must play the
# same games; if they do not, the script says so and exits 1.
#   ROUNDS     rounds (default 5)
#   DEPTH      perft depth (default 5, bench's)
#   GAMES      random games (default 200000, bench's)
#   SIMS, POSITIONS   bench --mcts size (defaults 1000, 100)
#   QUICK=1    small sizes (depth 4, 20000 games, 20 positions): a smoke run
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
other=$1
this=${2:-$root/build/yinsh}
for b in "$other" "$this"; do
    [ -x "$b" ] || { echo "bench-vs: $b is not an executable" >&2; exit 2; }
done
ROUNDS=${ROUNDS:-5}
if [ "${QUICK:-0}" = 1 ]; then DEPTH=${DEPTH:-4} GAMES=${GAMES:-20000} POSITIONS=${POSITIONS:-20}; fi
DEPTH=${DEPTH:-5} GAMES=${GAMES:-200000} SIMS=${SIMS:-1000} POSITIONS=${POSITIONS:-100}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed OUT ARGS...: runs ARGS with stdout to OUT; prints the CPU seconds
timed() {
    local out=$1 t
    shift
    t=$( { TIMEFORMAT='%3U %3S'; time "$@" >"$out"; } 2>&1 ) || { echo "bench-vs: $* failed" >&2; exit 1; }
    awk 'END {print $1 + $2}' <<<"$t"
}

# measure NAME BINARY: one round of one binary; appends its figures to
# $tmp/NAME.<figure> and keeps its counts in $tmp/NAME.counts
measure() {
    local name=$1 bin=$2 cpu nodes sims
    cpu=$(timed "$tmp/perft" "$bin" bench --threads 1 --depth "$DEPTH" --games 1)
    sed -n 's/^perft: nodes.*, \([0-9.]*\) million leaves\/s$/\1/p' "$tmp/perft" >>"$tmp/$name.perft"
    nodes=$(sed -n 's/^perft: nodes \([0-9]*\) .*/\1/p' "$tmp/perft")
    awk -v n="$nodes" -v c="$cpu" 'BEGIN {print n / c / 1e6}' >>"$tmp/$name.perft_cpu"

    cpu=$(timed "$tmp/games" "$bin" bench --threads 1 --depth 1 --games "$GAMES")
    sed -n 's/^playouts: 1 thread: [0-9.]* s, \([0-9]*\) games\/s.*/\1/p' "$tmp/games" >>"$tmp/$name.games"
    awk -v n="$GAMES" -v c="$cpu" 'BEGIN {print n / c}' >>"$tmp/$name.games_cpu"

    cpu=$(timed "$tmp/mcts" "$bin" bench --mcts --sims "$SIMS" --positions "$POSITIONS")
    sed -n 's/.*, \([0-9]*\) simulations\/s on one thread$/\1/p' "$tmp/mcts" >>"$tmp/$name.mcts"
    sims=$(sed -n 's/.* \([0-9]*\) simulations, hash.*/\1/p' "$tmp/mcts")
    awk -v n="$sims" -v c="$cpu" 'BEGIN {print n / c}' >>"$tmp/$name.mcts_cpu"

    { grep '^perft: nodes' "$tmp/perft" | sed 's/), [0-9.]* s, .*/)/'
      grep -E '^playouts: [0-9]+ random games' "$tmp/games"
      sed 's/ simulations, hash \([0-9a-f]*\),.*/ simulations, hash \1/' "$tmp/mcts"
    } >"$tmp/$name.round"
    if [ -f "$tmp/$name.counts" ]; then
        cmp -s "$tmp/$name.counts" "$tmp/$name.round" || { echo "bench-vs: $bin printed other counts in a later round" >&2; exit 1; }
    else
        mv "$tmp/$name.round" "$tmp/$name.counts"
    fi
}

echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for b in other this; do
    bin=${!b}
    build=$("$bin" bench --threads 1 --depth 1 --games 1 | sed -n 's/^build: //p')
    printf '%-6s %s (%s)\n' "$b:" "$bin" "${build:-its bench prints no build line}"
done
echo "rounds $ROUNDS: bench --threads 1 --depth $DEPTH --games 1; bench --threads 1 --depth 1 --games $GAMES;" \
     "bench --mcts --sims $SIMS --positions $POSITIONS"
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then measure other "$other"; measure this "$this"
    else measure this "$this"; measure other "$other"; fi
    printf 'round %d done\n' "$r" >&2
done

# median, min and max of a file of numbers, one a line
stats() { sort -g "$1" | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %s %s\n", m, v[1], v[NR]}'; }
printf '\n%-34s %24s %24s %10s %10s\n' "figure: median (min-max)" "other" "this" "this/other" "best/best"
for f in perft:"perft, M leaves/s" games:"random games/s, 1 thread" mcts:"bench --mcts simulations/s"; do
    for clock in "" _cpu; do
        key=${f%%:*}$clock label="${f#*:}"
        [ -z "$clock" ] && label="$label, wall" || label="$label, CPU"
        read -r mo lo ho < <(stats "$tmp/other.$key")
        read -r mt lt ht < <(stats "$tmp/this.$key")
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
