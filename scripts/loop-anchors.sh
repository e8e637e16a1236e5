#!/usr/bin/env bash
# Elo by round of a `yinsh loop` against fixed anchors (issue 55, item 3;
# results/puct/loop.md): each round's best net, played as the gate plays
# it (PUCT at S simulations, no exploration), against three anchors in
# colour-swapped pairs from two random placements:
#   best    `best` with --sims S: alpha-beta stops after S positions an
#           action (the match's control gives PUCT its S simulations too)
#   uct     mcts:rollout=4,eval=eval/weights/tuned.txt (its 200 simulations)
#   random  random
# and each rejected candidate against `best` alone. Each match's summary
# (`yinsh match --json`) goes to OUT/NET-vs-ANCHOR.json, moved in whole,
# and its wall and CPU seconds to OUT/costs.txt;
# a match whose summary is there is not played again, and one stopped
# midway resumes its stored run (the games of one never stopped). Then
# OUT/anchors.dat (Elo against `best` by round) and OUT/anchors.svg (its
# picture, gnuplot).
#
#   scripts/loop-anchors.sh --out DIR --db PATH --best K=NET [--best K=NET ...]
#       [--cand K=NET ...] [--rounds R] [--sims S] [--games-best N]
#       [--games-anchor N] [--games-cand N] [--seed S] [--threads T] [--yinsh BIN]
#
#   --best K=NET  NET is the best net from round K on (round 0: the loop's
#                 --from); a net's name is its file's without .nnue
#   --cand K=NET  round K's candidate, rejected by its gate (plays `best` only)
#   --rounds R    the last round of the picture (default: the largest K)
#   --sims S      PUCT's simulations and `best`'s positions (default 800)
#   --games-best N, --games-anchor N, --games-cand N  games a match against
#                 `best`, against random and UCT, and a candidate's against
#                 `best` (defaults 2000, 200, 1000)
#   --seed S      the seed against `best`; UCT S + 1, random S + 2: every net
#                 plays an anchor from the same openings (default 5571)
#   --threads T   games at once (default: the number of cores)
#   --yinsh BIN   the yinsh binary (default build/yinsh)
# Run from the repository's top: the UCT anchor's spec names its weights
# by the path eval/weights/tuned.txt, as the games store it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
bad() { echo "loop-anchors.sh: $*" >&2; exit 2; }
die() { echo "loop-anchors.sh: $*" >&2; exit 1; }
out="" db="" rounds="" sims=800 gbest=2000 ganchor=200 gcand=1000 seed=5571 threads=$(nproc)
yinsh=$root/build/yinsh
bests=() cands=()
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --out) out=$2 ;; --db) db=$2 ;; --best) bests+=("$2") ;; --cand) cands+=("$2") ;; --rounds) rounds=$2 ;;
    --sims) sims=$2 ;; --games-best) gbest=$2 ;; --games-anchor) ganchor=$2 ;; --games-cand) gcand=$2 ;;
    --seed) seed=$2 ;; --threads) threads=$2 ;; --yinsh) yinsh=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -n "$out" ] || bad "--out DIR is missing (where the summaries go); --help for the usage"
