#!/usr/bin/env bash
# run-report.sh: run every lab's reference program on this machine and build
# the report from the result files they write (never from printed text):
#   report.md       the machine, each lab's section (drawn by the lab's host
#                   tool from its rows), the plots, and the chapter's claims
#                   with this machine's verdicts
#   data/NN-*.csv   each lab's rows (lab_row CSV: the results are data)
#   claims.tsv      the ledger: claim, section, verdict, the chapter's words
#                   and what they say, measurement or reason
#   NN-*.txt/.err   each lab's table and its stderr; *.png the plots
# Labs are found from build/ref/bin (RUN_BUILD=student: build/student/bin); a lab's claims from labs/NN-*/claims.tsv,
# its plots from labs/NN-*/harness/plots.gp (gnuplot) where it has one. A
# lab that could not run here (exit 77) is reported once with its reason,
# and beside it what the course recorded elsewhere (tests/fixtures), named
# with that machine and date. The new report replaces the old one only once
# complete. Exits 1 only when a lab failed. REPORT_QUICK=1 runs --quick.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
report_dir=${REPORT_DIR:-$build/report}
work="$report_dir.tmp.$$"
rm -rf "$work"
mkdir -p "$work/data"
trap 'rm -rf "$work"' EXIT
trap 'echo >&2; echo "run: interrupted; $report_dir is left as it was" >&2; exit 130' INT TERM

started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
md_cell() { sed -e 's/|/\\|/g'; } # a table cell may not hold a bare |
verbatim() {
    local text
    text=$(cat)
    [ -n "$text" ] || return 0
    printf '```text\n%s\n```\n\n' "$text"
}
# rows FILE EXPERIMENT: the rows of one experiment, fields tab-separated.
rows() { awk -F, -v e="$2" 'NR > 1 && $1 == e { gsub(/,/, "\t"); print }' "$1"; }
# machine_of FILE: "2x NVIDIA H200, 2026-12-01" from a result file's machine rows.
machine_of() {
    awk -F, 'NR > 1 && $1 == "machine" && $2 == "gpu" { n[$16]++ }
             NR > 1 && $1 == "machine" && $2 == "date" { d = $16 }
             END { for (g in n) { printf "%s%dx %s", s, n[g], g; s = ", " }
                   if (!s) printf "no GPU"; printf ", %s", d }' "$1"
}

# ------------------------------------------------------------------ the runs
failed=0
declare -A outcome seconds reason
labs=()
default_build=ref; [ -d solutions ] || default_build=student # a student tree has no reference
variant=${RUN_BUILD:-$default_build} # ref: the reference solutions; student: the student's build
for program in "$build/$variant"/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    labs+=("$lab")
    args=(--out "$work/data" --progress)
    [ "${REPORT_QUICK:-0}" = 1 ] && args+=(--quick)
    echo "[$(printf '%3d' "$(elapsed)")s] $lab ..."
    t0=$(date +%s)
    "$program" "${args[@]}" 2>&1 >"$work/$lab.txt" | tee "$work/$lab.err" | sed -u 's/^/        /' >&2
    status=${PIPESTATUS[0]}
    seconds[$lab]=$(($(date +%s) - t0))
    case $status in
        0) outcome[$lab]="ok" ;;
        77) outcome[$lab]="skipped"
            reason[$lab]=$(grep -h -m1 'skipped: ' "$work/$lab.txt" | sed 's/^.*skipped: //') ;;
        *) outcome[$lab]="FAILED (exit $status)"
           reason[$lab]="see $report_dir/$lab.txt and $lab.err"
           failed=1 ;;
    esac
    if [ ! -s "$work/data/$lab.csv" ]; then
        outcome[$lab]="FAILED (no result file)"
        failed=1
    fi
    echo "[$(printf '%3d' "$(elapsed)")s] $lab: ${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}} (${seconds[$lab]}s)"
done

