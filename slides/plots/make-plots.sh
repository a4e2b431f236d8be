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
# FIXTURES=DIR reads the CSVs from DIR instead (same file names). A CSV
# whose header differs from the one the scripts were written for stops the
# script: the column numbers in slides/plots/*.gp would be wrong.
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

# lab, the header line its .gp script expects
headers=(
    "02 section,case,method,peer,src_gpu,dst_gpu,current_gpu,bytes,src_offset,dst_offset,reps,median_ms,min_ms,max_ms,gbps,verified,untouched,expected,got,waited,verdict"
    "03 section,variant,bytes,stride,reps,median_ms,min_ms,max_ms,gbps,verified,value"
    "04 section,name,writers,target,scope,expected,count,exact,defined,peer_ops,atomics,reps,median_ms,min_ms,max_ms,per_s,ns_per_op,speedup,value"
    "05 experiment,variant,src,dst,mode,peer,bytes,ops,samples,median_us,min_us,max_us,gbps,gbps_min,gbps_max,peak_gbps,pct_peak,gated,verified,value,detail"
)

mkdir -p "$out"
for entry in "${headers[@]}"; do
    lab=${entry%% *}
    want=${entry#* }
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
