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
# Columns are read by their names in the header row.

if (!exists("csv")) csv = "05-p2p-performance.csv"
if (!exists("out")) out = "."
# machine: what the titles name as the hardware, e.g. machine='2x NVIDIA H200'
if (!exists("machine")) machine = ""
on_machine = machine eq "" ? "" : " -- ".machine

set datafile separator ","
set datafile columnheaders
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,760 noenhanced font ",11"
} else {
    set terminal png size 1200,760 noenhanced
}

# The one pair (pair_b is -1 with one GPU) from the config rows.
stats csv using (strcol("experiment") eq "config" && strcol("variant") eq "pair_a" ? column("value") : NaN) nooutput
A = int(STATS_min)
stats csv using (strcol("experiment") eq "config" && strcol("variant") eq "pair_b" ? column("value") : NaN) nooutput
B = int(STATS_min)
LO = A < B ? A : B
HI = A < B ? B : A

# Row filters.
is(e, v, r, m) = strcol("experiment") eq e && strcol("variant") eq v && strcol("route") eq r && strcol("mode") eq m
ends(s, d) = column("src") == s && column("dst") == d
peer(e, v, r) = is(e, v, r, "one_way") && ends(A, B)
both(e, v, r) = is(e, v, r, "both_ways") && ends(LO, HI)
h2d(e, v, m) = is(e, v, "host", m) && ends(-1, A)
d2h(e, v, m) = is(e, v, "host", m) && ends(A, -1)
gb(cond) = cond ? column("gbps") : NaN

# A series gets a key entry only where this run has its rows (N[i] of them).
array N[11]
count(i, cond) = cond ? 1 : 0

# ---------------------------------------------------------------- bandwidth
array BW_TITLE[10] = ["copy engine, one way, P2P on", "copy engine, both ways, P2P on", \
    "copy engine, one way, P2P off", "SM pull, one way", "SM push, one way", \
    "host -> GPU, copy engine", "GPU -> host, copy engine", "host -> GPU while GPU -> host runs", \
    "host -> GPU, SM loads (zero-copy)", "GPU -> host, SM stores (zero-copy)"]
array BW_PT[10] = [7, 5, 6, 9, 11, 13, 12, 4, 3, 2]
bw(i) = i == 1 ? peer("ce_bandwidth", "ce", "peer") : \
        i == 2 ? both("ce_bandwidth", "ce", "peer") : \
        i == 3 ? peer("ce_bandwidth", "ce", "peer_off") : \
        i == 4 ? peer("sm_bandwidth", "sm_pull", "peer") : \
        i == 5 ? peer("sm_bandwidth", "sm_push", "peer") : \
        i == 6 ? h2d("ce_bandwidth", "ce", "one_way") : \
        i == 7 ? d2h("ce_bandwidth", "ce", "one_way") : \
        i == 8 ? h2d("ce_bandwidth", "ce", "each_way") : \
        i == 9 ? h2d("sm_bandwidth", "sm_pull", "one_way") : d2h("sm_bandwidth", "sm_push", "one_way")
do for [i = 1:10] {
    stats csv using (count(i, bw(i))) nooutput
    N[i] = STATS_sum
}
set output out."/bandwidth.png"
if (B >= 0) {
    set title sprintf("Bandwidth: GPU %d -> GPU %d and GPU %d's host link (both ways: the sum of both directions); median%s", A, B, A, on_machine)
} else {
    set title sprintf("Bandwidth: GPU %d's host link (one GPU: no peer; both ways: the sum of both directions); median%s", A, on_machine)
}
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
    for [i = 1:10] csv using "bytes":(gb(bw(i))) lw 2 pt BW_PT[i] title (N[i] > 0 ? BW_TITLE[i] : ""), \
    csv using "bytes":(peer("ce_bandwidth", "ce", "peer") ? column("peak_gbps") : NaN) with lines dt 2 lw 2 lc "black" title (N[1] > 0 ? "P2P peak one way (NVML)" : ""), \
    csv using "bytes":(h2d("ce_bandwidth", "ce", "one_way") ? column("peak_gbps") : NaN) with lines dt 3 lw 2 lc "gray40" title (N[6] > 0 ? "host link peak (PCIe gen x width)" : "")

# ------------------------------------------------------------------ latency
reset
set datafile separator ","
set datafile columnheaders
set output out."/latency.png"
if (B >= 0) {
    set title sprintf("Latency, GPU %d (and GPU %d): median with min and max%s", A, B, on_machine)
} else {
    set title sprintf("Latency, GPU %d (one GPU: no peer): median with min and max%s", A, on_machine)
}
is_latency(e) = e eq "memcpy_latency" || e eq "pointer_chase" || e eq "pingpong"
stats csv using (is_latency(strcol("experiment")) && column("reps") > 0 ? column("min_us") : NaN) nooutput
LOW = STATS_min / 2
stats csv using (is_latency(strcol("experiment")) && column("reps") > 0 ? column("max_us") : NaN) nooutput
set yrange [LOW : STATS_max * 2]
set rmargin 24
set logscale y 10
set ylabel "microseconds"
set format y "%g"
set grid ytics
set xrange [0.3:12.7]
set key off
array LAT_NAME[12] = ["4 B copy queued, P2P", "4 B copy queued, host", "4 B copy + sync, P2P", \
    "4 B copy + sync, host", "load, local memory", "load, peer memory", "load, host memory", \
    "load in L2, local", "ping-pong, GPU-GPU (write remote)", "ping-pong, GPU-GPU (poll remote)", \
    "ping-pong, GPU-CPU", "ping-pong, CPU-GPU"]
far(m) = strcol("mode") eq m || strcol("mode") eq "beyond_l2"
chase(r, s, d) = strcol("experiment") eq "pointer_chase" && strcol("route") eq r && far("") && ends(s, d)
pong(v, s, d) = strcol("experiment") eq "pingpong" && strcol("variant") eq v && ends(s, d)
kind(i) = i == 1 ? is("memcpy_latency", "ce_queued", "peer", "one_way") && ends(A, B) : \
          i == 2 ? h2d("memcpy_latency", "ce_queued", "one_way") : \
          i == 3 ? is("memcpy_latency", "ce_synced", "peer", "one_way") && ends(A, B) : \
          i == 4 ? h2d("memcpy_latency", "ce_synced", "one_way") : \
          i == 5 ? chase("loopback", A, A) : \
          i == 6 ? chase("peer", B, A) : \
          i == 7 ? chase("host", -1, A) : \
          i == 8 ? strcol("experiment") eq "pointer_chase" && strcol("route") eq "loopback" && strcol("mode") eq "in_l2" && ends(A, A) : \
          i == 9 ? pong("write_remote", LO, HI) : \
          i == 10 ? pong("poll_remote", LO, HI) : \
          i == 11 ? pong("gpu_cpu", A, -1) : pong("cpu_gpu", -1, A)
# A kind this run has no rows of keeps its place, labelled "not run".
set xtics rotate by -25 ()
do for [i = 1:12] {
    stats csv using (count(i, kind(i))) nooutput
    set xtics add ((STATS_sum > 0 ? LAT_NAME[i] : LAT_NAME[i]." (not run)") i)
}
lat(cond) = cond ? column("median_us") : NaN
plot for [i = 1:12] csv using (i):(lat(kind(i))):"min_us":"max_us" with yerrorbars pt 7 ps 1.5 lw 2
