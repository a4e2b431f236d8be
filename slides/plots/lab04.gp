# lab04.gp: lab 04's plots for the slides, from the lab's CSV.
#
#   gnuplot -e "csv='tests/fixtures/lab04-PAIR.csv'; out='slides/img'; hw='...'" slides/plots/lab04.gp
#   (PAIR: a machine of tests/fixtures/machines.tsv with 2 GPUs)
#
# Writes OUT/lab04-latency.png (ns per atomic of the dependent chain, median:
# local, and from the peer with device and with system scope) and
# OUT/lab04-counters.png (median time of one run of every counter variant,
# the same increments each, log scale).
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 6 mode, 8 count, 10 median_us.
# Rows used: "latency" (device scope, route loopback: GPU a walks its own
# memory) and "latency-peer" (variant = scope: GPU b walks GPU a's memory);
# count = the chain's steps, median_us = one chain. "counter" (variant device,
# route loopback) and "counter-peer" (mode one: GPU b alone; both: a and b at
# once); median_us = one run. The scope of a counter variant is its name;
# warp_aggregated and block_aggregated add with atomicAdd_system
# (labs/04-peer-atomics/harness/counters.c), local_then_copy with atomicAdd.

if (!exists("csv")) { exit error "lab04.gp: set csv to a recording on a pair of GPUs: make-plots.sh picks it" }
if (!exists("out")) out = "."
if (!exists("hw")) hw = csv

if (!exists("csv1")) { exit error "lab04.gp: set csv1 to a recording on one GPU: make-plots.sh picks it" }
if (!exists("hw1")) hw1 = csv1
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# -------------------------------------------------------------- latency --
# ns per atomic (one chain's median time over its steps), linear: local and
# across NVLink on the pair (csv), local and across PCIe on one GPU (csv1).
ns(us, steps) = us * 1000.0 / steps
lpos(e, v, r) = e eq "latency" && v eq "device" && r eq "loopback" ? 1 : e eq "latency-peer" && v eq "device" ? 2 : NaN
hpos(e, v, r) = e eq "latency" && v eq "device" ? (r eq "loopback" ? 3.5 : r eq "host" ? 4.5 : NaN) : NaN
set output out."/lab04-latency.png"
set title "One atomic across a link: a few times slower, not a hundred"
set style fill solid 0.85 border -1
set boxwidth 0.6
set xrange [0.4:5.1]
set yrange [0:1400]
set xtics ("local" 1, "GPU 1 -> GPU 0\nover NVLink" 2, "local" 3.5, "GPU 0 -> host\nover PCIe" 4.5)
set bmargin 4
set ylabel "ns per atomicAdd (dependent chain)"
set grid ytics
set key above horizontal font ",18"
set arrow 1 from 2.75, graph 0 to 2.75, graph 1 nohead dt 2 lc "gray40"
plot \
    csv skip 1 using (lpos(strcol(1), strcol(2), strcol(3))):(ns(column(10), column(8))) with boxes lc rgb "#1a7f37" title hw, \
    csv skip 1 using (lpos(strcol(1), strcol(2), strcol(3))):(ns(column(10), column(8))):(sprintf("%.0f ns", ns(column(10), column(8)))) with labels offset 0,0.9 notitle, \
    csv1 skip 1 using (hpos(strcol(1), strcol(2), strcol(3))):(ns(column(10), column(8))) with boxes lc rgb "#1b365d" title hw1, \
    csv1 skip 1 using (hpos(strcol(1), strcol(2), strcol(3))):(ns(column(10), column(8))):(sprintf("%.0f ns", ns(column(10), column(8)))) with labels offset 0,0.9 notitle

# ------------------------------------------------------------- counters --
reset
load here."/screen.gp"
# The bar of a counter row: 1 GPU a alone on its own memory; 2-3 GPU b alone
# (mode one); 4-8 both GPUs at once (mode both). Orange: system scope.
one(v) = v eq "device" ? 2 : v eq "system" ? 3 : NaN
both(v) = v eq "device" ? 4 : v eq "system" ? 5 : v eq "warp_aggregated" ? 6 : \
          v eq "block_aggregated" ? 7 : v eq "local_then_copy" ? 8 : NaN
cpos(e, v, r, m) = e eq "counter" ? (v eq "device" && r eq "loopback" ? 1 : NaN) : \
                   e eq "counter-peer" ? (m eq "one" ? one(v) : m eq "both" ? both(v) : NaN) : NaN
sys_scope(v) = v eq "system" || v eq "warp_aggregated" || v eq "block_aggregated"
set output out."/lab04-counters.png"
set title "Fewer atomics across the link, faster: aggregate, or count locally"
set xrange [0.4:8.6]
set logscale y 10
set yrange [0.005:1000]
set format y "%g"
set xtics ("local\nGPU 0" 1, "peer\nGPU 1" 2, "peer\nsystem" 3, "both\ndevice\n(a race)" 4, \
           "both\nsystem" 5, "warp\naggregated" 6, "block\naggregated" 7, "local,\nthen copy" 8)
set bmargin 5
set xtics font ",16"
set key above horizontal font ",18"
set ylabel "ms per run (median)"
set grid ytics
plot \
    csv skip 1 using (cpos(strcol(1), strcol(2), strcol(3), strcol(6))):(column(10) / 1000.0):(sys_scope(strcol(2)) ? 0xd55e00 : 0x0072b2) \
        with points pt 7 ps 3 lc rgb variable notitle, \
    csv skip 1 using (cpos(strcol(1), strcol(2), strcol(3), strcol(6))):(column(10) / 1000.0):(sprintf("%.3f", column(10) / 1000.0)) \
        with labels offset 0,1.4 notitle, \
    NaN with points pt 7 ps 3 lc rgb "#0072b2" title "device scope (atomicAdd)", \
    NaN with points pt 7 ps 3 lc rgb "#d55e00" title "system scope (atomicAdd_system)"
