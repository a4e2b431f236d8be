#!/usr/bin/env bash
# make-plots.sh [OUTDIR]: draw the slides' plots from the recorded runs.
#
# Reads tests/fixtures/labNN-run.csv (the --csv output of each lab's
# reference program, recorded on the machine named below) and writes the
# PNGs the decks show into OUTDIR (default: slides/img). Needs gnuplot;
# uses its pngcairo terminal where it has one, else png.
#
#   slides/plots/make-plots.sh                 # regenerate slides/img
#   slides/plots/make-plots.sh /tmp/plots      # somewhere else, to compare
#
# FIXTURES=DIR reads the CSVs from DIR instead (same file names). Every lab
# writes the course's one row format (common/rows.h; its header is
# tests/fixtures/rows-header.csv). A CSV whose header differs from the one
# the scripts were written for stops the script: the column numbers in
# slides/plots/*.gp would be wrong.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/slides/img}
fixtures=${FIXTURES:-$root/tests/fixtures}
hw="2x NVIDIA H200 (SXM), NVLink 4 x18"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "make-plots: gnuplot is missing (Debian: sudo apt-get install gnuplot-nox)" >&2
    exit 1
fi

# the labs with plots, and the header line their .gp scripts expect
labs=(02 03 04 05)
want="experiment,variant,route,src,dst,mode,bytes,count,reps,median_us,min_us,max_us,gbps,peak_gbps,verified,value,detail"

mkdir -p "$out"
for lab in "${labs[@]}"; do
    csv="$fixtures/lab$lab-run.csv"
    [ -r "$csv" ] || { echo "make-plots: $csv is missing" >&2; exit 1; }
    got=$(head -n 1 "$csv" | tr -d '\r')
    if [ "$got" != "$want" ]; then
        echo "make-plots: $csv has the header" >&2
        echo "  $got" >&2
        echo "but slides/plots/lab$lab.gp was written for" >&2
        echo "  $want" >&2
        exit 1
    fi
    gnuplot -e "csv='$csv'; out='$out'; hw='$hw'" "$here/lab$lab.gp"
done
for png in "$out"/lab0[2-5]-*.png; do
    echo "make-plots: $png"
done
