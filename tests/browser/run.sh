#!/bin/sh
# ctest view_browser: the site of a small balance study, opened from disk
# in headless Chromium and clicked through by view_test.js, which checks
# what it shows against the database, `yinsh apply` and `yinsh svg`, and
# fails on any console error. Its screenshots go to OUT (index.png,
# game.png).
#   run.sh YINSH OUT
# Needs Debian's chromium (or CHROMIUM=path), node, playwright-core in
# tests/browser/node_modules and sqlite3; scripts/setup.sh installs them.
# Where one is missing the test is skipped (exit 77), saying which.
set -eu
YINSH=$1
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
skip() {
  echo "SKIP: $* (scripts/setup.sh installs it): the viewer is not tested in a browser" >&2
  exit 77
}
[ -x "$CHROMIUM" ] || skip "no Chromium at $CHROMIUM (Debian package chromium)"
command -v node >/dev/null 2>&1 || skip "no node"
[ -d "$HERE/node_modules/playwright-core" ] || skip "no playwright-core in tests/browser/node_modules (npm ci --prefix tests/browser)"
command -v sqlite3 >/dev/null 2>&1 || skip "no sqlite3 (the test reads the database with it)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/balance.db
# scripts/balance.sh in small: both variants, random play and MCTS, the
# same agent on both sides, each run with its seed and name
while read -r name variant agent games seed; do
  "$YINSH" selfplay --games "$games" --variant "$variant" --agent "$agent" --seed "$seed" --run "$name" \
           --db "$db" --threads 2 --quiet >/dev/null
done <<RUNS
balance-standard-random  standard  random        6  5101
balance-blitz-random     blitz     random        6  5102
balance-standard-sims50  standard  mcts:sims=50  4  5103
balance-blitz-sims50     blitz     mcts:sims=50  4  5104
RUNS
"$YINSH" view --db "$db" --out "$tmp/site"
mkdir -p "$OUT"
CHROMIUM=$CHROMIUM node "$HERE/view_test.js" "$tmp/site" "$db" "$YINSH" "$OUT"
echo "screenshots: $OUT/index.png $OUT/game.png"
