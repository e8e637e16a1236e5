#!/usr/bin/env bash
# scripts/puct-loop.sh, the PUCT loop, at a tiny size (8 games of 4
# simulations a round, an SPRT of wide bounds): its mistakes refused
# before anything is made; a loop stopped in its SPRT, or in its training
# after the net was written, and run again ends with the round's whole
# figures and verdict (a step's output whole or absent); a second loop on
# the folder refused while the first runs, writing nothing; a refused
# self-play step stopping the loop. The stops and refusals come from a
# stand-in for yinsh that runs the real one but for the step it stops in.
# Usage: bash puct_loop_check.sh YINSH SOURCE_DIR
set -eu
case $1 in
  */*) yinsh=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
  *) yinsh=$1 ;;
esac
src=$(cd "$2" && pwd)
script="$src/scripts/puct-loop.sh"
for tool in python3 sqlite3 setsid flock; do
  command -v "$tool" >/dev/null || { echo "puct_loop_check: skipped: no $tool (scripts/setup.sh installs it)"; exit 77; }
done
tmp=$(mktemp -d)
group=
trap '[ -z "$group" ] || kill -KILL -- "-$group" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "puct_loop_check: $*" >&2; exit 1; }
bash -n "$script" || fail "scripts/puct-loop.sh does not parse"
net="$src/eval/nets/pv32.nnue"
small=(--rounds 1 --games 8 --sims 4 --threads 2 --seed 7 --bounds "-300,300,0.3,0.3")

# the stand-in: the real yinsh, except that the command named by STOP
# writes a part of its output, leaves a mark and waits to be killed, and
# the one named by REFUSE fails as a refused step does
cat >"$tmp/fake" <<EOF
#!/bin/sh
case "\$1:\${STOP:-}:\${REFUSE:-}" in
  match:match:*) echo "run          match-cut"; touch "$tmp/stopped"; exec sleep 600 ;;
  train:train:*) "$yinsh" "\$@" >"$tmp/train.full" || exit 1; head -c 60 "$tmp/train.full"; touch "$tmp/stopped"
                 exec sleep 600 ;;
  selfplay:selfplay:*) touch "$tmp/stopped"; exec sleep 600 ;;
  selfplay:*:resume) case " \$* " in *" --resume "*)
                       echo "yinsh selfplay: run is being played by process 1 on host h" >&2; exit 1 ;; esac ;;
esac
exec "$yinsh" "\$@"
EOF
chmod +x "$tmp/fake"

# starts the loop on dir in a process group of its own, with the stand-in
# stopping STOP; returns once it is stopped there
start_stopped() {
  rm -f "$tmp/stopped"
  STOP=$1 setsid bash "$script" --net "$net" --dir "$2" "${small[@]}" --yinsh "$tmp/fake" >"$tmp/first.out" 2>&1 &
  group=$!
  i=0
  until [ -f "$tmp/stopped" ]; do
    i=$((i + 1))
    [ "$i" -lt 1200 ] || fail "the loop did not reach its $1 in 120 s: $(cat "$tmp/first.out")"
    kill -0 "$group" 2>/dev/null || fail "the loop ended before its $1: $(cat "$tmp/first.out")"
    sleep 0.1
  done
}
# stops the loop's whole process group and waits until none of it is left:
# a child (the stand-in's yinsh) that outlives the script for a moment
# still holds the folder's lock, and the next loop would be refused
stop() {
  kill -TERM -- "-$group" 2>/dev/null || true
  wait "$group" 2>/dev/null || true
  i=0
  while kill -0 -- "-$group" 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -lt 600 ] || fail "the loop's processes outlived a TERM by 60 s"
    sleep 0.1
  done
  group=
}
# runs the loop on dir with the real yinsh: its exit status
again() {
  rc=0
  bash "$script" --net "$net" --dir "$1" "${small[@]}" --yinsh "$yinsh" >"$tmp/again.out" 2>&1 || rc=$?
  return "$rc"
}
# round 0's row of dir's loop.md: a verdict and the head's figures
whole_row() {
  row=$(grep '^| 0 |' "$1/loop.md") || fail "$1: no row of round 0: $(cat "$1/loop.md")"
  echo "$row" | grep -Eq '\| (H0 accepted|H1 accepted|no decision)[^|]* \|$' || fail "$1: the row's verdict: $row"
  echo "$row" | grep -Eq '^\| 0 \| net[01] after \| 8 \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+ / [0-9.]+% ' ||
    fail "$1: the row's figures: $row"
  [ "$(grep -c '^| 0 |' "$1/loop.md")" = 1 ] || fail "$1: round 0 twice: $(cat "$1/loop.md")"
}

# mistakes: refused before anything is made (status 2)
for bad in "--rounds abc" "--games 0" "--sims x1" "--threads -2" "--seed 1e3" "--c 1,5" "--bounds 0,20"; do
  rc=0
  # shellcheck disable=SC2086
  bash "$script" --net "$net" --dir "$tmp/never" $bad --yinsh "$yinsh" >"$tmp/out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "puct-loop.sh: ${bad%% *} wants" "$tmp/out" || fail "'$bad': exit $rc: $(cat "$tmp/out")"
done
rc=0
bash "$script" --net "$tmp/no.nnue" --dir "$tmp/never" --yinsh "$yinsh" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "no net file '$tmp/no.nnue'" "$tmp/out" || fail "a missing net: exit $rc: $(cat "$tmp/out")"
[ ! -e "$tmp/never" ] || fail "a refused loop made its folder"

# stopped in the SPRT, then run again: the SPRT is played, the row whole
start_stopped match "$tmp/a"
stop
[ ! -e "$tmp/a/sprt0.txt" ] || fail "a stopped SPRT left sprt0.txt: $(cat "$tmp/a/sprt0.txt")"
again "$tmp/a" || fail "the loop run again after a stop: exit $?: $(cat "$tmp/again.out")"
grep -q '^sprt .*): ' "$tmp/a/sprt0.txt" || fail "sprt0.txt: $(cat "$tmp/a/sprt0.txt")"
whole_row "$tmp/a"
[ -f "$tmp/a/entropy0.md" ] || fail "no entropy0.md"

# stopped in the training after the net was written, then run again
start_stopped train "$tmp/b"
[ -f "$tmp/b/net1-candidate.nnue" ] || fail "the stand-in's training wrote no net"
stop
[ ! -e "$tmp/b/train0.txt" ] || fail "a stopped training left train0.txt: $(cat "$tmp/b/train0.txt")"
again "$tmp/b" || fail "the loop run again after a stop in training: exit $?: $(cat "$tmp/again.out")"
grep -q 'games, [0-9]* positions' "$tmp/b/train0.txt" || fail "train0.txt: $(cat "$tmp/b/train0.txt")"
whole_row "$tmp/b"

# a second loop on a folder while the first runs: refused, nothing written
start_stopped selfplay "$tmp/c"
files() { find "$1" -type f -printf '%p %s %T@\n' | sort; }
files "$tmp/c" >"$tmp/c.before"
rc=0
again "$tmp/c" || rc=$?
[ "$rc" -eq 1 ] && grep -q "another loop runs in $tmp/c (process $group)" "$tmp/again.out" ||
  fail "a second loop: exit $rc: $(cat "$tmp/again.out")"
files "$tmp/c" | cmp -s - "$tmp/c.before" || fail "the second loop wrote: $(files "$tmp/c" | diff "$tmp/c.before" -)"
stop
# ... and once the first is gone, the folder is free
again "$tmp/c" || fail "the loop after the first one ended: exit $?: $(cat "$tmp/again.out")"
whole_row "$tmp/c"

# a refused step stops the loop: self-play that cannot resume its run
mkdir "$tmp/d"
"$yinsh" selfplay --games 2 --agent random --seed 1 --db "$tmp/d/selfplay.db" --run r0 --quiet >/dev/null
rc=0
REFUSE=resume bash "$script" --net "$net" --dir "$tmp/d" "${small[@]}" --yinsh "$tmp/fake" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "round 0: self-play run r0 could not be resumed" "$tmp/out" ||
  fail "a refused resume: exit $rc: $(cat "$tmp/out")"
[ ! -e "$tmp/d/train0.txt" ] && [ ! -e "$tmp/d/sprt0.txt" ] && ! grep -q '^| 0 |' "$tmp/d/loop.md" ||
  fail "the loop went on after a refused step: $(ls "$tmp/d")"
echo "puct_loop_check: ok"
