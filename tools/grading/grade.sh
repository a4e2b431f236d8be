#!/usr/bin/env bash
# grade.sh: grade a student's work with this tree's pristine harness and
# print a scorecard: per lab the points earned of those this machine can
# check, the points it cannot check (and why), each TODO's state, and for
# each failing test the hint (the unfinished TODO, or the failed check). A
# test's points are declared beside it in tests/labNN.bats (a Bats tag
# "points:N"). Writes $BUILD/grade/junit.xml (each testcase with its points),
# results.json (Gradescope's format), summary.json and tests.tap; exits 1
# when a lab did not build or an output could not be written, 2 on bad usage.
#
# SUBMISSION=DIR grades the student's files of DIR (a student's checkout or
# unpacked handout: DIR/labs/NN-*/student/): only those files are taken from
# DIR; the harness, common/, the tests and the Makefile are this tree's, so
# nothing else a student edited can change the score. Without SUBMISSION the
# files of this tree's labs/*/student/ are graded.
# GRADE_BUILD=ref grades the reference solutions (they must score full marks).
# GRADE_LABS="01 03" grades only those labs.
#
# Each lab is built on its own: a lab whose files do not compile is named in
# the scorecard with the compiler's first error, and scores 0 of the points
# this machine can check (the tests learn which those are from the reference
# build when this tree has one); the other labs score as usual.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
out="$build/grade"
variant=${GRADE_BUILD:-student}
submission=${SUBMISSION:-}
case $variant in
student) ;;
ref) [ -d solutions ] || { echo "grade: GRADE_BUILD=ref: this tree has no reference solutions (a student tree)" >&2; exit 2; } ;;
*) echo "grade: GRADE_BUILD: '$variant' is neither student nor ref" >&2; exit 2 ;;
esac

if [ -n "$submission" ]; then
    if [ "$variant" = ref ]; then
        echo "grade: SUBMISSION and GRADE_BUILD=ref do not combine" >&2
        exit 2
    fi
    if ! compgen -G "$submission/labs/[0-9][0-9]-*/student" >/dev/null; then
        echo "grade: '$submission' has no labs/NN-*/student/ folder: not a student tree" >&2
        exit 2
    fi
    submission=$(cd "$submission" && pwd)
fi

# The labs to grade, checked before anything of an earlier grade is removed.
labs=()
for id in ${GRADE_LABS:-$(cd tests && ls lab[0-9][0-9].bats | sed 's/^lab//; s/\.bats$//')}; do
    nn=${id%%-*}
    if ! [[ "$nn" =~ ^[0-9]{1,2}$ ]]; then
        echo "grade: GRADE_LABS: '$id' is no lab number (labs: $(cd labs && ls -d [0-9][0-9]-* | cut -c1-2 | paste -sd' '))" >&2
        exit 2
    fi
    nn=$(printf '%02d' "$((10#$nn))")
    lab=$(cd labs && ls -d "$nn"-* 2>/dev/null | head -n 1)
    if [ ! -f "tests/lab$nn.bats" ] || [ -z "$lab" ]; then
        echo "grade: GRADE_LABS: no lab $nn (no tests/lab$nn.bats or labs/$nn-*)" >&2
        exit 2
    fi
    [[ " ${labs[*]} " == *" $lab "* ]] || labs+=("$lab") # a lab named twice is graded once
done

