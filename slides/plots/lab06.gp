# lab06.gp: lab 06's plot for the slides, from the lab's CSVs.
#
#   slides/plots/make-plots.sh (it hands this script every recording: screen.gp)
#
# Writes OUT/lab06-busbw.png: the all-reduce's bus bandwidth (nccl-tests'
# busbw, the gbps column) against the bytes per rank, one line per algorithm
# (ring, one_shot, nccl over the mapped peer buffers or the peer links;
# host_staged through host memory the ranks share). One panel per recording
# make-plots.sh hands it (screen.gp's rec_K): ranks on a machine of several GPUs
# (one rank per GPU: route peer), or ranks sharing one GPU (route loopback: the
# "peer" buffer is the same GPU's memory, no link is measured, and the panel
# says so). A machine with no recording of the lab has no panel.
# Each panel's title says what its data shows: at how many sizes the fastest
# all-reduce through IPC handles (or NCCL) beat host staging, and by how much
# at the largest size.
#
# Columns, by name (the course's one row format, tests/fixtures/rows-header.csv):
# experiment, variant, route, bytes, gbps (busbw).

if (!exists("out")) out = "."
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

NP = rec_n
KEYH = 0.12
PANELH = 0.88

ar(v) = strcol("experiment") eq "allreduce" && strcol("variant") eq v
# each algorithm's line, the same in the panels and in the key
pt_of(a) = a eq "ring" ? 5 : a eq "one_shot" ? 7 : a eq "nccl" ? 9 : 13
dt_of(a) = a eq "ring" ? 1 : a eq "one_shot" ? 2 : a eq "nccl" ? 4 : 3
lc_of(a) = a eq "ring" ? "#009e73" : a eq "one_shot" ? "#0072b2" : a eq "nccl" ? "#cc79a7" : "#d55e00"
# a row of the collective through IPC handles or NCCL (not host staging) at size S
ipc_at(S) = strcol("experiment") eq "allreduce" && strcol("route") ne "host" && strcol("variant") ne "skipped" && column("bytes") == S

set output out."/lab06-busbw.png"
NCCL_ANY = 0
set multiplot
do for [p = 1:NP] {
    F = mfile(p)
    H = mhw(p)
    # the route of the IPC paths: peer (one rank per GPU) or loopback (ranks sharing a GPU)
    # (a count is a sum of 0s and 1s: stats refuses a column without a valid point)
    stats F using (ar("ring") && strcol("route") eq "loopback" ? 1 : 0) nooutput
    R = STATS_sum > 0 ? "loopback" : "peer"
    stats F using (ar("nccl") ? 1 : 0) nooutput
    NCCL = STATS_sum > 0
    NCCL_ANY = NCCL_ANY || NCCL
    # the sizes, smallest first: each host_staged row's, in turn
    stats F using (ar("host_staged") ? column("bytes") : NaN) nooutput
    S = STATS_min
    LAST = STATS_max
    W = 0
    N = 0
    while (1) {
        stats F using (ar("host_staged") && column("bytes") == S ? column("gbps") : NaN) nooutput
        HOST = STATS_max
        stats F using (ipc_at(S) ? column("gbps") : 0) nooutput
        BEST = STATS_max
        N = N + 1
        W = W + (BEST > HOST ? 1 : 0)
        if (S == LAST) { RATIO = BEST / HOST; break }
        stats F using (ar("host_staged") && column("bytes") > S ? column("bytes") : NaN) nooutput
        S = STATS_min
    }
    who = NCCL ? "ring, one-shot or NCCL" : "ring or one-shot"
    where = R eq "loopback" ? "ranks sharing its GPU (loopback: no link)" : "one rank per GPU (peer links)"
    # one panel: two lines; half a slide wide: one clause a line
    sep = NP == 1 ? " " : "\n"
    set title sprintf("%s:%s%s\nthe fastest of %s%sbeat host staging at %d of %d sizes, %.0f× at the largest", \
        H, sep, where, who, sep, W, N, RATIO) font (NP == 1 ? ",17" : ",16")
    @panel
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
    plot for [a in algs] F using "bytes":(ar(a) ? column("gbps") : NaN) \
        pt pt_of(a) ps (a eq "host_staged" ? 1.5 : 1.3) dt dt_of(a) lc rgb lc_of(a)
}
@strip
set key center center horizontal maxcols 4 Left reverse width 0 samplen 2 font ",18"
plot \
    NaN with linespoints pt pt_of("ring") ps 1.3 dt dt_of("ring") lc rgb lc_of("ring") title "ring", \
    NaN with linespoints pt pt_of("one_shot") ps 1.3 dt dt_of("one_shot") lc rgb lc_of("one_shot") title "one-shot", \
    NaN with linespoints pt pt_of("nccl") ps 1.3 dt dt_of("nccl") lc rgb lc_of("nccl") title (NCCL_ANY ? "NCCL" : "NCCL (did not run)"), \
    NaN with linespoints pt pt_of("host_staged") ps 1.5 dt dt_of("host_staged") lc rgb lc_of("host_staged") title "host staged"
unset multiplot
