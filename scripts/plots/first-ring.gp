# The board as a map of White's score by White's first ring (the game's
# first action) at the top of each variant (the pair named in the
# panel's title: the ladder's strongest level, else the strongest by
# simulations, else the agent against itself with the most games), one
# panel per variant. The points are pooled by their class under the
# board's 12 symmetries (a first ring on any point of a class starts the
# same game, turned), so every point of a class has the class's colour,
# and the class's games are written at its first point. One colour scale
# for every panel, centred at 50%, so that a colour means one score.
# Drawn by `yinsh report`: plots (these scripts' directory), dir (reads
# first-ring-VARIANT.dat, writes first-ring.png), variants ("standard
# blitz"), top1, top2, ... (each variant's pair, with its games) and
# min_games (classes with fewer games are grey, and the panel says how
# many). Data rows: x y score games point class class_score class_games
# first, the points in the board's layout (columns a..k left to right,
# as `yinsh show` draws them).
nv = words(variants)
call plots."/common.gp" sprintf("%d", 60 + 600*nv + 110) "720" dir."/first-ring.png"

# the one colour scale: symmetric about 50%, as wide as the farthest class with enough games
half = 0.05
coloured = 0
do for [i=1:nv] {
    stats dir."/first-ring-".word(variants, i).".dat" using ($8 >= min_games ? abs($7 - 0.5) : 0) nooutput
    half = STATS_max > half ? STATS_max : half
    stats dir."/first-ring-".word(variants, i).".dat" using ($8 >= min_games ? 1 : 0) nooutput
    coloured = coloured + STATS_sum
}
set cbrange [100*(0.5 - half):100*(0.5 + half)]
set palette defined (0 "#2166ac", 0.5 "#f7f7f7", 1 "#b2182b")
set cblabel "White's score (%), one scale for every panel"

W = 60 + 600*nv + 110
# a panel's title: its variant, then its pair wrapped at the spec's commas (a long spec would run into the next panel's)
lastc(s, i) = i < 1 ? 0 : (s[i:i] eq "," ? i : lastc(s, i - 1))
wrap(s, n) = strlen(s) <= n ? s : (lastc(s, n) > 0 ? s[1:lastc(s, n)]."\n".wrap(s[lastc(s, n) + 1:*], n) : s)
set multiplot title "White's score by White's first ring at the top level, the points pooled by their class under the board's 12 symmetries\n(number under a point: its class's games, at the class's first point; grey: a class with fewer than ".min_games.")" font ",12"
set size ratio -1
unset xtics
unset ytics
unset border
cols = "a b c d e f g h i j k"
do for [c=0:10] {
    set label 100+c word(cols, c+1) at c*0.8660254, -2.4 center font ",11"
}
do for [i=1:nv] {
    v = word(variants, i)
    f = dir."/first-ring-".v.".dat"
    set lmargin at screen (30.0 + 600*(i - 1)) / W
    set rmargin at screen (30.0 + 600*i) / W
    set tmargin at screen 1 - 130.0/720
    set bmargin at screen 20.0/720
    # with no class to colour, a colour scale would only mislead
    if (i == nv && coloured > 0) {
        set colorbox vertical user origin screen (40.0 + 600*nv) / W, screen 0.2 size screen 22.0 / W, screen 0.6
    } else {
        unset colorbox
    }
    # classes whose score is too thin to read say so in the panel, not only by their grey
    stats f using ($9 > 0 && $8 < min_games ? 1 : 0) nooutput
    thin = int(STATS_sum)
    stats f using 9 nooutput
    nclasses = int(STATS_sum)
    if (thin > 0) {
        set label 1 sprintf("Too few games to read a score in %d of the %d classes:\nfewer than %d each (grey; blank: none)", \
            thin, nclasses, int(min_games)) at graph 0.5, graph 0.035 center font ",10" tc "dark-red"
    } else {
        unset label 1
    }
    set xrange [-0.9:9.5]
    set yrange [-4.2:8.3]
    set title v."\n".wrap(value(sprintf("top%d", i)), 64) font ",11"
    plot f using 1:2 with points pt 6 ps 4.2 lc "gray75" notitle, \
         f using 1:2:($8 >= min_games ? 100*$7 : 1/0) with points pt 7 ps 4 lc palette notitle, \
         f using 1:($8 > 0 && $8 < min_games ? $2 : 1/0) with points pt 7 ps 4 lc "gray85" notitle, \
         f using 1:($2+0.22):5 with labels font ",8" tc "black" notitle, \
         f using 1:($2-0.16):($9 > 0 ? sprintf("%d", int($8)) : "") with labels font ",9:Bold" notitle
}
unset multiplot
