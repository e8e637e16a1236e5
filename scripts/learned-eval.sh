#!/usr/bin/env bash
# The learned evaluation's study (docs/datagen.md, results/strength.md):
# positions scored by search, nets trained on growing cuts of them, each
# net's strength against the linear evaluation in the same search.
#
#   scripts/learned-eval.sh [--db PATH] [--run NAME] [--games N] [--sims N]
#       [--sizes "N N ..."] [--hidden H] [--l2 N] [--lambda L] [--epochs E]
#       [--linear WEIGHTS|none] [--patterns yes|no]
#       [--pairs P] [--match-sims N] [--movetime MS] [--out DIR] [--seed S]
#       [--threads T] [--steps "data train match"]
#
#   --db PATH       the data's database (default results/learned/data.db)
#   --run NAME      the data's self-play run (default datagen)
#   --games N       self-play games of the data (default 200000); an
#                   unfinished run is resumed, a finished one kept
#   --sims N        positions a search in the data (default 2000)
#   --agent SPEC    the data's player (default the best of issue 29, the
#                   deep search on tuned3, which made eval/nets/hybrid32.nnue's
#                   data; that search on hybrid32 made patterns32's: run dg2,
#                   --agent ab:...,eval=net:eval/nets/hybrid32.nnue --seed 3002)
#   --sizes L       the cuts trained on, in positions (default "1000000")
#   --hidden H, --l2 N, --lambda L, --epochs E   the training (default 32,
#                   0, 1, 8: the recipe of eval/nets/hybrid32.nnue and
#                   eval/nets/patterns32.nnue)
#   --linear W      the linear part's starting weights (yinsh train --linear;
#                   default eval/weights/tuned3.txt), or none
#   --patterns yes  add the line-pattern part (yinsh train --patterns; needs
#                   the linear part; default no; patterns32's recipe: yes)
#   --pairs P       match pairs of each net against the linear evaluation
#                   (default 200)
#   --match-sims N  the matches' node budget (default 20000); with
#                   --movetime MS: MS milliseconds an action instead
#   --out DIR       nets, logs and the table (default results/learned)
#   --seed S        the data's seed (default 3001; the matches': S + 1100)
#   --threads T     games and training threads (default: the number of cores)
#   --steps L       which steps to run (default all three)
#   YINSH=PATH      the binary (default build/yinsh: copy it first when the
#                   tree is rebuilt while the study runs)
#
# The data is the agent at a node budget from random openings (ten ring
# placements and two moves); the nets are `yinsh train --positions N`
# (the first games of the run up to N positions, so a run stopped early
# and resumed later gives the same cut); each match is `best` with
# eval=net:NET against `best` (tuned3), colour-swapped pairs from random
# ring placements (at 20,000 positions a search by default: the load of
# the machine cannot move the result). A net or a match already made is
# kept. Appends a
# Markdown row per match to DIR/table.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

out=$root/results/learned db="" run=datagen games=200000 sims=2000 sizes=1000000 hidden=32 l2=0 lambda=1
linear=$root/eval/weights/tuned3.txt patterns=no
agent=ab:depth=5,maxdepth=64,tech=killers+asp+lmr+nmp+fut+qs,tempo=-100,eval=eval/weights/tuned3.txt
epochs=8 pairs=200 match_sims=20000 movetime="" seed=3001 threads=$(nproc) steps="data train match"
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --db) db=$2 ;; --run) run=$2 ;; --games) games=$2 ;; --sims) sims=$2 ;; --sizes) sizes=$2 ;;
    --hidden) hidden=$2 ;; --l2) l2=$2 ;; --lambda) lambda=$2 ;; --epochs) epochs=$2 ;; --pairs) pairs=$2 ;;
    --match-sims) match_sims=$2 ;; --movetime) movetime=$2 ;; --out) out=$2 ;; --seed) seed=$2 ;;
    --threads) threads=$2 ;; --steps) steps=$2 ;; --linear) linear=$2 ;; --agent) agent=$2 ;;
    --patterns) patterns=$2 ;;
    *) usage ;;
    esac
    shift 2
