#!/usr/bin/env bash
# One step of an engine change proven as fishtest proves Stockfish's: the
# new build (this tree's build/yinsh) against a base commit built beside
# it and run as an external UYI engine, in SPRT matches at a short and a
# longer time control, with bounds said before the games (docs/sprt.md).
#
#   scripts/sprt-step.sh [--base REV] [--bounds E0,E1,ALPHA,BETA[,MODEL]]
#       [--movetimes "20 100"] [--games N] [--a SPEC] [--b SPEC]
#       [--threads T] [--db PATH] [--label NAME] [--log FILE] [--seed S]
#
#   --base REV      the commit to beat (default HEAD~1); built once into
#                   build-base/COMMIT (a git worktree, Release, no tests)
#   --bounds B      the SPRT's bounds (default 0,30,0.05,0.05)
#   --movetimes L   milliseconds an action, one match each (default "20 100")
#   --games N       the cap of each match (default 2000; the SPRT stops first)
#   --a SPEC        the new build's agent (default best)
#   --b SPEC        the base build's agent, as `yinsh uyi --agent` (default best)
#   --threads T     games at once (default: the number of cores)
#   --db PATH       the database of the matches (default results/steps.db)
#   --label NAME    the step's name (default: the base's short commit)
#   --log FILE      a Markdown row per match is appended here (default
#                   results/steps.md)
#   --seed S        the matches' seed (default 1)
# Prints one summary line per match; each match is a run named
# LABEL-MSms-DATE in the database. Exit 1 when a build or a match fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

base=HEAD~1 bounds=0,30,0.05,0.05 movetimes="20 100" games=2000 a=best b=best threads=$(nproc)
db=$root/results/steps.db label="" log=$root/results/steps.md seed=1
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --base) base=$2 ;; --bounds) bounds=$2 ;; --movetimes) movetimes=$2 ;; --games) games=$2 ;;
    --a) a=$2 ;; --b) b=$2 ;; --threads) threads=$2 ;; --db) db=$2 ;; --label) label=$2 ;;
    --log) log=$2 ;; --seed) seed=$2 ;;
    *) usage ;;
    esac
    shift 2
done
commit=$(git -C "$root" rev-parse --verify "$base^{commit}") || { echo "sprt-step: no commit '$base'" >&2; exit 2; }
short=${commit:0:8}
label=${label:-$short}
new=$root/build/yinsh
# the bounds are checked before anything is built
"$new" sprt "$bounds" >/dev/null 2>&1 || { "$new" sprt "$bounds" >/dev/null; exit 2; }

# the base build, once per commit
dir=$root/build-base/$short
if [ ! -x "$dir/build/yinsh" ]; then
    echo "sprt-step: building $short into $dir" >&2
    [ -d "$dir" ] || git -C "$root" worktree add --detach "$dir" "$commit" >/dev/null
    cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DYINSH_TESTS=OFF >/dev/null
    cmake --build "$dir/build" -j"$(nproc)" --target yinsh >/dev/null
fi
echo "sprt-step: building this tree" >&2
cmake --build "$root/build" -j"$(nproc)" --target yinsh >/dev/null

[ -f "$log" ] || printf '| step | A (this tree) | B (base) | movetime | bounds | pairs | result | LLR | Elo (95%% CI) | run |\n|---|---|---|---|---|---|---|---|---|---|\n' >"$log"
this=$(git -C "$root" rev-parse --short=8 HEAD)$(git -C "$root" diff --quiet HEAD || echo "+dirty")
for ms in $movetimes; do
    run="$label-${ms}ms-$(date +%Y%m%d-%H%M%S)"
    json=$(mktemp)
    "$new" match --a "$a" --b "uyi:name=base-$short;cmd=$dir/build/yinsh uyi --agent $b" --games "$games" \
        --movetime "$ms" --sprt "$bounds" --seed "$seed" --threads "$threads" --db "$db" --run "$run" --json >"$json"
    line=$(/usr/bin/env python3 - "$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s, e = d["sprt"], d["elo"]
acc = s["accepted"] or "no decision"
fmt = lambda x: "?" if x is None else "%+.0f" % x
lo, hi = e["ci95"] or [None, None]
print("%s|%d|%.2f|%s (%s to %s)" % (acc, d["pairs"], s["llr"], fmt(e["value"]), fmt(lo), fmt(hi)))
EOF
)
    rm -f "$json"
    IFS='|' read -r acc pairs llr elo <<<"$line"
    echo "step $label: $a ($this) vs $b ($short) at ${ms} ms: $acc after $pairs pairs, LLR $llr, Elo $elo; run $run"
    printf '| %s | %s (%s) | %s (%s) | %s ms | %s | %s | %s | %s | %s | %s |\n' "$label" "$a" "$this" "$b" "$short" \
        "$ms" "$bounds" "$pairs" "$acc" "$llr" "$elo" "$run" >>"$log"
done
