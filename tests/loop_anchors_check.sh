#!/usr/bin/env bash
# scripts/loop-anchors.sh, a loop's nets against fixed anchors, at a tiny
# size (2 or 4 games a match, 4 simulations and 4 positions): its mistakes
# refused before anything is made, naming what is wrong; a run writes
# each match's summary, its cost and the picture's data, round by round;
# the same command again plays nothing and writes the same data; a match
# that fails stops it (status 1) with no summary for that match and no
# part-written file.
# Usage: bash loop_anchors_check.sh YINSH SOURCE_DIR
set -eu
case $1 in
  */*) yinsh=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
  *) yinsh=$1 ;;
esac
src=$(cd "$2" && pwd)
script="$src/scripts/loop-anchors.sh"
command -v jq >/dev/null || { echo "loop_anchors_check: skipped: no jq (scripts/setup.sh installs it)"; exit 77; }
[ -x /usr/bin/time ] || { echo "loop_anchors_check: skipped: no /usr/bin/time (scripts/setup.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "loop_anchors_check: $*" >&2; exit 1; }
bash -n "$script" || fail "scripts/loop-anchors.sh does not parse"
cd "$src"
net0=eval/nets/leaf32.nnue net1=eval/nets/leaf-loop9.nnue
small=(--sims 4 --games-best 4 --games-anchor 2 --games-cand 2 --threads 2 --seed 9 --yinsh "$yinsh")

# refused: status 2, the reason named, nothing made
refused() {
  local want=$1
  shift
  local rc=0
  bash "$script" "$@" >"$tmp/out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "'$*' gave status $rc, not 2: $(cat "$tmp/out")"
  grep -q -- "$want" "$tmp/out" || fail "'$*' did not say '$want': $(cat "$tmp/out")"
  [ ! -e "$tmp/a" ] || fail "'$*' made $tmp/a"
}
refused "no --best K=NET" --out "$tmp/a" --db "$tmp/a.db"
refused "--db PATH is missing" --out "$tmp/a" --best 0=$net0
refused "no net file 'missing.nnue'" --out "$tmp/a" --db "$tmp/a.db" --best 0=missing.nnue "${small[@]}"
refused "K a round number, not 'x=$net0'" --out "$tmp/a" --db "$tmp/a.db" --best "x=$net0" "${small[@]}"
refused "--games-best wants an even whole number (colour-swapped pairs), not '3'" --out "$tmp/a" --db "$tmp/a.db" \
  --best 0=$net0 "${small[@]}" --games-best 3
refused "--sims wants a whole number from 1, not '0'" --out "$tmp/a" --db "$tmp/a.db" --best 0=$net0 "${small[@]}" --sims 0
refused "no yinsh binary" --out "$tmp/a" --db "$tmp/a.db" --best 0=$net0 "${small[@]}" --yinsh "$tmp/none"
(cd "$tmp" && mkdir -p eval/nets && cp "$src/$net0" eval/nets/ &&
  bash "$script" --out a --db a.db --best 0=$net0 "${small[@]}") >"$tmp/out" 2>&1 && fail "a run away from the top was not refused"
grep -q "run from the repository's top" "$tmp/out" || fail "away from the top, the reason was not named: $(cat "$tmp/out")"

# a run: two best nets (rounds 0 and 2) and a candidate (round 1), the picture to round 3
bash "$script" --out "$tmp/a" --db "$tmp/a.db" --best 0=$net0 --best 2=$net1 --cand 1=$net1 --rounds 3 "${small[@]}" \
  >"$tmp/out" 2>&1 || fail "the run failed: $(cat "$tmp/out")"
for f in leaf32-vs-best leaf32-vs-uct leaf32-vs-random leaf-loop9-vs-best leaf-loop9-vs-uct leaf-loop9-vs-random; do
  case $f in *-best) n=4 ;; *) n=2 ;; esac
  [ "$(jq .games "$tmp/a/$f.json")" = $n ] || fail "$f.json does not hold a match of $n games"
done
jq -r .controls "$tmp/a/leaf32-vs-best.json" | grep -qx "sims=4" || fail "the match against best was not at 4 positions"
jq -r .a "$tmp/a/leaf32-vs-best.json" | grep -q "sims=4,.*eval=net:$net0,puct=1" || fail "net 0 did not play as PUCT at 4"
[ "$(wc -l <"$tmp/a/costs.txt")" -eq 6 ] || fail "costs.txt holds not 6 matches: $(cat "$tmp/a/costs.txt")"
# rounds 0 and 1 are net 0's, 2 and 3 net 1's, and the candidate's (round
# 1) is net 1's match against best again (one summary); a match with no
# estimate (every game won or lost) has no row
e0=$(jq .elo.value "$tmp/a/leaf32-vs-best.json") e1=$(jq .elo.value "$tmp/a/leaf-loop9-vs-best.json")
want=""
[ "$e0" = null ] || want="0 $e0|1 $e0|"
[ "$e1" = null ] || want="${want}2 $e1|3 $e1|1 $e1|"
got=$(awk 'NF && !/^#/ {printf "%s %s|", $1, $2}' "$tmp/a/anchors.dat")
[ "$got" = "$want" ] || fail "anchors.dat's rows (round Elo) are '$got', not '$want'"
# the picture: where gnuplot is and a match against best has an estimate
if command -v gnuplot >/dev/null && [ -n "$want" ]; then
  grep -q "<svg" "$tmp/a/anchors.svg" || fail "gnuplot is here and drew no picture"
else
  [ ! -e "$tmp/a/anchors.svg" ] || fail "a picture was drawn with no point to draw"
fi
[ -z "$(find "$tmp/a" -name '*.tmp')" ] || fail "a .tmp file was left"

# again: nothing played, the same data
cp "$tmp/a/anchors.dat" "$tmp/dat.before"
cp "$tmp/a/costs.txt" "$tmp/costs.before"
bash "$script" --out "$tmp/a" --db "$tmp/a.db" --best 0=$net0 --best 2=$net1 --cand 1=$net1 --rounds 3 "${small[@]}" \
  >"$tmp/out" 2>&1 || fail "the second run failed: $(cat "$tmp/out")"
grep -q "games" "$tmp/out" && fail "the second run played: $(cat "$tmp/out")"
cmp -s "$tmp/a/costs.txt" "$tmp/costs.before" || fail "the second run added costs"
cmp -s "$tmp/a/anchors.dat" "$tmp/dat.before" || fail "the second run wrote other data"

# a match that fails: status 1, the ones before it kept, none for it, nothing part-written
cat >"$tmp/fake" <<EOF
#!/bin/sh
case " \$* " in *" --b random "*) echo "yinsh match: refused" >&2; exit 1 ;; esac
exec "$yinsh" "\$@"
EOF
chmod +x "$tmp/fake"
rc=0
bash "$script" --out "$tmp/b" --db "$tmp/b.db" --best 0=$net0 "${small[@]}" --yinsh "$tmp/fake" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "a failed match gave status $rc, not 1: $(cat "$tmp/out")"
grep -q "leaf32-vs-random: the match failed" "$tmp/out" || fail "the failed match was not named: $(cat "$tmp/out")"
[ -f "$tmp/b/leaf32-vs-uct.json" ] || fail "the match before the failed one was not kept"
[ ! -e "$tmp/b/leaf32-vs-random.json" ] || fail "the failed match left a summary"
[ -z "$(find "$tmp/b" -name '*.tmp')" ] || fail "the failed match left a .tmp file"
[ ! -e "$tmp/b/anchors.dat" ] || fail "a stopped run wrote the picture's data"
echo "loop_anchors_check: ok"
