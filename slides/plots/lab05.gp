# lab05.gp: lab 05's plots for the slides, from the lab's CSVs.
#
#   gnuplot -e "csv='tests/fixtures/lab05-PAIR.csv'; csv1='tests/fixtures/lab05-ONE.csv'; \
#               out='slides/img'; hw='...'; hw1='...'" slides/plots/lab05.gp
#   (PAIR: a machine of tests/fixtures/machines.tsv with 2 GPUs; ONE: one with 1)
#
# csv: a run on two GPUs (the peer route); csv1: a run on one GPU (the host
# link). Writes OUT/lab05-bandwidth.png (GPU a -> GPU b, GB/s against size),
# OUT/lab05-host-bandwidth.png (GPU and host memory), OUT/lab05-latency.png
# (the kinds of latency on both machines), OUT/lab05-streams.png (N streams,
# each copying its own slice, against one copy of all their bytes in one
# stream: the baseline of the claim concurrent_streams_contend) and
# OUT/lab05-cpu-sync.png (how much slower a synchronize after each copy makes
# a run, by size). The last two draw a line per machine: csv's, csv1's and
# those of the lab's other recordings, which make-plots.sh gives as more_n
# and, for the Kth, more_K (its path), more_hw_K and more_gpus_K.
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 4 src, 5 dst, 6 mode, 7 bytes,
# 10 median_us, 13 gbps, 14 peak_gbps, 16 value.

if (!exists("csv")) { exit error "lab05.gp: set csv to a recording on a pair of GPUs: make-plots.sh picks it" }
if (!exists("csv1")) { exit error "lab05.gp: set csv1 to a recording on one GPU: make-plots.sh picks it" }
if (!exists("out")) out = "."
if (!exists("hw")) hw = csv
if (!exists("hw1")) hw1 = csv1
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_a" ? column(16) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_b" ? column(16) : NaN) nooutput
B = int(STATS_min)
LO = A < B ? A : B
HI = A < B ? B : A

row(e, v, m, r) = strcol(1) eq e && strcol(2) eq v && strcol(6) eq m && strcol(3) eq r
pair(s, d) = column(4) == s && column(5) == d
one(e, v, r) = row(e, v, "one_way", r) && pair(A, B)
both(e, v, r) = row(e, v, "both_ways", r) && pair(LO, HI)
sizes = 'set xtics ("4 B" 4, "64 B" 64, "1 KiB" 1024, "16 KiB" 16384, "256 KiB" 262144, "4 MiB" 4194304, "64 MiB" 67108864, "1 GiB" 1073741824)'

# ------------------------------------------------------------ bandwidth --
# GB/s on a log axis: the sizes span nine powers of ten and so do the rates; on
# a linear axis every size below 64 KiB would lie flat on zero.
set output out."/lab05-bandwidth.png"
set title "Large copies come close to the NVLink peak; small ones stay far below it"
set logscale x 2
set xrange [2:1.6e9]
set logscale y 10
set yrange [0.0001:2000]
set format y "%g"
@sizes
set xlabel "bytes per copy (and per direction)"
set ylabel "GB/s (both ways: the sum)"
set grid
set key below vertical maxrows 4 font ",17"
set style data linespoints
plot \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", "peer") ? column(13) : NaN) pt 5 ps 1.2 lc rgb "#009e73" title "copy engine, both ways", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer") ? column(13) : NaN) pt 7 ps 1.2 lc rgb "#0072b2" title "copy engine, one way", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_pull", "peer") ? column(13) : NaN) pt 9 ps 1.2 dt 2 lc rgb "#cc79a7" title "SM kernel pull, one way", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_push", "peer") ? column(13) : NaN) pt 11 ps 1.2 dt 4 lc rgb "#e69f00" title "SM kernel push, one way", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer_off") ? column(13) : NaN) pt 6 ps 1.2 lc rgb "#d55e00" title "copy engine, one way, peer access off", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", "peer") ? column(14) : NaN) with lines dt 3 lc "black" title "peak both ways", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer") ? column(14) : NaN) with lines dt 2 lc "black" title "peak one way"

