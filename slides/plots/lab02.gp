# lab02.gp: lab 02's plot for the slides, from the lab's recordings.
#
#   slides/plots/make-plots.sh (it hands this script every recording: screen.gp)
#
# Writes OUT/lab02-methods.png: GB/s against copy size, a panel per machine.
# On a machine of several GPUs, GPU a -> GPU b: cudaMemcpyPeer and
# cudaMemcpy(Default) with peer access on, cudaMemcpyPeer with peer access off,
# and the copy staged through pinned host memory. On one GPU the same calls
# copy within its memory (route loopback): no peer access to turn off.
#
# Columns, by name (the course's one row format, tests/fixtures/rows-header.csv):
# experiment, variant, route, src, dst, bytes, gbps.
# Rows used: "timing" (variant: the method; route: peer, peer_off or loopback)
# and "ordering" (its copies run GPU a -> GPU b, so their src and dst name the pair).

if (!exists("out")) out = "."
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

t(m, r, a, b) = strcol("experiment") eq "timing" && strcol("variant") eq m && strcol("route") eq r && \
    column("src") == a && column("dst") == b

set output out."/lab02-methods.png"
set multiplot title "Peer access decides the speed; the API does not" font ",20"
NP = rec_n
KEYH = 0.14
PANELH = 0.78
do for [p = 1:NP] {
    F = mfile(p)
    if (mfar(p) eq "peer") {
        # the pair: GPU a -> GPU b, the direction of the ordering rows
        stats F using (strcol("experiment") eq "ordering" ? column("src") : NaN) nooutput
        A = int(STATS_min)
        stats F using (strcol("experiment") eq "ordering" ? column("dst") : NaN) nooutput
        B = int(STATS_min)
        R = "peer"
        what = sprintf("GPU %d -> GPU %d, peer access on", A, B)
    } else {
        # one GPU: its copies from and to its own memory
        stats F using (strcol("experiment") eq "timing" && strcol("route") eq "loopback" ? column("src") : NaN) nooutput
        A = int(STATS_min)
        B = A
        R = "loopback"
        what = sprintf("GPU %d -> GPU %d: one GPU, no link", A, B)
    }
    set title sprintf("%s\n%s", mhw(p), what) font ",16"
    @panel
    set logscale x 2
    set xrange [3000:360000000]
    # local memory copies run far above any link: that panel scales to its own data
    if (R eq "peer") { set yrange [0:450] } else { set yrange [0:*] }
    if (NP == 1) {
        set xtics ("4 KiB" 4096, "64 KiB" 65536, "1 MiB" 1048576, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456)
    } else {
        set xtics ("4 KiB" 4096, "1 MiB" 1048576, "256 MiB" 268435456)
    }
    set xlabel "bytes per copy"
    set ylabel (p == 1 ? "GB/s (median)" : "")
    set grid
    unset key
    set style data linespoints
    if (R eq "peer") {
        plot \
            F using "bytes":(t("memcpy_peer", R, A, B) ? column("gbps") : NaN) pt 7 ps 1.6 lc 1, \
            F using "bytes":(t("memcpy_default", R, A, B) ? column("gbps") : NaN) pt 4 ps 2.2 dt 2 lc 2, \
            F using "bytes":(t("memcpy_peer", "peer_off", A, B) ? column("gbps") : NaN) pt 5 ps 1.6 lc 3, \
            F using "bytes":(t("host_staged", R, A, B) ? column("gbps") : NaN) pt 9 ps 1.8 lc 4
    } else {
        plot \
            F using "bytes":(t("memcpy_peer", R, A, B) ? column("gbps") : NaN) pt 7 ps 1.6 lc 1, \
            F using "bytes":(t("memcpy_default", R, A, B) ? column("gbps") : NaN) pt 4 ps 2.2 dt 2 lc 2, \
            F using "bytes":(t("host_staged", R, A, B) ? column("gbps") : NaN) pt 9 ps 1.8 lc 4
    }
}
@strip
set key center center horizontal maxrows 2 width -2 font ",18"
plot \
    NaN with linespoints pt 7 ps 1.6 lc 1 title "cudaMemcpyPeer", \
    NaN with linespoints pt 4 ps 2.2 dt 2 lc 2 title "cudaMemcpy(Default)", \
    NaN with linespoints pt 5 ps 1.6 lc 3 title "cudaMemcpyPeer, peer access off", \
    NaN with linespoints pt 9 ps 1.8 lc 4 title "staged through pinned host memory"
unset multiplot
