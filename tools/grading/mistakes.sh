#!/usr/bin/env bash
# mistakes.sh [--compile-only | --tally LOG]: prove the tests catch typical student mistakes.
#
# Each tests/mistakes/labNN-*.patch plants one mistake in lab NN's reference
# solution (its first line, "# TODO NN.k: ...", says which TODO and what; its
# second, "# kind: ID", which kind of tests/mistakes/kinds.tsv it is). For each patch, in
# a scratch copy of the course: apply it, build the lab, run lab NN's tests
# against that build: first the tests that name TODO NN.k; only if all of
# them ran and passed, the whole file. Builds run in parallel, seeded with the
# objects of $BUILD so that only the patched file is compiled again; the
# tests run one patch at a time (they share the GPUs). Each patch is
#   CAUGHT         a test fails that passes on the reference build
#   NOT CHECKABLE  no test of the TODO fails, and some of them were skipped
#                  on this machine (the mistake sits on a route it lacks,
#                  e.g. a GPU, two GPUs)
#   MISSED         every test passed: the tests cannot see this mistake
#   BROKEN         the patch no longer applies or builds
# --compile-only applies each patch and compiles the files it changes,
# without running anything (any machine). MISTAKES=GLOB picks some, e.g.
# MISTAKES='lab04-*'. Ends with the counts per lab, then per kind (with how
# many of each kind were added since the earlier planted set, where git knows);
# exits 1 when a patch was missed or broken.
# --tally LOG prints the counts per kind of a saved run's output (e.g. one kept
# from a GPU machine), through the same code as the end of a run; it exits 2
# on a line it does not know or a patch without a known kind.
set -uo pipefail
cd "$(dirname "$0")/../.."

# The commit of the earlier planted set: the counts per kind say how many of
# each kind are newer than it.
earlier=b19e299

# kinds: the ids of tests/mistakes/kinds.tsv in its order, one a line.
kinds() {
    local table=tests/mistakes/kinds.tsv
    [ -f "$table" ] || { echo "mistakes: $table is missing: it lists the kinds a patch may name" >&2; return 2; }
    awk -F'\t' -v table="$table" '
        /^#/ || !NF { next }
        !header { header = 1
                  if ($1 != "id" || $2 != "description") { print "mistakes: " table ": its header must be id<TAB>description" >"/dev/stderr"; exit 2 }
                  next }
        { print $1 }' "$table"
}

# kind_of PATCH IDS: the kind PATCH's "# kind:" line names, which must be one of IDS (kinds'
# output); else an error naming the patch (status 2).
kind_of() {
    local kind
    kind=$(sed -n 's/^# kind: //p' "$1")
    grep -qxF -- "$kind" <<<"$2" ||
        { echo "mistakes: $1: its kind '$kind' is not one of tests/mistakes/kinds.tsv" >&2; return 2; }
    echo "$kind"
}

# tally LOG: the counts per kind of the result lines in LOG (a run's own, or a
# saved make mistakes output). Other lines a run prints (its counts, make's own)
# and blank lines are passed over; any other line is an error: a log that is not one.
tally() {
    local log=$1 ids line n=0 name status kind old="" git_known=""
    local result='^(CAUGHT|MISSED|NOT CHECKABLE|BROKEN) +(lab[0-9]{2}-[a-z0-9-]+): '
    local ours='^((lab [0-9]{2}|kind [a-z0-9-]+|mistakes): |make(\[[0-9]+\])?: |  [A-Z]+ +[^ ])'
    declare -A count=() total=() new=() seen=()
    [ -f "$log" ] || { echo "mistakes: no log $log" >&2; return 2; }
    ids=$(kinds) || return 2
    # Where git holds the earlier set, a patch it lacks is newer; elsewhere (a
    # tarball, a shallow clone) the column is left out rather than guessed.
    if git rev-parse -q --verify "$earlier^{commit}" >/dev/null 2>&1; then
        git_known=1
        old=$(git ls-tree --name-only "$earlier" tests/mistakes/)
    fi
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        if [[ $line =~ $result ]]; then
            status=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}
        elif [[ $line == "BUILDS "* ]]; then
            echo "mistakes: $log:$n: a --compile-only run, which judges no mistake" >&2; return 2
        elif [[ -z $line || $line =~ $ours ]]; then
            continue
        else
            echo "mistakes: $log:$n: not a line of make mistakes: $line" >&2; return 2
        fi
        [ -z "${seen[$name]:-}" ] || { echo "mistakes: $log:$n: $name a second time" >&2; return 2; }
        seen[$name]=1
        [ -f "tests/mistakes/$name.patch" ] || { echo "mistakes: $log:$n: no tests/mistakes/$name.patch" >&2; return 2; }
        kind=$(kind_of "tests/mistakes/$name.patch" "$ids") || return 2
        count[$kind,$status]=$((${count[$kind,$status]:-0} + 1))
        total[$kind]=$((${total[$kind]:-0} + 1))
        grep -qxF "tests/mistakes/$name.patch" <<<"$old" || new[$kind]=$((${new[$kind]:-0} + 1))
    done <"$log"
    [ ${#seen[@]} -gt 0 ] || { echo "mistakes: $log has no patch's result" >&2; return 2; }
    for kind in $ids; do
        [ -n "${total[$kind]:-}" ] || continue
        printf 'kind %s: %d caught, %d missed, %d not checkable here, %d broken; %d planted%s\n' "$kind" \
            "${count[$kind,CAUGHT]:-0}" "${count[$kind,MISSED]:-0}" "${count[$kind,NOT CHECKABLE]:-0}" \
            "${count[$kind,BROKEN]:-0}" "${total[$kind]}" "${git_known:+, ${new[$kind]:-0} added since $earlier}"
    done
}

mode=${1:-run}
case $mode in
    run | --compile-only) ;;
    --tally)
        [ $# -eq 2 ] || { echo "usage: $0 --tally LOG" >&2; exit 2; }
        tally "$2"; exit ;;
    *) echo "usage: $0 [--compile-only | --tally LOG]" >&2; exit 2 ;;
