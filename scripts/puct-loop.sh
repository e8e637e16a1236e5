#!/usr/bin/env bash
# The AlphaZero-style loop of issue 34 at small scale, on the lab's own
# policy and value net (docs/python.md, "PUCT and the AlphaZero loop"):
# round k plays self-play games with net k (PUCT, exploration, root
# visits stored), trains net k's policy head on on them (`yinsh train
# --policy`, from net k's head, the value net kept), and tests the new net against net k by
# SPRT at equal simulations; the new net is net k+1 when H1 is accepted,
# else net k plays the next round too (its games are added). Each step
# is skipped when its output is there, so a stopped loop resumes where it
# stopped (a self-play run resumes exactly: `yinsh selfplay --resume`).
#
#   scripts/puct-loop.sh --net NET --dir DIR [--rounds R] [--games N]
#       [--sims S] [--c C] [--threads T] [--seed S] [--bounds B] [--yinsh BIN]
#
#   --net NET     net 0: a net with a linear and a pattern part (its head,
#                 if any, is replaced each round; its value net is kept)
#   --dir DIR     where the rounds' databases, nets and logs go
#   --rounds R    rounds (default 2)
#   --games N     self-play games a round (default 2000)
#   --sims S      simulations a search, self-play and SPRT (default 400)
#   --c C         PUCT's constant (default 1)
#   --threads T   games at once (default: the number of cores)
#   --seed S      round k's self-play seed is S + k, its SPRT's S + 100 + k
#                 (default 3410)
#   --bounds B    the SPRT's bounds (default 0,20,0.05,0.05)
#   --yinsh BIN   the yinsh binary (default build/yinsh)
# Each round's figures go to DIR/loop.md: games, positions, seconds of
# self-play (its games' own time over the run's threads, whether played
# now or earlier, at once or resumed), training and SPRT, the visits' entropy by phase, the head's
# held-out figures and the SPRT's verdict.
#
# Each step's output appears whole or not at all (written beside, then
# moved in), so a loop stopped anywhere (SIGTERM, Ctrl-C, kill -9) and
# run again redoes the step it was in; a step that fails or is refused
# stops the loop (status 1); a folder has one loop at a time (DIR/loop.lock).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "puct-loop.sh: $*" >&2; exit 1; }
bad() { echo "puct-loop.sh: $*" >&2; exit 2; }
net="" dir="" rounds=2 games=2000 sims=400 c=1 threads=$(nproc) seed=3410 bounds=0,20,0.05,0.05
yinsh=$root/build/yinsh
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --net) net=$2 ;; --dir) dir=$2 ;; --rounds) rounds=$2 ;; --games) games=$2 ;; --sims) sims=$2 ;;
    --c) c=$2 ;; --threads) threads=$2 ;; --seed) seed=$2 ;; --bounds) bounds=$2 ;; --yinsh) yinsh=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -n "$net" ] && [ -n "$dir" ] || usage
# every value checked before anything is made
for kv in "--rounds $rounds" "--games $games" "--sims $sims" "--threads $threads"; do
    case ${kv#* } in '' | *[!0-9]* | 0*) bad "${kv%% *} wants a whole number from 1, not '${kv#* }'" ;; esac
done
case $seed in '' | *[!0-9]*) bad "--seed wants a whole number, not '$seed'" ;; esac
[[ $c =~ ^[0-9]+([.][0-9]+)?$ ]] || bad "--c wants a number such as 1 or 1.5, not '$c'"
num='-?[0-9]+([.][0-9]+)?'
[[ $bounds =~ ^$num,$num,$num,$num$ ]] || bad "--bounds wants ELO0,ELO1,ALPHA,BETA (such as 0,20,0.05,0.05), not '$bounds'"
[ -f "$net" ] || bad "--net: no net file '$net' (nothing was made)"
[ -x "$yinsh" ] || bad "no yinsh binary at '$yinsh': build it first, or give --yinsh"
mkdir -p "$dir"
# one loop a folder: a second one would play, train and judge beside the
# first, each on a part of the other's games
exec 9>>"$dir/loop.lock"
flock -n 9 || die "another loop runs in $dir (process $(cat "$dir/loop.lock")): one loop a folder"
echo "$$" >"$dir/loop.lock"
trap 'rm -f "$dir"/*.tmp' EXIT

