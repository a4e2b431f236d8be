#!/usr/bin/env bash
# run-bats.sh FILE.bats...: run Bats with TAP output, keep the log under
# $BUILD/test-logs/, and end with one line "N passed, N failed, N skipped".
# The exit status is Bats' own: non-zero when any test failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
mkdir -p "$build/test-logs"
# TAP_LOG=FILE keeps the log there (make check reads it for its summary).
log=${TAP_LOG:-$build/test-logs/bats-$(date +%Y%m%d-%H%M%S)-$$.tap}
mkdir -p "$(dirname "$log")"

if ! command -v bats >/dev/null 2>&1; then
    echo "bats is not installed: run 'make deps' (or: sudo apt-get install bats bats-support bats-assert bats-file)" >&2
    exit 1
fi

bats --formatter tap "$@" | tee "$log"
status=${PIPESTATUS[0]}

awk '
    /^ok / && / # skip/ { skipped++; next }
    /^ok /              { passed++;  next }
    /^not ok /          { failed++;  next }
    END { printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped }
' "$log"
exit "$status"