# ------------------------------------------------------- host bandwidth --
set output out."/lab05-host-bandwidth.png"
set title "The host link (PCIe): the same shape under a lower ceiling"
set yrange [0.0005:200]
set ylabel "GB/s, one direction"
set key below vertical maxrows 3 font ",17"
hrow(e, v, m, s, d) = strcol(1) eq e && strcol(2) eq v && strcol(6) eq m && strcol(3) eq "host" && column(4) == s && column(5) == d
plot \
    csv1 skip 1 using 7:(hrow("ce_bandwidth", "ce", "one_way", -1, 0) ? column(13) : NaN) pt 7 ps 1.2 lc rgb "#0072b2" title "copy engine, host -> GPU", \
    csv1 skip 1 using 7:(hrow("ce_bandwidth", "ce", "one_way", 0, -1) ? column(13) : NaN) pt 5 ps 1.2 lc rgb "#009e73" title "copy engine, GPU -> host", \
    csv1 skip 1 using 7:(hrow("sm_bandwidth", "sm_pull", "one_way", -1, 0) ? column(13) : NaN) pt 9 ps 1.2 dt 2 lc rgb "#cc79a7" title "SM kernel loads from host memory", \
    csv1 skip 1 using 7:(hrow("sm_bandwidth", "sm_push", "one_way", 0, -1) ? column(13) : NaN) pt 11 ps 1.2 dt 4 lc rgb "#e69f00" title "SM kernel stores to host memory", \
    csv1 skip 1 using 7:(hrow("ce_bandwidth", "ce", "one_way", -1, 0) ? column(14) : NaN) with lines dt 2 lc "black" title "peak per direction"

# -------------------------------------------------------------- latency --
# Bars on a linear axis, microseconds; green: the pair, blue: one GPU.
reset
load here."/screen.gp"
chase(r) = strcol(1) eq "pointer_chase" && strcol(2) eq "chase" && strcol(3) eq r && strcol(6) ne "in_l2"
set output out."/lab05-latency.png"
set title "One small copy costs microseconds; one load across a link, about one"
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:11]
set ylabel "microseconds (median)"
set grid ytics
set bmargin 4
set key above horizontal font ",18"
set xtics font ",14" ("4 B copy\nqueued" 1, "4 B copy\n+ sync" 2, "load\nlocal" 3, "load\nfrom peer" 4, \
    "ping-pong\nGPU-GPU" 5, "4 B copy\nqueued" 6.5, "4 B copy\n+ sync" 7.5, "load from\nhost" 8.5, "ping-pong\nGPU-CPU" 9.5, \
    "ping-pong\nCPU-GPU" 10.5)
set xrange [0.4:11.1]
set arrow 1 from 5.75, graph 0 to 5.75, graph 1 nohead dt 2 lc "gray40"
twopos = 'strcol(1) eq "memcpy_latency" && strcol(3) eq "peer" && pair(A, B) ? (strcol(2) eq "ce_queued" ? 1 : strcol(2) eq "ce_synced" ? 2 : NaN) : chase("loopback") && pair(A, A) ? 3 : chase("peer") && pair(B, A) ? 4 : strcol(1) eq "pingpong" && strcol(2) eq "write_remote" && pair(LO, HI) ? 5 : NaN'
onepos = 'strcol(1) eq "memcpy_latency" && strcol(3) eq "host" && column(4) == -1 ? (strcol(2) eq "ce_queued" ? 6.5 : strcol(2) eq "ce_synced" ? 7.5 : NaN) : chase("host") ? 8.5 : strcol(1) eq "pingpong" && strcol(3) eq "host" ? (strcol(2) eq "gpu_cpu" ? 9.5 : strcol(2) eq "cpu_gpu" ? 10.5 : NaN) : NaN'
plot \
    csv skip 1 using (@twopos):10 with boxes lc rgb "#1a7f37" title hw, \
    csv skip 1 using (@twopos):10:(sprintf("%.2f", column(10))) with labels offset 0,0.8 notitle, \
    csv1 skip 1 using (@onepos):10 with boxes lc rgb "#1b365d" title hw1, \
    csv1 skip 1 using (@onepos):10:(sprintf("%.2f", column(10))) with labels offset 0,0.8 notitle

