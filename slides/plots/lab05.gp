# lab05.gp: lab 05's plots for the slides, from the lab's recordings.
#
#   slides/plots/make-plots.sh (it hands this script every recording: screen.gp)
#
# Writes OUT/lab05-bandwidth.png (GPU a -> GPU b, GB/s against size: a panel
# per machine of several GPUs), OUT/lab05-host-bandwidth.png (GPU and host
# memory: a panel per machine that measured its host link), each naming below
# the machines it has nothing of; OUT/lab05-latency.png (the kinds of latency,
# a group of bars per machine), OUT/lab05-streams.png (N streams, each
# copying its own slice, against one copy of all their bytes in one stream:
# the baseline of the claim concurrent_streams_contend) and
# OUT/lab05-cpu-sync.png (how much slower a synchronize after each copy makes
# a run, by size), a line per machine.
#
# Columns, by name (the course's one row format, tests/fixtures/rows-header.csv):
# experiment, variant, route, src, dst, mode, bytes, median_us, gbps,
# peak_gbps, value.

if (!exists("out")) out = "."
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

row(e, v, m, r) = strcol("experiment") eq e && strcol("variant") eq v && strcol("mode") eq m && strcol("route") eq r
pair(s, d) = column("src") == s && column("dst") == d
# (a count is a sum of 0s and 1s: stats refuses a column without a valid point)
sizes = 'set xtics ("4 B" 4, "64 B" 64, "1 KiB" 1024, "16 KiB" 16384, "256 KiB" 262144, "4 MiB" 4194304, "64 MiB" 67108864, "1 GiB" 1073741824)'
# DRAWN_peer / DRAWN_host: the machines whose recording measured that link (their numbers),
# NONE_peer / NONE_host: the names of those that did not, said under the plot
do for [r in "peer host"] {
    D = ""
    N = ""
    do for [i = 1:rec_n] {
        stats mfile(i) using (row("ce_bandwidth", "ce", "one_way", r) ? 1 : 0) nooutput
        if (STATS_sum > 0) { D = D.sprintf(" %d", i) } else { N = N.(N eq "" ? "" : "; ").mhw(i) }
    }
    eval sprintf("DRAWN_%s = '%s'; NONE_%s = '%s'", r, D, r, N)
}
# PA[i], PB[i]: the pair of GPUs machine i measured, where it has several (its config rows);
# lo(i), hi(i): the two in order (a both-ways row and a ping-pong are named that way)
array PA[rec_n]
array PB[rec_n]
do for [i = 1:rec_n] {
    if (mfar(i) eq "peer") {
        stats mfile(i) using (strcol("experiment") eq "config" && strcol("variant") eq "pair_a" ? column("value") : NaN) nooutput
        PA[i] = int(STATS_min)
        stats mfile(i) using (strcol("experiment") eq "config" && strcol("variant") eq "pair_b" ? column("value") : NaN) nooutput
        PB[i] = int(STATS_min)
    }
}
lo(i) = PA[i] < PB[i] ? PA[i] : PB[i]
hi(i) = PA[i] < PB[i] ? PB[i] : PA[i]
# the panels' key (@strip) keeps room under it for the note of the machines not drawn
KEYY = 0.05
note(none, why) = none eq "" ? "" : sprintf("not drawn: %s (%s)", none, why)

