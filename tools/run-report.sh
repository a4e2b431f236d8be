#!/usr/bin/env bash
# run-report.sh: run every lab's reference solution on this machine and write
# the report under $BUILD/report/ (or $REPORT_DIR):
#   report.md          the machine, the P2P matrix, the bandwidth and latency
#                      plots, the atomics tables, the chapter's claims with
#                      this machine's verdicts, and each lab's full output
#   bandwidth.png      lab 05's bandwidth against size (where gnuplot is)
#   latency.png        lab 05's latencies (where gnuplot is)
#   claims.tsv         the ledger: claim, section, verdict, the chapter's
#                      words and what they say, measurement
#   NN-name.txt        each lab's output; 05-p2p-performance/ its CSV files
# A lab that skips (exit 77) is reported with its reason. The new report
# replaces the old one only once it is complete, so an interrupted run
# leaves the previous report as it was. Exits 1 only when a lab failed.
# REPORT_QUICK=1 (environment or make variable) runs the labs with --quick where they offer it.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
report_dir=${REPORT_DIR:-$build/report}
catalogue=tools/chapter-claims.tsv
work="$report_dir.tmp.$$"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
trap 'echo >&2; echo "run: interrupted; $report_dir is left as it was" >&2; exit 130' INT TERM

started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }

# block FILE REGEX: from the first line matching REGEX to the next blank line.
block() { awk -v re="$2" 'found && /^$/ { exit } $0 ~ re { found = 1 } found' "$1" 2>/dev/null; }

# verbatim: standard input as a fenced block (nothing when it is empty).
verbatim() {
    local text
    text=$(cat)
    [ -n "$text" ] || return 0
    printf '```text\n%s\n```\n\n' "$text"
}

# ------------------------------------------------------------------ the runs
failed=0
declare -A outcome seconds reason
labs=()
for program in "$build"/ref/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    labs+=("$lab")
    args=()
    # REPORT_QUICK=1: the labs' --quick runs (a short report, for the tests).
    [ "${REPORT_QUICK:-0}" = 1 ] && "$program" --help | grep -q -- '--quick' && args+=(--quick)
    case $lab in
        05-*) args+=(--out "$work/$lab" --progress) ;; # its CSV files feed the plots
    esac
    echo "[$(printf '%3d' "$(elapsed)")s] $lab ..."
    t0=$(date +%s)
    # stdout is the lab's report; stderr (progress, skip reasons, errors) is
    # shown here as it comes and kept beside it.
    "$program" "${args[@]}" 2>&1 >"$work/$lab.txt" | tee "$work/$lab.err" | sed -u 's/^/        /' >&2
    status=${PIPESTATUS[0]}
    seconds[$lab]=$(($(date +%s) - t0))
    case $status in
        0) outcome[$lab]="ok" ;;
        77) outcome[$lab]="skipped"
            reason[$lab]=$(cat "$work/$lab.txt" "$work/$lab.err" | grep -m1 'skipped: ' | sed 's/^.*skipped: //') ;;
        *) outcome[$lab]="FAILED (exit $status)"
            reason[$lab]="see $report_dir/$lab.txt and $lab.err"
            failed=1 ;;
    esac
    echo "[$(printf '%3d' "$(elapsed)")s] $lab: ${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}} (${seconds[$lab]}s)"
done

lab_of() { # NN: the lab's folder name, or nothing
    local lab
    for lab in "${labs[@]}"; do
        [ "${lab%%-*}" = "$1" ] && echo "$lab" && return
    done
}
output_of() { echo "$work/$(lab_of "$1").txt"; }
ran() { local lab; lab=$(lab_of "$1"); [ -n "$lab" ] && [ "${outcome[$lab]}" = ok ]; }
why_not() { # NN: one line on why lab NN has no results here
    local lab
    lab=$(lab_of "$1")
    if [ -z "$lab" ]; then
        echo "lab $1 is not built"
    else
        echo "lab $1 ${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}}"
    fi
}

# ----------------------------------------------------------------- the plots
# machine_name: the GPUs for the plots' titles, e.g. "2x NVIDIA H200".
machine_name() {
    nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
        awk '{ n = $1; sub(/^ *[0-9]+ /, ""); gsub(/\047/, ""); printf "%s%dx %s", sep, n, $0; sep = ", " }'
}
plots_note=""
lab05=$(lab_of 05)
if ! ran 05; then
    plots_note="No plots: $(why_not 05)."
elif ! command -v gnuplot >/dev/null 2>&1; then
    plots_note="No plots: gnuplot is not installed (Debian/Ubuntu: sudo apt-get install gnuplot-nox; then make run again)."
elif ! gnuplot -e "csv='$work/$lab05/lab05.csv'; out='$work'; machine='$(machine_name)'" \
    "solutions/$lab05/plots.gp" >"$work/plots.log" 2>&1; then
    plots_note="No plots: gnuplot failed (see $report_dir/plots.log)."
    failed=1
fi

# ---------------------------------------------------------------- the claims
# The ledger joins the chapter's words (tools/chapter-claims.tsv) with the
# `claim <id>: <verdict>: <measurement>` lines of this run; the report's
# table is drawn from the ledger alone.
catalogue_rows() { grep -v '^#' "$catalogue" | tail -n +2; } # without the header
measured="$work/measured.tsv"
for lab in "${labs[@]}"; do
    grep -E '^claim [a-z0-9_]+: ' "$work/$lab.txt" |
        sed -E 's/^claim ([a-z0-9_]+): ([a-z_]+): (.*)$/\1\t\2\t\3/'
