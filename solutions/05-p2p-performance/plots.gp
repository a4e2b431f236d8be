# plots.gp: Lab 05's plots, drawn from the lab's CSV.
#
#   build/ref/bin/05-p2p-performance --out build/lab05
#   gnuplot -e "csv='build/lab05/lab05.csv'; out='build/lab05'" solutions/05-p2p-performance/plots.gp
#
# Writes OUT/bandwidth.png (GB/s against size for the one-pair GPUs, with
# the link's peak from NVML as dashed lines) and OUT/latency.png (the three
# kinds of latency, median with min and max).
#
# Columns (see the header line): 1 experiment, 2 variant, 3 src, 4 dst,
# 5 mode, 6 peer, 7 bytes, 10 median_us, 11 min_us, 12 max_us, 13 gbps,
# 16 peak_gbps, 20 value.

if (!exists("csv")) csv = "lab05.csv"
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

# The pair of the one-pair experiments, from the config rows.
stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_a" ? column(20) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "pair_b" ? column(20) : NaN) nooutput
B = int(STATS_min)
LO = A < B ? A : B
HI = A < B ? B : A

# Row filters.
row(e, v, m, p) = strcol(1) eq e && strcol(2) eq v && strcol(5) eq m && column(6) == p
pair(s, d) = column(3) == s && column(4) == d
one(e, v, p) = row(e, v, "one_way", p) && pair(A, B)
both(e, v, p) = row(e, v, "both_ways", p) && pair(LO, HI)

# ---------------------------------------------------------------- bandwidth
set output out."/bandwidth.png"
set title sprintf("P2P bandwidth, GPU %d -> GPU %d (both ways: the sum of both directions); median of the samples%s", A, B, on_machine)
set logscale xy 2
set logscale y 10
set xlabel "bytes per copy (and per direction)"
set ylabel "GB/s (1e9 bytes per second)"
set format x "%.0b%B"
set format y "%g"
set grid
set key left top box opaque
set style data linespoints
plot \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", 1) ? column(13) : NaN) lw 2 pt 7 title "copy engine, one way, P2P on", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", 1) ? column(13) : NaN) lw 2 pt 5 title "copy engine, both ways, P2P on", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", 0) ? column(13) : NaN) lw 2 pt 6 title "copy engine, one way, P2P off", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", 0) ? column(13) : NaN) lw 2 pt 4 title "copy engine, both ways, P2P off", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_pull", 1) ? column(13) : NaN) lw 2 pt 9 title "SM pull, one way", \
    csv skip 1 using 7:(one("sm_bandwidth", "sm_push", 1) ? column(13) : NaN) lw 2 pt 11 title "SM push, one way", \
    csv skip 1 using 7:(one("ce_bandwidth", "ce", 1) ? column(16) : NaN) with lines dt 2 lw 2 lc "black" title "peak one way (NVML)", \
    csv skip 1 using 7:(both("ce_bandwidth", "ce", 1) ? column(16) : NaN) with lines dt 3 lw 2 lc "black" title "peak both ways"

# ------------------------------------------------------------------ latency
reset
set datafile separator ","
set output out."/latency.png"
set title sprintf("Latency, GPU %d and GPU %d: median with min and max%s", A, B, on_machine)
# The y range from the latency rows alone, a factor of 2 beyond them.
is_latency(e) = e eq "memcpy_latency" || e eq "pointer_chase" || e eq "pingpong"
stats csv skip 1 using (is_latency(strcol(1)) ? column(11) : NaN) nooutput
LOW = STATS_min / 2
stats csv skip 1 using (is_latency(strcol(1)) ? column(12) : NaN) nooutput
set yrange [LOW : STATS_max * 2]
set rmargin 24
set logscale y 10
set ylabel "microseconds"
set format y "%g"
set grid ytics
set xrange [0.3:8.7]
set key off
set xtics rotate by -20 ( \
    "memcpy 4 B queued, P2P on" 1, "memcpy 4 B queued, P2P off" 2, \
    "memcpy 4 B + sync, P2P on" 3, "memcpy 4 B + sync, P2P off" 4, \
    "load, local memory" 5, "load, peer memory" 6, \
    "ping-pong one way (write remote)" 7, "ping-pong one way (poll remote)" 8)
lat(x, cond) = cond ? column(10) : NaN
plot \
    csv skip 1 using (1):(lat(1, row("memcpy_latency", "ce_queued", "one_way", 1) && pair(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (2):(lat(2, row("memcpy_latency", "ce_queued", "one_way", 0) && pair(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (3):(lat(3, row("memcpy_latency", "ce_synced", "one_way", 1) && pair(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (4):(lat(4, row("memcpy_latency", "ce_synced", "one_way", 0) && pair(A, B))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (5):(lat(5, strcol(1) eq "pointer_chase" && strcol(5) eq "local" && pair(A, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (6):(lat(6, strcol(1) eq "pointer_chase" && strcol(5) eq "peer" && pair(B, A))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (7):(lat(7, strcol(1) eq "pingpong" && strcol(2) eq "write_remote" && pair(LO, HI))):11:12 with yerrorbars pt 7 ps 1.5 lw 2, \
    csv skip 1 using (8):(lat(8, strcol(1) eq "pingpong" && strcol(2) eq "poll_remote" && pair(LO, HI))):11:12 with yerrorbars pt 7 ps 1.5 lw 2
