#!/bin/sh
# ctest svg_valid: `yinsh svg` writes valid SVG. Each picture is parsed by
# a real XML parser (xmllint, Debian's libxml2-utils, which
# scripts/setup.sh installs) and must be an <svg> of the SVG namespace with
# exactly 85 points, the rings and markers of its YPN, and its --size.
# Positions: the empty start, and positions of a seeded random game after
# each kind of action (--last marks it), in both variants.
#   svg_check.sh YINSH
# Without xmllint the test is skipped (exit 77), saying so.
set -eu
YINSH=$1
if ! command -v xmllint >/dev/null 2>&1; then
  echo "SKIP: xmllint is not installed (Debian package libxml2-utils; scripts/setup.sh installs it)" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0

fail() { echo "svg_check: $*" >&2; exit 1; }

xpath() { xmllint --xpath "$1" "$2"; }

# check YPN [LAST] [SIZE]
check() {
  ypn=$1 last=${2:-} size=${3:-}
  set -- svg "$ypn"
  [ -n "$last" ] && set -- "$@" --last "$last"
  [ -n "$size" ] && set -- "$@" --size "$size"
  "$YINSH" "$@" > "$tmp/p.svg" || fail "yinsh $* failed"
  xmllint --noout "$tmp/p.svg" || fail "yinsh $*: not well-formed XML"
  [ "$(xpath 'local-name(/*)' "$tmp/p.svg")" = svg ] || fail "yinsh $*: the root is not <svg>"
  [ "$(xpath 'namespace-uri(/*)' "$tmp/p.svg")" = http://www.w3.org/2000/svg ] || fail "yinsh $*: not the SVG namespace"
  points=$(xpath "count(//*[@class='point'])" "$tmp/p.svg")
  [ "$points" = 85 ] || fail "yinsh $*: $points points, not 85"
  board=${ypn%% *}
  for kind in ring-w:W ring-b:B marker-w:w marker-b:b; do
    want=$(printf '%s' "$board" | tr -cd "${kind#*:}" | wc -c)
    got=$(xpath "count(//*[@class='pieces']/*[@class='${kind%:*}'])" "$tmp/p.svg")
    [ "$got" = "$want" ] || fail "yinsh $*: $got ${kind%:*}, the YPN has $want"
  done
  if [ -n "$size" ]; then
    [ "$(xpath 'string(/*/@width)' "$tmp/p.svg")" = "$size" ] || fail "yinsh $*: width is not $size"
  fi
  if [ -n "$last" ]; then
    xpath "string(//*[@class='last'])" "$tmp/p.svg" | grep -q "$last" || fail "yinsh $*: the last action is not written"
  fi
  checked=$((checked + 1))
}

check "4/7/8/9/10/9/10/9/8/7/4 w P standard"
check "4/7/8/9/10/9/10/9/8/7/4 w P blitz" "" 900

# A random game (seed 2 has rows and ring removals): the position after
# every action, with that action as the last one.
rows=0 rings=0
for variant in standard blitz; do
  "$YINSH" randgame --seed 2 --variant $variant > "$tmp/game.txt"
  start=$(head -n 1 "$tmp/game.txt")
  actions=$(tail -n +2 "$tmp/game.txt" | tr '\n' ' ')
  k=0
  played=""
  for a in $actions; do
    k=$((k + 1))
    played="$played $a"
    case $a in x*-*) rows=$((rows + 1)) ;; x*) rings=$((rings + 1)) ;; esac
    # shellcheck disable=SC2086
    ypn=$("$YINSH" apply "$start" $played)
    check "$ypn" "$a"
  done
done
[ "$rows" -gt 0 ] && [ "$rings" -gt 0 ] || fail "the games had no row or no ring removal to draw"

echo "$checked passed, 0 failed"
