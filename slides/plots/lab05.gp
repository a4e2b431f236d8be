# lab05.gp: lab 05's plots for the slides, from the lab's CSV (the --csv
# output, or DIR/05-p2p-performance.csv of --out; both have the same columns).
#
#   gnuplot -e "csv='tests/fixtures/lab05-run.csv'; out='slides/img'; hw='...'" slides/plots/lab05.gp
#
# Writes OUT/lab05-bandwidth.png (GB/s against size, GPU a -> GPU b: copy
# engine one way and both ways with peer access on and off, SM pull and push,
# the peaks as dashed lines), OUT/lab05-latency.png (the kinds of latency,
# median), OUT/lab05-streams.png (total GB/s of 1, 2, 4, 8 streams) and
# OUT/lab05-cpu-sync.png (copies queued against a synchronize after each).
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route (peer: peer access on; peer_off: off;
# loopback: a GPU's own memory), 4 src, 5 dst, 6 mode, 7 bytes, 10 median_us,
# 13 gbps, 14 peak_gbps, 16 value. Rows of other routes (host) are left out.

if (!exists("csv")) csv = "lab05-run.csv"
if (!exists("out")) out = "."
if (!exists("hw")) hw = "2x NVIDIA H200 (SXM), NVLink 4 x18"

set datafile separator ","
set datafile missing NaN
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,640 noenhanced font ",18" linewidth 2
} else {
    set terminal png size 1400,640 noenhanced
}

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

# ------------------------------------------------------------ bandwidth --
set output out."/lab05-bandwidth.png"
set title sprintf("Lab 05: GPU %d -> GPU %d, 3 B .. 1 GiB (median) -- %s", A, B, hw)
set logscale xy 10
set logscale x 2
set xrange [2:1.6e9]
set yrange [0.0001:2000]
set xtics ("4 B" 4, "64 B" 64, "1 KiB" 1024, "16 KiB" 16384, "256 KiB" 262144, "4 MiB" 4194304, \
           "64 MiB" 67108864, "1 GiB" 1073741824)
set format y "%g"
set xlabel "bytes per copy (and per direction)"
set ylabel "GB/s (both ways: the sum)"
set grid
set key right bottom box opaque font ",15" spacing 0.95
set style data linespoints
set arrow 1 from 1e6, graph 0 to 1e6, graph 1 nohead dt 3 lc "gray40"
set label 1 "1 MB" at 1e6, 0.3 offset -0.5,0 right tc "gray40"
plot \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer") ? column(13) : NaN) pt 7 ps 1.2 lc rgb "#0072b2" title "copy engine, one way, P2P on", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", "peer") ? column(13) : NaN) pt 5 ps 1.2 lc rgb "#009e73" title "copy engine, both ways, P2P on", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer_off") ? column(13) : NaN) pt 6 ps 1.2 lc rgb "#d55e00" title "copy engine, one way, P2P off", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_pull", "peer") ? column(13) : NaN) pt 9 ps 1.2 dt 2 lc rgb "#cc79a7" title "SM pull, one way", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_push", "peer") ? column(13) : NaN) pt 11 ps 1.2 dt 4 lc rgb "#e69f00" title "SM push, one way", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", "peer") ? column(14) : NaN) with lines dt 2 lc "black" title "peak one way (NVML: 18 links x 25 GB/s)", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", "peer") ? column(14) : NaN) with lines dt 3 lc "black" title "peak both ways"

# -------------------------------------------------------------- latency --
reset
set datafile separator ","
set datafile missing NaN
row(e, v, m, r) = strcol(1) eq e && strcol(2) eq v && strcol(6) eq m && strcol(3) eq r
pair(s, d) = column(4) == s && column(5) == d
# The pointer chase beyond L2 (a run before the in-L2 chase existed left mode empty).
chase(r) = strcol(1) eq "pointer_chase" && strcol(2) eq "chase" && strcol(3) eq r && strcol(6) ne "in_l2"
set output out."/lab05-latency.png"
set title sprintf("Lab 05: latency, GPU %d and GPU %d (median) -- %s", A, B, hw)
set style fill solid 0.8 border -1
set boxwidth 0.6
set logscale y 10
set yrange [0.05:60]
set xrange [0.4:8.6]
set format y "%g"
set ylabel "microseconds"
set grid ytics
set key off
set bmargin 6
set xtics ("4 B copy\nqueued\nP2P on" 1, "4 B copy\nqueued\nP2P off" 2, "4 B copy\n+ sync\nP2P on" 3, \
           "4 B copy\n+ sync\nP2P off" 4, "load\nlocal" 5, "load\npeer" 6, \
           "ping-pong\nwrite\nremote" 7, "ping-pong\npoll\nremote" 8)
