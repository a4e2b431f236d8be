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

set datafile separator ","
set datafile missing NaN
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,640 noenhanced font ",18" linewidth 2
} else {
    set terminal png size 1400,640 noenhanced
}

# The pair: the peer transfer rows read GPU b's memory (src) into GPU a's (dst).
stats csv skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "peer" ? column(5) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "transfer" && strcol(3) eq "peer" ? column(4) : NaN) nooutput
B = int(STATS_min)

# ------------------------------------------------------------- variants --
v(name, r) = strcol(1) eq "transfer" && strcol(2) eq name && strcol(3) eq r ? column(13) : NaN
set output out."/lab03-variants.png"
set title sprintf("Lab 03: local = 2 x peer on GPU %d, source on GPU %d -- %s", A, B, hw)
set logscale xy 10
set logscale x 2
set xrange [3000:1500000000]
set yrange [0.1:3000]
set xtics ("4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, \
           "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y "%g"
set xlabel "array size"
set ylabel "GB/s (array bytes / median time)"
set grid
set key right bottom box opaque
set style data linespoints
plot \
    csv skip 1 using 7:(v("pull", "loopback")) pt 7 ps 1.4 lc "gray40" title "local (no link)", \
    csv skip 1 using 7:(v("pull", "peer")) pt 5 ps 1.6 lc rgb "#009e73" title "pull (GPU a reads b)", \
    csv skip 1 using 7:(v("push", "peer")) pt 9 ps 1.8 dt 2 lc rgb "#0072b2" title "push (GPU b writes a)", \
    csv skip 1 using 7:(v("copy_only", "peer")) pt 4 ps 1.6 dt 3 lc rgb "#e69f00" title "copy_only (cudaMemcpyPeerAsync)", \
    csv skip 1 using 7:(v("copy_then_compute", "peer")) pt 13 ps 1.8 lc rgb "#d55e00" title "copy_then_compute"

# --------------------------------------------------------------- stride --
reset
set datafile separator ","
set datafile missing NaN
# The stride N of a "stride_N" variant; s(r): GB/s of the stride rows of route r.
stride(v) = v[1:7] eq "stride_" ? real(v[8:]) : NaN
s(r) = strcol(1) eq "stride" && strcol(3) eq r ? column(13) : NaN
set output out."/lab03-stride.png"
set title sprintf("Lab 03: strided reads of 256 MiB -- %s", hw)
set logscale x 2
set logscale y 10
set xrange [0.8:80]
set yrange [10:3000]
set xtics (1, 2, 4, 8, 16, 32, 64)
set format y "%g"
set xlabel "stride (elements of 4 bytes between neighbouring threads)"
set ylabel "GB/s (array bytes / median time)"
set grid
set key right top box opaque
set style data linespoints
plot \
    csv skip 1 using (stride(strcol(2))):(s("loopback")):(sprintf("%.0f", s("loopback"))) with linespoints pt 7 ps 1.6 lc "gray40" title sprintf("local memory (GPU %d)", A), \
    csv skip 1 using (stride(strcol(2))):(s("loopback")):(sprintf("%.0f", s("loopback"))) with labels offset 0,1.1 notitle, \
    csv skip 1 using (stride(strcol(2))):(s("peer")):(sprintf("%.0f", s("peer"))) with linespoints pt 5 ps 1.6 lc rgb "#0072b2" title sprintf("peer memory (GPU %d, over NVLink)", B), \
    csv skip 1 using (stride(strcol(2))):(s("peer")):(sprintf("%.0f", s("peer"))) with labels offset 0,-1.1 notitle