esac
arch=${CUDA_ARCH:-$(tools/machine/cuda-arch.sh "${NVCC:-nvcc}")}
jobs=${MISTAKES_JOBS:-$(nproc)}
base=${BUILD:-build}
[[ "$base" = /* ]] || base="$PWD/$base"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
started=$(date +%s)

patches=()
for patch in tests/mistakes/${MISTAKES:-lab[0-9][0-9]-*}.patch; do
    [ -f "$patch" ] && patches+=("$patch")
done
[ ${#patches[@]} -gt 0 ] || { echo "mistakes: no patch matches '${MISTAKES:-lab*}'" >&2; exit 1; }
# A missing or malformed table of kinds, or a patch of no kind in it, stops the run now, not
# after an hour of tests.
ids=$(kinds) || exit 2
for patch in "${patches[@]}"; do
    kind_of "$patch" "$ids" >/dev/null || exit 2
done

# One pristine copy of the sources, mtimes kept, that every scratch tree
# copies: objects seeded from $BUILD stay newer than their sources.
mkdir -p "$scratch/src"
tools/authoring/source-files.sh | xargs -0 cp -p --parents -t "$scratch/src/"

# seed TREE DIR: copy what $BUILD already holds for lab DIR into TREE/build.
# What the patch cannot change (common/, the harness, the tools) is linked,
# not copied: it is up to date, so make only reads it; the lab's own
# objects and programs, which make rewrites, are copies.
seed() {
    local tree=$1 dir=$2 part
    mkdir -p "$tree/build/ref/objects" "$tree/build/harness" "$tree/build/ref/bin" "$tree/build/ref/unit"
    for part in common tools host; do
        [ -d "$base/$part" ] && { cp -al "$base/$part" "$tree/build/" 2>/dev/null || cp -a "$base/$part" "$tree/build/"; }
    done
    [ -d "$base/harness/$dir" ] && { cp -al "$base/harness/$dir" "$tree/build/harness/" 2>/dev/null || cp -a "$base/harness/$dir" "$tree/build/harness/"; }
    [ -d "$base/ref/objects/$dir" ] && cp -a "$base/ref/objects/$dir" "$tree/build/ref/objects/"
    [ -f "$base/ref/objects/unit/$dir.o" ] && mkdir -p "$tree/build/ref/objects/unit" &&
        cp -a "$base/ref/objects/unit/$dir.o" "$tree/build/ref/objects/unit/"
    [ -f "$base/ref/bin/$dir" ] && cp -a "$base/ref/bin/$dir" "$tree/build/ref/bin/"
    [ -f "$base/ref/unit/$dir" ] && cp -a "$base/ref/unit/$dir" "$tree/build/ref/unit/"
    return 0
}

# prepare PATCH: a scratch tree with the mistake, built; writes NAME.state.
prepare() {
    local patch=$1 name lab tree dir targets file
    name=$(basename "$patch" .patch)
    lab=${name#lab}; lab=${lab%%-*}
    tree="$scratch/$name"
    cp -a "$scratch/src" "$tree"
    if ! patch -s -p1 -d "$tree" <"$patch" >"$tree.build.log" 2>&1; then
        echo "the patch no longer applies" >"$tree.state"; return
    fi
    dir=$(cd "$tree/solutions" && ls -d "$lab"-*)
    seed "$tree" "$dir"
    if [ "$mode" = --compile-only ]; then
        targets=""
        for file in $(sed -n -E 's|^\+\+\+ b/solutions/[^/]+/([^[:space:]]+).*|\1|p' "$patch"); do
            targets+=" build/ref/objects/$dir/$file.o"
        done
    else
        targets="build/ref/bin/$dir tools"
        targets+=" $("$tree/tools/grading/test-drivers.sh" build ref "$dir" | tr '\n' ' ')"
    fi
    # shellcheck disable=SC2086 # the targets are words
    if ! make -s -C "$tree" $targets BUILD=build CUDA_ARCH="$arch" >>"$tree.build.log" 2>&1; then
        echo "does not build: $(grep -m1 -iE 'error' "$tree.build.log" || tail -n 1 "$tree.build.log")" >"$tree.state"
        return
    fi
    echo built >"$tree.state"
}
export -f prepare seed
export scratch arch base mode
printf '%s\n' "${patches[@]}" | xargs -P "$jobs" -I{} bash -c 'prepare "$1"' _ {}

# run_tests TREE LAB [FILTER]: the lab's tests in TREE as TAP on stdout.
run_tests() {
    local tree=$1 lab=$2
    shift 2
    (cd "$tree" && LAB_BUILD=ref BUILD=build bats --formatter tap "$@" "tests/lab$lab.bats") 2>&1
}

# ref_passes LAB TEST: whether TEST passes (ran, not skipped) on the reference
# build. Lab LAB's file runs once on the reference, when first asked.
ref_passes() {
    local tap="$scratch/ref-$1.tap"
    [ -f "$tap" ] || (LAB_BUILD=ref BUILD="$base" bats --formatter tap "tests/lab$1.bats" >"$tap" 2>&1)
    # grep reads all of it: with -q it would stop at the first match, and sed's
    # next write would then die of SIGPIPE, failing the pipe (pipefail).
    sed -n 's/^ok [0-9]* //p' "$tap" | grep -xF -- "$2" >/dev/null
}

# confirmed LAB TAP: the failures in TAP that pass on the reference, one a line:
# a test the reference fails too (a noisy bar) catches nothing.
confirmed() {
    local test
    while IFS= read -r test; do
        ref_passes "$1" "$test" && printf '%s\n' "$test"
    done < <(sed -n 's/^not ok [0-9]* //p' "$2")
}

# say LINE: a patch's result, on stdout and in the list the counts per kind are read from.
say() {
    printf '%s\n' "$1" | tee -a "$scratch/results"
}

declare -A per_lab
caught=0 missed=0 broken=0 unchecked=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    lab=${name#lab}; lab=${lab%%-*}
    what=$(sed -n -E 's/^(Mistake: |# )(TODO [0-9]+\.[0-9]+)/\2/p' "$patch" | head -n 1)
    todo=$(sed -n -E '1s/^# TODO ([0-9]+)\.([0-9]+):.*/\1\\.\2/p' "$patch")
    tree="$scratch/$name"
    state=$(cat "$tree.state" 2>/dev/null || echo "was not prepared")
    if [ "$state" != built ]; then
        say "BROKEN         $name: $state"
        broken=$((broken + 1)); per_lab[$lab]+=B; continue
    fi
    if [ "$mode" = --compile-only ]; then
        say "BUILDS         $name: $what"
        continue
    fi
    # The TODO's own tests judge first. Only when all of them ran and passed
    # does the whole file get its chance. Either way a failing test counts
    # only if it passes on the reference (a noisy timing bar is no catch).
    t0=$(date +%s)
    run_tests "$tree" "$lab" --filter "TODO.*${todo}([^0-9]|\$)" >"$tree.tap"
    failing=$(confirmed "$lab" "$tree.tap")
    skipped=$(grep -c '^ok .* # skip' "$tree.tap")
    own=$(grep -cE '^(not )?ok ' "$tree.tap")
    if [ -n "$failing" ]; then
        say "CAUGHT         $name: $what — $(wc -l <<<"$failing") of its TODO's $own test(s) fail, e.g. $(head -n 1 <<<"$failing") ($(($(date +%s) - t0)) s)"
        caught=$((caught + 1)); per_lab[$lab]+=C; continue
    fi
    if [ "$skipped" -gt 0 ]; then
        say "NOT CHECKABLE  $name: $what — none of its TODO's $own test(s) failed; $skipped skipped here, e.g. $(grep -m1 '^ok .* # skip' "$tree.tap" | sed 's/^.*# skip //') ($(($(date +%s) - t0)) s)"
        unchecked=$((unchecked + 1)); per_lab[$lab]+=N; continue
    fi
    run_tests "$tree" "$lab" >"$tree.all.tap"
    others=$(confirmed "$lab" "$tree.all.tap")
    took="$(($(date +%s) - t0)) s, the whole file"
    if [ -n "$others" ]; then
        say "CAUGHT         $name: $what — only by a test that does not name TODO ${todo//\\/}: $(head -n 1 <<<"$others") ($took)"
        caught=$((caught + 1)); per_lab[$lab]+=C
    else
        say "MISSED         $name: $what — its TODO's $own test(s) passed, and no other test fails that passes on the reference ($took)"
        missed=$((missed + 1)); per_lab[$lab]+=M
    fi
done
if [ "$mode" != --compile-only ]; then
    for lab in $(printf '%s\n' "${!per_lab[@]}" | sort); do
        s=${per_lab[$lab]}
        c=${s//[^C]/} n=${s//[^N]/} m=${s//[^M]/} b=${s//[^B]/}
        echo "lab $lab: ${#c} caught, ${#m} missed, ${#n} not checkable here, ${#b} broken"
    done
    tally "$scratch/results" || exit 2
fi
echo "mistakes: $caught caught, $missed missed, $unchecked not checkable here, $broken broken ($(($(date +%s) - started)) s)"
[ "$missed" -eq 0 ] && [ "$broken" -eq 0 ]
