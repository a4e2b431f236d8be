#!/usr/bin/env bash
# make-plots.sh [OUTDIR]: draw the slides' plots and diagram from the
# recorded runs.
#
# Reads tests/fixtures/labNN-run.csv and labNN-run-1xh200.csv (the --csv
# output of each lab's reference program, recorded on the machines that
# tests/fixtures/machines.tsv names) and writes the PNGs the decks show into OUTDIR (default:
# slides/img), and topology.svg (slides/diagrams/topology.py, drawn by
# Graphviz). Needs gnuplot (its pngcairo terminal where it has one) and dot.
#
#   slides/plots/make-plots.sh                 # regenerate slides/img
#   slides/plots/make-plots.sh /tmp/plots      # somewhere else, to compare
#
# The labs drawn are those with a script slides/plots/labNN.gp: a new lab's
# plots need its script and nothing else here. A lab not recorded on one of
# the machines yet (no labNN-run.csv, say) hands its script that file as ''
# (the script decides what it can draw without it; lab06.gp leaves out the
# panel); a lab with no recording at all stops the script.
#
# FIXTURES=DIR reads the CSVs from DIR instead (same file names). Every lab
# writes the course's one row format (common/rows.h; its header is
# tests/fixtures/rows-header.csv). A CSV whose header differs from the one
# the scripts were written for stops the script: the column numbers in
# slides/plots/*.gp would be wrong.
#
# LAYOUT_CHECK=1 draws them for tools/slides-plot-layout.py instead: the
# border cyan and the keys' text magenta (slides/plots/screen.gp), so that
# the check finds the data area and the key in each image.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/slides/img}
fixtures=${FIXTURES:-$root/tests/fixtures}
# machine SUFFIX: "2× NVIDIA H200, NVLink 4 ×18", the hardware of the
# recordings labNN-SUFFIX.csv, from the one table that names the machines.
machine() {
    awk -F'\t' -v s="$1" '!/^#/ && $1 == s { print $2 ", " $3; found = 1 } END { exit !found }' \
        "$root/tests/fixtures/machines.tsv" || { echo "make-plots: tests/fixtures/machines.tsv has no machine '$1'" >&2; exit 1; }
}
hw=$(machine run)
hw1=$(machine run-1xh200)
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

mkdir -p "$out"
for lab in "${labs[@]}"; do
    csv="$fixtures/lab$lab-run.csv"
    csv1="$fixtures/lab$lab-run-1xh200.csv"
    [ -r "$csv" ] || [ -r "$csv1" ] || { echo "make-plots: lab $lab has no recording ($csv, $csv1)" >&2; exit 1; }
    [ -r "$csv" ] || { echo "make-plots: $csv is missing: no recording of lab $lab on $hw yet; lab$lab.gp gets csv=''" >&2; csv=""; }
    [ -r "$csv1" ] || { echo "make-plots: $csv1 is missing: no recording of lab $lab on $hw1 yet; lab$lab.gp gets csv1=''" >&2; csv1=""; }
    for f in "$csv" "$csv1"; do
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
    gnuplot -e "${check}csv='$csv'; csv1='$csv1'; out='$out'; hw='$hw'; hw1='$hw1'; here='$here'" "$here/lab$lab.gp"
done
FIXTURES=$fixtures "$root/slides/diagrams/topology.py" >"$out/topology.dot"
dot -Tsvg -o "$out/topology.svg" "$out/topology.dot"
rm -f "$out/topology.dot"
for img in "$out"/lab[0-9][0-9]-*.png "$out/topology.svg"; do
    echo "make-plots: $img"
done
