# How long games last: a panel per variant, the game length's spread
# (the median, the middle half of the games from the first to the third
# quartile, and 80% of them from the 10th to the 90th percentile) at
# each level of the variant's ladder against the level's Elo (each
# variant its own Elo axis: each ladder is its own fit), or, for a
# variant without a rated ladder, for each pair of agents side by side.
# One page-wide picture: a panel per pair (62 of them for the ladder
# study) could not be read at a page's width; the spreads side by side
# can. Drawn by `yinsh report`: plots (these scripts' directory), dir
# (reads lengths-VARIANT.dat, writes lengths.png), variants ("standard
# blitz"), ladder (the variants with a rated ladder) and anchor1,
# anchor2, ... (each variant's ladder's anchor). Data rows: x elo q10 q25
# median q75 q90 mean games main label; with a ladder, after the levels
# (main 1) and one blank line, their games from other openings (main 0).
nv = words(variants)
# a tic step that gives a narrow panel at most 5 Elo tics (auto tics crowd it)
elo_step(range) = range <= 250 ? 50 : range <= 500 ? 100 : range <= 1000 ? 200 : range <= 1250 ? 250 : \
    range <= 2500 ? 500 : 1000 * ceil(range / 5000.0)
rated(v) = strstrt(" ".ladder." ", " ".v." ") > 0
# a panel without a ladder names its pairs under the axis, slanted
named = 0
do for [i=1:nv] { if (!rated(word(variants, i))) { named = 1 } }
H = named ? 720 : 560
call plots."/common.gp" sprintf("%d", 40 + 480*nv) sprintf("%d", H) dir."/lengths.png"
set multiplot layout 1, nv margins 0.08, 0.98, (named ? 230.0 : 80.0)/H, 1 - 110.0/H spacing 0.06, 0 \
    title "How long games last (actions of both players): the median (line), the middle half of the games\n(25–75%, dark band or box) and 80% of them (10–90%, light band or whiskers)" font ",12"
set grid
set ylabel "game length (actions)"
set key top left samplen 2 opaque font ",9"
set style fill solid 0.35 noborder
do for [i=1:nv] {
    v = word(variants, i)
    f = dir."/lengths-".v.".dat"
    stats [*:*][*:*] f using 3 nooutput
    ylo = STATS_min
    stats [*:*][*:*] f using 7 nooutput
    yhi = STATS_max
    set yrange [ylo - 0.08*(yhi - ylo) - 2 : yhi + 0.25*(yhi - ylo) + 2]
    if (i > 1) { unset ylabel }
    if (rated(v)) {
        a = value(sprintf("anchor%d", i))
        stats [*:*][*:*] f using 1 nooutput
        xpad = 0.06*(STATS_max - STATS_min) + 20
        set xrange [STATS_min - xpad : STATS_max + xpad]
        set xtics elo_step(STATS_max - STATS_min + 2*xpad) rotate by 0 font ""
        set xlabel sprintf("Elo (%s ladder, %s = 0)", v, a eq "random" ? "random play" : a)
        set title sprintf("%s: at each level of its ladder", v) font ",11"
        stats [*:*][*:*] f using ($10 > 0 ? 0 : 1) nooutput
        other = STATS_sum > 0 ? "a level's games from another opening (25–75%)" : ""
        plot f index 0 using ($10 > 0 ? $1 : 1/0):3:7 with filledcurves lc i fs transparent solid 0.18 title "10–90%", \
             f index 0 using ($10 > 0 ? $1 : 1/0):4:6 with filledcurves lc i fs transparent solid 0.40 title "25–75%", \
             f index 0 using ($10 > 0 ? $1 : 1/0):5 with linespoints lw 2 pt 7 ps 1.1 lc i title "median", \
             f using ($10 > 0 ? 1/0 : $1):5:4:6 with yerrorbars pt 6 ps 1.4 lw 1.5 lc i title other
    } else {
        stats [*:*][*:*] f using 1 nooutput
        set xrange [0.4 : STATS_max + 0.6]
        set xtics rotate by 40 right font ",8"
        unset xlabel
        set title sprintf("%s: each pair of agents", v) font ",11"
        set boxwidth 0.5
        plot f using 1:4:3:7:6:xticlabels(stringcolumn(11)) with candlesticks whiskerbars lc i title "10, 25, 75, 90%", \
             f using 1:5:5:5:5 with candlesticks lw 2 lc "black" title "median"
    }
}
unset multiplot
