#!/bin/sh
# scripts/study-shards.sh, a study played shard by shard across sessions
# with its checkpoints: a shard stopped midway (SIGTERM) keeps its games in
# a partial checkpoint; on a "fresh machine" (the working databases gone)
# status reads the checkpoints, play resumes the partial shard and plays
# the rest, gather refuses while a shard is missing and then merges them;
# the study's runs end with the run hashes of the study played whole in
# one process. Its mistakes: a bad N, a shard out of range, checkpoints of
# another N.
# Usage: study_shards_check.sh YINSH SOURCE_DIR
set -eu
case $1 in
  */*) yinsh=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;;
  *) yinsh=$1 ;;
esac
src=$(cd "$2" && pwd)
script="$src/scripts/study-shards.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "study_shards_check: $*" >&2; exit 1; }
bash -n "$script" || fail "scripts/study-shards.sh does not parse"

study() {
  cat >"$tmp/$1.ini" <<EOF
[study]
name = sm
db = $tmp/$1.db
seed = 70
games = 16
variants = standard, blitz
opening = random:4
[agent s]
spec = mcts:sims=400
[agent r]
spec = random
games = 6
[ladder]
levels = r, s
games = 4
[report]
out = $tmp/$1-report
plots = no
EOF
}
study whole
study sharded
"$yinsh" study "$tmp/whole.ini" --quiet --threads 1 || fail "the whole study failed"
# the run names and hashes of a database's runs
hashes() {
  "$yinsh" export --format games --db "$1" --out "$tmp/h.games" 2>/dev/null
  grep -E '^(name|end) ' "$tmp/h.games" | paste -d ' ' - - | sort
}
hashes "$tmp/whole.db" >"$tmp/whole.hashes"
[ "$(wc -l <"$tmp/whole.hashes")" -eq 6 ] || fail "the whole study has not 6 runs: $(cat "$tmp/whole.hashes")"

export YINSH="$yinsh" WORK="$tmp/work" CKPT="$tmp/ckpt" THREADS=1 NICE=0
S="$tmp/sharded.ini"

# mistakes
for bad in "status $S 0" "status $S x" "status $S 03" "play $S 2 3" "play $S 2 0" "frob $S 2"; do
  rc=0
  # shellcheck disable=SC2086
  bash "$script" $bad >"$tmp/out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "'$bad' exited $rc, not 2: $(cat "$tmp/out")"
done

# shard 1 of 2, stopped once it has stored a game
bash "$script" play "$S" 2 1 >"$tmp/play1.out" 2>&1 &
pid=$!
i=0
while :; do
  i=$((i + 1))
  [ "$i" -lt 600 ] || { kill "$pid"; fail "shard 1 stored no game in 60 s"; }
  if [ -f "$tmp/work/shard-1-of-2.db" ]; then
    n=$("$yinsh" study "$S" --shard 1/2 --db "$tmp/work/shard-1-of-2.db" --check 2>/dev/null | tail -n 1 |
        sed -n 's/.*complete, \([0-9]*\)\/.*/\1/p')
    [ "${n:-0}" -gt 0 ] && break
  fi
  sleep 0.1
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 143 ] || fail "play stopped by SIGTERM exited $rc, not 143: $(cat "$tmp/play1.out")"
[ -f "$tmp/ckpt/shard-1-of-2.games.gz" ] || fail "no checkpoint of the stopped shard: $(cat "$tmp/play1.out")"
# the count a save prints is the one its checkpoint holds
said=$(sed -n 's|^study-shards.sh: shard 1/2: partial \([0-9]*\)/[0-9]* -> .*|\1|p' "$tmp/play1.out" | tail -n 1)
held=$(gzip -dc "$tmp/ckpt/shard-1-of-2.games.gz" | grep -c '^game ' || true)
[ -n "$said" ] && [ "$said" = "$held" ] ||
  fail "the last save said '$said' games, its checkpoint holds $held: $(cat "$tmp/play1.out")"
# what the stop says resumes the shard alone, not the whole run (a stop
# between two runs has no run to name)
if grep -q "finishes the" "$tmp/play1.out"; then
  grep -q -- "--db $tmp/work/shard-1-of-2.db --shard 1/2\` finishes the shard" "$tmp/play1.out" ||
    fail "the stopped shard's hint: $(cat "$tmp/play1.out")"
fi
[ ! -e "$tmp/ckpt/shard-2-of-2.games.gz" ] || fail "a checkpoint of shard 2, never played"

# a fresh machine: only the checkpoints
rm -rf "$tmp/work"
bash "$script" status "$S" 2 >"$tmp/status" 2>&1 || fail "status failed: $(cat "$tmp/status")"
grep -q '^shard 1/2  partial [0-9]*/' "$tmp/status" || fail "shard 1 not partial after the stop: $(cat "$tmp/status")"
grep -q '^shard 2/2  not started$' "$tmp/status" || fail "shard 2 not 'not started': $(cat "$tmp/status")"
grep -q '^0 of 2 shards complete; [1-9][0-9]* of 52 games ([0-9]*%)$' "$tmp/status" || fail "$(cat "$tmp/status")"
rc=0
bash "$script" gather "$S" 2 >"$tmp/gather" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "not every shard is complete: 1 (partial .*) 2 (not started)" "$tmp/gather" ||
  fail "gather with shards missing: exit $rc: $(cat "$tmp/gather")"
