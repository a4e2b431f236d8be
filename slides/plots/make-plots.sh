#!/usr/bin/env bash
# make-plots.sh [OUTDIR]: draw the slides' plots and diagram from the
# recorded runs.
#
# Reads the recordings of each lab, tests/fixtures/labNN-SUFFIX.csv (the rows
# of each lab's reference program): above all the first in the order of
# tests/fixtures/machines.tsv made on a pair of GPUs (gpu_count 2: its peer
# link, csv) and the first made on one GPU (gpu_count 1: its host link, csv1);
# a plot with a line per machine draws the others too (more_K), and writes
# the PNGs the decks show into OUTDIR (default: slides/img), each titled with
# its machine's row, and topology.svg (slides/diagrams/topology.py, drawn by
# Graphviz). Needs gnuplot (its pngcairo terminal where it has one) and dot.
#
#   slides/plots/make-plots.sh                 # regenerate slides/img
#   slides/plots/make-plots.sh /tmp/plots      # somewhere else, to compare
#
# The labs drawn are those with a script slides/plots/labNN.gp: a new lab's
# plots need its script and nothing else here. A lab not recorded on one of
# the machines yet hands its script that file as ''
# (the script decides what it can draw without it; lab06.gp leaves out the
# panel); a lab with no recording at all stops the script.
#
# FIXTURES=DIR reads the CSVs from DIR instead (same file names). Every lab
# writes the course's one row format (common/rows.h; its header is
# tests/fixtures/rows-header.csv). A CSV whose header differs from the one
# the scripts were written for stops the script: the column numbers in
# slides/plots/*.gp would be wrong.
#
# LAYOUT_CHECK=1 draws them for tools/slides/slides-plot-layout.py instead: the
# border cyan and the keys' text magenta (slides/plots/screen.gp), so that
# the check finds the data area and the key in each image.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/slides/img}
fixtures=${FIXTURES:-$root/tests/fixtures}
machines=$root/tools/lib/machines.py # reads the one table that names the machines
# pick LAB COL=VALUE...: the path of lab LAB's first recording made on a
# machine with these columns (tools/lib/machines.py), or nothing, saying so.
pick() {
    local lab=$1 f
    shift
    f=$(FIXTURES=$fixtures python3 "$machines" recordings "$lab" "$@" | sed -n 1p)
    [ -n "$f" ] || echo "make-plots: lab $lab has no recording in $fixtures on a machine with $* yet; lab$lab.gp gets ''" >&2
    echo "$f"
}
# hardware FILE: "GPUS, LINK" of the machine a recording was made on, as its
# row of tests/fixtures/machines.tsv writes them.
# hardware FILE COL=VALUE: "GPUS, LINK" of the machine a recording was made
# on, as its row of tests/fixtures/machines.tsv writes them; with no FILE,
# those of the first machine with that column.
hardware() {
    local suffix
    if [ -n "$1" ]; then
        suffix=$(python3 "$machines" of "$1" | cut -f2)
    else
        suffix=$(python3 "$machines" suffixes "$2" | sed -n 1p)
    fi
    [ -n "$suffix" ] || exit 1
    echo "$(python3 "$machines" field "$suffix" gpus), $(python3 "$machines" field "$suffix" link)"
}
check=""
[ "${LAYOUT_CHECK:-0}" = 1 ] && check="layout_check=1; "

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "make-plots: gnuplot is missing (Debian: sudo apt-get install gnuplot-nox)" >&2
    exit 1
fi
if ! command -v dot >/dev/null 2>&1; then
    echo "make-plots: dot is missing (Debian: sudo apt-get install graphviz)" >&2
    exit 1
fi

# the labs with plots (a script labNN.gp each), and the header line their .gp scripts expect
labs=()
for gp in "$here"/lab[0-9][0-9].gp; do
    [ -e "$gp" ] || continue
    gp=$(basename "$gp" .gp)
    labs+=("${gp#lab}")
done
[ ${#labs[@]} -gt 0 ] || { echo "make-plots: no plot script $here/labNN.gp" >&2; exit 1; }
want="experiment,variant,route,src,dst,mode,bytes,count,reps,median_us,min_us,max_us,gbps,peak_gbps,verified,value,detail"

# more CSV CSV1 RECORDING...: gnuplot's words for the RECORDINGs that are neither CSV nor CSV1
# (a lab's recordings of the other machines of tests/fixtures/machines.tsv, in its order):
# more_n, their count, and for the Kth more_K (its path), more_hw_K (its machine) and
# more_gpus_K (its count of GPUs). A script that draws a line per machine draws these too.
more() {
    local csv=$1 csv1=$2 n=0 f suffix
    shift 2
    for f in "$@"; do
        [ "$f" = "$csv" ] || [ "$f" = "$csv1" ] && continue
        n=$((n + 1))
        suffix=$(python3 "$machines" of "$f" | cut -f2)
        printf "more_%d='%s'; more_hw_%d='%s'; more_gpus_%d=%s; " "$n" "$f" "$n" "$(hardware "$f")" \
            "$n" "$(python3 "$machines" field "$suffix" gpu_count)"
    done
    echo "more_n=$n; "
}

mkdir -p "$out"
for lab in "${labs[@]}"; do
    csv=$(pick "$lab" gpu_count=2)
    csv1=$(pick "$lab" gpu_count=1)
    [ -n "$csv" ] || [ -n "$csv1" ] || { echo "make-plots: lab $lab has no recording at all" >&2; exit 1; }
    hw=$(hardware "$csv" gpu_count=2)
    hw1=$(hardware "$csv1" gpu_count=1)
    mapfile -t all < <(FIXTURES=$fixtures python3 "$machines" recordings "$lab")
    others=$(more "$csv" "$csv1" "${all[@]}")
    for f in "${all[@]}"; do
        [ -n "$f" ] || continue
        got=$(head -n 1 "$f" | tr -d '\r')
        if [ "$got" != "$want" ]; then
            echo "make-plots: $f has the header" >&2
            echo "  $got" >&2
            echo "but slides/plots/lab$lab.gp was written for" >&2
            echo "  $want" >&2
            exit 1
        fi
    done
    gnuplot -e "${check}csv='$csv'; csv1='$csv1'; out='$out'; hw='$hw'; hw1='$hw1'; ${others}here='$here'" "$here/lab$lab.gp"
done
FIXTURES=$fixtures "$root/slides/diagrams/topology.py" >"$out/topology.dot"
dot -Tsvg -o "$out/topology.svg" "$out/topology.dot"
rm -f "$out/topology.dot"
for img in "$out"/lab[0-9][0-9]-*.png "$out/topology.svg"; do
    echo "make-plots: $img"
done
