# Shared by the report's pictures: a PNG terminal of the given size, cairo
# when gnuplot has it (smoother), else libgd's png (Debian's gnuplot-nox
# has both; some builds have only one). Call: call "common.gp" "W" "H" "FILE"
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size ARG1, ARG2 font "sans,11" enhanced
} else {
    set terminal png size ARG1, ARG2 enhanced
}
set output ARG3
set encoding utf8
