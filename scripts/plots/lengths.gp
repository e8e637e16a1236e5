# How long games last: for each variant a panel with one curve per pair of
# agents (share of the pair's games by length in actions, bins of 5).
# Drawn by `yinsh report`: plots (these scripts' directory), dir (reads lengths-VARIANT.dat, writes
# lengths.png) and variants ("standard blitz"). Each block of a data file
# starts with the pair's label.
nv = words(variants)
call plots."/common.gp" sprintf("%d", 40 + 600*nv) "520" dir."/lengths.png"
set multiplot layout 1, nv title "Game length by variant and agents"
set xlabel "game length (actions of both players)"
set ylabel "share of games (%)"
set grid
set key top right
set xrange [0:*]
set yrange [0:*]
do for [i=1:nv] {
    v = word(variants, i)
    f = dir."/lengths-".v.".dat"
    stats f using 1 nooutput
    set title v
    plot for [b=0:STATS_blocks-1] f index b using 1:2 with lines lw 2 title columnheader(1)
}
unset multiplot
