# White's score against the ladder's Elo: a panel per variant, each on
# its own Elo axis (each variant's ladder is its own fit, anchored at its
# own anchor: the two scales are not one), through the levels rated
# against the anchor, with the score's 95% Wilson interval as the
# vertical bar and the joint fit's 95% interval of the Elo as the
# horizontal one; the 50% line; and, in a panel beside them on the same
# score scale, the figures published elsewhere as reference marks (they
# have no place on an Elo axis), each labelled with its source and games.
# The levels are numbered at their points (alternately above and below,
# so that neighbours' numbers do not meet) and named in a key under the
# panels: names beside the points collided where two levels' Elo are
# close. Drawn by `yinsh report`, which writes the data and gives the
# variables (and plots, the directory of these scripts):
#   dir       the report's directory: reads ladder.dat, ladder-levels.dat
#             and published.dat, writes score-elo.png
#   variants  the variants of ladder.dat's blocks, in order ("standard blitz")
#   anchor1, anchor2, ...  each variant's anchor ("random")
# ladder.dat rows: elo elo_lo elo_hi score lo hi draws draws_lo draws_hi
# mean_length median q1 q3 games main label level; in each block the
# levels' self-play from the opening of their matches (main 1) in Elo
# order, then, after one blank line, their games from other openings
# (main 0). ladder-levels.dat rows: level label.
# published.dat rows: k score lo hi games source who share games_text.
f = dir."/ladder.dat"
g = dir."/published.dat"
lv = dir."/ladder-levels.dat"
nv = words(variants)
# a tic step that gives a narrow panel at most 5 Elo tics (auto tics crowd it)
elo_step(range) = range <= 250 ? 50 : range <= 500 ? 100 : range <= 1000 ? 200 : range <= 1250 ? 250 : \
    range <= 2500 ? 500 : 1000 * ceil(range / 5000.0)
stats [*:*][*:*] lv using 1 nooutput
nlevels = int(STATS_records)
# the key of levels under the panels: up to 3 columns, as many as the
# longest name leaves room for (the key is 1110 pixels wide; a character
# of its font is about 7.3 pixels, an entry "NN  name" and 20 pixels
# between columns); the top study's names are 64 characters long
stats [*:*][*:*] lv using (strlen(stringcolumn(2))) nooutput
kfit = int(1110.0 / ((STATS_max + 4) * 7.4 + 20))
kcols = nlevels > 8 ? 3 : (nlevels > 4 ? 2 : 1)
kcols = kcols > kfit ? (kfit > 1 ? kfit : 1) : kcols
krows = int(ceil(nlevels / (kcols * 1.0)))
# pixels: 110 above (the titles), the panels 460 high, 115 for the axes' labels, the key 22 a row
H = 110 + 460 + 115 + 22*krows + 20
call plots."/common.gp" "1200" sprintf("%d", H) dir."/score-elo.png"
ktop = (22.0*krows + 30) / H             # the key's top, in screen units
pbot = ktop + 115.0/H                    # the panels' bottom
ptop = 1 - 110.0/H

# rows from another opening than a level's matches (main 0): open circles, in the note only when there are some
stats [*:*][*:*] f using ($15 > 0 ? 0 : 1) nooutput
other = STATS_sum > 0 ? "; open circle: a level's games from another opening" : ""

# one score scale for every panel: every bar in sight, and 50%
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
# room for the numbers above and below the bars
ylo = ylo - 1.5*pad > 0 ? ylo - 1.5*pad : 0
yhi = yhi + 1.5*pad < 100 ? yhi + 1.5*pad : 100

set multiplot
set label 1 "First-player advantage against playing strength: White's score at each level of each variant's ladder" \
    at screen 0.5, screen 1 - 28.0/H center font ",13"
set label 2 sprintf("bars: 95%% intervals (vertical: the score's; horizontal: the level's Elo); dashed: 50%%, no advantage%s", other) \
    at screen 0.5, screen 1 - 52.0/H center font ",10"
