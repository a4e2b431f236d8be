# plots.gp: lab 05's plots, drawn from the lab's result rows.
#
#   build/ref/bin/05-p2p-performance --out build/lab05
#   gnuplot -e "csv='build/lab05/05-p2p-performance.csv'; out='build/lab05'" \
#       labs/05-p2p-performance/harness/plots.gp
#
# Writes OUT/bandwidth.png (GB/s against size: the one pair GPU a -> GPU b,
# and GPU a's host link, with each link's peak as dashed lines) and
# OUT/latency.png (the kinds of latency: median with min and max).
#
# Columns (the rows' header): 1 experiment, 2 variant, 3 route, 4 src,
# 5 dst, 6 mode, 7 bytes, 10 median_us, 11 min_us, 12 max_us, 13 gbps,
# 14 peak_gbps, 16 value.

if (!exists("csv")) csv = "05-p2p-performance.csv"
if (!exists("out")) out = "."
# machine: what the titles name as the hardware, e.g. machine='2x NVIDIA H200'
if (!exists("machine")) machine = ""
on_machine = machine eq "" ? "" : " -- ".machine

set datafile separator ","
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,760 noenhanced font ",11"
} else {
    set terminal png size 1200,760 noenhanced
}

# The one pair (pair_b is -1 with one GPU) from the config rows.
stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_a" ? column(16) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_b" ? column(16) : NaN) nooutput
B = int(STATS_min)
LO = A < B ? A : B
HI = A < B ? B : A

# Row filters.
is(e, v, r, m) = strcol(1) eq e && strcol(2) eq v && strcol(3) eq r && strcol(6) eq m
ends(s, d) = column(4) == s && column(5) == d
peer(e, v, r) = is(e, v, r, "one_way") && ends(A, B)
both(e, v, r) = is(e, v, r, "both_ways") && ends(LO, HI)
h2d(e, v, m) = is(e, v, "host", m) && ends(-1, A)
d2h(e, v, m) = is(e, v, "host", m) && ends(A, -1)
gb(cond) = cond ? column(13) : NaN

# ---------------------------------------------------------------- bandwidth
set output out."/bandwidth.png"
set title sprintf("Bandwidth: GPU %d -> GPU %d and GPU %d's host link (both ways: the sum of both directions); median%s", A, B, A, on_machine)
set logscale x 2
set logscale y 10
set xlabel "bytes per copy (and per direction)"
set ylabel "GB/s (1e9 bytes per second)"
set format x "%.0b%B"
set format y "%g"
set grid
set key left top box opaque
set style data linespoints
plot \
    csv skip 1 using 7:(gb(peer("ce_bandwidth", "ce", "peer"))) lw 2 pt 7 title "copy engine, one way, P2P on", \
    csv skip 1 using 7:(gb(both("ce_bandwidth", "ce", "peer"))) lw 2 pt 5 title "copy engine, both ways, P2P on", \
    csv skip 1 using 7:(gb(peer("ce_bandwidth", "ce", "peer_off"))) lw 2 pt 6 title "copy engine, one way, P2P off", \
    csv skip 1 using 7:(gb(peer("sm_bandwidth", "sm_pull", "peer"))) lw 2 pt 9 title "SM pull, one way", \
    csv skip 1 using 7:(gb(peer("sm_bandwidth", "sm_push", "peer"))) lw 2 pt 11 title "SM push, one way", \
    csv skip 1 using 7:(gb(h2d("ce_bandwidth", "ce", "one_way"))) lw 2 pt 13 title "host -> GPU, copy engine", \
    csv skip 1 using 7:(gb(d2h("ce_bandwidth", "ce", "one_way"))) lw 2 pt 12 title "GPU -> host, copy engine", \
    csv skip 1 using 7:(gb(h2d("ce_bandwidth", "ce", "each_way"))) lw 2 pt 4 title "host -> GPU while GPU -> host runs", \
    csv skip 1 using 7:(gb(h2d("sm_bandwidth", "sm_pull", "one_way"))) lw 2 pt 3 title "host -> GPU, SM loads (zero-copy)", \
    csv skip 1 using 7:(gb(d2h("sm_bandwidth", "sm_push", "one_way"))) lw 2 pt 2 title "GPU -> host, SM stores (zero-copy)", \
    csv skip 1 using 7:(peer("ce_bandwidth", "ce", "peer") ? column(14) : NaN) with lines dt 2 lw 2 lc "black" title "P2P peak one way (NVML)", \
    csv skip 1 using 7:(h2d("ce_bandwidth", "ce", "one_way") ? column(14) : NaN) with lines dt 3 lw 2 lc "gray40" title "host link peak (PCIe gen x width)"

# ------------------------------------------------------------------ latency
reset
set datafile separator ","
set output out."/latency.png"
set title sprintf("Latency, GPU %d (and GPU %d): median with min and max%s", A, B, on_machine)
is_latency(e) = e eq "memcpy_latency" || e eq "pointer_chase" || e eq "pingpong"
stats csv skip 1 using (is_latency(strcol(1)) && column(9) > 0 ? column(11) : NaN) nooutput
LOW = STATS_min / 2
stats csv skip 1 using (is_latency(strcol(1)) && column(9) > 0 ? column(12) : NaN) nooutput
set yrange [LOW : STATS_max * 2]
set rmargin 24
set logscale y 10
set ylabel "microseconds"
set format y "%g"
set grid ytics
set xrange [0.3:11.7]
set key off
set xtics rotate by -25 ( \
    "4 B copy queued, P2P" 1, "4 B copy queued, host" 2, "4 B copy + sync, P2P" 3, \
    "4 B copy + sync, host" 4, "load, local memory" 5, "load, peer memory" 6, \
    "load, host memory" 7, "load in L2, local" 8, "ping-pong, GPU-GPU (write remote)" 9, \
    "ping-pong, GPU-GPU (poll remote)" 10, "ping-pong, GPU-CPU" 11)
far(m) = strcol(6) eq m || strcol(6) eq "beyond_l2"
lat(cond) = cond ? column(10) : NaN
plot \
    csv skip 1 using (1):(lat(is("memcpy_latency", "ce_queued", "peer", "one_way") && ends(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (2):(lat(h2d("memcpy_latency", "ce_queued", "one_way"))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (3):(lat(is("memcpy_latency", "ce_synced", "peer", "one_way") && ends(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (4):(lat(h2d("memcpy_latency", "ce_synced", "one_way"))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (5):(lat(strcol(1) eq "pointer_chase" && strcol(3) eq "loopback" && far("") && ends(A, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (6):(lat(strcol(1) eq "pointer_chase" && strcol(3) eq "peer" && far("") && ends(B, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (7):(lat(strcol(1) eq "pointer_chase" && strcol(3) eq "host" && far("") && ends(-1, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (8):(lat(strcol(1) eq "pointer_chase" && strcol(3) eq "loopback" && strcol(6) eq "in_l2" && ends(A, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (9):(lat(strcol(1) eq "pingpong" && strcol(2) eq "write_remote" && ends(LO, HI))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (10):(lat(strcol(1) eq "pingpong" && strcol(2) eq "poll_remote" && ends(LO, HI))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (11):(lat(strcol(1) eq "pingpong" && strcol(2) eq "gpu_cpu" && ends(A, -1))):11:12 with yerrorbars pt 7 ps 1.5 lw 2
