#!/usr/bin/env bash
# rejudge.sh FIXTURE...: after a lab's verdict code changes, replace the claim
# rows of a recorded run with the ones its host tool computes from the same
# measured rows (the measurements are kept as recorded). Each file's lab comes
# from its name (labNN-SUFFIX.csv, SUFFIX a machine of tests/fixtures/machines.tsv);
# the host tools must be built (make host).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
[ $# -gt 0 ] || { echo "usage: tools/report/rejudge.sh tests/fixtures/labNN-SUFFIX.csv..." >&2; exit 2; }
for file in "$@"; do
    case $file in *.csv) ;; *) echo "rejudge: $file: not a recording (labNN-SUFFIX.csv)" >&2; exit 2 ;; esac
    of=$(python3 tools/lib/machines.py of "$file") || { echo "rejudge: $file: not a recording of a machine of tests/fixtures/machines.tsv" >&2; exit 2; }
    lab=${of%%$'\t'*}
    tool=$(ls "$build"/host/"$lab"-* 2>/dev/null | head -n 1)
    [ -x "$tool" ] || { echo "rejudge: no host tool for lab $lab in $build/host (run make)" >&2; exit 1; }
    verdicts=$("$tool" verdicts "$file" | tail -n +2)
    tmp=$(mktemp)
    # The new claim rows go where the old ones were (or at the end).
    awk -v verdicts="$verdicts" '
        /^claim,/ { if (!done) { print verdicts; done = 1 } next }
        { print }
        END { if (!done) print verdicts }' "$file" >"$tmp"
    mv "$tmp" "$file"
    echo "rejudge: $file: $(grep -c '^claim,' "$file") claims"
done