# ------------------------------------------------------------ bandwidth --
# GB/s on a log axis: the sizes span nine powers of ten and so do the rates; on
# a linear axis every size below 64 KiB would lie flat on zero. A panel per
# machine of several GPUs: GPU a -> GPU b over its peer link.
set output out."/lab05-bandwidth.png"
NP = words(DRAWN_peer)
KEYH = 0.24
PANELH = 0.93 - KEYH
set multiplot title "Large copies come close to the link's peak; small ones stay far below it" font ",20"
do for [p = 1:NP] {
    i = int(word(DRAWN_peer, p))
    F = mfile(i)
    A = PA[i]
    B = PB[i]
    @panel
    set title sprintf("%s: GPU %d -> GPU %d", mhw(i), A, B) font ",16"
    set logscale x 2
    set xrange [2:1.6e9]
    set logscale y 10
    set yrange [0.0001:2000]
    set format y "%g"
    @sizes
    if (NP > 1) { set xtics ("4 B" 4, "1 KiB" 1024, "256 KiB" 262144, "64 MiB" 67108864) }
    set xlabel "bytes per copy (and per direction)"
    set ylabel (p == 1 ? "GB/s (both ways: the sum)" : "")
    set grid
    unset key
    set style data linespoints
    one(e, v, r) = row(e, v, "one_way", r) && pair(A, B)
    both(e, v, r) = row(e, v, "both_ways", r) && pair(lo(i), hi(i))
    plot \
        F using "bytes":(both("ce_bandwidth", "ce", "peer") ? column("gbps") : NaN) pt 5 ps 1.2 lc rgb "#009e73", \
        F using "bytes":(one("ce_bandwidth", "ce", "peer") ? column("gbps") : NaN) pt 7 ps 1.2 lc rgb "#0072b2", \
        F using "bytes":(one("sm_bandwidth", "sm_pull", "peer") ? column("gbps") : NaN) pt 9 ps 1.2 dt 2 lc rgb "#cc79a7", \
        F using "bytes":(one("sm_bandwidth", "sm_push", "peer") ? column("gbps") : NaN) pt 11 ps 1.2 dt 4 lc rgb "#e69f00", \
        F using "bytes":(one("ce_bandwidth", "ce", "peer_off") ? column("gbps") : NaN) pt 6 ps 1.2 lc rgb "#d55e00", \
        F using "bytes":(both("ce_bandwidth", "ce", "peer") ? column("peak_gbps") : NaN) with lines dt 3 lc "black", \
        F using "bytes":(one("ce_bandwidth", "ce", "peer") ? column("peak_gbps") : NaN) with lines dt 2 lc "black"
}
@strip
set label 1 note(NONE_peer, "one GPU: no peer link") at screen 0.5, screen 0.025 center font ",14"
set key center center vertical maxrows 4 width -4 font ",15"
plot \
    NaN with linespoints pt 5 ps 1.2 lc rgb "#009e73" title "copy engine, both ways", \
    NaN with linespoints pt 7 ps 1.2 lc rgb "#0072b2" title "copy engine, one way", \
    NaN with linespoints pt 9 ps 1.2 dt 2 lc rgb "#cc79a7" title "SM kernel pull, one way", \
    NaN with linespoints pt 11 ps 1.2 dt 4 lc rgb "#e69f00" title "SM kernel push, one way", \
    NaN with linespoints pt 6 ps 1.2 lc rgb "#d55e00" title "copy engine, one way, peer access off", \
    NaN with lines dt 3 lc "black" title "peak both ways", \
    NaN with lines dt 2 lc "black" title "peak one way"
unset multiplot

# ------------------------------------------------------- host bandwidth --
# A panel per machine that measured its host link: GPU 0 and host memory.
reset
load here."/screen.gp"
set output out."/lab05-host-bandwidth.png"
NP = words(DRAWN_host)
KEYH = 0.24
PANELH = 0.93 - KEYH
set multiplot title "The host link: the same shape under a lower ceiling" font ",20"
do for [p = 1:NP] {
    i = int(word(DRAWN_host, p))
    F = mfile(i)
    @panel
    set title mhw(i) font ",16"
    set logscale x 2
    set xrange [2:1.6e9]
    set logscale y 10
    set yrange [0.0005:200]
    set format y "%g"
    @sizes
    if (NP > 1) { set xtics ("4 B" 4, "1 KiB" 1024, "256 KiB" 262144, "64 MiB" 67108864) }
    set xlabel "bytes per copy"
    set ylabel (p == 1 ? "GB/s, one direction" : "")
    set grid
    unset key
    set style data linespoints
    hrow(e, v, s, d) = row(e, v, "one_way", "host") && pair(s, d)
    plot \
        F using "bytes":(hrow("ce_bandwidth", "ce", -1, 0) ? column("gbps") : NaN) pt 7 ps 1.2 lc rgb "#0072b2", \
        F using "bytes":(hrow("ce_bandwidth", "ce", 0, -1) ? column("gbps") : NaN) pt 5 ps 1.2 lc rgb "#009e73", \
        F using "bytes":(hrow("sm_bandwidth", "sm_pull", -1, 0) ? column("gbps") : NaN) pt 9 ps 1.2 dt 2 lc rgb "#cc79a7", \
        F using "bytes":(hrow("sm_bandwidth", "sm_push", 0, -1) ? column("gbps") : NaN) pt 11 ps 1.2 dt 4 lc rgb "#e69f00", \
        F using "bytes":(hrow("ce_bandwidth", "ce", -1, 0) ? column("peak_gbps") : NaN) with lines dt 2 lc "black"
}
@strip
set label 1 note(NONE_host, "its recording measured no host link") at screen 0.5, screen 0.025 center font ",14"
set key center center vertical maxrows 3 width -4 font ",15"
plot \
    NaN with linespoints pt 7 ps 1.2 lc rgb "#0072b2" title "copy engine, host -> GPU", \
    NaN with linespoints pt 5 ps 1.2 lc rgb "#009e73" title "copy engine, GPU -> host", \
    NaN with linespoints pt 9 ps 1.2 dt 2 lc rgb "#cc79a7" title "SM kernel loads from host memory", \
    NaN with linespoints pt 11 ps 1.2 dt 4 lc rgb "#e69f00" title "SM kernel stores to host memory", \
    NaN with lines dt 2 lc "black" title "peak per direction"