# whole FILE CMD...: CMD's standard output into FILE, whole or not at all;
# a command that fails stops the loop
whole() {
    local out=$1
    shift
    if ! "$@" >"$out.tmp"; then
        rm -f "$out.tmp"
        die "$(basename "$out") not written: $(basename "$1") ${2-} failed (the loop stops here; run it again to redo this step)"
    fi
    mv "$out.tmp" "$out"
}
[ -f "$dir/net0.nnue" ] || whole "$dir/net0.nnue" cat "$net"
log=$dir/loop.md
[ -f "$log" ] || whole "$log" printf '| round | net | games | positions | self-play s | train s | SPRT s | head: held-out CE / top-1 (no head; the head before) | SPRT |\n|---|---|--:|--:|--:|--:|--:|---|---|\n'
best=0
spec() { echo "mcts:sims=$sims,c=$c,eval=net:$1,puct=1"; }
for ((k = 0; k < rounds; k++)); do
    cur=$dir/net$best.nnue new=$dir/net$((k + 1))-candidate.nnue db=$dir/selfplay.db run=r$k
    # a run stopped midway is resumed (the games it lacks); a run another
    # process plays, or any other refusal, stops the loop
    if ! { [ -f "$db" ] && sqlite3 "$db" "select 1 from run where name = '$run'" 2>/dev/null | grep -q 1; }; then
        "$yinsh" selfplay --games "$games" --threads "$threads" --seed $((seed + k)) --store-visits --db "$db" \
            --run "$run" --quiet --agent "$(spec "$cur"),temp=1,tempmoves=20,noise=0.25,alpha=0.3" >/dev/null ||
            die "round $k: self-play failed (the loop stops here)"
    else
        "$yinsh" selfplay --resume "$run" --db "$db" --threads "$threads" --quiet >/dev/null ||
            die "round $k: self-play run $run could not be resumed (the loop stops here)"
    fi
    t1=$(date +%s)
    # the self-play's seconds are its games' own (their summed time over the
    # run's threads), so that a run played earlier, or stopped and resumed,
    # counts what it took and not this invocation's few seconds
    play_s=$(sqlite3 "$db" "select cast(round(sum(g.duration_ms) / 1000.0 / max(r.threads, 1)) as int) from game g \
        join run r on r.id = g.run_id where r.name = '$run'")
    # the head learns from every round's games so far (a window of all of
    # them); train$k.txt is moved in after the net it reports is written
    runs=$(seq -s, -f 'r%g' 0 "$k")
    [ -f "$dir/train$k.txt" ] || whole "$dir/train$k.txt" "$yinsh" train --policy --db "$db" --runs "$runs" \
        --init "$cur" --out "$new" --quiet
    t2=$(date +%s)
    [ -f "$dir/sprt$k.txt" ] || whole "$dir/sprt$k.txt" "$yinsh" match --a "$(spec "$new")" --b "$(spec "$cur")" \
        --sprt "$bounds" --games 4000 --seed $((seed + 100 + k)) --threads "$threads" --no-db --quiet
    t3=$(date +%s)
    verdict=$(sed -n 's/^sprt .*): //p' "$dir/sprt$k.txt" | head -1)
    positions=$(sed -n 's/.*games, \([0-9]*\) positions.*/\1/p' "$dir/train$k.txt")
    head=$(sed -n 's/.*the quantised head *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    base=$(sed -n 's/.*no head) *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    before=$(sed -n 's/.*warm start) *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    [ -n "$verdict" ] || die "$dir/sprt$k.txt holds no verdict (a file of an older loop cut short?): remove it to run the SPRT again"
    [ -n "$positions" ] && [ -n "$head" ] ||
        die "$dir/train$k.txt holds no figures (a file of an older loop cut short?): remove it to train again"
    if grep -q "H1 accepted" <<<"$verdict"; then
        best=$((k + 1))
        [ -f "$dir/net$best.nnue" ] || whole "$dir/net$best.nnue" cat "$new"
    fi
    grep -q "^| $k |" "$log" || whole "$log" cat "$log" - <<<"| $k | net$best after | $games | $positions | $play_s | $((t2 - t1)) | $((t3 - t2)) | $head ($base; before: $before) | $verdict |"
    whole "$dir/entropy$k.md" python3 "$root/scripts/visit-entropy.py" "$db" "$run"
done
cat "$log"
