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

# Test files run side by side (bats --jobs, through GNU parallel) where no GPU is visible:
# there the suite is CPU work, and each file keeps its tests in order. With a GPU they run one
# after another, so that no test times a GPU another file is using. TEST_JOBS=N says otherwise.
jobs=${TEST_JOBS:-}
if [ -z "$jobs" ]; then
    gpus=$("$build/tools/gpu-query" count 2>/dev/null) || gpus=0
    if [ "${gpus:-0}" -gt 0 ] 2>/dev/null; then jobs=1; else jobs=$(nproc 2>/dev/null || echo 1); fi
fi
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
    echo "run-bats: TEST_JOBS must be a number of jobs (1 or more), not '$jobs'" >&2
    exit 2
fi
parallel_args=()
if [ "$jobs" -gt 1 ] && [ "$#" -gt 1 ]; then
    if command -v parallel >/dev/null 2>&1; then
        parallel_args=(--jobs "$jobs" --no-parallelize-within-files)
    else
        echo "run-bats: GNU parallel is not installed, so the test files run one after another (sudo apt-get install parallel)" >&2
    fi
fi

bats --formatter tap "${parallel_args[@]}" "$@" | tee "$log"
status=${PIPESTATUS[0]}

awk '
    /^ok / && / # skip/ { skipped++; next }
    /^ok /              { passed++;  next }
    /^not ok /          { failed++;  next }
    END { printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped }
' "$log"
exit "$status"
