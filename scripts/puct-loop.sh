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
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
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
mkdir -p "$dir"
cp -n "$net" "$dir/net0.nnue"
log=$dir/loop.md
[ -f "$log" ] || printf '| round | net | games | positions | self-play s | train s | SPRT s | head: held-out CE / top-1 (no head; the head before) | SPRT |\n|---|---|--:|--:|--:|--:|--:|---|---|\n' > "$log"
best=0
spec() { echo "mcts:sims=$sims,c=$c,eval=net:$1,puct=1"; }
for ((k = 0; k < rounds; k++)); do
    cur=$dir/net$best.nnue new=$dir/net$((k + 1))-candidate.nnue db=$dir/selfplay.db run=r$k
    t0=$(date +%s)
    if ! sqlite3 "$db" "select 1 from run where name = '$run'" 2>/dev/null | grep -q 1; then
        "$yinsh" selfplay --games "$games" --threads "$threads" --seed $((seed + k)) --store-visits --db "$db" \
            --run "$run" --quiet --agent "$(spec "$cur"),temp=1,tempmoves=20,noise=0.25,alpha=0.3" >/dev/null
    else
        "$yinsh" selfplay --resume "$run" --db "$db" --threads "$threads" --quiet >/dev/null || true
    fi
    t1=$(date +%s)
    # the self-play's seconds are its games' own (their summed time over the
    # run's threads), so that a run played earlier, or stopped and resumed,
    # counts what it took and not this invocation's few seconds
    play_s=$(sqlite3 "$db" "select cast(round(sum(g.duration_ms) / 1000.0 / max(r.threads, 1)) as int) from game g \
        join run r on r.id = g.run_id where r.name = '$run'")
    # the head learns from every round's games so far (a window of all of them)
    runs=$(seq -s, -f 'r%g' 0 "$k")
    [ -f "$new" ] || "$yinsh" train --policy --db "$db" --runs "$runs" --init "$cur" --out "$new" --quiet \
        > "$dir/train$k.txt"
    t2=$(date +%s)
    [ -f "$dir/sprt$k.txt" ] || "$yinsh" match --a "$(spec "$new")" --b "$(spec "$cur")" --sprt "$bounds" \
        --games 4000 --seed $((seed + 100 + k)) --threads "$threads" --no-db --quiet > "$dir/sprt$k.txt"
    t3=$(date +%s)
    verdict=$(sed -n 's/^sprt .*): //p' "$dir/sprt$k.txt" | head -1)
    positions=$(sed -n 's/.*games, \([0-9]*\) positions.*/\1/p' "$dir/train$k.txt")
    head=$(sed -n 's/.*the quantised head *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    base=$(sed -n 's/.*no head) *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    before=$(sed -n 's/.*warm start) *cross-entropy \([0-9.]*\), top-1 \([0-9.%]*\).*/\1 \/ \2/p' "$dir/train$k.txt")
    if grep -q "H1 accepted" <<<"$verdict"; then
        best=$((k + 1))
        cp "$new" "$dir/net$best.nnue"
    fi
    grep -q "^| $k |" "$log" ||
        echo "| $k | net$best after | $games | $positions | $play_s | $((t2 - t1)) | $((t3 - t2)) | $head ($base; before: $before) | $verdict |" >> "$log"
    python3 "$root/scripts/visit-entropy.py" "$db" "$run" > "$dir/entropy$k.md"
done
cat "$log"
