#!/usr/bin/env bash
# make-plots.sh [OUTDIR]: draw the slides' plots and diagram from the
# recorded runs.
#
# Reads every recording of each lab, tests/fixtures/labNN-SUFFIX.csv (the rows
# of each lab's reference program), in the order of tests/fixtures/machines.tsv,
# hands them all to the lab's script slides/plots/labNN.gp, and writes the
# PNGs the decks show into OUTDIR (default: slides/img), and topology.svg
# (slides/diagrams/topology.py, drawn by Graphviz). A machine is one row of the
# table: a new one's recordings show in every plot of their lab (a line or a
# panel of their own) and in the diagram, titled with its row. Needs gnuplot
# (its pngcairo terminal where it has one) and dot.
#
#   slides/plots/make-plots.sh                 # regenerate slides/img
#   slides/plots/make-plots.sh /tmp/plots      # somewhere else, to compare
#
# A script gets, as gnuplot variables: rec_n, the lab's count of recordings,
# and for the Kth (1..rec_n) rec_K (its path), and its machine's row as
# rec_gpus_K, rec_link_K, rec_kind_K (link_kind) and rec_count_K (gpu_count);
# slides/plots/screen.gp reads them (mfile(K), mgpus(K), ...).
#
# The labs drawn are those with a script slides/plots/labNN.gp: a new lab's
# plots need its script and nothing else here. A lab with no recording stops
# the script.
#
# The scripts read the rows' columns by name (set datafile columnheaders):
# every column a script names (column("NAME"), strcol("NAME"), using "NAME")
# must be in the header of each recording it is given, or this script stops
# naming the recording and the column; other columns may come and go.
#
# FIXTURES=DIR reads the CSVs from DIR instead (same file names); PLOTS=DIR
# runs the scripts labNN.gp and screen.gp of DIR instead (an edited copy).
#
# LAYOUT_CHECK=1 draws them for tools/slides/slides-plot-layout.py instead: the
# border cyan and the keys' text magenta (slides/plots/screen.gp), so that
# the check finds the data area and the key in each image.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/slides/img}
fixtures=${FIXTURES:-$root/tests/fixtures}
plots=$(cd "${PLOTS:-$here}" && pwd)
machines=$root/tools/lib/machines.py # reads the one table that names the machines
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

# the labs with plots (a script labNN.gp each)
labs=()
for gp in "$plots"/lab[0-9][0-9].gp; do
    [ -e "$gp" ] || continue
    gp=$(basename "$gp" .gp)
    labs+=("${gp#lab}")
done
[ ${#labs[@]} -gt 0 ] || { echo "make-plots: no plot script $plots/labNN.gp" >&2; exit 1; }

# recordings LINE...: gnuplot's words for a lab's recordings (rec_n, rec_K, rec_gpus_K, ...),
# each LINE a recording and its machine's columns as machines.py recordings --with=COLUMNS gives
COLUMNS=gpus,link,link_kind,gpu_count
recordings() {
    local n=0 line f gpus link kind count
    for line in "$@"; do
        n=$((n + 1))
        IFS=$'\t' read -r f gpus link kind count <<<"$line"
        case $gpus$link$kind$count in *"'"*)
            echo "make-plots: machines.tsv: the row of $f holds a ' (the plots quote its columns with ')" >&2
            return 1 ;;
        esac
        printf "rec_%d='%s'; " "$n" "$f"
        printf "rec_gpus_%d='%s'; rec_link_%d='%s'; rec_kind_%d='%s'; rec_count_%d=%d; " \
            "$n" "$gpus" "$n" "$link" "$n" "$kind" "$n" "$count"
    done
    echo "rec_n=$n; "
}

# named GP: the columns script GP reads by name, one a line
named() {
    grep -v '^[[:space:]]*#' "$1" | grep -oE '((column|strcol)\(|using |:)"[a-z_]+"' |
        sed -E 's/.*"([a-z_]+)"$/\1/' | sort -u
}

mkdir -p "$out"
case $out$fixtures$plots in *"'"*)
    echo "make-plots: a path with a ' in it: $out, $fixtures or $plots (gnuplot gets them in ')" >&2
    exit 1 ;;
esac
for lab in "${labs[@]}"; do
    mapfile -t all < <(FIXTURES=$fixtures python3 "$machines" recordings "$lab" --with=$COLUMNS)
    [ -n "${all[0]:-}" ] || { echo "make-plots: lab $lab has no recording in $fixtures" >&2; exit 1; }
    reads=$(named "$plots/lab$lab.gp")
    for line in "${all[@]}"; do
        f=${line%%$'\t'*}
        head=,$(head -n 1 "$f" | tr -d '\r'),
        for col in $reads; do
            [[ $head == *",$col,"* ]] && continue
            echo "make-plots: $f has no column '$col' (its header: ${head:1:${#head}-2});" \
                "slides/plots/lab$lab.gp reads it by that name" >&2
            exit 1
        done
    done
    words=$(recordings "${all[@]}")
    gnuplot -e "${check}out='$out'; here='$plots'; $words" "$plots/lab$lab.gp"
done
FIXTURES=$fixtures "$root/slides/diagrams/topology.py" >"$out/topology.dot"
dot -Tsvg -o "$out/topology.svg" "$out/topology.dot"
rm -f "$out/topology.dot"
for img in "$out"/lab[0-9][0-9]-*.png "$out/topology.svg"; do
    echo "make-plots: $img"
done
