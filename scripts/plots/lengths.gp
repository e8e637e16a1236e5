# How long games last: a column per variant, a panel per pair of agents,
# the share of the pair's games at every length that occurs as a needle.
# Lengths are not binned: they fall on a lattice of their own (random
# standard games come in steps of 7 actions), which any coarser bin would
# alias; and a panel per pair keeps the needles of several pairs from
# crowding each other. A column's panels share their scales.
# Drawn by `yinsh report`: plots (these scripts' directory), dir (reads
# lengths-VARIANT.dat, writes lengths.png) and variants ("standard blitz").
# Each block of a data file starts with the pair's label and games; rows:
# length, percent of the pair's games, games.
nv = words(variants)
rows = 1
do for [i=1:nv] {
    stats [*:*][*:*] dir."/lengths-".word(variants, i).".dat" using 3 nooutput
    rows = STATS_blocks > rows ? STATS_blocks : rows
}
# the margins in pixels over the picture's height: 75 above (the titles), 55 below
h = 130 + 150*rows
top = 1 - 75.0/h
call plots."/common.gp" sprintf("%d", 40 + 600*nv) sprintf("%d", h) dir."/lengths.png"
set multiplot layout rows, nv columnsfirst margins 0.07, 0.98, 55.0/h, top spacing 0.07, 30.0/h \
    title "Game length: the share of each pair's games at each length that occurs"
set ylabel "games (%)"
set grid
set key top left samplen 1 opaque
do for [i=1:nv] {
    v = word(variants, i)
    f = dir."/lengths-".v.".dat"
    stats [*:*][*:*] f using 1 nooutput
    set xrange [STATS_min - 1 : STATS_max + 1]
    stats [*:*][*:*] f using 2 nooutput
    set yrange [0 : STATS_max * 1.15]
    stats [*:*][*:*] f using 3 nooutput
    nb = STATS_blocks
    cx = 0.07 + (0.98 - 0.07) * (i - 0.5) / nv
    set label 1 sprintf("%s: %d games", v, int(STATS_sum)) at screen cx, screen top + 18.0/h center font ",12"
    do for [b=0:rows-1] {
        if (b < nb) {
            if (b == nb - 1) { set xlabel "game length (actions of both players)" } else { unset xlabel }
            plot f index b using 1:2 with impulses lw 2 lc i title columnheader(1), \
                 f index b using 1:2 with points pt 7 ps 0.4 lc i notitle
        } else {
            set multiplot next
        }
        unset label 1
    }
}
unset multiplot
