# lab04.gp: lab 04's plots for the slides, from the lab's CSV.
#
#   gnuplot -e "csv='tests/fixtures/lab04-run.csv'; out='slides/img'; hw='...'" slides/plots/lab04.gp
#
# Writes OUT/lab04-latency.png (ns per atomic of the dependent chain, median:
# local, and from the peer with device and with system scope) and
# OUT/lab04-counters.png (median time of one run of every counter variant,
# the same increments each, log scale).
#
# Columns (header of the CSV): 1 section, 2 name, 3 writers, 5 scope,
# 11 atomics, 12 reps, 13 median_ms, 14 min_ms, 15 max_ms, 17 ns_per_op,
# 19 value. Rows used: "config" (chain_steps), "latency", "counter".

if (!exists("csv")) csv = "lab04-run.csv"
if (!exists("out")) out = "."
if (!exists("hw")) hw = "2x NVIDIA H200 (SXM), NVLink 4 x18"

set datafile separator ","
set datafile missing NaN
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,640 noenhanced font ",18" linewidth 2
} else {
    set terminal png size 1400,640 noenhanced
}

stats csv skip 1 using (strcol(1) eq "config" && strcol(2) eq "chain_steps" ? column(19) : NaN) nooutput
STEPS = int(STATS_min)

# -------------------------------------------------------------- latency --
lpos(n) = n eq "local" ? 1 : n eq "peer" ? 2 : n eq "peer_system" ? 3 : NaN
lat(c) = strcol(1) eq "latency" ? c : NaN
set output out."/lab04-latency.png"
set title sprintf("Lab 04: one atomicAdd, a chain of %d dependent atomics -- %s", STEPS, hw)
set style fill solid 0.8 border -1
set boxwidth 0.55
set xrange [0.4:3.6]
set yrange [0:1100]
set xtics ("local\nGPU 0, its own memory" 1, "remote, atomicAdd\nGPU 1 -> GPU 0 memory" 2, "remote, atomicAdd_system\nGPU 1 -> GPU 0 memory" 3)
set bmargin 5
set ylabel "ns per atomic (median of the runs)"
set grid ytics
set key off
plot \
    csv skip 1 using (lat(lpos(strcol(2)))):17 with boxes lc rgb "#0072b2", \
    csv skip 1 using (lat(lpos(strcol(2)))):17:(sprintf("%.1f ns", column(17))) with labels offset 0,1.2

# ------------------------------------------------------------- counters --
reset
set datafile separator ","
set datafile missing NaN
cpos(n) = n eq "local" ? 1 : n eq "peer" ? 2 : n eq "peer_system" ? 3 : n eq "both_device" ? 4 : \
          n eq "both_system" ? 5 : n eq "both_warp_aggregated" ? 6 : n eq "both_block_aggregated" ? 7 : \
          n eq "both_local_then_copy" ? 8 : NaN
cnt(c) = strcol(1) eq "counter" ? c : NaN
set output out."/lab04-counters.png"
set title sprintf("Lab 04: one counter in GPU 0's memory -- %s", hw)
set style fill solid 0.8 border -1
set boxwidth 0.6
set xrange [0.4:8.6]
set logscale y 10
set yrange [0.005:1000]
set format y "%g"
set xtics ("local\nGPU 0" 1, "peer\nGPU 1" 2, "peer\nsystem" 3, "both\ndevice\n(a race)" 4, \
           "both\nsystem" 5, "warp\naggregated" 6, "block\naggregated" 7, "local,\nthen copy" 8)
set bmargin 6
set key top right box opaque
set ylabel "ms per run (median)"
set grid ytics
plot \
    csv skip 1 using (cnt(cpos(strcol(2)))):13:(strcol(5) eq "system" ? 0xd55e00 : 0x0072b2) with boxes lc rgb variable notitle, \
    csv skip 1 using (cnt(cpos(strcol(2)))):13:(sprintf("%.3f", column(13))) with labels offset 0,1 notitle, \
    NaN with boxes lc rgb "#0072b2" title "device scope (atomicAdd)", \
    NaN with boxes lc rgb "#d55e00" title "system scope (atomicAdd_system)"
