# lab02.gp: lab 02's plot for the slides, from the lab's CSV.
#
#   gnuplot -e "csv='tests/fixtures/lab02-PAIR.csv'; out='slides/img'; hw='...'" slides/plots/lab02.gp
#   (PAIR: a machine of tests/fixtures/machines.tsv with 2 GPUs)
#
# Writes OUT/lab02-methods.png: GB/s against copy size, GPU a -> GPU b, for
# cudaMemcpyPeer and cudaMemcpy(Default) with peer access on, cudaMemcpyPeer
# with peer access off, and the copy staged through pinned host memory.
#
# Columns (the course's one row format, tests/fixtures/rows-header.csv):
# 1 experiment, 2 variant, 3 route, 4 src, 5 dst, 7 bytes, 13 gbps.
# Rows used: "timing" (variant: the method; route: peer or peer_off) and
# "ordering" (its copies run GPU a -> GPU b, so their src and dst name the pair).

if (!exists("csv")) { exit error "lab02.gp: set csv to a recording on a pair of GPUs: make-plots.sh picks it" }
if (!exists("out")) out = "."
if (!exists("hw")) hw = csv

here = exists("here") ? here : "slides/plots"
load here."/screen.gp"

# The pair: GPU a -> GPU b, the direction of the ordering rows.
stats csv skip 1 using (strcol(1) eq "ordering" ? column(4) : NaN) nooutput
A = int(STATS_min)
stats csv skip 1 using (strcol(1) eq "ordering" ? column(5) : NaN) nooutput
B = int(STATS_min)

t(m, r) = strcol(1) eq "timing" && strcol(2) eq m && strcol(3) eq r && column(4) == A && column(5) == B

set output out."/lab02-methods.png"
set title "Peer access decides the speed; the API does not"
set logscale x 2
set xrange [3000:360000000]
set yrange [0:450]
set xtics ("4 KiB" 4096, "64 KiB" 65536, "1 MiB" 1048576, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456)
set xlabel "bytes per copy"
set ylabel sprintf("GB/s, GPU %d -> GPU %d (median)", A, B)
set grid
set key below maxrows 2 width -2 font ",18"
set style data linespoints
plot \
    csv skip 1 using 7:(t("memcpy_peer", "peer") ? column(13) : NaN) pt 7 ps 1.6 title "cudaMemcpyPeer, peer access on", \
    csv skip 1 using 7:(t("memcpy_default", "peer") ? column(13) : NaN) pt 4 ps 2.2 dt 2 title "cudaMemcpy(Default), peer access on", \
    csv skip 1 using 7:(t("memcpy_peer", "peer_off") ? column(13) : NaN) pt 5 ps 1.6 title "cudaMemcpyPeer, peer access off", \
    csv skip 1 using 7:(t("host_staged", "peer") ? column(13) : NaN) pt 9 ps 1.8 title "staged through pinned host memory"
