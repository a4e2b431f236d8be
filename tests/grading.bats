#!/usr/bin/env bats
# Instructor tools: the scorecard, the handout tree.

load helpers/lab

setup() {
    [ -d "$REPO_ROOT/solutions" ] || skip "the instructor's tools: not in the student tree"
}

score() { # TAP file -> scorecard in $output, JSON in $BATS_TEST_TMPDIR/summary.json
    run awk -v rules="$REPO_ROOT/tests/points.tsv" -v json="$BATS_TEST_TMPDIR/summary.json" \
        -f "$REPO_ROOT/tools/score-tap.awk" "$1"
}

@test "grading: an untouched skeleton scores zero, each failure naming its TODO" {
    score "$FIXTURES/grade-skeleton-lab01.tap"
    assert_success
    assert_line --regexp '^01 +5 of 16 +0 of 11 +0 points'
    assert_line --regexp '^total +0 of 11 +0 points'
    assert_output --partial "TODO 01.1 is not done yet (labs/01-peer-checks/"
}

@test "grading: a complete lab scores full marks" {
    sed 's/^not ok /ok /' "$FIXTURES/grade-skeleton-lab01.tap" >"$BATS_TEST_TMPDIR/all-pass.tap"
    score "$BATS_TEST_TMPDIR/all-pass.tap"
    assert_line --regexp '^01 +16 of 16 +11 of 11'
    refute_output --partial "Not passed"
}

@test "grading: skipped tests are not checkable here: neither earned nor lost, counted apart, saying why" {
    sed 's/^not ok \([0-9]*\) \(.*\)$/ok \1 \2 # skip needs 2 GPUs/' "$FIXTURES/grade-skeleton-lab01.tap" >"$BATS_TEST_TMPDIR/skipped.tap"
    score "$BATS_TEST_TMPDIR/skipped.tap"
    assert_line --regexp '^01 +5 of 16 +0 of 0 +11 points'
    assert_output --partial "skipped: needs 2 GPUs"
}

@test "grading: summary.json comes from the JUnit file through a real serialiser, tabs and quotes in hints included" {
    command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
    local junit="$BATS_TEST_TMPDIR/junit.xml"
    # A hint with a tab, quotes and a backslash must still give valid JSON.
    sed 's|see the handout&#39;s step 01.1|a "quoted"\tword \\ and a tab: &#9;|' \
        "$FIXTURES/grade-skeleton-nogpu.junit.xml" >"$junit"
    run python3 "$REPO_ROOT/tools/junit-summary.py" "$junit" "$REPO_ROOT/tests/points.tsv" "$BATS_TEST_TMPDIR/s.json"
    assert_success
    run python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
lab = d["labs"][0]
hint = [t["hint"] for t in lab["tests"] if "TODO 01.1" in t["hint"]][0]
print(d["points"], d["max_points"], d["not_checkable_here"], lab["lab"], len(lab["tests"]),
      sum(t["state"] == "failed" for t in lab["tests"]), "\t" in hint, "\"quoted\"" in hint)' "$BATS_TEST_TMPDIR/s.json"
    assert_success
    assert_output "0 17 67 01 30 6 True True"
}

@test "grading: make grade scores the reference in full and the untouched skeletons zero, for what this machine can check" {
    run make -s -C "$REPO_ROOT" grade GRADE_BUILD=ref BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_line --regexp '^total +([0-9]+) of \1 +[0-9]+ points'
    refute_line --regexp '^ +\[failed\]'
    run make -s -C "$REPO_ROOT" grade BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_line --regexp '^total +0 of [1-9][0-9]* +[0-9]+ points'
    assert_output --partial "is not done yet"
}

@test "grading: the student tree is a product of its own: its README, its targets, each of them working" {
    local out="$BATS_TEST_TMPDIR/h"
    run make -s -C "$REPO_ROOT" handout BUILD="$out"
    assert_success
    local tree="$out/handout/p2p-course"
    assert_file_exists "$out/handout/p2p-course.tar.gz"
    assert_dir_not_exists "$tree/solutions"
    assert_dir_not_exists "$tree/tests/mistakes"
    assert_dir_not_exists "$tree/tools/lab-template"
    run grep -rl --include='*.c' --include='*.cu' --include='*.h' 'LAB_SKELETON' "$tree"
    assert_failure
    # Its README is the student's: what to do, in order; nothing of the instructor's.
    run grep -cE 'solutions/|GRADE_BUILD|mistakes' "$tree/README.md"
    assert_output 0
    grep -q 'make check LAB=01' "$tree/README.md" || fail "the student README does not say how to check a lab"
    # make help offers only what works there.
    run make -s -C "$tree" BUILD=build help CUDA_ARCH=90
    assert_success
    refute_output --regexp '^  (reference|mistakes|skeletons|skeletons-check|handout) '
    run make -s -C "$tree" BUILD=build mistakes CUDA_ARCH=90
    assert_failure
    assert_output --partial "not in the student tree"
    # Each target it lists works on an untouched tree.
    run make -s -C "$tree" BUILD=build all CUDA_ARCH=90
    assert_success
    run make -s -C "$tree" BUILD=build test CUDA_ARCH=90 LAB_NO_INSTALL=1
    assert_success
    assert_line --regexp '^[0-9]+ passed, 0 failed, [0-9]+ skipped$'
    assert_output --partial "not done yet: TODO"
    run make -s -C "$tree" BUILD=build check LAB=1 CUDA_ARCH=90 LAB_NO_INSTALL=1
    assert_failure
    assert_output --partial "TODO 01.1 is not done yet"
    run make -s -C "$tree" BUILD=build run CUDA_ARCH=90 REPORT_QUICK=1
    assert_file_exists "$tree/build/report/report.md"
    run make -s -C "$tree" BUILD=build doctor CUDA_ARCH=90
    assert_success
    run make -s -C "$tree" BUILD=build grade CUDA_ARCH=90
    assert_line --regexp '^total +0 of '
    run make -s -C "$tree" BUILD=build clean
    assert_success
    assert_dir_not_exists "$tree/build"
}

@test "grading: every planted mistake still applies and builds" {
    run env CUDA_ARCH=90 "$REPO_ROOT/tools/mistakes.sh" --compile-only
    assert_success
    assert_output --regexp 'mistakes: 0 caught, 0 missed, 0 not checkable here, 0 broken'
    local patches
    patches=$(ls "$REPO_ROOT"/tests/mistakes/lab*.patch | wc -l)
    assert_equal "$(grep -c '^BUILDS ' <<<"$output")" "$patches"
}

@test "grading: every lab has planted mistakes, each saying what it plants" {
    local lab number
    for lab in $(cd "$REPO_ROOT/labs" && ls -d [0-9][0-9]-*); do
        number=${lab%%-*}
        [ -n "$(ls "$REPO_ROOT"/tests/mistakes/lab"$number"-*.patch 2>/dev/null)" ] ||
            fail "lab $number has no planted mistakes in tests/mistakes/"
    done
    for patch in "$REPO_ROOT"/tests/mistakes/*.patch; do
        head -n 1 "$patch" | grep -qE '^# TODO [0-9]+\.[0-9]+: .{10,}' ||
            fail "$patch: its first line must say '# TODO NN.k: the mistake it plants'"
    done
}