done
db=${db:-$out/data.db}
yinsh=${YINSH:-$root/build/yinsh}
[ -x "$yinsh" ] || { echo "learned-eval: build yinsh first (build/yinsh)" >&2; exit 1; }
mkdir -p "$out"
has_step() { case " $steps " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if has_step data; then
    state=$(sqlite3 "$db" "SELECT CASE WHEN finished_at IS NULL THEN 'open' ELSE 'done' END FROM run WHERE name = '$run'" \
        2>/dev/null || true)
    case $state in
    done) echo "learned-eval: the data run $run is complete" >&2 ;;
    open) "$yinsh" selfplay --resume "$run" --db "$db" --threads "$threads" >"$out/$run.summary" ;;
    *) (cd "$root" && "$yinsh" selfplay --agent "$agent" --sims "$sims" --opening random:12 --games "$games" --seed "$seed" \
        --db "$db" --run "$run" --threads "$threads") >"$out/$run.summary" ;;
    esac
fi

lin=() kind=net
[ "$linear" = none ] || { lin=(--linear "$linear"); kind=lin; }
case $patterns in
yes) [ "$linear" != none ] || { echo "learned-eval: --patterns yes needs a linear part" >&2; exit 2; }
     lin+=(--patterns); kind=pat ;;
no) ;;
*) echo "learned-eval: --patterns takes yes or no, not '$patterns'" >&2; exit 2 ;;
esac
net_of() { echo "$out/$kind-$1-h$hidden-l$l2-lambda$lambda-e$epochs.nnue"; }
if has_step train; then
    for n in $sizes; do
        net=$(net_of "$n")
        [ -f "$net" ] && { echo "learned-eval: $net is made" >&2; continue; }
        "$yinsh" train --db "$db" --runs "$run" --positions "$n" --hidden "$hidden" --l2 "$l2" --lambda "$lambda" \
            --epochs "$epochs" --seed 1 --threads "$threads" --baseline "$root/eval/weights/tuned3.txt" "${lin[@]}" \
            --out "$net" >"${net%.nnue}.train.txt"
    done
fi

if has_step match; then
    # the net's agent plays without the tempo term (its linear part has
    # one); tuned3's with it, as the best of issue 29 did
    B="ab:depth=5,tt=16,maxdepth=64,tech=killers+asp+lmr+nmp+fut+qs"
    if [ -n "$movetime" ]; then control=(--movetime "$movetime" --tc-margin 2000) label="${movetime}ms"
    else control=(--sims "$match_sims") label="${match_sims}pos"; fi
    table=$out/table.md
    [ -f "$table" ] || printf '| net | positions | control | pairs | W-D-L | score | Elo (95%% CI) | pentanomial | seed |\n|---|---|---|---|---|---|---|---|---|\n' >"$table"
    for n in $sizes; do
        net=$(net_of "$n")
        log=${net%.nnue}.vs-tuned3-$label.txt
        [ -f "$log" ] && { echo "learned-eval: $log is made" >&2; continue; }
        "$yinsh" match --a "$B,eval=net:$net" --b "$B,tempo=-100,eval=$root/eval/weights/tuned3.txt" --games $((2 * pairs)) \
            "${control[@]}" --seed $((seed + 1100)) --threads "$threads" --no-db --quiet >"$log.part"
        mv "$log.part" "$log"
        wdl=$(sed -n 's/^a results *W \([0-9]*\) D \([0-9]*\) L \([0-9]*\).*/\1-\2-\3/p' "$log")
        score=$(sed -n 's/^a score *\([0-9.]*\).*/\1/p' "$log")
        elo=$(sed -n 's/^elo  *\([^(].*\)$/\1/p' "$log")
        pent=$(sed -n 's/^pentanomial *\([0-9 ]*\) (.*/\1/p' "$log")
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$net")" "$n" "$label" "$pairs" \
            "$wdl" "$score" "$elo" "$pent" $((seed + 1100)) >>"$table"
    done
    cat "$table"
fi
