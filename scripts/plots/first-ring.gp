# The board as a map of White's score by the point of White's first ring
# (the game's first action), one panel per variant. Drawn by `yinsh
# report`: plots (these scripts' directory), dir (reads
# first-ring-VARIANT.dat, writes first-ring.png), variants ("standard
# blitz") and min_games (points with fewer games are grey, and a note in
# the panel counts them). Data rows: x y score games point, the points in
# the board's layout (columns a..k left to right, as `yinsh show` draws
# them).
nv = words(variants)
call plots."/common.gp" sprintf("%d", 60 + 640*nv) "700" dir."/first-ring.png"
set multiplot layout 1, nv title "White's score by the point of White's first ring (number: games; grey: fewer than ".min_games.")"
set size ratio -1
unset xtics
unset ytics
unset border
set palette defined (0 "#2166ac", 0.5 "#f7f7f7", 1 "#b2182b")
set cblabel "White's score (%)"
set colorbox vertical
cols = "a b c d e f g h i j k"
do for [c=0:10] {
    set label 100+c word(cols, c+1) at c*0.8660254, -2.4 center font ",12"
}
do for [i=1:nv] {
    v = word(variants, i)
    f = dir."/first-ring-".v.".dat"
    # the colour scale: symmetric about 50%, as wide as the farthest point
    set autoscale xy
    stats f using ($4 >= min_games ? abs($3 - 0.5) : 0) nooutput
    half = STATS_max > 0.05 ? STATS_max : 0.05
    stats f using 4 nooutput
    games = int(STATS_sum)
    # points whose score is too thin to read say so in the panel, not only
    # by their grey: a map of mostly grey points is no map of the board
    stats f using ($4 < min_games ? 1 : 0) nooutput
    thin = int(STATS_sum)
    if (thin > 0) {
        set label 1 sprintf("Too few games to read a score at %d of %d points:\nfewer than %d each (grey; blank: none)", \
            thin, int(STATS_records), int(min_games)) at graph 0.5, graph 0.035 center font ",10" tc "dark-red"
    } else {
        unset label 1
    }
    # with no point to colour, a colour scale would only mislead
    if (thin == int(STATS_records)) { unset colorbox } else { set colorbox vertical }
    set cbrange [100*(0.5 - half):100*(0.5 + half)]
    set xrange [-0.9:9.5]
    set yrange [-4.2:8.3]
    set title sprintf("%s (%d games)", v, games)
    plot f using 1:2 with points pt 6 ps 4.2 lc "gray75" notitle, \
         f using 1:2:($4 >= min_games ? 100*$3 : 1/0) with points pt 7 ps 4 lc palette notitle, \
         f using 1:($4 > 0 && $4 < min_games ? $2 : 1/0) with points pt 7 ps 4 lc "gray85" notitle, \
         f using 1:($2+0.28):5 with labels font ",8" tc "gray30" notitle, \
         f using 1:($2-0.12):($4 > 0 ? sprintf("%d", int($4)) : "") with labels font ",9" notitle
}
unset multiplot
