# screen.gp: the terminal every slide plot uses, loaded by slides/plots/labNN.gp.
# 1200x560 pixels shown about 1160 wide on a 1280x720 slide: a 20-point font
# reads at slide size.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,560 noenhanced font "Noto Sans CJK SC,20" linewidth 2
} else {
    set terminal png size 1200,560 noenhanced
}
set datafile separator ","
set datafile missing NaN