# ------------------------------------------------------------- machines --
# The plots below draw a line per machine: csv's, csv1's, then those of the lab's other
# recordings (more_K, from make-plots.sh), each in its colour and with its point.
if (!exists("more_n")) more_n = 0
NM = 2 + more_n
file(i) = i == 1 ? csv : i == 2 ? csv1 : value(sprintf("more_%d", i - 2))
name(i) = i == 1 ? hw : i == 2 ? hw1 : value(sprintf("more_hw_%d", i - 2))
# the far side of a machine's link: the peer on a pair of GPUs, the host on one GPU
far(i) = i == 1 ? "peer" : i == 2 ? "host" : value(sprintf("more_gpus_%d", i - 2)) >= 2 ? "peer" : "host"
colour(i) = word("#1a7f37 #1b365d #d55e00 #cc79a7 #e69f00 #0072b2", (i - 1) % 6 + 1)
point(i) = int(word("7 5 9 11 13 4", (i - 1) % 6 + 1))
# where a machine's labels sit: the pair's above its points, one GPU's below, the others further out
lift(i) = (i % 2 ? 1.1 : -1.1) * int((i + 1) / 2)

# -------------------------------------------------------------- streams --
# Each machine's total over N streams, each stream copying its own slice at
# once, against one copy of all N slices' bytes in one stream (ce_bandwidth,
# one way, at N x the slice): the baseline the claim's verdict uses.
reset
load here."/screen.gp"
stats csv skip 1 using (strcol(1) eq "streams" ? column(7) : NaN) nooutput
SLICE = STATS_max
# ce_at(route, src, dst, n): GB/s of one copy of n slices in one stream
ce_at(route, s, d, n) = strcol(1) eq "ce_bandwidth" && strcol(2) eq "ce" && strcol(6) eq "one_way" && \
    strcol(3) eq route && column(4) == s && column(5) == d && column(7) == n * SLICE ? column(13) : NaN
# BASE[8 (i - 1) + n]: machine i's baseline for n streams (across its pair, or host -> GPU 0)
array BASE[8 * NM]
do for [i = 1:NM] {
    if (far(i) eq "peer") {
        stats file(i) skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_a" ? column(16) : NaN) nooutput
        S = int(STATS_min)
        stats file(i) skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_b" ? column(16) : NaN) nooutput
        D = int(STATS_min)
    } else {
        S = -1
        D = 0
    }
    do for [n in "1 2 4 8"] {
        stats file(i) skip 1 using (ce_at(far(i), S, D, int(n))) nooutput
        BASE[8 * (i - 1) + int(n)] = STATS_max
    }
}
k(r) = strcol(1) eq "streams" && strcol(3) eq r ? int(column(16)) : NaN
# a streams row of machine i: its total against its baseline; NaN for every other row
ratio(i) = (n = k(far(i)), n == n ? column(13) / BASE[8 * (i - 1) + n] : NaN)
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
    for [i = 1:NM] file(i) skip 1 using (k(far(i))):(ratio(i)):(sprintf("%.1f GB/s", column(13))) with labels offset 0,lift(i) tc rgb colour(i) notitle, \
    for [i = 1:NM] file(i) skip 1 using (k(far(i))):(ratio(i)) pt point(i) ps 1.5 lc rgb colour(i) title name(i)


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
qrate(v) = (strcol(2) eq "queued" ? (Q = column(13), NaN) : strcol(2) eq "sync_each" ? Q / column(13) : NaN)
plot for [i = 1:NM] file(i) skip 1 using (strcol(1) eq "cpu_sync" ? column(7) : NaN):(strcol(1) eq "cpu_sync" ? qrate(0) : NaN) \
    pt point(i) ps 1.5 lc rgb colour(i) title name(i)
