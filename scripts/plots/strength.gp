# White's score against the agents' strength, one line per variant, with
# 95% interval bars. Drawn by `yinsh report`, which writes the data and
# gives the variables (and plots, the directory of these scripts):
#   dir       the report's directory: reads strength.dat, writes strength.png
#   variants  the variants of strength.dat's blocks, in order ("standard blitz")
# strength.dat rows: simulations per move (random play: 1), score, interval
# low, interval high, games.
call plots."/common.gp" "900" "600" dir."/strength.png"
set logscale x
set xtics ("random" 1, "10" 10, "30" 30, "100" 100, "300" 300, "1000" 1000, "3000" 3000, "10000" 10000, "30000" 30000)
set mxtics 10
set offsets graph 0.06, graph 0.06, graph 0.08, graph 0.08
set xlabel "strength: MCTS simulations per move (log scale; random play at the left)"
set ylabel "White's score (%)"
set title "First-player advantage: White's score against agent strength (95% intervals)"
set grid ytics
set key top left box opaque
nv = words(variants)
plot 50 with lines dt 2 lw 1.5 lc "gray40" title "no advantage (50%)", \
     for [i=1:nv] dir."/strength.dat" index (i-1) \
         using ($1*(1+0.05*(i-1))):($2*100):($3*100):($4*100) \
         with yerrorlines lw 2 pt 7 ps 1.2 lc i title word(variants, i)
