#!/usr/bin/env bash
# run-report.sh: run every lab's reference solution on this machine and write
# the report under $BUILD/report/: report.md, each lab's full output, and
# the ledger of the chapter's claims with this machine's verdicts.
# A lab that skips (exit 77) is reported with its reason; the script exits 1
# only when a lab failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
report_dir=${REPORT_DIR:-$build/report}
work="$report_dir.tmp.$$"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

failed=0
started=$(date +%s)
ledger="$work/claims.tsv"
: >"$ledger"

{
    echo "# P2P course report"
    echo
    echo "Written by \`make run\` on $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)."
    echo
    echo "## Machine"
    echo
    echo '```'
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total --format=csv 2>&1
        echo
        nvidia-smi topo -m 2>&1
    else
        echo "nvidia-smi: not found (no NVIDIA driver)"
    fi
    echo "CUDA runtime sees $("$build/tools/gpu-query" count 2>/dev/null) GPU(s)"
    echo '```'
} >"$work/report.md"

for program in "$build"/ref/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    printf '[%3ds] %-22s ' "$(($(date +%s) - started))" "$lab"
    t0=$(date +%s)
    "$program" >"$work/$lab.txt" 2>&1
    status=$?
    seconds=$(($(date +%s) - t0))
    case $status in
        0) result="ok"; echo "ok (${seconds}s)" ;;
        77) result="skipped: $(grep -m1 'skipped: ' "$work/$lab.txt" | sed 's/^.*skipped: //')"; echo "$result" ;;
        *) result="FAILED (exit $status)"; failed=1; echo "$result — see $report_dir/$lab.txt" ;;
    esac
    grep -E '^claim [a-z0-9_]+: ' "$work/$lab.txt" |
        sed -E "s/^claim ([a-z0-9_]+): ([a-z_]+): (.*)$/$lab\t\1\t\2\t\3/" >>"$ledger"
    {
        echo
        echo "## $lab — $result"
        echo
        echo '```'
        cat "$work/$lab.txt"
        echo '```'
    } >>"$work/report.md"
done

{
    echo
    echo "## The chapter's claims on this machine"
    echo
    if [ -s "$ledger" ]; then
        echo "| lab | claim | verdict | measured |"
        echo "| --- | --- | --- | --- |"
        awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$ledger"
    else
        echo "No lab ran here, so no claim could be tested (see the skip reasons above)."
    fi
} >>"$work/report.md"

# Replace the old report only once the new one is complete.
rm -rf "$report_dir"
mv "$work" "$report_dir"
trap - EXIT
echo "report: $report_dir/report.md ($(($(date +%s) - started))s)"
exit "$failed"