# The GPUs' names for plot titles, e.g. "2x NVIDIA H200".
here=""
[ ${#labs[@]} -gt 0 ] && here=$(machine_of "$work/data/${labs[0]}.csv")

# ----------------------------------------------------------------- the plots
# plot LAB CSV TAG: run the lab's plot script on CSV; prints the images made.
plot() {
    local lab=$1 csv=$2 tag=$3 script="labs/$1/harness/plots.gp" before
    [ -f "$script" ] || return 0
    if ! command -v gnuplot >/dev/null 2>&1; then
        echo "No plots: gnuplot is not installed (Debian/Ubuntu: sudo apt-get install gnuplot-nox; then make run again)." >"$work/$lab.plots"
        return 0
    fi
    mkdir -p "$work/plots-$tag"
    if ! gnuplot -e "csv='$csv'; out='$work/plots-$tag'; machine='$(machine_of "$csv" | sed "s/'//g")'" \
        "$script" >"$work/$lab.plots.log" 2>&1; then
        echo "No plots: gnuplot failed (see $report_dir/$lab.plots.log)." >"$work/$lab.plots"
        failed=1
        return 0
    fi
    for before in "$work/plots-$tag"/*.png; do
        [ -f "$before" ] || continue
        mv "$before" "$work/$lab-$tag-$(basename "$before")"
        echo "![$lab: $(basename "$before" .png)]($lab-$tag-$(basename "$before"))"
    done >"$work/$lab.plots"
    rmdir "$work/plots-$tag" 2>/dev/null
}

# ---------------------------------------------------------------- the claims
ledger="$work/claims.tsv"
printf 'id\tlab\tsection\tverdict\tchapter\tmeaning\tmeasured\n' >"$ledger"
for lab in "${labs[@]}"; do
    catalogue="labs/$lab/claims.tsv"
    [ -f "$catalogue" ] || continue
    while IFS=$'\t' read -r id section chapter meaning; do
        line=$(awk -F, -v id="$id" 'NR > 1 && $1 == "claim" && $2 == id { print $16 "\t" $17; exit }' \
            "$work/data/$lab.csv")
        if [ "${outcome[$lab]}" = skipped ]; then
            printf '%s\t%s\t%s\tuntested\t%s\t%s\t%s\n' "$id" "$lab" "$section" "$chapter" \
                "$meaning" "lab ${lab%%-*} could not run here (see the table at the top)"
        elif [ -n "$line" ]; then
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$lab" "$section" "${line%%$'\t'*}" \
                "$chapter" "$meaning" "${line#*$'\t'}"
        else
            printf '%s\t%s\t%s\tuntested\t%s\t%s\t%s\n' "$id" "$lab" "$section" "$chapter" \
                "$meaning" "not measured: $lab ${outcome[$lab]}"
        fi
    done < <(grep -v '^#' "$catalogue" | tail -n +2)
done >>"$ledger"
count_verdict() { awk -F'\t' -v v="$1" 'NR > 1 && $4 == v' "$ledger" | wc -l; }
verdict_words() {
    case $1 in holds) echo "**holds**" ;; does_not_hold) echo "**does not hold**" ;;
        *) echo "cannot be tested here" ;; esac
}

# ------------------------------------------------------------- lab sections
lab_section() {
    local lab=$1 csv="$work/data/$1.csv" tool="$build/host/$1" fixture
    fixture=$(ls tests/fixtures/lab"${lab%%-*}"-run.csv 2>/dev/null)
    echo "## $lab"
    echo
    if [ "${outcome[$lab]}" = skipped ]; then
        echo "Could not run here (the table at the top says why)."
    else
        echo "Result: ${outcome[$lab]} (${seconds[$lab]} s; rows: \`data/$lab.csv\`)."
    fi
    echo
    if [ "${outcome[$lab]}" = ok ] && [ -x "$tool" ]; then
        "$tool" report "$csv"
        echo
        plot "$lab" "$csv" here
    elif [ -n "$fixture" ] && [ -x "$tool" ]; then
        echo "Not measured here. What the course recorded on $(machine_of "$fixture") (\`$fixture\`):"
        echo
        "$tool" report "$fixture"
        echo
        plot "$lab" "$(pwd)/$fixture" recorded
    fi
    [ -f "$work/$lab.plots" ] && { cat "$work/$lab.plots"; echo; }
    return 0
}

{
    echo "# P2P course report"
    echo
    echo "Written by \`make run\` on $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname) ($here)."
    echo
    echo "| lab | result | time |"
    echo "| --- | --- | --- |"
    for lab in "${labs[@]}"; do
        echo "| $lab | $(md_cell <<<"${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}}") | ${seconds[$lab]} s |"
    done
    echo
    echo "The chapter's claims: $(count_verdict holds) hold, $(count_verdict does_not_hold) do not hold," \
         "$(count_verdict untested) cannot be tested on this machine" \
         "([the ledger](#the-chapters-claims-on-this-machine) says why)."
    echo
    echo "## Machine"
    echo
    {
        if command -v nvidia-smi >/dev/null 2>&1; then
            nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total,pci.bus_id --format=csv 2>&1
            echo
            nvidia-smi topo -m 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
        else
            echo "nvidia-smi: not found (no NVIDIA driver)"
        fi
        echo
        echo "nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found')."
    } | verbatim
    for lab in "${labs[@]}"; do
        lab_section "$lab"
    done
    echo "## The chapter's claims on this machine"
    echo
    echo "Each claim of chapter 4 that a lab tests, in the chapter's words, with this run's verdict and"
    echo "the measurement; *cannot be tested here* says what this machine lacks."
    echo
    echo "| § | the chapter says | verdict | measured on this machine |"
    echo "| --- | --- | --- | --- |"
    while IFS=$'\t' read -r id lab section verdict chapter meaning detail; do
        printf '| %s | %s<br>*%s* (`%s`) | %s | %s |\n' "$section" "$(md_cell <<<"$chapter")" \
            "$(md_cell <<<"$meaning")" "$id" "$(verdict_words "$verdict")" "$(md_cell <<<"$detail")"
    done < <(tail -n +2 "$ledger")
    echo
} >"$work/report.md"

rm -rf "$report_dir"
mv "$work" "$report_dir"
trap - EXIT INT TERM
echo "[$(printf '%3d' "$(elapsed)")s] report: $report_dir/report.md"
exit "$failed"
