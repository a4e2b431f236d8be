# lab03.gp: lab 03's plots for the slides, from the lab's recordings.
#
#   slides/plots/make-plots.sh (it hands this script every recording: screen.gp)
#
# Writes OUT/lab03-variants.png (GB/s of pull, push, copy_only and
# copy_then_compute against the array size, a panel per machine: a machine of
# several GPUs over its peer link, one of one GPU over its host link, each
# titled with what its largest size shows) and OUT/lab03-stride.png (GB/s of
# the strided read against the stride: each machine's link, a line each, and
# the first machine's local memory).
#
# Columns, by name (the course's one row format, tests/fixtures/rows-header.csv):
# experiment, variant, route, bytes, gbps.
# Rows used: "transfer" and "stride" (variant "stride_N": N floats apart),
# routes "peer" (the source on GPU b = src, the result on GPU a = dst), "host"
# (the source in host memory) and "loopback" (local memory of GPU a).

if (!exists("out")) out = "."
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# ------------------------------------------------------------- variants --
v(name, r) = strcol("experiment") eq "transfer" && strcol("variant") eq name && strcol("route") eq r ? column("gbps") : NaN
# GB/s of a variant at the route's largest size (MAXB)
at_max(name, r) = strcol("experiment") eq "transfer" && strcol("variant") eq name && strcol("route") eq r && \
    column("bytes") == MAXB ? column("gbps") : NaN
says(pull, copy) = pull > copy ? "reading in place beats copying first" : "copying first beats reading in place"

set output out."/lab03-variants.png"
# a panel per machine side by side, and one key for all in a strip of its own below them
set multiplot title "Pull, push or copy first: GB/s against the array size (titles: at the largest size)" font ",19"
NP = rec_n
KEYH = 0.12
PANELH = 0.8
do for [p = 1:NP] {
    F = mfile(p)
    R = mfar(p)
    # what the largest size says: reading in place against copying first, then computing
    stats F using (strcol("experiment") eq "transfer" && strcol("route") eq R ? column("bytes") : NaN) nooutput
    MAXB = STATS_max
    stats F using (at_max("pull", R)) nooutput
    PULL = STATS_max
    stats F using (at_max("copy_then_compute", R)) nooutput
    COPY = STATS_max
    set logscale x 2
    set xrange [3000:1500000000]
    set xtics ("4 KiB" 4096, "1 MiB" 1048576, "1 GiB" 1073741824)
    set grid
    set style data linespoints
    set yrange [0:*]
    unset key
    @panel
    set title sprintf("%s\n%s", mhw(p), says(PULL, COPY)) font (NP > 2 ? ",15" : ",18")
    set ylabel (p == 1 ? "GB/s (median)" : "")
    plot \
        F using "bytes":(v("pull", R)) pt 5 ps 1.4 lc rgb "#009e73", \
        F using "bytes":(v("push", R)) pt 9 ps 1.6 dt 2 lc rgb "#0072b2", \
        F using "bytes":(v("copy_only", R)) pt 4 ps 1.4 dt 3 lc rgb "#e69f00", \
        F using "bytes":(v("copy_then_compute", R)) pt 13 ps 1.6 lc rgb "#d55e00"
}
@strip
set key center center horizontal maxcols 4 width 1 font ",18"
plot \
    NaN with linespoints pt 5 ps 1.4 lc rgb "#009e73" title "pull (a reads b)", \
    NaN with linespoints pt 9 ps 1.6 dt 2 lc rgb "#0072b2" title "push (b writes a)", \
    NaN with linespoints pt 4 ps 1.4 dt 3 lc rgb "#e69f00" title "copy only", \
    NaN with linespoints pt 13 ps 1.6 lc rgb "#d55e00" title "copy, then compute"
unset multiplot

# --------------------------------------------------------------- stride --
# Each memory's rate against its own stride-1 rate: what the read order costs.
# A line per machine over its link (peer or host), and the first machine's local memory.
reset
load here."/screen.gp"
stride(v) = v[1:7] eq "stride_" ? real(v[8:]) : NaN
s(r) = strcol("experiment") eq "stride" && strcol("route") eq r ? column("gbps") : NaN
s1(r) = strcol("experiment") eq "stride" && strcol("variant") eq "stride_1" && strcol("route") eq r ? column("gbps") : NaN
array ONE[rec_n]
do for [i = 1:rec_n] {
    stats mfile(i) using (s1(mfar(i))) nooutput
    ONE[i] = STATS_max
}
stats mfile(1) using (s1("loopback")) nooutput
L1 = STATS_max
set output out."/lab03-stride.png"
set title "Scattered reads cost more over a link than in local memory"
set logscale x 2
set xrange [0.8:80]
set yrange [0:1.05]
set xtics (1, 2, 4, 8, 16, 32, 64)
set xlabel "stride (elements of 4 bytes between neighbouring threads)"
set ylabel "GB/s / its stride-1 GB/s"
set grid
set key below vertical maxrows 3 font ",17"
set style data linespoints
plot \
    mfile(1) using (stride(strcol("variant"))):(s("loopback") / L1) pt 6 ps 1.5 lc "gray40" title sprintf("local memory (%s)", mgpus(1)), \
    for [i = 1:rec_n] mfile(i) using (stride(strcol("variant"))):(s(mfar(i)) / ONE[i]) pt mpoint(i) ps 1.5 lc rgb mcolour(i) \
        title sprintf("%s memory over %s (%s)", mfar(i), mlink(i), mgpus(i))
