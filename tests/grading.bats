#!/usr/bin/env bats
# Instructor tools: the scorecard, the handout tree.

load helpers/lab

score() { # TAP file -> scorecard in $output, JSON in $BATS_TEST_TMPDIR/summary.json
    run awk -v rules="$REPO_ROOT/tests/points.tsv" -v json="$BATS_TEST_TMPDIR/summary.json" \
        -f "$REPO_ROOT/tools/score-tap.awk" "$1"
}

@test "grading: an untouched skeleton scores zero, each failure naming its TODO" {
    score "$FIXTURES/grade-skeleton-lab01.tap"
    assert_success
    assert_line --regexp '^01 +5 of 16 +0 of 11'
    assert_line --regexp '^total +0 of 11'
    assert_output --partial "TODO 01.1 is not done yet (labs/01-peer-checks/peer_checks.c:"
}

@test "grading: a complete lab scores full marks" {
    sed 's/^not ok /ok /' "$FIXTURES/grade-skeleton-lab01.tap" >"$BATS_TEST_TMPDIR/all-pass.tap"
    score "$BATS_TEST_TMPDIR/all-pass.tap"
    assert_line --regexp '^01 +16 of 16 +11 of 11'
    refute_output --partial "Not passed"
}

@test "grading: skipped tests earn no points and say why" {
    sed 's/^not ok \([0-9]*\) \(.*\)$/ok \1 \2 # skip needs 2 GPUs/' "$FIXTURES/grade-skeleton-lab01.tap" >"$BATS_TEST_TMPDIR/skipped.tap"
    score "$BATS_TEST_TMPDIR/skipped.tap"
    assert_line --regexp '^01 +5 of 16 +0 of 11'
    assert_output --partial "skipped: needs 2 GPUs"
}

@test "grading: the JSON summary is valid and matches the scorecard" {
    command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
    score "$FIXTURES/grade-skeleton-lab01.tap"
    run python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
lab = d["labs"][0]
print(d["points"], d["max_points"], lab["lab"], len(lab["tests"]),
      sum(t["state"] == "failed" for t in lab["tests"]))' "$BATS_TEST_TMPDIR/summary.json"
    assert_success
    assert_output "0 11 01 16 11"
}

@test "grading: make grade without GPUs says it needs them and fails" {
    [ "$(gpu_count)" -lt 2 ] || skip "this machine has GPUs: grading runs for real"
    run "$REPO_ROOT/tools/grade.sh"
    assert_failure
    assert_output --partial "needs 2"
}

@test "grading: the handout has no solutions, builds, and its make check runs" {
    local out="$BATS_TEST_TMPDIR/h"
    run make -s -C "$REPO_ROOT" handout BUILD="$out"
    assert_success
    local tree="$out/handout/p2p-course"
    assert_file_exists "$out/handout/p2p-course.tar.gz"
    assert_dir_not_exists "$tree/solutions"
    assert_dir_not_exists "$tree/tests/mistakes"
    run grep -rl --include='*.c' --include='*.cu' --include='*.h' 'LAB_SKELETON' "$tree"
    assert_failure
    run make -s -C "$tree" student tools CUDA_ARCH=90
    assert_success
    run make -s -C "$tree" check LAB=01 CUDA_ARCH=90 LAB_NO_INSTALL=1
    # Without GPUs the lab's GPU tests skip and the rest pass; with GPUs the
    # untouched skeleton fails, naming its first TODO.
    if [ "$(gpu_count)" -ge 2 ]; then
        assert_failure
        assert_output --partial "TODO 01.1 is not done yet"
    else
        assert_success
    fi
    assert_line --regexp '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'
}

@test "grading: every planted mistake still applies and builds" {
    run env CUDA_ARCH=90 "$REPO_ROOT/tools/mistakes.sh" --compile-only
    assert_success
    assert_output --regexp 'mistakes: 0 caught, 0 missed, 0 broken'
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
        grep -q '^Mistake: ' "$patch" || fail "$patch does not say what it plants"
    done
}