rm -rf "$out"
mkdir -p "$out/junit"
gbuild="$build"
student_root=labs
if [ -n "$submission" ]; then
    # The student's files, copied beside a pristine harness, built apart.
    gbuild="$out/build"
    student_root="$out/submission/labs"
    mkdir -p "$student_root"
    for dir in "$submission"/labs/[0-9][0-9]-*/student; do
        lab=$(basename "$(dirname "$dir")")
        [ -d "labs/$lab/harness" ] || continue
        mkdir -p "$student_root/$lab/student"
        cp "$dir"/*.c "$dir"/*.cu "$student_root/$lab/student/" 2>/dev/null
    done
fi
# A path into the grader's copy of the submission, as the student knows it.
shown_path() {
    [ -n "$submission" ] || { cat; return; }
    local rel abs
    abs=$(cd "$out" && pwd)/submission/
    rel=$out/submission/
    sed -e "s|$(sed 's/[][\.*^$|]/\\&/g' <<<"$abs")||g" -e "s|$(sed 's/[][\.*^$|]/\\&/g' <<<"$rel")||g"
}

make_grade() { make --no-print-directory -s BUILD="$gbuild" STUDENT_ROOT="$student_root" "$@"; }
if ! make_grade tools >"$out/build-tools.log" 2>&1; then
    echo "grade: the grader's tools do not build; see $out/build-tools.log" >&2
    exit 1
fi
# first_error LOG: the compiler's first error, as file:line: message.
first_error() {
    local line
    line=$(grep -m1 -E '^[^ ]+(:[0-9]+(:[0-9]+)?|\([0-9]+\)): (fatal )?error' "$1" ||
        grep -m1 -iE 'error|undefined reference' "$1" || tail -n 1 "$1")
    sed -E 's/^([^ ]+)\(([0-9]+)\): /\1:\2: /' <<<"$line" | shown_path
}
# Build each lab on its own; a lab that does not build is listed (lab
# number, the first error) in unbuilt.tsv, which the tests read.
: >"$out/unbuilt.tsv"
for lab in "${labs[@]}"; do
    nn=${lab%%-*}
    targets=("$gbuild/$variant/bin/$lab")
    mapfile -t -O 1 targets < <(tools/grading/test-drivers.sh "$gbuild" "$variant" "$lab")
    missing=""
    if [ -n "$submission" ] && ! compgen -G "$student_root/$lab/student/*.c*" >/dev/null; then
        missing="the submission has no labs/$lab/student/ files"
    fi
    if [ -n "$missing" ] || ! make_grade "${targets[@]}" >"$out/build-$lab.log" 2>&1; then
        printf '%s\t%s\n' "$nn" "${missing:-$(first_error "$out/build-$lab.log")}" >>"$out/unbuilt.tsv"
        # The reference build of the lab stands in to say which of its tests
        # this machine could check at all.
        [ "$variant" = student ] && [ -d "solutions/$lab" ] &&
            make_grade "$gbuild/ref/bin/$lab" >>"$out/build-$lab.log" 2>&1
    fi
done

files=()
for lab in "${labs[@]}"; do files+=("tests/lab${lab%%-*}.bats"); done
# STUDENT_ROOT: tests that read the student's sources read the graded ones.
LAB_BUILD=$variant BUILD="$gbuild" GRADE_UNBUILT="$out/unbuilt.tsv" \
    STUDENT_ROOT="$([ "$variant" = student ] && cd "$student_root" && pwd)" \
    bats --formatter tap --report-formatter junit --output "$out/junit" "${files[@]}" |
    shown_path >"$out/tests.tap"

# Bats 1.8.2 may still be writing the JUnit report when it returns: wait for
# the closing tag before anybody reads it.
report="$out/junit/report.xml"
for _ in $(seq 1 50); do
    grep -q '</testsuites>' "$report" 2>/dev/null && break
    sleep 0.2
done
if ! grep -q '</testsuites>' "$report" 2>/dev/null; then
    echo "grade: the JUnit report $report is incomplete" >&2
    exit 1
fi

status=0
echo "Graded: ${submission:-this tree} ($variant build) on $("$build/tools/gpu-query" count 2>/dev/null || echo 0) GPU(s)"
while IFS=$'\t' read -r nn why; do
    echo "lab $nn does not build, so it scores 0 of what this machine can check: $why"
    status=1
done <"$out/unbuilt.tsv"
# The scorecard, junit.xml with the points and the two JSON files come from
# Bats' report through a real XML parser and serialiser (tools/grading/junit-summary.py,
# which also drops what XML 1.0 forbids and names a submission's files as the
# student knows them); the scorecard is printed before the JSON is written.
written=("$out/tests.tap")
student_args=()
if [ "$variant" = student ]; then
    student_args=(--student-root "$student_root")
    [ -n "$submission" ] && student_args+=(--strip "$(cd "$out" && pwd)/submission/" --strip "$out/submission/")
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "grade: no scorecard, junit.xml, results.json or summary.json: python3 is needed (tools/machine/ensure-deps.sh)" >&2
    status=1
elif ! python3 tools/grading/junit-summary.py "${student_args[@]}" "$report" tests "$out"; then
    echo "grade: $out/junit.xml, results.json and summary.json were not all written (tools/grading/junit-summary.py failed: its error is above)" >&2
    status=1
fi
for file in junit.xml results.json summary.json; do
    [ -f "$out/$file" ] && written+=("$out/$file")
done
echo
echo "grade: written: $(printf '%s, ' "${written[@]}" | sed 's/, $//')"
[ "$status" -eq 0 ] || echo "grade: incomplete: see the lines above" >&2
exit "$status"