set yrange [ylo:yhi]
set ytics nomirror
set grid ytics xtics
unset key
set tmargin at screen ptop
set bmargin at screen pbot

# a panel per variant, side by side in the left two thirds, each its own Elo axis
pw = (0.65 - 0.06) / nv
do for [i=1:nv] {
    v = word(variants, i)
    a = value(sprintf("anchor%d", i))
    set lmargin at screen 0.06 + (i - 1)*pw + (i > 1 ? 0.025 : 0)
    set rmargin at screen 0.06 + i*pw - 0.015
    stats [*:*][*:*] f index (i-1) using 2 nooutput
    xlo = STATS_min
    stats [*:*][*:*] f index (i-1) using 3 nooutput
    xhi = STATS_max
    xpad = 0.06*(xhi - xlo) + 20
    set xrange [xlo - xpad : xhi + xpad]
    set xtics elo_step(xhi - xlo + 2*xpad)
    set title v font ",12"
    # the anchor by its number in the key when it has one: two panels' names
    # side by side would meet
    stats [*:*][*:*] lv using (stringcolumn(2) eq a ? $1 : 0) nooutput
    an = int(STATS_max)
    set xlabel sprintf("Elo (%s ladder, %s = 0)", v, a eq "random" ? "random play" : an > 0 ? sprintf("level %d", an) : a)
    if (i == 1) { set ylabel "White's score (%)"; set format y "%g" } else { unset ylabel; set format y "" }
    plot 50 with lines dt 2 lw 1.5 lc "gray40", \
         f index (i-1) using ($15 > 0 ? $1 : 1/0):($4*100):2:3:($5*100):($6*100) \
             with xyerrorlines lw 2 pt 7 ps 1.1 lc i, \
         f index (i-1) using ($15 > 0 ? 1/0 : $1):($4*100):2:3:($5*100):($6*100) \
             with xyerrorbars lw 1.5 pt 6 ps 1.4 lc i, \
         f index (i-1) using ($15 > 0 && int($0) % 2 == 0 ? $1 : 1/0):($6*100):(sprintf("%d", $17)) \
             with labels offset 0, 0.7 font ",10" tc lt i, \
         f index (i-1) using ($15 > 0 && int($0) % 2 == 1 ? $1 : 1/0):($5*100):(sprintf("%d", $17)) \
             with labels offset 0, -0.7 font ",10" tc lt i
    # the title is drawn once, with the first panel
    unset label 1
    unset label 2
}

# the published figures beside them, on the same score scale
# (each mark's label under the axis: its source, who played, White's share and the games)
set lmargin at screen 0.695
set rmargin at screen 0.985
unset ylabel
set format y ""
set xrange [0.5 : 3.5]
set xtics autofreq scale 0 font ",8"
unset grid
set grid ytics
unset xlabel
set title "published elsewhere\n(no Elo on these scales)" font ",10"
plot 50 with lines dt 2 lw 1.5 lc "gray40", \
     g using 1:($2*100):($3*100):($4*100):xticlabels(stringcolumn(6)."\n".stringcolumn(7)."\n".stringcolumn(8). \
         "\nof ".stringcolumn(9)." games") with yerrorbars lw 2 pt 9 ps 1.4 lc "black"

# the key of the levels' numbers
unset title
unset border
unset tics
unset grid
set lmargin at screen 0.06
set rmargin at screen 0.985
set tmargin at screen ktop
set bmargin at screen 0.01
set xrange [0 : 3]
set yrange [krows - 0.5 : -0.5]
set label 3 "levels:" at screen 0.01, screen ktop - 11.0/H left font ",10"
plot lv using (int($1 - 1) / krows * 3.0 / kcols + 0.02):(int($1 - 1) % krows):(sprintf("%2d  %s", $1, stringcolumn(2))) \
    with labels left font ",10"
unset multiplot
