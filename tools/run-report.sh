#!/usr/bin/env bash
# run-report.sh: run every lab's reference program on this machine and build
# the report from the result files they write (never from printed text):
#   report.md       the machine, each lab's section (drawn by the lab's host
#                   tool from its rows), the plots, and the chapter's claims
#                   with this machine's verdicts
#   data/NN-*.csv   each lab's rows (lab_row CSV: the results are data)
#   claims.tsv      the ledger: claim, section, verdict, the chapter's words
#                   and what they say, measurement or reason
#   recorded.tsv    for the labs that did not run here: each claim's verdict
#                   in each recording of the course (recording, hardware,
#                   claim, lab, verdict, measurement), recomputed from
#                   tests/fixtures by the lab's host tool
#   NN-*.txt/.err   each lab's table and its stderr; *.png the plots
# Labs are found from build/ref/bin (RUN_BUILD=student: build/student/bin); a lab's claims from labs/NN-*/claims.tsv,
# its plots from labs/NN-*/harness/plots.gp (gnuplot) where it has one. A
# reason for not running shared by several labs is said once, at the top.
# Beside a lab that did not run here stands what the course recorded
# elsewhere (tests/fixtures/labNN-run*.csv: every recording), named with
# that recording's hardware. The new report replaces the old one only once
# complete. Exits 1 only when a lab failed. REPORT_QUICK=1 runs --quick.
# NVBANDWIDTH=PATH (nvbandwidth's binary) runs nvbandwidth's host-link
# testcases before the labs and after them (data/nvbandwidth-*.json); their
# rows (data/nvbandwidth.csv) stand beside the labs' in each lab's report
# section that knows them. A recording's own nvbandwidth runs
# (labNN-run*.nvbandwidth-*.json beside it) stand beside it likewise.
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
# gpus_of FILE: "2x NVIDIA H200" (or "no GPU") from a result file's machine rows.
gpus_of() {
    awk -F, 'NR > 1 && $1 == "machine" && $2 == "gpu" { n[$16]++ }
             END { for (g in n) { printf "%s%dx %s", s, n[g], g; s = ", " }
                   if (!s) printf "no GPU" }' "$1"
}
# date_of FILE: the day of the run, empty when the file has no date row.
date_of() { awk -F, '$1 == "machine" && $2 == "date" { print $16; exit }' "$1"; }
# machine_of FILE: "2x NVIDIA H200, 2026-12-01"; a missing date is left out.
machine_of() {
    local date
    date=$(date_of "$1")
    echo "$(gpus_of "$1")${date:+, $date}"
}
# link_of FILE: the links of the machine a recording was made on, e.g.
# "NVLink 4 x18 between the GPUs", from the link rows of any of that
# machine's recordings (tests/fixtures/labNN-SUFFIX.csv: one machine per
# SUFFIX; lab 05 is the lab that writes link rows). Empty when none has any.
link_of() {
    local suffix
    suffix=$(basename "$1" .csv)
    [[ $suffix == lab[0-9][0-9]-run* ]] || return 0 # not one of the course's recordings
    suffix=${suffix#lab[0-9][0-9]-}
    awk -F, '$1 == "link" && $2 == "path" && $16 == "nvlink" { nv = 1 }
             $1 == "link" && $2 == "nvlink_gen" && $4 == 0 && $16 > 0 { gen = " " $16 }
             $1 == "link" && $2 == "nvlinks" && links == "" { links = " x" $16 }
             $1 == "link" && $2 == "pcie_gen" && $4 == 0 { pcie = "PCIe gen " $16 }
             $1 == "link" && $2 == "pcie_width" && $4 == 0 { width = " x" $16 }
             END { if (nv) printf "NVLink%s%s between the GPUs", gen, links
                   else if (pcie != "") printf "%s%s to the host", pcie, width }' \
        "$(dirname "$1")"/lab[0-9][0-9]-"$suffix".csv
}
# hardware_of FILE: "2x NVIDIA H200 (NVLink 4 x18 between the GPUs)".
hardware_of() {
    local link
    link=$(link_of "$1")
    echo "$(gpus_of "$1")${link:+ ($link)}"
}
# recorded_on FILE: the hardware and, where the file has one, the date.
recorded_on() {
    local date
    date=$(date_of "$1")
    echo "$(hardware_of "$1")${date:+, $date}"
}
# as_recorded: a recording's own text, where "this machine" was the recording's machine,
# said as "that machine" under a heading that names it (this report's machine is another).
as_recorded() { sed -e "s/this machine/that machine/g" -e "s/This machine/That machine/g"; }
# recordings LAB: the course's recordings of a lab, the main one first.
recordings() {
    local n=${1%%-*} f
    for f in tests/fixtures/lab"$n"-run.csv tests/fixtures/lab"$n"-run-*.csv; do
        [ -f "$f" ] && echo "$f"
    done
}

# beside_rows CSV [RUN.json ...]: the rows of these nvbandwidth runs
# (tools/nvbandwidth_rows.py) into CSV. Exit 2 when there is no run; 1, with the
# reason on stderr, when they cannot be read.
beside_rows() {
    local csv=$1
    shift
    [ $# -gt 0 ] || return 2
    python3 tools/nvbandwidth_rows.py "$@" >"$csv" && return 0
    rm -f "$csv"
    return 1
}
# nvbandwidth_note WHAT WHY: a line at the top of the report ("its run before the labs
# failed: ..."), with WHY's first line, its paths those of the finished report.
nvbandwidth_notes=()
nvbandwidth_note() {
    local why=${2%%$'\n'*}
    nvbandwidth_notes+=("$1: ${why//"$work"/$report_dir}")
}
# nvbandwidth_run TAG: nvbandwidth on this machine now, when NVBANDWIDTH is set. A failed
# run is said at the top of the report and fails no lab: on a machine the labs cannot
# run on, nvbandwidth cannot either.
nvbandwidth_run() {
    [ -n "${NVBANDWIDTH:-}" ] || return 0
    local why
    echo "[$(printf '%3d' "$(elapsed)")s] nvbandwidth ($1 the labs) ..."
    why=$(tools/nvbandwidth.sh "$NVBANDWIDTH" "$work/data/nvbandwidth-$1.json" 2>&1) && return 0
    echo "$why" >&2
    nvbandwidth_note "its run $1 the labs failed" "$why"
}

# ------------------------------------------------------------------ the runs
failed=0
nvbandwidth_run before
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

nvbandwidth_run after
beside_here=() # the rows set beside this run's in each lab's report section
shopt -s nullglob
runs_here=("$work"/data/nvbandwidth-*.json)
shopt -u nullglob
if why=$(beside_rows "$work/data/nvbandwidth.csv" "${runs_here[@]}" 2>&1); then
    beside_here=("$work/data/nvbandwidth.csv")
elif [ $? -eq 1 ]; then
    echo "$why" >&2
    nvbandwidth_note "its output cannot be read" "$why"
fi

# The GPUs' names for plot titles, e.g. "2x NVIDIA H200".
here=""
[ ${#labs[@]} -gt 0 ] && here=$(gpus_of "$work/data/${labs[0]}.csv")

# ----------------------------------------------------------------- the plots
# plot LAB CSV TAG MACHINE: run the lab's plot script on CSV (titles naming
# MACHINE); prints the images' Markdown, or why there are none.
plot() {
    local lab=$1 csv=$2 tag=$3 machine=$4 script="labs/$1/harness/plots.gp" made
    [ -f "$script" ] || return 0
    if ! command -v gnuplot >/dev/null 2>&1; then
        echo "No plots: gnuplot is not installed (Debian/Ubuntu: sudo apt-get install gnuplot-nox; then make run again)."
        echo
        return 0
    fi
    mkdir -p "$work/plots-$tag"
    if ! gnuplot -e "csv='$csv'; out='$work/plots-$tag'; machine='${machine//\'/}'" \
        "$script" >"$work/$lab-$tag.plots.log" 2>&1; then
        echo "No plots: gnuplot failed (see $report_dir/$lab-$tag.plots.log)."
        echo
        failed=1
        return 0
    fi
    for made in "$work/plots-$tag"/*.png; do
        [ -f "$made" ] || continue
        mv "$made" "$work/$lab-$tag-$(basename "$made")"
        echo "![$lab: $(basename "$made" .png), $machine]($lab-$tag-$(basename "$made"))"
    done
    echo
    rmdir "$work/plots-$tag" 2>/dev/null
}
# routes_of FILE: the routes a result file has measurements for ("host, loopback").
routes_of() {
    awk -F, 'NR > 1 && $3 != "" && $10 != "" && !seen[$3]++ { printf "%s%s", s, $3; s = ", " }' "$1"
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
                "$meaning" "lab ${lab%%-*} did not run here"
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

# What the course recorded, for each lab that did not run here: the verdicts
# of every recording, recomputed by the lab's host tool from its rows.
recorded="$work/recorded.tsv"
printf 'recording\thardware\tid\tlab\tverdict\tmeasured\n' >"$recorded"
for lab in "${labs[@]}"; do
    [ "${outcome[$lab]}" = ok ] && continue
    [ -x "$build/host/$lab" ] || continue
    while read -r fixture; do
        hardware=$(hardware_of "$fixture")
        "$build/host/$lab" verdicts "$fixture" 2>>"$work/$lab.verdicts.err" | as_recorded |
            awk -F, -v OFS='\t' -v rec="$fixture" -v hw="$hardware" -v lab="$lab" \
                '$1 == "claim" { print rec, hw, $2, lab, $16, $17 }'
    done < <(recordings "$lab")
    [ -s "$work/$lab.verdicts.err" ] || rm -f "$work/$lab.verdicts.err"
done >>"$recorded"
have_recorded=no # whether any lab's claims come from the recordings
[ "$(wc -l <"$recorded")" -gt 1 ] && have_recorded=yes
# recorded_counts: "- on HARDWARE: 12 hold, 7 do not hold, 13 cannot be tested there", a line each.
recorded_counts() {
    awk -F'\t' 'NR > 1 { if (!($2 in n)) order[++k] = $2; n[$2]++; c[$2, $5]++ }
                 END { for (i = 1; i <= k; i++) {
                           h = order[i]
                           printf "- on %s: %d hold, %d do not hold, %d cannot be tested there\n", \
                               h, c[h, "holds"], c[h, "does_not_hold"], c[h, "untested"] } }' "$recorded"
}
# recorded_cell ID: the verdicts the recordings give claim ID, one line each.
recorded_cell() {
    awk -F'\t' -v id="$1" 'NR > 1 && $3 == id {
            v = $5 == "holds" ? "**holds**" : $5 == "does_not_hold" ? "**does not hold**" : "cannot be tested there"
            printf "%srecorded on %s: %s — %s", s, $2, v, $6; s = "<br>" }' "$recorded"
}
verdict_words() {
    case $1 in holds) echo "**holds**" ;; does_not_hold) echo "**does not hold**" ;;
        *) echo "cannot be tested here" ;; esac
}

# ------------------------------------------------------------- lab sections
lab_section() {
    local lab=$1 csv="$work/data/$1.csv" tool="$build/host/$1" fixture tag beside runs origin
    echo "## $lab"
    echo
    if [ "${outcome[$lab]}" = ok ]; then
        echo "Result: ok (${seconds[$lab]} s; rows: \`data/$lab.csv\`)."
        echo
        if [ -x "$tool" ]; then
            "$tool" report "$csv" "${beside_here[@]}"
            echo
            plot "$lab" "$csv" here "$here"
        fi
        return 0
    fi
    [ "${outcome[$lab]}" = skipped ] || { echo "Result: ${outcome[$lab]} (${seconds[$lab]} s)."; echo; }
    [ -x "$tool" ] || return 0
    while read -r fixture; do
        tag=$(basename "$fixture" .csv)
        tag=${tag#lab[0-9][0-9]-}
        echo "### Recorded on $(recorded_on "$fixture") (not here)"
        echo
        # A recording converted from an earlier program's output says so, and what it leaves untested.
        origin=$(python3 tools/converted.py "$fixture") ||
            { echo "run-report: tools/converted.py cannot say where $fixture came from" >&2; origin=; }
        [ -z "$origin" ] || printf '%s\n\n' "$origin"
        echo "From \`$fixture\`, drawn by the lab's host tool:"
        echo
        beside=()
        mapfile -t runs < <(python3 tools/nvbandwidth_rows.py --runs-beside "$fixture" ||
            echo "run-report: the nvbandwidth runs beside $fixture cannot be listed" >&2)
        beside_rows "$work/$lab-$tag.beside.csv" "${runs[@]}" &&
            beside=("$work/$lab-$tag.beside.csv")
        "$tool" report "$fixture" "${beside[@]}" | as_recorded |
            sed 's/^### /#### /' # under this recording's heading
        echo
        if [ -f "labs/$lab/harness/plots.gp" ]; then
            echo "This recording has rows for the routes $(routes_of "$fixture") only: the plots show" \
                 "those, and the series of any other route are left out."
            echo
        fi
        plot "$lab" "$(pwd)/$fixture" "$tag" "$(machine_of "$fixture")"
    done < <(recordings "$lab")
    return 0
}

# not_run_sentences: one sentence per reason for not running, naming its labs
# ("No lab can run on this machine: ..." when all share it).
not_run_sentences() {
    local lab text names
    declare -A by_reason
    local order=()
    for lab in "${labs[@]}"; do
        [ "${outcome[$lab]}" = skipped ] || continue
        text=${reason[$lab]:-no reason given}
        [ -n "${by_reason[$text]:-}" ] || order+=("$text")
        by_reason[$text]+=" ${lab%%-*}"
    done
    for text in "${order[@]}"; do
        names=${by_reason[$text]# }
        if [ "$(wc -w <<<"$names")" -eq "${#labs[@]}" ]; then
            echo "**No lab can run on this machine**: $text."
        elif [ "$(wc -w <<<"$names")" -eq 1 ]; then
            echo "**Lab $names cannot run on this machine**: $text."
        else
            echo "**Labs ${names// /, } cannot run on this machine**: $text."
        fi
        echo
    done
}

{
    echo "# P2P course report"
    echo
    echo "Written by \`make run\` on $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname) ($here)."
    echo
    not_run_sentences
    for note in "${nvbandwidth_notes[@]}"; do
        printf '**nvbandwidth** (`%s`): %s.\n\n' "$NVBANDWIDTH" "$(md_cell <<<"${note%.}")"
    done
    echo "| lab | result | time |"
    echo "| --- | --- | --- |"
    for lab in "${labs[@]}"; do
        if [ "${outcome[$lab]}" = skipped ]; then
            echo "| $lab | skipped (said above) | ${seconds[$lab]} s |"
        else
            echo "| $lab | $(md_cell <<<"${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}}") | ${seconds[$lab]} s |"
        fi
    done
    echo
    ledger_says="says why"
    [ "$have_recorded" = yes ] && ledger_says="has each claim, with the recordings' verdicts"
    echo "The chapter's claims on this machine: $(count_verdict holds) hold, $(count_verdict does_not_hold) do not hold," \
         "$(count_verdict untested) cannot be tested here" \
         "([the ledger](#the-chapters-claims-on-this-machine) $ledger_says)."
    echo
    if [ "$have_recorded" = yes ]; then
        echo "Not measured here: what the course recorded elsewhere for the" \
             "$(cut -f3 "$recorded" | tail -n +2 | sort -u | wc -l) claims of the labs that did not run here" \
             "(verdicts recomputed from tests/fixtures by each lab's host tool):"
        echo
        recorded_counts
        echo
    fi
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
    last_header="measured on this machine"
    if [ "$have_recorded" = yes ]; then
        echo "For a lab that did not run here (the top says why), the last column gives instead what each"
        echo "of the course's recordings says, named with its hardware: not a measurement of this machine."
        last_header="measured on this machine, or what the course recorded"
    fi
    echo
    echo "| § | the chapter says | verdict | $last_header |"
    echo "| --- | --- | --- | --- |"
    while IFS=$'\t' read -r id lab section verdict chapter meaning detail; do
        recorded_here=""
        [ "${outcome[$lab]}" = ok ] || recorded_here=$(recorded_cell "$id")
        # A lab not recorded yet (a new lab) says so instead.
        [ "${outcome[$lab]}" = ok ] || [ -n "$recorded_here" ] || [ -n "$(recordings "$lab")" ] ||
            recorded_here="no recording of this lab yet"
        if [ -n "$recorded_here" ] && [ "${outcome[$lab]}" = skipped ]; then
            detail=$recorded_here # why it did not run is said at the top
        elif [ -n "$recorded_here" ]; then
            detail="$detail<br>$recorded_here"
        fi
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
