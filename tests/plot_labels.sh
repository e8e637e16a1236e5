#!/bin/sh
# ctest plot_labels: no two texts of the report's pictures collide. Each
# picture against Elo (scripts/plots/: score-elo, draws-length-elo,
# lengths, first-ring) is drawn as SVG (common.gp's svg=1, the layout and
# text proportions of the PNG) from two sets of data: the top study's
# level names, the longest the lab has (tests/data/plots-top, numbers
# invented), and the ladder study's eleven levels (results/ladder, as its
# report wrote them); tests/plot_labels.py then checks every pair of
# texts. The checker is first shown to find a collision it is given.
#   plot_labels.sh SOURCE_DIR
set -eu
src=${1:-.}
command -v gnuplot >/dev/null 2>&1 || { echo "plot_labels: gnuplot is not installed (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }
py=$(command -v python3 || true)
[ -n "$py" ] || { echo "plot_labels: python3 is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# the checker finds a collision: two labels at one place
gnuplot -e "set terminal svg size 400,200; set output '$tmp/clash.svg'; unset border; unset tics;
  set label 'first label here' at screen 0.3, screen 0.5; set label 'second label' at screen 0.35, screen 0.5;
  plot [0:1] -1 notitle" 2>"$tmp/clash.log" || { cat "$tmp/clash.log" >&2; exit 1; }
if "$py" "$src/tests/plot_labels.py" "$tmp/clash.svg" >"$tmp/clash.out" 2>&1; then
    echo "plot_labels: the checker missed two labels drawn over each other:" >&2
    cat "$tmp/clash.out" >&2
    exit 1
fi
grep -q 'collides with' "$tmp/clash.out" || { cat "$tmp/clash.out" >&2; exit 1; }
echo "ok: the checker finds two labels drawn over each other"

# draw DATA_DIR TOP_NAME ANCHOR: the four pictures of a report with a ladder in both variants
draw() {
    d=$tmp/$(basename "$1")
    mkdir -p "$d"
    cp "$1"/*.dat "$d"/
    for f in first-ring-standard.dat first-ring-blitz.dat; do
        [ -f "$d/$f" ] || cp "$src/results/ladder/$f" "$d/"
    done
    for s in score-elo draws-length-elo lengths first-ring; do
        if ! gnuplot -e "dir='$d'; plots='$src/scripts/plots'; min_games=20; svg=1; variants='standard blitz';
             ladder='standard blitz'; anchor1='$3'; anchor2='$3'; top1='$2'; top2='$2'" \
             "$src/scripts/plots/$s.gp" >"$d/$s.log" 2>&1; then
            echo "plot_labels: $s.gp failed on $1:" >&2
            cat "$d/$s.log" >&2
            fail=1
            continue
        fi
        rc=0
        "$py" "$src/tests/plot_labels.py" "$d/$s.svg" || rc=$?
        case $rc in
        0) echo "ok: $s, $1: no texts collide" ;;
        1) echo "TEXTS COLLIDE: $s from $1" >&2; fail=1 ;;
        *) echo "plot_labels: $s from $1 could not be checked" >&2; fail=1 ;;
        esac
    done
}
draw "$src/tests/data/plots-top" 'ab:depth=7,tech=killers+asp+lmr+nmp+fut+qs,eval=patterns32.nnue (opening random:4)' \
    'ab:depth=5,eval=tuned3'
draw "$src/results/ladder" 'ab:depth=5,eval=tuned3 (opening random:4)' 'random'
exit $fail
