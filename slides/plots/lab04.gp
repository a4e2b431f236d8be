# lab04.gp: lab 04's plots for the slides, from the lab's recordings.
#
#   slides/plots/make-plots.sh (it hands this script every recording: screen.gp)
#
# Writes OUT/lab04-latency.png (ns per atomic of the dependent chain, median,
# two bars per machine: local, and across its link with device scope) and
# OUT/lab04-counters.png (median time of one run of every counter variant,
# the same increments each, log scale: a panel per machine).
#
# Columns, by name (the course's one row format, tests/fixtures/rows-header.csv):
# experiment, variant, route, src, dst, mode, count, median_us.
# Rows used: "latency" (device scope, route loopback: GPU a walks its own
# memory; route host: one GPU walks host memory) and "latency-peer" (variant =
# scope: GPU src walks GPU dst's memory); count = the chain's steps, median_us =
# one chain. "counter" (route loopback: the GPU's own memory; route host: host
# memory, mode one) and "counter-peer" (mode one: GPU b alone; both: a and b
# at once); median_us = one run. The scope of a counter variant is its name;
# warp_aggregated and block_aggregated add with atomicAdd_system
# (labs/04-peer-atomics/harness/counters.c), local_then_copy with atomicAdd.

if (!exists("out")) out = "."
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# -------------------------------------------------------------- latency --
# ns per atomic (one chain's median time over its steps), linear: two bars a
# machine, its local memory and across its link (the peer on a pair, the host
# on one GPU), in the machine's colour; a dashed line between machines.
ns(us, steps) = us * 1000.0 / steps
x0(i) = 1 + 2.5 * (i - 1)
lpos(i) = is("latency", "device", "loopback") ? x0(i) : \
          (mfar(i) eq "peer" ? is("latency-peer", "device", "peer") : is("latency", "device", "host")) ? x0(i) + 1 : NaN
tics = ""
YMAX = 1400
do for [i = 1:rec_n] {
    if (mfar(i) eq "peer") {
        stats mfile(i) using (is("latency-peer", "device", "peer") ? column("src") : NaN) nooutput
        S = int(STATS_min)
        stats mfile(i) using (is("latency-peer", "device", "peer") ? column("dst") : NaN) nooutput
        across = sprintf("GPU %d -> GPU %d\nover %s", S, int(STATS_min), mkind(i))
    } else {
        stats mfile(i) using (is("latency", "device", "host") ? column("src") : NaN) nooutput
        across = sprintf("GPU %d -> host\nover %s", int(STATS_min), mkind(i))
    }
    tics = tics.sprintf('%s"local" %g, "%s" %g', i > 1 ? ", " : "", x0(i), across, x0(i) + 1)
    # the top: room above the tallest bar for its label
    stats mfile(i) using (lpos(i) == lpos(i) ? ns(column("median_us"), column("count")) : NaN) nooutput
    YMAX = 1.15 * STATS_max > YMAX ? 1.15 * STATS_max : YMAX
    if (i > 1) { set arrow i from x0(i) - 0.75, graph 0 to x0(i) - 0.75, graph 1 nohead dt 2 lc "gray40" }
}
set output out."/lab04-latency.png"
set title "One atomic across a link: a few times slower, not a hundred"
set style fill solid 0.85 border -1
set boxwidth 0.6
set xrange [0.4:x0(rec_n) + 1.6]
set yrange [0:YMAX]
eval "set xtics (".tics.")"
if (rec_n > 2) { set xtics font ",15" }
set bmargin 4
set ylabel "ns per atomicAdd (dependent chain)"
set grid ytics
set key above horizontal font ",18"
plot \
    for [i = 1:rec_n] mfile(i) using (lpos(i)):(ns(column("median_us"), column("count"))) with boxes lc rgb mcolour(i) title mhw(i), \
    for [i = 1:rec_n] mfile(i) using (lpos(i)):(ns(column("median_us"), column("count"))):(sprintf("%.0f ns", ns(column("median_us"), column("count")))) \
        with labels offset 0,0.9 notitle