pos(x, c) = c ? x : NaN
plot \
    csv skip 1 using (pos(1, row("memcpy_latency", "ce_queued", "one_way", "peer") && pair(A, B))):10 with boxes lc rgb "#0072b2", \
    csv skip 1 using (pos(2, row("memcpy_latency", "ce_queued", "one_way", "peer_off") && pair(A, B))):10 with boxes lc rgb "#d55e00", \
    csv skip 1 using (pos(3, row("memcpy_latency", "ce_synced", "one_way", "peer") && pair(A, B))):10 with boxes lc rgb "#0072b2", \
    csv skip 1 using (pos(4, row("memcpy_latency", "ce_synced", "one_way", "peer_off") && pair(A, B))):10 with boxes lc rgb "#d55e00", \
    csv skip 1 using (pos(5, chase("loopback") && pair(A, A))):10 with boxes lc rgb "gray60", \
    csv skip 1 using (pos(6, chase("peer") && pair(B, A))):10 with boxes lc rgb "#009e73", \
    csv skip 1 using (pos(7, row("pingpong", "write_remote", "one_way", "peer") && pair(LO, HI))):10 with boxes lc rgb "#009e73", \
    csv skip 1 using (pos(8, row("pingpong", "poll_remote", "one_way", "peer") && pair(LO, HI))):10 with boxes lc rgb "#009e73", \
    csv skip 1 using (strcol(1) eq "memcpy_latency" && pair(A, B) && (strcol(3) eq "peer" || strcol(3) eq "peer_off") ? \
                          (strcol(2) eq "ce_queued" ? 1 : 3) + (strcol(3) eq "peer_off") : \
                      chase("loopback") && pair(A, A) ? 5 : \
                      chase("peer") && pair(B, A) ? 6 : \
                      strcol(1) eq "pingpong" && strcol(3) eq "peer" && pair(LO, HI) ? (strcol(2) eq "write_remote" ? 7 : 8) : NaN):10:(sprintf("%.2f us", column(10))) \
        with labels offset 0,0.9

# -------------------------------------------------------------- streams --
reset
set datafile separator ","
set datafile missing NaN
set output out."/lab05-streams.png"
set title sprintf("Lab 05: 32 MiB GPU %d -> GPU %d split over N streams -- %s", A, B, hw)
set style fill solid 0.8 border -1
set boxwidth 0.6
set xrange [0.4:4.6]
set yrange [0:520]
set xtics ("1 stream" 1, "2 streams" 2, "4 streams" 3, "8 streams" 4)
set ylabel "GB/s, all streams together (median)"
set grid ytics
set key top left box opaque
stats csv skip 1 using (strcol(1) eq "streams" && strcol(3) eq "peer" ? column(14) : NaN) nooutput
PEAK = STATS_max
set arrow 1 from graph 0, first PEAK to graph 1, first PEAK nohead dt 2 lc "black"
spos(n) = n == 1 ? 1 : n == 2 ? 2 : n == 4 ? 3 : n == 8 ? 4 : NaN
st(c) = strcol(1) eq "streams" && strcol(3) eq "peer" && column(4) == A && column(5) == B ? c : NaN
plot \
    csv skip 1 using (st(spos(column(16)))):13 with boxes lc rgb "#0072b2" notitle, \
    csv skip 1 using (st(spos(column(16)))):13:(sprintf("%.1f GB/s", column(13))) with labels offset 0,1 notitle, \
    csv skip 1 using (st(spos(column(16)))):13:(sprintf("%.1f each", column(13) / column(16))) with labels offset 0,-1.5 tc "white" notitle, \
    NaN with lines dt 2 lc "black" title sprintf("peak one way (NVML): %.0f GB/s", PEAK)

# ------------------------------------------------------------- cpu_sync --
reset
set datafile separator ","
set datafile missing NaN
set output out."/lab05-cpu-sync.png"
set title sprintf("Lab 05: queued copies, or a synchronize after each -- %s", hw)
set style fill solid 0.8 border -1
set boxwidth 0.35
set xrange [0.4:4.6]
set yrange [0:500]
set xtics ("64 KiB" 1, "1 MiB" 2, "16 MiB" 3, "256 MiB" 4)
set xlabel "bytes per copy"
set ylabel "GB/s (median)"
set grid ytics
set key top left box opaque
cpos(b) = b == 65536 ? 1 : b == 1048576 ? 2 : b == 16777216 ? 3 : b == 268435456 ? 4 : NaN
cs(v, dx) = strcol(1) eq "cpu_sync" && strcol(2) eq v && strcol(3) eq "peer" && column(4) == A && column(5) == B ? cpos(column(7)) + dx : NaN
plot \
    csv skip 1 using (cs("queued", -0.19)):13 with boxes lc rgb "#0072b2" title "queued, one synchronize at the end", \
    csv skip 1 using (cs("sync_each", 0.19)):13 with boxes lc rgb "#d55e00" title "cudaStreamSynchronize after each copy", \
    csv skip 1 using (cs("queued", -0.19)):13:(sprintf("%.1f", column(13))) with labels offset 0,0.8 notitle, \
    csv skip 1 using (cs("sync_each", 0.19)):13:(sprintf("%.1f", column(13))) with labels offset 0,0.8 notitle
