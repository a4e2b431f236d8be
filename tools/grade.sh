#!/usr/bin/env bash
# grade.sh: run every lab's tests against the student build (labs/) and
# print a scorecard: per lab the tests passed of total and the points, and
# for each failing test the hint (the unfinished TODO, or the failed check).
# Writes $BUILD/grade/junit.xml (for an LMS), $BUILD/grade/summary.json and
# $BUILD/grade/tests.tap. Points per test come from tests/points.tsv.
# Grading needs the GPUs the labs need: without two it says so and exits 1.
# GRADE_BUILD=ref grades the reference build instead (it must score full
# marks: a check of the graders, not of a student).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out="$build/grade"
query="$build/tools/gpu-query"

gpus=$("$query" count 2>/dev/null || echo 0)
if [ "${gpus:-0}" -lt 2 ]; then
    echo "grade: grading runs the labs on GPUs and needs 2; this machine has ${gpus:-0}." >&2
    echo "grade: run 'make grade' on a machine with 2 GPUs ('make doctor' shows what this one has)." >&2
    exit 1
fi

rm -rf "$out"
mkdir -p "$out/junit"
files=(tests/lab[0-9][0-9].bats)

LAB_BUILD=${GRADE_BUILD:-student} BUILD="$build" bats --formatter tap \
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

# Score the TAP stream (tools/score-tap.awk says how).
awk -v rules=tests/points.tsv -v json="$out/summary.json" -f tools/score-tap.awk "$out/tests.tap"

echo
echo "grade: $out/junit.xml (JUnit), $out/summary.json, $out/tests.tap"
