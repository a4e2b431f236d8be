#!/usr/bin/env bash
# mistakes.sh [--compile-only]: prove the tests catch typical student mistakes.
#
# Each tests/mistakes/labNN-*.patch plants one mistake in lab NN's reference
# solution (its first lines say which). For each patch, in a scratch copy of
# the repository: apply it, build the lab, run tests/labNN.bats against that
# build, and require at least one failing test. Needs the GPUs the labs need.
# --compile-only applies and builds each patch without running it (any
# machine): the patches must keep applying as the solutions change.
# MISTAKES=GLOB picks some, e.g. MISTAKES='lab04-*'.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
build=${BUILD:-build}
arch=${CUDA_ARCH:-$(tools/cuda-arch.sh "${NVCC:-nvcc}")}

if [ "$mode" != --compile-only ]; then
    gpus=$("$build/tools/gpu-query" count 2>/dev/null || echo 0)
    if [ "${gpus:-0}" -lt 2 ]; then
        echo "mistakes: running the planted mistakes needs 2 GPUs; this machine has ${gpus:-0}" >&2
        echo "mistakes: 'tools/mistakes.sh --compile-only' checks that every patch applies and builds" >&2
        exit 1
    fi
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
missed=0 caught=0 broken=0
for patch in tests/mistakes/${MISTAKES:-lab[0-9][0-9]-*}.patch; do
    [ -f "$patch" ] || continue
    name=$(basename "$patch" .patch)
    lab=${name#lab}; lab=${lab%%-*}
    what=$(sed -n 's/^Mistake: //p' "$patch" | head -n 1)
    tree="$scratch/$name"
    mkdir -p "$tree"
    tools/source-files.sh | xargs -0 -I{} cp --parents {} "$tree/"
    if ! patch -s -p1 -d "$tree" <"$patch" >/dev/null; then
        echo "BROKEN  $name: the patch no longer applies"
        broken=$((broken + 1)); continue
    fi
    program=$(cd "$tree" && ls -d solutions/"$lab"-* | sed 's|solutions/|build/ref/bin/|')
    if ! make -s -C "$tree" "$program" tools CUDA_ARCH="$arch" >"$tree.build.log" 2>&1; then
        echo "BROKEN  $name: does not build (see below)"; tail -n 5 "$tree.build.log"
        broken=$((broken + 1)); continue
    fi
    if [ "$mode" = --compile-only ]; then
        echo "BUILDS  $name: $what"
        continue
    fi
    (cd "$tree" && LAB_BUILD=ref BUILD=build bats --formatter tap "tests/lab$lab.bats") >"$tree.tap" 2>&1
    failing=$(grep -c '^not ok ' "$tree.tap")
    if [ "$failing" -gt 0 ]; then
        echo "CAUGHT  $name: $what — $failing test(s) fail, e.g. $(grep -m1 '^not ok ' "$tree.tap" | sed 's/^not ok [0-9]* //')"
        caught=$((caught + 1))
    else
        echo "MISSED  $name: $what — every test passed"
        missed=$((missed + 1))
    fi
done
echo "mistakes: $caught caught, $missed missed, $broken broken"
[ "$missed" -eq 0 ] && [ "$broken" -eq 0 ]