[ ! -e "$tmp/sharded.db" ] || fail "gather wrote the study's database with shards missing"

rm -rf "$tmp/work"
# checkpoints every second as well while a shard plays (and none of them
# the last word: the one written at the shard's end is)
SAVE_EVERY=1 bash "$script" play "$S" 2 >"$tmp/play.out" 2>&1 || fail "play failed: $(cat "$tmp/play.out")"
bash "$script" status "$S" 2 >"$tmp/status" 2>&1
grep -q '^2 of 2 shards complete; 52 of 52 games (100%)$' "$tmp/status" || fail "$(cat "$tmp/status")"
# checkpoints are readable by all, as any file of the repository
[ -r "$tmp/ckpt/shard-2-of-2.games.gz" ] && [ "$(stat -c %a "$tmp/ckpt/shard-2-of-2.games.gz")" = 644 ] ||
  fail "checkpoint mode $(stat -c %a "$tmp/ckpt/shard-2-of-2.games.gz")"
rm -rf "$tmp/work"
bash "$script" gather "$S" 2 >"$tmp/gather" 2>&1 || fail "gather failed: $(cat "$tmp/gather")"
"$yinsh" study "$S" --quiet --threads 1 >"$tmp/study.out" 2>&1 || fail "the study after gather: $(cat "$tmp/study.out")"
hashes "$tmp/sharded.db" >"$tmp/sharded.hashes"
cmp -s "$tmp/whole.hashes" "$tmp/sharded.hashes" ||
  fail "the shards' runs differ from the whole study's: $(diff "$tmp/whole.hashes" "$tmp/sharded.hashes")"
"$yinsh" study "$S" --check | tail -n 1 | grep -q "^study sm: 6 of 6 runs complete, 52/52 games$" ||
  fail "the gathered study is not complete: $("$yinsh" study "$S" --check)"

# a checkpoint's place taken by a folder or a link: refused, nothing written over
mkdir -p "$tmp/ck2/shard-1-of-2.games.gz"
rc=0
CKPT="$tmp/ck2" bash "$script" status "$S" 2 >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "shard-1-of-2.games.gz is not a plain file" "$tmp/out" ||
  fail "a folder as the checkpoint: exit $rc: $(cat "$tmp/out")"
[ -z "$(ls -A "$tmp/ck2/shard-1-of-2.games.gz")" ] || fail "something was written into the folder"
rm -rf "$tmp/ck2" && mkdir "$tmp/ck2" && echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/ck2/shard-2-of-2.games.gz"
rc=0
CKPT="$tmp/ck2" bash "$script" play "$S" 2 2 >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "shard-2-of-2.games.gz is not a plain file" "$tmp/out" ||
  fail "a link as the checkpoint: exit $rc: $(cat "$tmp/out")"
[ "$(cat "$tmp/target")" = keep ] && [ -L "$tmp/ck2/shard-2-of-2.games.gz" ] || fail "the link or its file was written over"

# checkpoints of another N are refused
rc=0
bash "$script" status "$S" 3 >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "another number of shards than 3" "$tmp/out" || fail "N=3 over N=2 checkpoints: exit $rc: $(cat "$tmp/out")"

# play's output is closed when the script ends: the saver's sleep of
# SAVE_EVERY seconds once held it, and `play ... | tail` waited up to 900 s
cat >"$tmp/tiny.ini" <<EOF
[study]
name = tiny
db = $tmp/tiny.db
seed = 5
games = 4
variants = standard
[agent r]
spec = random
EOF
(
  {
    rc=0
    WORK="$tmp/work-tiny" CKPT="$tmp/ckpt-tiny" SAVE_EVERY=900 bash "$script" play "$tmp/tiny.ini" 1 2>"$tmp/tiny.err" ||
      rc=$?
    echo "$rc" >"$tmp/tiny.rc"
  } | { cat >/dev/null; touch "$tmp/tiny.closed"; }
) </dev/null >/dev/null 2>&1 &
i=0
until [ -f "$tmp/tiny.rc" ]; do
  i=$((i + 1))
  [ "$i" -lt 1200 ] || fail "play of a study of 4 random games did not end in 120 s: $(cat "$tmp/tiny.err")"
  sleep 0.1
done
[ "$(cat "$tmp/tiny.rc")" = 0 ] || fail "play of the tiny study: exit $(cat "$tmp/tiny.rc"): $(cat "$tmp/tiny.err")"
i=0
until [ -f "$tmp/tiny.closed" ]; do
  i=$((i + 1))
  # a hang, not a speed: the output is closed at once, or after SAVE_EVERY
  [ "$i" -lt 600 ] || fail "play ended, and its output stayed open 60 s after: a process it left holds it"
  sleep 0.1
done
wait
echo "study_shards_check: ok"
