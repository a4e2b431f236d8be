#!/usr/bin/env bash
# sanitize.sh: run every reference solution under compute-sanitizer's four
# tools — memcheck (with leak checking), racecheck, initcheck, synccheck —
# and require zero reports. Programs that offer --quick run with it (the
# sanitizers slow kernels down a lot). Logs go to $BUILD/sanitize/.
# Needs GPUs: without them it says so and exits 1. A run that takes longer
# than SANITIZE_TIMEOUT seconds (default 300) is stopped and counts as failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out="$build/sanitize"
nvcc=${NVCC:-nvcc}
sanitizer=$(command -v compute-sanitizer ||
            ls "$(dirname "$(command -v "$nvcc" 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/compute-sanitizer" 2>/dev/null)
if [ -z "$sanitizer" ]; then
    echo "sanitize: compute-sanitizer not found (it comes with the CUDA toolkit, next to nvcc)" >&2
    exit 1
fi
gpus=$("$build/tools/gpu-query" count 2>/dev/null || echo 0)
if [ "${gpus:-0}" -lt 2 ]; then
    echo "sanitize: the labs need 2 GPUs to run under the sanitizers; this machine has ${gpus:-0}" >&2
    exit 1
fi
mkdir -p "$out"
tools=("memcheck --leak-check full" "racecheck" "initcheck" "synccheck")
limit=${SANITIZE_TIMEOUT:-300}
bad=0 runs=0

# sanitize_one PROGRAM TOOL ARGS...: one run; its exit status in LOG.status.
sanitize_one() {
    local program=$1 tool=$2 log=$3
    shift 3
    # shellcheck disable=SC2086 # the tool string holds its own options
    timeout "$limit" "$sanitizer" --tool $tool --error-exitcode 99 "$program" "$@" >"$log" 2>&1
    echo $? >"$log.status"
}

for program in "$build"/ref/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    args=()
    help=$("$program" --help)
    grep -q -- '--quick' <<<"$help" && args+=(--quick)
    # Lab 03's demonstration faults on purpose in a child process: a
    # sanitizer following the child would rightly report it.
    grep -q -- '--no-fault-demo' <<<"$help" && args+=(--no-fault-demo)
    # The four tools on one program at once: they only slow each other down.
    for tool in "${tools[@]}"; do
        # Lab 01 provokes API errors on purpose (flags=1, enabling and
        # disabling twice): that is its experiment, so memcheck does not
        # report API errors there; every memory check stays on.
        case $lab:$tool in
            01-*:memcheck*) tool="$tool --report-api-errors no" ;;
        esac
        sanitize_one "$program" "$tool" "$out/$lab.${tool%% *}.log" "${args[@]}" &
    done
    wait
    for tool in "${tools[@]}"; do
        name=${tool%% *}
        log="$out/$lab.$name.log"
        status=$(cat "$log.status")
        runs=$((runs + 1))
        summary=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$log" | sed 's/^========= //')
        [ "$status" -eq 124 ] && summary="timed out after $limit s"
        if [ "$status" -eq 0 ] || [ "$status" -eq 77 ]; then
            printf '  ok      %-22s %-10s %s\n' "$lab" "$name" "${summary:-no report}"
        else
            printf '  FAILED  %-22s %-10s exit %d: %s (see %s)\n' "$lab" "$name" "$status" "${summary:-}" "$log"
            bad=$((bad + 1))
        fi
    done
done
echo "sanitize: $runs runs, $bad with reports or failures"
[ "$bad" -eq 0 ]
