# How games go at each level of the ladder: the draws' share (with its
# 95% Wilson interval) and the game length (the median, with the middle
# half of the games, first to third quartile, as the bar) against the
# ladder's Elo, one line per variant; the two panels share the Elo axis,
# and the variants one axis with a note in the picture: each variant's
# Elo is its own ladder's fit, anchored at its own anchor (score-elo.gp
# and lengths.gp give each variant its own axis).
# Drawn by `yinsh report`: plots (these scripts' directory), dir (reads
# ladder.dat, writes draws-length-elo.png) and variants ("standard
# blitz"). ladder.dat's columns are those of score-elo.gp.
call plots."/common.gp" "900" "760" dir."/draws-length-elo.png"
f = dir."/ladder.dat"
nv = words(variants)
# rows from another opening than a level's matches (main 0): open circles, in the key only when there are some
stats [*:*][*:*] f using ($15 > 0 ? 0 : 1) nooutput
other = STATS_sum > 0 ? "open circle: a level's games from another opening" : ""

stats [*:*][*:*] f using 2 nooutput
xlo = STATS_min
stats [*:*][*:*] f using 3 nooutput
xhi = STATS_max
xpad = 0.06*(xhi - xlo) + 20

set multiplot layout 2, 1 title "Draws and game length against playing strength (the ladder's Elo)"
set xrange [xlo - xpad : xhi + xpad]
set grid
set key top right samplen 2 opaque
set lmargin 10

# draws
stats [*:*][*:*] f using ($9*100) nooutput
set yrange [0 : STATS_max*1.1 + 1]
unset xlabel
set ylabel "draws (% of games)"
set title "Draws, with 95% intervals" font ",10"
plot for [i=1:nv] f index (i-1) using ($15 > 0 ? $1 : 1/0):($7*100):($8*100):($9*100) \
         with yerrorlines lw 2 pt 7 ps 1.1 lc i title word(variants, i), \
     for [i=1:nv] f index (i-1) using ($15 > 0 ? 1/0 : $1):($7*100):($8*100):($9*100) \
         with yerrorbars lw 1.5 pt 6 ps 1.4 lc i notitle, \
     NaN with points pt 6 ps 1.4 lc "gray30" title other

# lengths
stats [*:*][*:*] f using 12 nooutput
ymin = STATS_min
stats [*:*][*:*] f using 13 nooutput
ymax = STATS_max
set yrange [ymin - 0.1*(ymax - ymin) - 1 : ymax + 0.1*(ymax - ymin) + 1]
set xlabel "Elo from each variant's own ladder (its anchor = 0): one axis drawn, but two scales, one per variant's fit"
set ylabel "game length (actions)"
set title "Game length: median, and the middle half of the games (first to third quartile)" font ",10"
plot for [i=1:nv] f index (i-1) using ($15 > 0 ? $1 : 1/0):11:12:13 \
         with yerrorlines lw 2 pt 7 ps 1.1 lc i title word(variants, i), \
     for [i=1:nv] f index (i-1) using ($15 > 0 ? 1/0 : $1):11:12:13 \
         with yerrorbars lw 1.5 pt 6 ps 1.4 lc i notitle
unset multiplot
