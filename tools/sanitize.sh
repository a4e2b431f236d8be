#!/usr/bin/env bash
# sanitize.sh: run every reference solution under compute-sanitizer's four
# tools — memcheck (with leak checking), racecheck, initcheck, synccheck —
# and require zero reports. Programs that offer --quick run with it (the
# sanitizers slow kernels down a lot). Logs go to $BUILD/sanitize/.
# Needs GPUs: without them it says so and exits 1.
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
bad=0 runs=0
for program in "$build"/ref/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    args=()
    "$program" --help | grep -q -- '--quick' && args+=(--quick)
    for tool in "${tools[@]}"; do
        name=${tool%% *}
        log="$out/$lab.$name.log"
        # shellcheck disable=SC2086 # the tool string holds its own options
        "$sanitizer" --tool $tool --error-exitcode 99 "$program" "${args[@]}" >"$log" 2>&1
        status=$?
        runs=$((runs + 1))
        summary=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$log" | sed 's/^========= //')
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
