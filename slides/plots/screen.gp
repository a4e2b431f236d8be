# screen.gp: the terminal every slide plot uses, loaded by slides/plots/labNN.gp.
# 1200x560 pixels shown about 1160 wide on a 1280x720 slide: a 20-point font
# reads at slide size. A Latin font (Liberation Sans comes with gnuplot on
# Debian): the machines' names hold × and the plots hold no Chinese.
#
# Every plot keeps its key outside the data area. With layout_check defined
# (make-plots.sh under LAYOUT_CHECK=1) the border is drawn cyan and the key's
# text magenta, so that tools/slides/slides-plot-layout.py can find both in the
# image and hold the one outside the other.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,560 noenhanced font "Liberation Sans,20" linewidth 2
} else {
    set terminal png size 1200,560 noenhanced
}
set datafile separator ","
set datafile missing NaN
if (exists("layout_check")) {
    set border lc rgb "#00ffff"
    set key textcolor rgb "#ff00ff"
}