done >"$measured"
ledger="$work/claims.tsv"
{
    # The measurement last: it is the one field that may be empty.
    printf 'id\tsection\tverdict\tchapter\tmeaning\tmeasured\n'
    while IFS=$'\t' read -r id lab section chapter meaning; do
        line=$(awk -F'\t' -v id="$id" '$1 == id { print; exit }' "$measured")
        if [ -n "$line" ]; then
            verdict=$(cut -f2 <<<"$line") detail=$(cut -f3- <<<"$line")
        else
            verdict=not_run detail="not measured: $(why_not "$lab")"
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$section" "$verdict" "$chapter" "$meaning" "$detail"
    done < <(catalogue_rows)
} >"$ledger"
# A claim line with an id the catalogue lacks is a defect of the course.
unknown=$(cut -f1 "$measured" | grep -vxF -f <(catalogue_rows | cut -f1) || true)
if [ -n "$unknown" ]; then
    echo "run: claims missing from $catalogue: $unknown" >&2
    failed=1
fi
count_verdict() { awk -F'\t' -v v="$1" 'NR > 1 && $3 == v' "$ledger" | wc -l; }

# ---------------------------------------------------------------- the report
md_cell() { sed -e 's/|/\\|/g'; } # a table cell may not hold a bare |
{
    echo "# P2P course report"
    echo
    echo "Written by \`make run\` on $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), in $(elapsed) s."
    echo
    echo "| lab | result | time |"
    echo "| --- | --- | --- |"
    for lab in "${labs[@]}"; do
        echo "| $lab | $(md_cell <<<"${outcome[$lab]}${reason[$lab]:+: ${reason[$lab]}}") | ${seconds[$lab]} s |"
    done
    echo
    echo "The chapter's claims: $(count_verdict holds) hold, $(count_verdict does_not_hold) do not hold," \
         "$(($(count_verdict not_testable) + $(count_verdict not_run))) cannot be tested on this machine" \
         "($(count_verdict not_run) of them because their lab did not run here;" \
         "[the ledger](#the-chapters-claims-on-this-machine) says why)."
    echo

    echo "## Machine"
    echo
    {
        if command -v nvidia-smi >/dev/null 2>&1; then
            nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total,pci.bus_id --format=csv 2>&1
            echo
            nvidia-smi topo -m 2>&1 | sed 's/\x1b\[[0-9;]*m//g' # without its terminal underlining
        else
            echo "nvidia-smi: not found (no NVIDIA driver)"
        fi
        echo
        echo "The CUDA runtime sees $("$build/tools/gpu-query" count 2>/dev/null || echo 0) GPU(s); nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found')."
    } | verbatim
    if ran 05; then
        echo "The links and their theoretical peaks (lab 05):"
        echo
        block "$(output_of 05)" '^== link:' | verbatim
    fi

    echo "## Which GPU can reach which (lab 01)"
    echo
    if ran 01; then
        { block "$(output_of 01)" '^cudaDeviceCanAccessPeer'; echo; block "$(output_of 01)" '^cudaDeviceGetP2PAttribute'; } | verbatim
    else
        echo "Not measured: $(why_not 01)."
        echo
    fi

    echo "## Bandwidth and latency (lab 05)"
    echo
    if [ -z "$plots_note" ]; then
        echo "![P2P bandwidth against transfer size](bandwidth.png)"
        echo
        echo "![P2P latencies](latency.png)"
        echo
    else
        echo "$plots_note"
        echo
    fi
    if ran 05; then
        block "$(output_of 05)" "^Chapter 4.4's table" | verbatim
        echo "Every size and pair: \`$lab05/lab05.csv\` and one CSV per experiment beside it."
        echo
    fi

    echo "## Cross-GPU atomics (lab 04)"
    echo
    if ran 04; then
        for heading in '^Link between' '^One counter' '^Histogram' '^Latency of one atomic'; do
            block "$(output_of 04)" "$heading"
            echo
        done | verbatim
    else
        echo "Not measured: $(why_not 04)."
        echo
    fi

    echo "## The chapter's claims on this machine"
    echo
    echo "Each claim of chapter 4 that a lab tests, in the chapter's words, with this run's verdict and measurement."
    echo "*cannot be tested here* means this machine lacks what the test needs; the last column says what."
    echo
    echo "| § | the chapter says | verdict | measured on this machine |"
    echo "| --- | --- | --- | --- |"
    while IFS=$'\t' read -r id section verdict chapter meaning detail; do
        case $verdict in
            holds) verdict="**holds**" ;;
            does_not_hold) verdict="**does not hold**" ;;
            not_testable | not_run) verdict="cannot be tested here" ;;
        esac
        printf '| %s | %s<br>*%s* (`%s`) | %s | %s |\n' "$section" \
            "$(md_cell <<<"$chapter")" "$(md_cell <<<"$meaning")" "$id" "$verdict" "$(md_cell <<<"$detail")"
    done < <(tail -n +2 "$ledger")
    echo

    echo "## Each lab's output"
    for lab in "${labs[@]}"; do
        echo
        echo "### $lab — ${outcome[$lab]} (${seconds[$lab]} s)"
        echo
        verbatim <"$work/$lab.txt"
        if [ -s "$work/$lab.err" ]; then
            echo "On stderr:"
            echo
            verbatim <"$work/$lab.err"
        fi
    done
} >"$work/report.md"
rm -f "$measured"

# Replace the old report only once the new one is complete.
rm -rf "$report_dir"
mv "$work" "$report_dir"
trap - EXIT INT TERM
echo "[$(printf '%3d' "$(elapsed)")s] report: $report_dir/report.md"
exit "$failed"
