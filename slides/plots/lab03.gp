# lab03.gp: lab 03's plots for the slides, from the lab's CSV.
#
#   gnuplot -e "csv='tests/fixtures/lab03-run.csv'; out='slides/img'; hw='...'" slides/plots/lab03.gp
#
# Writes OUT/lab03-variants.png (GB/s of local, pull, push, copy_only and
# copy_then_compute against the array size) and OUT/lab03-stride.png (GB/s
# of the strided read, peer and local memory, against the stride).
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 4 src, 5 dst, 7 bytes, 13 gbps.
# Rows used: "transfer" and "stride" (variant "stride_N": N floats apart),
# route "peer" (the source on GPU b = src, the result on GPU a = dst) and
# "loopback" (local memory of GPU a: the "local" curve is pull on loopback).

if (!exists("csv")) csv = "lab03-run.csv"
if (!exists("out")) out = "."
if (!exists("hw")) hw = "2x NVIDIA H200 (SXM), NVLink 4 x18"

if (!exists("csv1")) csv1 = "lab03-run-1xh200.csv"
if (!exists("hw1")) hw1 = "1x NVIDIA H200, PCIe Gen5 x16"
here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# The pair: the peer transfer rows read GPU b's memory (src) into GPU a's (dst).
stats csv skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "peer" ? column(5) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "peer" ? column(4) : NaN) nooutput
B = int(STATS_min)

# ------------------------------------------------------------- variants --
v(name, r) = strcol(1) eq "transfer" && strcol(2) eq name && strcol(3) eq r ? column(13) : NaN
set output out."/lab03-variants.png"
set title "Reading over NVLink in place beats copying first, then computing"
set logscale x 2
set xrange [3000:1500000000]
set yrange [0:420]
set xtics ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, \
           "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set xtics font ",16"
set xlabel "array size"
set ylabel sprintf("GB/s, source on GPU %d (median)", B)
set grid
set key left top box opaque font ",18"
set style data linespoints
plot \
    csv skip 1 using 7:(v("pull", "peer")) pt 5 ps 1.6 lc rgb "#009e73" title "pull (GPU a reads b)", \
    csv skip 1 using 7:(v("push", "peer")) pt 9 ps 1.8 dt 2 lc rgb "#0072b2" title "push (GPU b writes a)", \
    csv skip 1 using 7:(v("copy_only", "peer")) pt 4 ps 1.6 dt 3 lc rgb "#e69f00" title "copy_only (cudaMemcpyPeerAsync)", \
    csv skip 1 using 7:(v("copy_then_compute", "peer")) pt 13 ps 1.8 lc rgb "#d55e00" title "copy_then_compute"

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
set yrange [0:1.1]
set xtics (1, 2, 4, 8, 16, 32, 64)
set xlabel "stride (elements of 4 bytes between neighbouring threads)"
set ylabel "GB/s / the same memory's stride-1 GB/s"
set grid
set key left bottom box opaque font ",18"
set style data linespoints
plot \
    csv skip 1 using (stride(strcol(2))):(s("loopback") / L1) pt 7 ps 1.5 lc "gray40" title sprintf("local memory (%s)", hw), \
    csv skip 1 using (stride(strcol(2))):(s("peer") / P1) pt 5 ps 1.5 lc rgb "#1a7f37" title "peer memory over NVLink (same machine)", \
    csv1 skip 1 using (stride(strcol(2))):(s("host") / H1) pt 9 ps 1.5 lc rgb "#1b365d" title sprintf("host memory over PCIe (%s)", hw1)
