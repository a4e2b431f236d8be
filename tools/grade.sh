#!/usr/bin/env bash
# grade.sh: grade a student's work with this tree's pristine harness and
# print a scorecard: per lab the tests passed of total and the points, which
# tests this machine could not check (and why), and for each failing test
# the hint (the unfinished TODO, or the failed check). Writes
# $BUILD/grade/junit.xml (for an LMS), summary.json and tests.tap.
#
# SUBMISSION=DIR grades the student's files of DIR (a student's checkout or
# unpacked handout: DIR/labs/NN-*/student/): only those files are taken from
# DIR; the harness, common/, the tests and the Makefile are this tree's, so
# nothing else a student edited can change the score. Without SUBMISSION the
# files of this tree's labs/*/student/ are graded.
# GRADE_BUILD=ref grades the reference solutions (they must score full marks).
# GRADE_LABS="01 03" grades only those labs.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out="$build/grade"
variant=${GRADE_BUILD:-student}
submission=${SUBMISSION:-}

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

rm -rf "$out"
mkdir -p "$out/junit"
gbuild="$build"
if [ -n "$submission" ]; then
    # The student's files, copied beside a pristine harness, built apart.
    gbuild="$out/build"
    mkdir -p "$out/submission/labs"
    for dir in "$submission"/labs/[0-9][0-9]-*/student; do
        lab=$(basename "$(dirname "$dir")")
        [ -d "labs/$lab/harness" ] || continue
        mkdir -p "$out/submission/labs/$lab/student"
        cp "$dir"/*.c "$dir"/*.cu "$out/submission/labs/$lab/student/" 2>/dev/null
    done
    make --no-print-directory -s BUILD="$gbuild" STUDENT_ROOT="$out/submission/labs" \
        student tools >"$out/build.log" 2>&1 ||
        echo "grade: the submission does not build completely; see $out/build.log" >&2
fi

files=()
for nn in ${GRADE_LABS:-$(cd tests && ls lab[0-9][0-9].bats | sed 's/^lab//; s/\.bats$//')}; do
    nn=$(printf '%02d' "$((10#${nn%%-*}))")
    [ -f "tests/lab$nn.bats" ] || { echo "grade: no lab $nn (tests/lab$nn.bats)" >&2; exit 2; }
    files+=("tests/lab$nn.bats")
done
LAB_BUILD=$variant BUILD="$gbuild" bats --formatter tap \
    --report-formatter junit --output "$out/junit" "${files[@]}" >"$out/tests.tap"

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
cp "$report" "$out/junit.xml"

echo "Graded: ${submission:-this tree} ($variant build) on $("$build/tools/gpu-query" count 2>/dev/null || echo 0) GPU(s)"
awk -v rules="$(echo tests/points/lab[0-9][0-9].tsv)" -f tools/score-tap.awk "$out/tests.tap"
# The JSON comes from the JUnit file, through a real XML parser and serialiser.
python3 tools/junit-summary.py "$out/junit.xml" tests/points "$out/summary.json" ||
    echo "grade: could not write $out/summary.json (python3 is needed)" >&2

echo
echo "grade: $out/junit.xml (JUnit), $out/summary.json, $out/tests.tap"
