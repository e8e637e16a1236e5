#!/usr/bin/env bash
# The game viewer on a balance study in small, behind results/viewer.md:
# 1,000 games of self-play (both variants; random play, MCTS at 50 and 200
# simulations; the runs, names and seeds of scripts/balance.sh, fewer
# games) into one database, `yinsh view` of it, the site's size against
# SVG frames (scripts/view_size.js), and the browser test clicking through
# it (tests/browser/view_test.js), whose screenshots become
# results/viewer-index.png and results/viewer-game.png.
#
# Game i of a run depends only on (seed, i): rerunning gives the same games.
#   DB     the database (default results/viewer.db; not committed)
#   SITE   the site (default results/view; not committed)
#   YINSH  the yinsh binary (default: build/yinsh, built here in Release)
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-results/viewer.db}
SITE=${SITE:-results/view}

bash scripts/setup.sh
if [ -z "${YINSH:-}" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" >/dev/null
  YINSH=build/yinsh
fi

# name                     variant   agent          games  seed
while read -r name variant agent games seed; do
  [ -n "$name" ] || continue
  state=$( { sqlite3 "$DB" "SELECT CASE WHEN finished_at IS NULL THEN 'open' ELSE 'done' END FROM run WHERE name = '$name'" 2>/dev/null; } || true)
  case "$state" in
    done) echo "== $name: finished, skipped ==" >&2 ;;
    open) echo "== $name: resuming ==" >&2
          "$YINSH" selfplay --resume "$name" --db "$DB" --quiet >/dev/null ;;
    *)    echo "== $name: $games games, $variant, $agent, seed $seed ==" >&2
          "$YINSH" selfplay --games "$games" --variant "$variant" --agent "$agent" --seed "$seed" --run "$name" \
                   --db "$DB" --quiet >/dev/null ;;
  esac
done <<'RUNS'
balance-standard-random    standard  random          200  5101
balance-blitz-random       blitz     random          200  5102
balance-standard-sims50    standard  mcts:sims=50    200  5103
balance-blitz-sims50       blitz     mcts:sims=50    200  5104
balance-standard-sims200   standard  mcts:sims=200   100  5105
balance-blitz-sims200      blitz     mcts:sims=200   100  5106
RUNS

"$YINSH" view --db "$DB" --out "$SITE"
node scripts/view_size.js "$SITE"
shots=$(mktemp -d)
trap 'rm -rf "$shots"' EXIT
node tests/browser/view_test.js "$SITE" "$DB" "$YINSH" "$shots"
cp "$shots/index.png" results/viewer-index.png
cp "$shots/game.png" results/viewer-game.png
echo "wrote results/viewer-index.png results/viewer-game.png; open $SITE/index.html" >&2
