# White's score against MCTS simulations per move: one line per variant
# through the MCTS levels (agents against themselves) and random play
# apart, with 95% interval bars and the games (n) at each point. Other
# agents (alpha-beta by depth) have no simulations and no place here: the
# title says so, since a picture titled as the answer must show every
# level. Drawn only without a ladder (score-elo.gp takes its place).
# Drawn by `yinsh report`, which writes the data and gives the variables
# (and plots, the directory of these scripts):
#   dir       the report's directory: reads strength.dat, writes strength.png
#   variants  the variants of strength.dat's blocks, in order ("standard blitz")
# strength.dat rows: simulations per move (random play: 0), score, interval
# low, high, games, agent; in each block random play comes first.
call plots."/common.gp" "900" "600" dir."/strength.png"
f = dir."/strength.dat"
nv = words(variants)
shift(i) = 1 + 0.05*(i - 1)    # blitz a little right, so that the bars do not overlap

# The x axis is the MCTS levels' (log scale, a tic at each level played).
# Random play has no simulations, so it is no point of that scale: it
# stands apart at the left, behind a dashed rule, as its own marker that
# no line joins to the first level.
stats [*:*][*:*] f using ($1 > 0 ? $1 : 1e30) nooutput
mcts = STATS_min < 1e30
smin = mcts ? STATS_min : 1
stats [*:*][*:*] f using ($1 > 0 ? $1 : 0) nooutput
smax = mcts ? STATS_max : smin
xr = smin / 4.0
set logscale x
set xrange [xr / 1.8 : smax * 1.8 * shift(nv)]
set xtics ("random" xr) nomirror
do for [b=0:nv-1] {
    stats [*:*][*:*] f index b using 1 nooutput
    do for [k=0:STATS_records-1] {
        stats [*:*][*:*] f index b every ::k::k using 1 nooutput
        if (STATS_max > 0) { set xtics add (sprintf("%g", STATS_max) STATS_max) }
    }
}
unset mxtics
if (mcts) { set arrow 1 from smin / 2.0, graph 0 to smin / 2.0, graph 1 nohead dt 3 lc "gray50" }

# The y axes: White's score on the left; on the right the same scale read
# as the advantage in Elo (logistic: score = 1 / (1 + 10^(-Elo/400))), so
# that a bar read on the right is the score's own 95% interval in Elo, not
# a second interval. 50% is always in sight; the range stops a point
# beyond 0% and 100% (the Elo tics stay inside, where Elo is finite).
stats [*:*][*:*] f using ($3*100) nooutput
ylo = STATS_min < 50 ? STATS_min : 50
stats [*:*][*:*] f using ($4*100) nooutput
yhi = STATS_max > 50 ? STATS_max : 50
pad = 0.1*(yhi - ylo) + 1
ylo = ylo - pad > -1 ? ylo - pad : -1
yhi = yhi + pad < 101 ? yhi + pad : 101
set yrange [ylo:yhi]
set y2range [ylo:yhi]
set ytics nomirror
elo(s) = -400*log10(100.0/s - 1)           # s in percent, 0 < s < 100
score(e) = 100.0 / (1 + 10**(-e/400.0))
elo_lo = elo(ylo > 0.5 ? ylo : 0.5)
elo_hi = elo(yhi < 99.5 ? yhi : 99.5)
steps = "10 20 25 50 100 200 400"
step = 800
do for [k=words(steps):1:-1] {
    s = int(word(steps, k))
    if ((elo_hi - elo_lo) / s <= 8) { step = s }
}
set y2tics ("0" 50) nomirror
do for [e=int(ceil(elo_lo/step))*step : int(floor(elo_hi/step))*step : step] {
    if (e != 0) { set y2tics add (sprintf("%+d", e) score(e)) }
}

set xlabel "strength: MCTS simulations per move (log scale); random play apart at the left"
set ylabel "White's score (%)"
set y2label "White's advantage (Elo): the same points and bars"
set title "White's score against MCTS simulations per move: the MCTS levels and random play only\n(each agent against itself; 95% intervals; n: games)"
set grid ytics
set key bmargin center horizontal samplen 2
set bmargin 5.5
# the n of each point: the first variant's above its bar, ending at it,
# the second's below, starting at it, so that neighbours do not overlap
plot 50 with lines dt 2 lw 1.5 lc "gray40" title "no advantage (50%, 0 Elo)", \
     for [i=1:nv] f index (i-1) \
         using ($1 > 0 ? $1*shift(i) : 1/0):($2*100):($3*100):($4*100) \
         with yerrorlines lw 2 pt 7 ps 1.2 lc i title word(variants, i), \
     for [i=1:nv] f index (i-1) \
         using ($1 > 0 ? 1/0 : xr*shift(i)):($2*100):($3*100):($4*100) \
         with yerrorbars lw 2 pt 5 ps 1.2 lc i notitle, \
     for [i=1:nv:2] f index (i-1) \
         using ($1 > 0 ? $1*shift(i) : xr*shift(i)):($4*100):(sprintf("n=%d", $5)) \
         with labels right offset 0.3, 0.7 font ",9" tc lt i notitle, \
     for [i=2:nv:2] f index (i-1) \
         using ($1 > 0 ? $1*shift(i) : xr*shift(i)):($3*100):(sprintf("n=%d", $5)) \
         with labels left offset -0.3, -0.7 font ",9" tc lt i notitle
