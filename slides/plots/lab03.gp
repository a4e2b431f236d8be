# lab03.gp: lab 03's plots for the slides, from the lab's CSVs.
#
#   gnuplot -e "csv='tests/fixtures/lab03-PAIR.csv'; csv1='tests/fixtures/lab03-ONE.csv'; \
#               out='slides/img'; hw='...'; hw1='...'" slides/plots/lab03.gp
#   (PAIR: a machine of tests/fixtures/machines.tsv with 2 GPUs; ONE: one with 1)
#
# Writes OUT/lab03-variants.png (GB/s of pull, push, copy_only and
# copy_then_compute against the array size: the pair over its peer link on
# the left, one GPU over its host link on the right, each titled with what its
# largest size shows) and OUT/lab03-stride.png (GB/s of the strided read,
# peer, host and local memory, against the stride).
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 4 src, 5 dst, 7 bytes, 13 gbps.
# Rows used: "transfer" and "stride" (variant "stride_N": N floats apart),
# routes "peer" (the source on GPU b = src, the result on GPU a = dst), "host"
# (the source in host memory) and "loopback" (local memory of GPU a).

if (!exists("csv")) { exit error "lab03.gp: set csv to a recording on a pair of GPUs: make-plots.sh picks it" }
if (!exists("out")) out = "."
if (!exists("hw")) hw = csv
if (!exists("csv1")) { exit error "lab03.gp: set csv1 to a recording on one GPU: make-plots.sh picks it" }
if (!exists("hw1")) hw1 = csv1
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# ------------------------------------------------------------- variants --
v(name, r) = strcol(1) eq "transfer" && strcol(2) eq name && strcol(3) eq r ? column(13) : NaN
# at_max(file, name, route): GB/s of a variant at the route's largest size
at_max(name, r) = strcol(1) eq "transfer" && strcol(2) eq name && strcol(3) eq r && column(7) == MAXB ? column(13) : NaN
# What the largest size says: reading in place against copying first, then computing.
stats csv skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "peer" ? column(7) : NaN) nooutput
MAXB = STATS_max
stats csv skip 1 using (at_max("pull", "peer")) nooutput
PULL2 = STATS_max
stats csv skip 1 using (at_max("copy_then_compute", "peer")) nooutput
COPY2 = STATS_max
stats csv1 skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "host" ? column(7) : NaN) nooutput
MAXB = STATS_max
stats csv1 skip 1 using (at_max("pull", "host")) nooutput
PULL1 = STATS_max
stats csv1 skip 1 using (at_max("copy_then_compute", "host")) nooutput
COPY1 = STATS_max
says(pull, copy) = pull > copy ? "reading in place beats copying first" : "copying first beats reading in place"

set output out."/lab03-variants.png"
# two panels side by side, and one key for both in a strip of its own below them
set multiplot title "Pull, push or copy first: GB/s against the array size (titles: at the largest size)" font ",19"
set logscale x 2
set xrange [3000:1500000000]
set xtics ("4 KiB" 4096, "1 MiB" 1048576, "1 GiB" 1073741824)
set grid
set style data linespoints
set yrange [0:*]
unset key
set size 0.5, 0.8
set origin 0, 0.12
set title sprintf("%s\n%s", hw, says(PULL2, COPY2)) font ",18"
set ylabel "GB/s (median)"
plot \
    csv skip 1 using 7:(v("pull", "peer")) pt 5 ps 1.4 lc rgb "#009e73", \
    csv skip 1 using 7:(v("push", "peer")) pt 9 ps 1.6 dt 2 lc rgb "#0072b2", \
    csv skip 1 using 7:(v("copy_only", "peer")) pt 4 ps 1.4 dt 3 lc rgb "#e69f00", \
    csv skip 1 using 7:(v("copy_then_compute", "peer")) pt 13 ps 1.6 lc rgb "#d55e00"
set origin 0.5, 0.12
set title sprintf("%s\n%s", hw1, says(PULL1, COPY1)) font ",18"
unset ylabel
plot \
    csv1 skip 1 using 7:(v("pull", "host")) pt 5 ps 1.4 lc rgb "#009e73", \
    csv1 skip 1 using 7:(v("push", "host")) pt 9 ps 1.6 dt 2 lc rgb "#0072b2", \
    csv1 skip 1 using 7:(v("copy_only", "host")) pt 4 ps 1.4 dt 3 lc rgb "#e69f00", \
    csv1 skip 1 using 7:(v("copy_then_compute", "host")) pt 13 ps 1.6 lc rgb "#d55e00"
# the key's strip: no axes, no data, only the key
set size 1, 0.12
set origin 0, 0
unset title
unset border
unset tics
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set lmargin 0
set rmargin 0
set tmargin 0
set bmargin 0
set key center center horizontal maxcols 4 width 1 font ",18"
plot \
    NaN with linespoints pt 5 ps 1.4 lc rgb "#009e73" title "pull (a reads b)", \
    NaN with linespoints pt 9 ps 1.6 dt 2 lc rgb "#0072b2" title "push (b writes a)", \
    NaN with linespoints pt 4 ps 1.4 dt 3 lc rgb "#e69f00" title "copy only", \
    NaN with linespoints pt 13 ps 1.6 lc rgb "#d55e00" title "copy, then compute"
unset multiplot

# --------------------------------------------------------------- stride --
# Each memory's rate against its own stride-1 rate: what the read order costs.
reset
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"
stride(v) = v[1:7] eq "stride_" ? real(v[8:]) : NaN
s(r) = strcol(1) eq "stride" && strcol(3) eq r ? column(13) : NaN
stats csv skip 1 using (strcol(1) eq "stride" && strcol(2) eq "stride_1" && strcol(3) eq "loopback" ? column(13) : NaN) nooutput
L1 = STATS_max
stats csv skip 1 using (strcol(1) eq "stride" && strcol(2) eq "stride_1" && strcol(3) eq "peer" ? column(13) : NaN) nooutput
P1 = STATS_max
stats csv1 skip 1 using (strcol(1) eq "stride" && strcol(2) eq "stride_1" && strcol(3) eq "host" ? column(13) : NaN) nooutput
H1 = STATS_max
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
    csv skip 1 using (stride(strcol(2))):(s("loopback") / L1) pt 7 ps 1.5 lc "gray40" title sprintf("local memory (%s)", hw), \
    csv skip 1 using (stride(strcol(2))):(s("peer") / P1) pt 5 ps 1.5 lc rgb "#1a7f37" title "peer memory over NVLink (the same machine)", \
    csv1 skip 1 using (stride(strcol(2))):(s("host") / H1) pt 9 ps 1.5 lc rgb "#1b365d" title sprintf("host memory over PCIe (%s)", hw1)