# ------------------------------------------------------------- counters --
# A panel per machine, as wide as its bars. On a pair: 1 GPU a alone on its own
# memory; 2-3 GPU b alone (mode one); 4-8 both GPUs at once (mode both). On one
# GPU: 1 on its own memory; 2-5 on host memory, across its link. Orange:
# system scope.
reset
load here."/screen.gp"
one(v) = v eq "device" ? 2 : v eq "system" ? 3 : NaN
both(v) = v eq "device" ? 4 : v eq "system" ? 5 : v eq "warp_aggregated" ? 6 : \
          v eq "block_aggregated" ? 7 : v eq "local_then_copy" ? 8 : NaN
host(v) = v eq "device" ? 2 : v eq "system" ? 3 : v eq "warp_aggregated" ? 4 : v eq "block_aggregated" ? 5 : NaN
local(e, v, r) = e eq "counter" && v eq "device" && r eq "loopback"
ppos(e, v, r, m) = local(e, v, r) ? 1 : e eq "counter-peer" ? (m eq "one" ? one(v) : m eq "both" ? both(v) : NaN) : NaN
hpos(e, v, r, m) = local(e, v, r) ? 1 : e eq "counter" && r eq "host" && m eq "one" ? host(v) : NaN
cpos(i) = mfar(i) eq "peer" ? ppos(strcol("experiment"), strcol("variant"), strcol("route"), strcol("mode")) : \
                              hpos(strcol("experiment"), strcol("variant"), strcol("route"), strcol("mode"))
bars(i) = mfar(i) eq "peer" ? 8 : 5
sys_scope(v) = v eq "system" || v eq "warp_aggregated" || v eq "block_aggregated"
ms = 'column("median_us") / 1000.0'
WIDE = 0
do for [i = 1:rec_n] { WIDE = WIDE + bars(i) }
set output out."/lab04-counters.png"
KEYH = 0.08
set multiplot title "Fewer atomics across the link, faster: aggregate, or count locally" font ",20"
X = 0
do for [i = 1:rec_n] {
    set size 1.0 * bars(i) / WIDE, 0.82
    set origin X, KEYH
    X = X + 1.0 * bars(i) / WIDE
    set title mhw(i) font ",16"
    set xrange [0.4:bars(i) + 0.6]
    set logscale y 10
    set yrange [0.005:20000]
    # one scale for all panels: its numbers on the first only, the others wider for their bars
    set format y (i == 1 ? "%g" : "")
    set lmargin (i == 1 ? 10 : 2)
    if (mfar(i) eq "peer") {
        set xtics ("local\nGPU 0" 1, "peer\nGPU 1" 2, "peer\nsystem" 3, "both\ndevice\n(a race)" 4, \
                   "both\nsystem" 5, "warp\naggr." 6, "block\naggr." 7, "local,\nthen\ncopy" 8)
    } else {
        set xtics ("local\nGPU 0" 1, "host\ndevice" 2, "host\nsystem" 3, "host,\nwarp\naggr." 4, "host,\nblock\naggr." 5)
    }
    set xtics font ",14"
    set bmargin 4.5
    set ylabel (i == 1 ? "ms per run (median)" : "")
    set grid ytics
    unset key
    plot \
        mfile(i) using (cpos(i)):(@ms):(sys_scope(strcol("variant")) ? 0xd55e00 : 0x0072b2) with points pt 7 ps 3 lc rgb variable, \
        mfile(i) using (cpos(i)):(@ms):(sprintf("%.3g", @ms)) with labels offset 0,1.4 font ",14"
}
@strip
set key center center horizontal font ",18"
plot \
    NaN with points pt 7 ps 3 lc rgb "#0072b2" title "device scope (atomicAdd)", \
    NaN with points pt 7 ps 3 lc rgb "#d55e00" title "system scope (atomicAdd_system)"
unset multiplot
