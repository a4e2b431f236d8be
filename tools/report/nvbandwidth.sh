#!/usr/bin/env bash
# nvbandwidth.sh BINARY OUT.json: run nvbandwidth (github.com/NVIDIA/nvbandwidth,
# v0.8, built from its own README) on this machine's host-link testcases, the ones
# lab 05 measures the same way, and keep its JSON. tools/report/nvbandwidth_rows.py turns
# the JSON into rows that lab 05's report and tests set beside the lab's own.
set -u
if [ $# -ne 2 ]; then
    echo "usage: tools/report/nvbandwidth.sh BINARY OUT.json" >&2
    exit 2
fi
binary=$1 out=$2
if [ ! -x "$binary" ] || [ -d "$binary" ]; then
    echo "nvbandwidth.sh: '$binary' is not an executable (NVBANDWIDTH names nvbandwidth's binary)" >&2
    exit 2
fi
read -r -a testcases < <(python3 "$(dirname "$0")/nvbandwidth_rows.py" --testcases)
"$binary" -j -t "${testcases[@]}" >"$out" 2>"$out.err"
rc=$?
if [ $rc -ne 0 ]; then
    # What it printed goes with its stderr, so that no half-written JSON is taken for a run.
    cat "$out" >>"$out.err"
    rm -f "$out"
    echo "nvbandwidth.sh: $binary failed (exit $rc); see $out.err" >&2
    exit 1
fi
rm -f "$out.err"
