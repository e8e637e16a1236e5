# White's score against the ladder's Elo: one line per variant through the
# levels rated against the anchor, with the score's 95% Wilson interval
# as the vertical bar and the joint fit's 95% interval of the Elo as the
# horizontal one; the 50% line; and, in a panel beside it on the same
# score scale, the figures published elsewhere as reference marks (they
# have no place on this Elo axis), each labelled with its source and
# games. Drawn by `yinsh report`, which writes the data and gives the
# variables (and plots, the directory of these scripts):
#   dir       the report's directory: reads ladder.dat and published.dat,
#             writes score-elo.png
#   variants  the variants of ladder.dat's blocks, in order ("standard blitz")
# ladder.dat rows: elo elo_lo elo_hi score lo hi draws draws_lo draws_hi
# mean_length median q1 q3 games main label; in each block the levels'
# self-play from the opening of their matches (main 1) in Elo order, then,
# after one blank line, their games from other openings (main 0).
# published.dat rows: k score lo hi games source who share games_text.
call plots."/common.gp" "1200" "680" dir."/score-elo.png"
f = dir."/ladder.dat"
g = dir."/published.dat"
nv = words(variants)
# rows from another opening than a level's matches (main 0): open circles, in the key only when there are some
stats [*:*][*:*] f using ($15 > 0 ? 0 : 1) nooutput
other = STATS_sum > 0 ? "open circle: a level's games from another opening" : ""

# one score scale for both panels: every bar in sight, and 50%
stats [*:*][*:*] f using ($5*100) nooutput
ylo = STATS_min
stats [*:*][*:*] f using ($6*100) nooutput
yhi = STATS_max
stats [*:*][*:*] g using ($3*100) nooutput
ylo = STATS_min < ylo ? STATS_min : ylo
stats [*:*][*:*] g using ($4*100) nooutput
yhi = STATS_max > yhi ? STATS_max : yhi
ylo = ylo < 50 ? ylo : 50
yhi = yhi > 50 ? yhi : 50
pad = 0.08*(yhi - ylo) + 1
# more room below: the second variant's labels hang under its bars
ylo = ylo - 2*pad > 0 ? ylo - 2*pad : 0
yhi = yhi + pad < 100 ? yhi + pad : 100
stats [*:*][*:*] f using 2 nooutput
xlo = STATS_min
stats [*:*][*:*] f using 3 nooutput
xhi = STATS_max
xpad = 0.06*(xhi - xlo) + 20

set multiplot
set label 1 "First-player advantage against playing strength: White's score at each level of the ladder (95% intervals)" \
    at screen 0.365, screen 0.96 center font ",12"
set yrange [ylo:yhi]
set ytics nomirror
set grid ytics xtics
set key bottom right samplen 2 opaque

# the ladder
set lmargin at screen 0.06
set rmargin at screen 0.67
set tmargin at screen 0.90
set bmargin at screen 0.17
set xrange [xlo - xpad : xhi + xpad]
set xlabel "Elo from the ladder's matches (the ladder's anchor, random play where it is a level, = 0)"
set ylabel "White's score (%)"
# labels: the first variant's above its point, the second's below, so that neighbours do not overlap
plot 50 with lines dt 2 lw 1.5 lc "gray40" title "no advantage (50%)", \
     for [i=1:nv] f index (i-1) \
         using ($15 > 0 ? $1 : 1/0):($4*100):2:3:($5*100):($6*100) \
         with xyerrorlines lw 2 pt 7 ps 1.1 lc i title word(variants, i), \
     for [i=1:nv] f index (i-1) \
         using ($15 > 0 ? 1/0 : $1):($4*100):2:3:($5*100):($6*100) \
         with xyerrorbars lw 1.5 pt 6 ps 1.4 lc i notitle, \
     NaN with points pt 6 ps 1.4 lc "gray30" title other, \
     for [i=1:nv:2] f index (i-1) using ($15 > 0 ? $1 : 1/0):($6*100):16 \
         with labels rotate by 35 left offset 0.2, 0.4 font ",8" tc lt i notitle, \
     for [i=2:nv:2] f index (i-1) using ($15 > 0 ? $1 : 1/0):($5*100):16 \
         with labels rotate by 35 right offset -0.2, -0.4 font ",8" tc lt i notitle

unset label 1
# the published figures beside it, on the same score scale
# (each mark's label under the axis: its source, who played, White's share and the games)
set lmargin at screen 0.69
set rmargin at screen 0.985
unset ylabel
set format y ""
set xrange [0.5 : 3.5]
set xtics scale 0 font ",8"
unset grid
set grid ytics
unset xlabel
set title "published elsewhere (no Elo on this scale)" font ",10"
unset key
plot 50 with lines dt 2 lw 1.5 lc "gray40" notitle, \
     g using 1:($2*100):($3*100):($4*100):xticlabels(stringcolumn(6)."\n".stringcolumn(7)."\n".stringcolumn(8). \
         "\nof ".stringcolumn(9)." games") with yerrorbars lw 2 pt 9 ps 1.4 lc "black" notitle
unset multiplot
