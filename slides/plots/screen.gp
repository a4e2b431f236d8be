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

# ------------------------------------------------------------ layout --
# Panels side by side above one key in a strip of its own: panel p of NP is PANELH high on top
# of the strip, which takes the bottom KEYH (from KEYY up: a script may keep room for a note
# under it). @panel and @strip place them; the strip has no axes and no data, only the key.
if (!exists("KEYY")) KEYY = 0
panel = 'set size 1.0 / NP, PANELH; set origin (p - 1) * 1.0 / NP, KEYH'
strip = 'set size 1, KEYH - KEYY; set origin 0, KEYY; unset title; unset border; unset tics; unset grid; unset logscale; unset xlabel; unset ylabel; unset arrow; set xrange [0:1]; set yrange [0:1]; set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0'

# a row of experiment E, variant V over route R
is(e, v, r) = strcol("experiment") eq e && strcol("variant") eq v && strcol("route") eq r

# Columns are read by their names in the header row (column("gbps"), strcol("experiment")):
# make-plots.sh checks that every recording has each name a script reads.
set datafile columnheaders

# ------------------------------------------------------------ machines --
# The lab's recordings, every one make-plots.sh found (in the order of
# tests/fixtures/machines.tsv): rec_n of them, the Kth's file and its machine's row.
if (!exists("rec_n") || rec_n < 1) {
    exit error "set rec_n and, for K = 1..rec_n, rec_K, rec_gpus_K, rec_link_K, rec_kind_K, rec_count_K: make-plots.sh does"
}
mfile(i) = value(sprintf("rec_%d", i))
mgpus(i) = value(sprintf("rec_gpus_%d", i))
mlink(i) = value(sprintf("rec_link_%d", i))
mkind(i) = value(sprintf("rec_kind_%d", i))
mcount(i) = value(sprintf("rec_count_%d", i))
# how a plot names a machine: "GPUS, LINK", as its row writes them
mhw(i) = mgpus(i).", ".mlink(i)
# the far side of a machine's link: the peer on several GPUs, the host on one GPU
mfar(i) = mcount(i) >= 2 ? "peer" : "host"
# each machine's colour and point, the same in every plot
mcolour(i) = word("#1a7f37 #1b365d #d55e00 #cc79a7 #e69f00 #0072b2", (i - 1) % 6 + 1)
mpoint(i) = int(word("7 5 9 11 13 4", (i - 1) % 6 + 1))
