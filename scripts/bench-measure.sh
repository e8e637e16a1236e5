# The measuring shared by scripts/bench-vs.sh and scripts/bench-history.sh
# (sourced, not run). One round of a binary runs one process per figure:
# perft with bulk counting (`bench --threads 1 --depth DEPTH --games 1`),
# random games on one thread (`bench --threads 1 --depth 1 --games GAMES`)
# and MCTS simulations (`bench --mcts --sims SIMS --positions POSITIONS`).
# Each figure is kept twice: as bench prints it (work over wall-clock
# time), and as work over the process's CPU time (user + system). Other
# processes that share the cores stretch the wall clock but hardly the CPU
# time, so on a busy machine the CPU-time figures are the steadier; on an
# idle one the two agree.
#
# The caller sets $tmp (a scratch directory) and the sizes (bench_sizes
# gives bench's defaults, or small ones with QUICK=1).

bench_sizes() {
    if [ "${QUICK:-0}" = 1 ]; then DEPTH=${DEPTH:-4} GAMES=${GAMES:-20000} POSITIONS=${POSITIONS:-20}; fi
    DEPTH=${DEPTH:-5} GAMES=${GAMES:-200000} SIMS=${SIMS:-1000} POSITIONS=${POSITIONS:-100}
}

# bench_timed OUT ARGS...: runs ARGS with stdout to OUT; prints the CPU seconds
bench_timed() {
    local out=$1 t
    shift
    t=$( { TIMEFORMAT='%3U %3S'; time "$@" >"$out"; } 2>&1 ) || { echo "bench: $* failed" >&2; exit 1; }
    awk 'END {print $1 + $2}' <<<"$t"
}

# bench_measure NAME BINARY: one round of one binary. Appends its figures
# to $tmp/NAME.{perft,games,mcts} (wall) and $tmp/NAME.{perft,games,mcts}_cpu,
# its counts (perft nodes, playout totals, MCTS hash) to $tmp/NAME.counts
# the first time and checks them against it later; fails on a perft count
# other than bench expects.
bench_measure() {
    local name=$1 bin=$2 cpu nodes sims
    cpu=$(bench_timed "$tmp/perft" "$bin" bench --threads 1 --depth "$DEPTH" --games 1)
    grep -q '^perft: nodes [0-9]* (expected [0-9]*, ok)' "$tmp/perft" ||
        { echo "bench: $bin counts a wrong perft:" >&2; cat "$tmp/perft" >&2; exit 1; }
    sed -n 's/^perft: nodes.*, \([0-9.]*\) million leaves\/s$/\1/p' "$tmp/perft" >>"$tmp/$name.perft"
    nodes=$(sed -n 's/^perft: nodes \([0-9]*\) .*/\1/p' "$tmp/perft")
    awk -v n="$nodes" -v c="$cpu" 'BEGIN {print n / c / 1e6}' >>"$tmp/$name.perft_cpu"

    cpu=$(bench_timed "$tmp/games" "$bin" bench --threads 1 --depth 1 --games "$GAMES")
    sed -n 's/^playouts: 1 thread: [0-9.]* s, \([0-9]*\) games\/s.*/\1/p' "$tmp/games" >>"$tmp/$name.games"
    awk -v n="$GAMES" -v c="$cpu" 'BEGIN {print n / c}' >>"$tmp/$name.games_cpu"

    cpu=$(bench_timed "$tmp/mcts" "$bin" bench --mcts --sims "$SIMS" --positions "$POSITIONS")
    sed -n 's/.*, \([0-9]*\) simulations\/s on one thread$/\1/p' "$tmp/mcts" >>"$tmp/$name.mcts"
    sims=$(sed -n 's/.* \([0-9]*\) simulations, hash.*/\1/p' "$tmp/mcts")
    awk -v n="$sims" -v c="$cpu" 'BEGIN {print n / c}' >>"$tmp/$name.mcts_cpu"

    { grep '^perft: nodes' "$tmp/perft" | sed 's/), [0-9.]* s, .*/)/'
      grep -E '^playouts: [0-9]+ random games' "$tmp/games"
      sed 's/ simulations, hash \([0-9a-f]*\),.*/ simulations, hash \1/' "$tmp/mcts"
    } >"$tmp/$name.round"
    if [ -f "$tmp/$name.counts" ]; then
        cmp -s "$tmp/$name.counts" "$tmp/$name.round" || { echo "bench: $bin printed other counts in a later round" >&2; exit 1; }
    else
        mv "$tmp/$name.round" "$tmp/$name.counts"
    fi
}

# bench_stats FILE: the median, min and max of a file of numbers, one a line
bench_stats() {
    sort -g "$1" | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %s %s\n", m, v[1], v[NR]}'
}

# bench_build BINARY: the compiler and OpenMP runtime its bench prints, or
# nothing for a binary older than that line
bench_build() {
    "$1" bench --threads 1 --depth 1 --games 1 | sed -n 's/^build: //p'
}
