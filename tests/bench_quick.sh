#!/bin/sh
# Regression check of `yinsh bench --quick`: its counts (perft nodes, and the
# totals of 2000 random games of seed 1 on one and on two threads) must be
# exactly these. Speeds are printed but never checked.
set -eu
out=$("$1" bench --quick --threads 2)
echo "$out"
echo "$out" | grep -q "perft: nodes 18886483 (expected 18886483, ok)"
echo "$out" | grep -q "playouts: 2000 random games, seed 1: actions 143807, white 641, black 622, draws 737; ends: three-rings 342, pool-empty 1658, no-moves 0"
echo "$out" | grep -q "(totals identical)"
