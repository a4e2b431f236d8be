#!/usr/bin/env bash
# mistakes.sh [--compile-only]: prove the tests catch typical student mistakes.
#
# Each tests/mistakes/labNN-*.patch plants one mistake in lab NN's reference
# solution (its first line, "# TODO NN.k: ...", says which TODO and what). For each patch, in
# a scratch copy of the course: apply it, build the lab, run tests/labNN.bats
# against that build. Builds run in parallel, the tests one patch at a time
# (they share the GPUs). Each patch is
#   CAUGHT         at least one test fails
#   NOT CHECKABLE  no test fails, and some were skipped on this machine
#                  (the mistake sits on a route it lacks, e.g. two GPUs)
#   MISSED         every test passed: the tests cannot see this mistake
#   BROKEN         the patch no longer applies or builds
# --compile-only applies and builds each patch without running it (any
# machine). MISTAKES=GLOB picks some, e.g. MISTAKES='lab04-*'. Exits 1 when
# a patch was missed or broken.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
arch=${CUDA_ARCH:-$(tools/cuda-arch.sh "${NVCC:-nvcc}")}
jobs=${MISTAKES_JOBS:-$(nproc)}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
started=$(date +%s)

patches=()
for patch in tests/mistakes/${MISTAKES:-lab[0-9][0-9]-*}.patch; do
    [ -f "$patch" ] && patches+=("$patch")
done
[ ${#patches[@]} -gt 0 ] || { echo "mistakes: no patch matches '${MISTAKES:-lab*}'" >&2; exit 1; }

# prepare PATCH: a scratch tree with the mistake, built; writes NAME.state.
prepare() {
    local patch=$1 name lab tree dir targets
    name=$(basename "$patch" .patch)
    lab=${name#lab}; lab=${lab%%-*}
    tree="$scratch/$name"
    mkdir -p "$tree"
    tools/source-files.sh | xargs -0 cp --parents -t "$tree/"
    if ! patch -s -p1 -d "$tree" <"$patch" >"$tree.build.log" 2>&1; then
        echo "the patch no longer applies" >"$tree.state"; return
    fi
    dir=$(cd "$tree/solutions" && ls -d "$lab"-*)
    targets="build/ref/bin/$dir tools"
    [ -f "$tree/tests/unit/lab$lab.c" ] && targets+=" build/ref/unit/$dir"
    # shellcheck disable=SC2086 # the targets are words
    if ! make -s -C "$tree" $targets BUILD=build CUDA_ARCH="$arch" >>"$tree.build.log" 2>&1; then
        echo "does not build: $(grep -m1 -iE 'error' "$tree.build.log" || tail -n 1 "$tree.build.log")" >"$tree.state"
        return
    fi
    echo built >"$tree.state"
}
export -f prepare
export scratch arch
printf '%s\n' "${patches[@]}" | xargs -P "$jobs" -I{} bash -c 'prepare "$1"' _ {}

caught=0 missed=0 broken=0 unchecked=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    lab=${name#lab}; lab=${lab%%-*}
    what=$(sed -n -E 's/^(Mistake: |# )(TODO [0-9]+\.[0-9]+)/\2/p' "$patch" | head -n 1)
    tree="$scratch/$name"
    state=$(cat "$tree.state" 2>/dev/null || echo "was not prepared")
    if [ "$state" != built ]; then
        echo "BROKEN         $name: $state"
        broken=$((broken + 1)); continue
    fi
    if [ "$mode" = --compile-only ]; then
        echo "BUILDS         $name: $what"
        continue
    fi
    (cd "$tree" && LAB_BUILD=ref BUILD=build bats --formatter tap "tests/lab$lab.bats") >"$tree.tap" 2>&1
    failing=$(grep -c '^not ok ' "$tree.tap")
    skipped=$(grep -c '^ok .* # skip' "$tree.tap")
    if [ "$failing" -gt 0 ]; then
        echo "CAUGHT         $name: $what — $failing test(s) fail, e.g. $(grep -m1 '^not ok ' "$tree.tap" | sed 's/^not ok [0-9]* //')"
        caught=$((caught + 1))
    elif [ "$skipped" -gt 0 ]; then
        echo "NOT CHECKABLE  $name: $what — no test failed; $skipped skipped here, e.g. $(grep -m1 '^ok .* # skip' "$tree.tap" | sed 's/^.*# skip //')"
        unchecked=$((unchecked + 1))
    else
        echo "MISSED         $name: $what — every test passed"
        missed=$((missed + 1))
    fi
done
echo "mistakes: $caught caught, $missed missed, $unchecked not checkable here, $broken broken ($(($(date +%s) - started)) s)"
[ "$missed" -eq 0 ] && [ "$broken" -eq 0 ]