unset multiplot

# -------------------------------------------------------------- latency --
# Bars on a linear axis, microseconds, a group per machine in its colour: on a
# pair, a 4 B copy queued and synchronized, a load from local and from peer
# memory, a GPU-GPU ping-pong; on one GPU, the copies, a load from host memory
# and the GPU-CPU and CPU-GPU ping-pongs.
reset
load here."/screen.gp"
chase(r) = strcol("experiment") eq "pointer_chase" && strcol("variant") eq "chase" && strcol("route") eq r && strcol("mode") ne "in_l2"
# G[i]: where machine i's group starts
array G[rec_n]
tics = ""
X = 1
do for [i = 1:rec_n] {
    G[i] = X
    if (mfar(i) eq "peer") {
        t = '"4 B copy\nqueued" %g, "4 B copy\n+ sync" %g, "load\nlocal" %g, "load\nfrom peer" %g, "ping-pong\nGPU-GPU" %g'
    } else {
        t = '"4 B copy\nqueued" %g, "4 B copy\n+ sync" %g, "load from\nhost" %g, "ping-pong\nGPU-CPU" %g, "ping-pong\nCPU-GPU" %g'
    }
    tics = tics.(i > 1 ? ", " : "").sprintf(t, X, X + 1, X + 2, X + 3, X + 4)
    if (i > 1) { set arrow i from X - 0.75, graph 0 to X - 0.75, graph 1 nohead dt 2 lc "gray40" }
    X = X + 5.5
}
twopos(i) = is("memcpy_latency", "ce_queued", "peer") && pair(PA[i], PB[i]) ? G[i] : \
    is("memcpy_latency", "ce_synced", "peer") && pair(PA[i], PB[i]) ? G[i] + 1 : \
    chase("loopback") && pair(PA[i], PA[i]) ? G[i] + 2 : chase("peer") && pair(PB[i], PA[i]) ? G[i] + 3 : \
    is("pingpong", "write_remote", "peer") && pair(lo(i), hi(i)) ? G[i] + 4 : NaN
onepos(i) = is("memcpy_latency", "ce_queued", "host") && column("src") == -1 ? G[i] : \
    is("memcpy_latency", "ce_synced", "host") && column("src") == -1 ? G[i] + 1 : \
    chase("host") ? G[i] + 2 : is("pingpong", "gpu_cpu", "host") ? G[i] + 3 : is("pingpong", "cpu_gpu", "host") ? G[i] + 4 : NaN
