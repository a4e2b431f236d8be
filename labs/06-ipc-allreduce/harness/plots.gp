# plots.gp: lab 06's plot, drawn from the lab's result rows.
#
#   build/ref/bin/06-ipc-allreduce --out build/lab06
#   gnuplot -e "csv='build/lab06/06-ipc-allreduce.csv'; out='build/lab06'" \
#       labs/06-ipc-allreduce/harness/plots.gp
#
# Writes OUT/busbw.png: the all-reduce's bus bandwidth (nccl-tests' busbw, the
# rows' gbps) against the message size, one line per algorithm and route that
# ran (ring, one-shot, staged through host memory, NCCL); the rows of one size
# are averaged where a size repeats. Columns are read by their names in the
# header row.

if (!exists("csv")) csv = "06-ipc-allreduce.csv"
if (!exists("out")) out = "."
# machine: what the title names as the hardware, e.g. machine='2x NVIDIA H200'
if (!exists("machine")) machine = ""
on_machine = machine eq "" ? "" : " -- ".machine

set datafile separator ","
set datafile columnheaders
# A row of another series is NaN: missing, so that each line joins its own points.
set datafile missing NaN
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,760 noenhanced font ",11"
} else {
    set terminal png size 1200,760 noenhanced
}

# The rows of one algorithm on one route that ran and were verified.
ran(v, r) = strcol("experiment") eq "allreduce" && strcol("variant") eq v && \
            strcol("route") eq r && column("verified") == 1
busbw(v, r) = ran(v, r) ? column("gbps") : NaN

array ALGO[4] = ["ring", "one_shot", "host_staged", "nccl"]
array ALGO_TITLE[4] = ["ring (reduce-scatter + all-gather)", "one-shot (each rank reads all)", \
                       "staged through pinned host memory", "NCCL ncclAllReduce"]
array ROUTE[3] = ["peer", "loopback", "host"]

# A line gets a key entry only where this run has its rows.
array N[12]
do for [a = 1:4] {
    do for [r = 1:3] {
        stats csv using (ran(ALGO[a], ROUTE[r]) ? 1 : 0) nooutput
        N[(a - 1) * 3 + r] = STATS_sum
    }
}
ranks = ""
stats csv using (strcol("experiment") eq "allreduce" && column("verified") == 1 ? column("count") : 0) nooutput
if (STATS_max > 0) { ranks = sprintf(", %d ranks", int(STATS_max)) }

set output out."/busbw.png"
set title "All-reduce bus bandwidth against size".ranks.on_machine
set xlabel "message size per rank (bytes)"
set ylabel "busbw (GB/s, nccl-tests' definition)"
set logscale x 2
set logscale y 10
set format x "%.0b%B"
set format y "%g"
set grid
set key top left
plot for [i = 1:12] csv using "bytes":(busbw(ALGO[(i - 1) / 3 + 1], ROUTE[(i - 1) % 3 + 1])) \
     smooth unique with linespoints lw 2 title (N[i] > 0 ? ALGO_TITLE[(i - 1) / 3 + 1]." (".ROUTE[(i - 1) % 3 + 1].")" : "")
