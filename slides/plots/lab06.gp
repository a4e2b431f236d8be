# lab06.gp: lab 06's plot for the slides, from the lab's CSVs.
#
#   gnuplot -e "csv='tests/fixtures/lab06-PAIR.csv'; csv1='tests/fixtures/lab06-ONE.csv'; \
#               out='slides/img'; hw='...'; hw1='...'" slides/plots/lab06.gp
#
# Writes OUT/lab06-busbw.png: the all-reduce's bus bandwidth (nccl-tests'
# busbw, the gbps column) against the bytes per rank, one line per algorithm
# (ring, one_shot, nccl over the mapped peer buffers or the peer links;
# host_staged through host memory the ranks share). One panel per recording:
# csv, ranks on a machine of several GPUs (one rank per GPU: route peer), and
# csv1, ranks sharing one GPU (route loopback: the "peer" buffer is the same
# GPU's memory, no link is measured, and the panel says so). Either may be
# '' (no recording of the lab on that machine yet): its panel is left out.
# Each panel's title says what its data shows: at how many sizes the fastest
# all-reduce through IPC handles (or NCCL) beat host staging, and by how much
# at the largest size.
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 7 bytes, 13 gbps (busbw).

if (!exists("csv")) { exit error "lab06.gp: set csv to a recording on a pair of GPUs, or '': make-plots.sh picks it" }
if (!exists("csv1")) { exit error "lab06.gp: set csv1 to a recording on one GPU, or '': make-plots.sh picks it" }
if (!exists("out")) out = "."
if (!exists("hw")) hw = csv
if (!exists("hw1")) hw1 = csv1
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# the panels: the recordings given, several GPUs first
NP = (csv ne "") + (csv1 ne "")
if (NP == 0) { print "lab06.gp: no recording given (csv and csv1 are both empty)"; exit status 1 }
first = csv ne ""   # panel 1 is csv's

ar(v) = strcol(1) eq "allreduce" && strcol(2) eq v
# each algorithm's line, the same in the panels and in the key
pt_of(a) = a eq "ring" ? 5 : a eq "one_shot" ? 7 : a eq "nccl" ? 9 : 13
dt_of(a) = a eq "ring" ? 1 : a eq "one_shot" ? 2 : a eq "nccl" ? 4 : 3
lc_of(a) = a eq "ring" ? "#009e73" : a eq "one_shot" ? "#0072b2" : a eq "nccl" ? "#cc79a7" : "#d55e00"
# a row of the collective through IPC handles or NCCL (not host staging) at size S
ipc_at(S) = strcol(1) eq "allreduce" && strcol(3) ne "host" && strcol(2) ne "skipped" && column(7) == S

set output out."/lab06-busbw.png"
NCCL_ANY = 0
set multiplot
do for [p = 1:NP] {
    F = (p == 1 && first) ? csv : csv1
    H = (p == 1 && first) ? hw : hw1
    # the route of the IPC paths: peer (one rank per GPU) or loopback (ranks sharing a GPU)
    # (a count is a sum of 0s and 1s: stats refuses a column without a valid point)
    stats F skip 1 using (ar("ring") && strcol(3) eq "loopback" ? 1 : 0) nooutput
    R = STATS_sum > 0 ? "loopback" : "peer"
    stats F skip 1 using (ar("nccl") ? 1 : 0) nooutput
    NCCL = STATS_sum > 0
    NCCL_ANY = NCCL_ANY || NCCL
    # the sizes, smallest first: each host_staged row's, in turn
    stats F skip 1 using (ar("host_staged") ? column(7) : NaN) nooutput
    S = STATS_min
    LAST = STATS_max
    W = 0
    N = 0
    while (1) {
        stats F skip 1 using (ar("host_staged") && column(7) == S ? column(13) : NaN) nooutput
        HOST = STATS_max
        stats F skip 1 using (ipc_at(S) ? column(13) : 0) nooutput
        BEST = STATS_max
        N = N + 1
        W = W + (BEST > HOST ? 1 : 0)
        if (S == LAST) { RATIO = BEST / HOST; break }
        stats F skip 1 using (ar("host_staged") && column(7) > S ? column(7) : NaN) nooutput
        S = STATS_min
    }
    who = NCCL ? "ring, one-shot or NCCL" : "ring or one-shot"
    where = R eq "loopback" ? "ranks sharing its GPU (loopback: no link)" : "one rank per GPU (peer links)"
    # one panel: two lines; half a slide wide: one clause a line
    sep = NP == 1 ? " " : "\n"
    set title sprintf("%s:%s%s\nthe fastest of %s%sbeat host staging at %d of %d sizes, %.0f× at the largest", \
        H, sep, where, who, sep, W, N, RATIO) font (NP == 1 ? ",17" : ",16")
    set size 1.0 / NP, 0.88
    set origin (p - 1) * 1.0 / NP, 0.12
    set logscale x 2
    set xrange [3000:1.5e9]
    if (NP == 1) {
        set xtics ("4 KiB" 4096, "64 KiB" 65536, "1 MiB" 1048576, "16 MiB" 16777216, "256 MiB" 268435456, "1 GiB" 1073741824)
    } else {
        set xtics ("4 KiB" 4096, "1 MiB" 1048576, "256 MiB" 268435456)
    }
    set logscale y 10
    set format y "%g"
    set yrange [*:*]
    set xlabel "bytes per rank"
    set ylabel (p == 1 ? "busbw (nccl-tests), GB/s" : "")
    set grid
    unset key
    set style data linespoints
    # NCCL's line only where it ran (gnuplot warns about a series without a point)
    algs = NCCL ? "ring one_shot nccl host_staged" : "ring one_shot host_staged"
    plot for [a in algs] F skip 1 using 7:(ar(a) ? column(13) : NaN) \
        pt pt_of(a) ps (a eq "host_staged" ? 1.5 : 1.3) dt dt_of(a) lc rgb lc_of(a)
}
# the key's strip: no axes, no data, only the key
set size 1, 0.12
set origin 0, 0
unset title
unset border
unset tics
unset grid
unset logscale
unset xlabel
unset ylabel
set xrange [0:1]
set yrange [0:1]
set lmargin 0
set rmargin 0
set tmargin 0
set bmargin 0
set key center center horizontal maxcols 4 Left reverse width 0 samplen 2 font ",18"
plot \
    NaN with linespoints pt pt_of("ring") ps 1.3 dt dt_of("ring") lc rgb lc_of("ring") title "ring", \
    NaN with linespoints pt pt_of("one_shot") ps 1.3 dt dt_of("one_shot") lc rgb lc_of("one_shot") title "one-shot", \
    NaN with linespoints pt pt_of("nccl") ps 1.3 dt dt_of("nccl") lc rgb lc_of("nccl") title (NCCL_ANY ? "NCCL" : "NCCL (did not run)"), \
    NaN with linespoints pt pt_of("host_staged") ps 1.5 dt dt_of("host_staged") lc rgb lc_of("host_staged") title "host staged"
unset multiplot