[ -n "$db" ] || bad "--db PATH is missing (the scratch database of the games); --help for the usage"
[ ${#bests[@]} -gt 0 ] || bad "no --best K=NET: at least round 0's net; --help for the usage"
for kv in "--sims $sims" "--threads $threads"; do
    case ${kv#* } in '' | *[!0-9]* | 0*) bad "${kv%% *} wants a whole number from 1, not '${kv#* }'" ;; esac
done
for kv in "--games-best $gbest" "--games-anchor $ganchor" "--games-cand $gcand"; do
    case ${kv#* } in '' | *[!0-9]* | 0*) bad "${kv%% *} wants an even whole number from 2, not '${kv#* }'" ;; esac
    [ $((${kv#* } % 2)) -eq 0 ] || bad "${kv%% *} wants an even whole number (colour-swapped pairs), not '${kv#* }'"
done
case $seed in '' | *[!0-9]*) bad "--seed wants a whole number, not '$seed'" ;; esac
last=0
for kv in "${bests[@]}" "${cands[@]+"${cands[@]}"}"; do
    k=${kv%%=*} net=${kv#*=}
    case $k in '' | *[!0-9]*) bad "--best and --cand want K=NET, K a round number, not '$kv'" ;; esac
    [ -f "$net" ] || bad "no net file '$net' (in '$kv'; nothing was played)"
    [ "$k" -gt "$last" ] && last=$k
done
rounds=${rounds:-$last}
case $rounds in '' | *[!0-9]*) bad "--rounds wants a whole number, not '$rounds'" ;; esac
[ -f eval/weights/tuned.txt ] ||
    bad "no eval/weights/tuned.txt here: run from the repository's top (the UCT anchor's spec names it so)"
[ -x "$yinsh" ] || bad "no yinsh binary at '$yinsh': build it first, or give --yinsh"
command -v jq >/dev/null || bad "jq is needed to read the matches' summaries"
[ -x /usr/bin/time ] || bad "/usr/bin/time is needed to count the matches' costs"
mkdir -p "$out"
trap 'rm -f "$out"/*.tmp' EXIT

# match NET ANCHOR GAMES SEED SPEC [ARGS...]: the net against the anchor, its
# summary into OUT/NAME-vs-ANCHOR.json unless there
match() {
    local net=$1 anchor=$2 games=$3 s=$4 spec=$5
    shift 5
    local name
    name=$(basename "$net" .nnue)-vs-$anchor
    [ -f "$out/$name.json" ] && return 0
    echo "loop-anchors.sh: $name, $games games" >&2
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    if ! /usr/bin/time -f "%e %U %S" -o "$out/$name.time.tmp" "$yinsh" match --a "mcts:puct=1,sims=$sims,eval=net:$net" --b "$spec" "$@" --games "$games" \
        --opening random:2 --seed "$s" --threads "$threads" --db "$db" --run "anchors/$name" --quiet --json \
        >"$out/$name.json.tmp"; then
        die "$name: the match failed (nothing written for it; run again to resume it)"
    fi
    # its cost: wall and CPU seconds (both threads), the load average when it began
    read -r wall user sys <"$out/$name.time.tmp"
    echo "$name wall $wall s cpu $(awk "BEGIN { printf \"%.2f\", $user + $sys }") s threads $threads load $load" >>"$out/costs.txt"
    rm -f "$out/$name.time.tmp"
    mv "$out/$name.json.tmp" "$out/$name.json"
}
for kv in "${bests[@]}"; do
    net=${kv#*=}
    match "$net" best "$gbest" "$seed" best --sims "$sims"
    match "$net" uct "$ganchor" $((seed + 1)) mcts:rollout=4,eval=eval/weights/tuned.txt
    match "$net" random "$ganchor" $((seed + 2)) random
done
for kv in "${cands[@]+"${cands[@]}"}"; do
    match "${kv#*=}" best "$gcand" "$seed" best --sims "$sims"
done

# the picture's data: index 0, the best net of each round 0..R; index 1,
# each rejected candidate at its round. "round elo lo hi" (an end of the
# interval that is open: the estimate)
row() {
    jq -r --arg k "$1" 'if .elo.value == null then empty else
        "\($k) \(.elo.value) \(.elo.ci95[0] // .elo.value) \(.elo.ci95[1] // .elo.value)" end' "$2"
}
{
    echo "# round, Elo of the round's best net against best at $sims positions, 95% interval (low, high)"
    for ((r = 0; r <= rounds; r++)); do
        cur=""
        for kv in "${bests[@]}"; do [ "${kv%%=*}" -le "$r" ] && cur=${kv#*=}; done
        [ -n "$cur" ] && row "$r" "$out/$(basename "$cur" .nnue)-vs-best.json"
    done
    printf '\n\n# round, Elo of its rejected candidate against best at %s positions, 95%% interval\n' "$sims"
    for kv in "${cands[@]+"${cands[@]}"}"; do row "${kv%%=*}" "$out/$(basename "${kv#*=}" .nnue)-vs-best.json"; done
} >"$out/anchors.dat.tmp"
mv "$out/anchors.dat.tmp" "$out/anchors.dat"
# the rows of each index: a match with no estimate (every game won or
# lost) has none, and gnuplot refuses an index without a point
best_rows=$(awk '/^$/ {exit} NF && !/^#/' "$out/anchors.dat" | wc -l)
cand_rows=$(awk 'blank >= 2 && NF && !/^#/; /^$/ {blank++}' "$out/anchors.dat" | wc -l)
if ! command -v gnuplot >/dev/null; then
    echo "loop-anchors.sh: no gnuplot: anchors.dat written, no picture" >&2
elif [ "$best_rows" -eq 0 ]; then
    echo "loop-anchors.sh: no match against best has an estimate (every game won or lost): no picture" >&2
    rm -f "$out/anchors.svg"
else
    cand_plot=""
    [ "$cand_rows" -eq 0 ] ||
        cand_plot=", '' index 1 using (\$1 + 0.15):2:3:4 with yerrorbars pt 6 title 'its rejected candidate'"
    gnuplot -e "set terminal svg size 640,400 font 'sans,11'; set output '$out/anchors.svg.tmp'; \
        set xlabel 'round'; set ylabel 'Elo against best at $sims positions (95% CI)'; set key bottom right; \
        set xtics 1; set grid ytics; set xrange [-0.5:$rounds + 0.5]; set offsets 0, 0, 20, 20; \
        plot '$out/anchors.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title \"the round's best net\"$cand_plot" ||
        die "gnuplot failed: anchors.svg not drawn"
    mv "$out/anchors.svg.tmp" "$out/anchors.svg"
fi