pos(i) = mfar(i) eq "peer" ? twopos(i) : onepos(i)
set output out."/lab05-latency.png"
set title "One small copy costs microseconds; one load across a link, about one"
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:11]
set ylabel "microseconds (median)"
set grid ytics
set bmargin 4
set key above horizontal font ",18"
eval "set xtics (".tics.")"
# more groups, smaller words
if (rec_n > 2) { set xtics font ",11" } else { set xtics font ",14" }
set xrange [0.4:X - 0.9]
plot \
    for [i = 1:rec_n] mfile(i) using (pos(i)):"median_us" with boxes lc rgb mcolour(i) title mhw(i), \
    for [i = 1:rec_n] mfile(i) using (pos(i)):"median_us":(sprintf("%.2f", column("median_us"))) with labels offset 0,0.8 notitle

# where a machine's labels sit: the first's above its points, the second's below, the others further out
lift(i) = (i % 2 ? 1.1 : -1.1) * int((i + 1) / 2)

# -------------------------------------------------------------- streams --
# Each machine's total over N streams, each stream copying its own slice at
# once, against one copy of all N slices' bytes in one stream (ce_bandwidth,
# one way, at N x the slice): the baseline the claim's verdict uses.
reset
load here."/screen.gp"
stats mfile(1) using (strcol("experiment") eq "streams" ? column("bytes") : NaN) nooutput
SLICE = STATS_max
# ce_at(route, src, dst, n): GB/s of one copy of n slices in one stream
ce_at(route, s, d, n) = row("ce_bandwidth", "ce", "one_way", route) && pair(s, d) && column("bytes") == n * SLICE ? column("gbps") : NaN
# BASE[8 (i - 1) + n]: machine i's baseline for n streams (across its pair, or host -> GPU 0)
array BASE[8 * rec_n]
do for [i = 1:rec_n] {
    if (mfar(i) eq "peer") {
        S = PA[i]
        D = PB[i]
    } else {
        S = -1
        D = 0
    }
    do for [n in "1 2 4 8"] {
        stats mfile(i) using (ce_at(mfar(i), S, D, int(n))) nooutput
        BASE[8 * (i - 1) + int(n)] = STATS_max
    }
}
k(r) = strcol("experiment") eq "streams" && strcol("route") eq r ? int(column("value")) : NaN
# a streams row of machine i: its total against its baseline; NaN for every other row
ratio(i) = (n = k(mfar(i)), n == n ? column("gbps") / BASE[8 * (i - 1) + n] : NaN)
set output out."/lab05-streams.png"
set title "More streams do not add bandwidth: they share one link"
set xrange [0.7:10]
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set yrange [0:1.3]
set xlabel sprintf("streams at once, each copying its own %d MiB", SLICE / 1048576)
set ylabel "total / one copy of all their bytes"
set grid
set key above horizontal font ",18"
set style data linespoints
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc "black"
plot \
    for [i = 1:rec_n] mfile(i) using (k(mfar(i))):(ratio(i)):(sprintf("%.1f GB/s", column("gbps"))) with labels offset 0,lift(i) tc rgb mcolour(i) notitle, \
    for [i = 1:rec_n] mfile(i) using (k(mfar(i))):(ratio(i)) pt mpoint(i) ps 1.5 lc rgb mcolour(i) title mhw(i)


# ------------------------------------------------------------- cpu_sync --
# The ratio queued / sync_each at each size: 1 means no cost.
reset
load here."/screen.gp"
set output out."/lab05-cpu-sync.png"
set title "A synchronize after each copy costs only while copies are small"
set logscale x 2
set xrange [40000:4.5e8]
set xtics ("64 KiB" 65536, "1 MiB" 1048576, "16 MiB" 16777216, "256 MiB" 268435456)
set yrange [0.8:3.6]
set xlabel "bytes per copy"
set ylabel "queued GB/s / synchronized GB/s"
set grid
set key above horizontal font ",18"
set style data linespoints
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc "black"
# rows come in pairs (queued, then sync_each, same size): keep the queued rate
qrate(v) = (strcol("variant") eq "queued" ? (Q = column("gbps"), NaN) : strcol("variant") eq "sync_each" ? Q / column("gbps") : NaN)
plot for [i = 1:rec_n] mfile(i) using (strcol("experiment") eq "cpu_sync" ? column("bytes") : NaN):(strcol("experiment") eq "cpu_sync" ? qrate(0) : NaN) \
    pt mpoint(i) ps 1.5 lc rgb mcolour(i) title mhw(i)
