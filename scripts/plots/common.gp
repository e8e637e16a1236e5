# Shared by the report's pictures: a PNG terminal of the given size, cairo
# when gnuplot has it (smoother), else libgd's png (Debian's gnuplot-nox
# has both; some builds have only one). Call: call "common.gp" "W" "H" "FILE"
# With svg=1 (gnuplot -e "svg=1; ..."), the same picture as SVG, FILE's
# name ending in .svg instead of .png: vector pictures for a paper, and the
# text positions that tests/plot_labels.py checks for collisions. Its
# fonts are sized as pngcairo sizes them (points at 96 per inch, so 4/3 of
# a pixel a point): the same layout, the text in the same proportion.
if (exists("svg") && svg) {
    set terminal svg size ARG1, ARG2 font "sans,11" enhanced fontscale 1.3333
    set output ARG3[1:strlen(ARG3) - 4].".svg"
} else {
    if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size ARG1, ARG2 font "sans,11" enhanced
    } else {
        set terminal png size ARG1, ARG2 enhanced
    }
    set output ARG3
}
set encoding utf8
