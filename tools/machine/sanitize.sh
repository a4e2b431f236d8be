#!/usr/bin/env bash
# sanitize.sh: run every reference solution under compute-sanitizer's four
# tools — memcheck (with leak checking), racecheck, initcheck, synccheck —
# and require zero reports. Programs run with --quick (the sanitizers slow
# kernels down a lot) unless the lab's sanitize.conf says otherwise. Logs go to $BUILD/sanitize/.
# Needs a GPU: without one it says so and exits 1. A run that takes longer
# than SANITIZE_TIMEOUT seconds (default 300) is stopped and counts as failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
out="$build/sanitize"
nvcc=${NVCC:-nvcc}
gpus=$("$build/tools/gpu-query" count 2>/dev/null || echo 0)
if [ "${gpus:-0}" -lt 1 ]; then
    echo "sanitize: the labs must run on a GPU to be sanitized; this machine has none" >&2
    exit 1
fi
sanitizer=$(command -v compute-sanitizer ||
            ls "$(dirname "$(command -v "$nvcc" 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/compute-sanitizer" 2>/dev/null)
if [ -z "$sanitizer" ]; then
    echo "sanitize: compute-sanitizer not found (it comes with the CUDA toolkit, next to nvcc)" >&2
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

default_build=ref; [ -d solutions ] || default_build=student
for program in "$build/${RUN_BUILD:-$default_build}"/bin/[0-9][0-9]-*; do
    [ -x "$program" ] || continue
    lab=$(basename "$program")
    # A lab's sanitize.conf says how it runs under the sanitizers:
    #   args: OPTIONS          the program's options (default: --quick)
    #   args TOOL: OPTIONS     the program's options under one tool (default: args)
    #   TOOL: OPTIONS          extra options of one tool, e.g.
    #   memcheck: --report-api-errors no   (a lab that provokes API errors on purpose)
    conf="labs/$lab/sanitize.conf"
    read -r -a args <<<"$(sed -n 's/^args: *//p' "$conf" 2>/dev/null | head -n 1)"
    [ ${#args[@]} -gt 0 ] || args=(--quick)
    # The four tools on one program at once: they only slow each other down.
    for tool in "${tools[@]}"; do
        name=${tool%% *}
        extra=$(sed -n "s/^$name: *//p" "$conf" 2>/dev/null | head -n 1)
        [ -n "$extra" ] && tool="$tool $extra"
        read -r -a tool_args <<<"$(sed -n "s/^args $name: *//p" "$conf" 2>/dev/null | head -n 1)"
        [ ${#tool_args[@]} -gt 0 ] || tool_args=("${args[@]}")
        echo "${tool_args[*]}" >"$out/$lab.$name.args"
        sanitize_one "$program" "$tool" "$out/$lab.$name.log" "${tool_args[@]}" &
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
            printf '  ok      %-22s %-10s %s (%s)\n' "$lab" "$name" "${summary:-no report}" \
                "$(cat "$out/$lab.$name.args")"
        else
            printf '  FAILED  %-22s %-10s exit %d: %s (see %s)\n' "$lab" "$name" "$status" "${summary:-}" "$log"
            bad=$((bad + 1))
        fi
    done
done
echo "sanitize: $runs runs, $bad with reports or failures"
[ "$bad" -eq 0 ]
