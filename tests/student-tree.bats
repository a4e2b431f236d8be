#!/usr/bin/env bats
# The student tree (make handout) as a student gets it: built, tested, checked,
# run and graded there, from scratch. It runs the student tree's own suite once,
# so it is a file (and a target, make test-student-tree) of its own.

load helpers/lab

setup() {
    [ -d "$REPO_ROOT/solutions" ] || skip "make handout is the instructor's: not in the student tree"
    command -v unifdef >/dev/null || skip "unifdef is not installed (sudo apt-get install unifdef)"
}

# The tests a student runs: the shared frame's and each lab's, nothing that needs solutions/.
student_test_files() {
    (cd "$1/tests" && ls common.bats lab[0-9][0-9].bats)
}

@test "student tree: a product of its own: its README, its targets, each of them working" {
    local out="$BATS_TEST_TMPDIR/h"
    run make -s -C "$REPO_ROOT" handout BUILD="$out"
    assert_success
    local tree="$out/handout/p2p-course"
    assert_file_exists "$out/handout/p2p-course.tar.gz"
    assert_dir_not_exists "$tree/solutions"
    assert_dir_not_exists "$tree/tests/mistakes"
    assert_dir_not_exists "$tree/tools/authoring/lab-template"
    run grep -rl --include='*.c' --include='*.cu' --include='*.h' 'LAB_SKELETON' "$tree"
    assert_failure
    # Its README is the student's: what to do, in order; nothing of the instructor's.
    run grep -cE 'solutions/|GRADE_BUILD|mistakes' "$tree/README.md"
    assert_output 0
    grep -q 'make check LAB=01' "$tree/README.md" || fail "the student README does not say how to check a lab"
    # Its tests are the student's: every lab's file and the frame's, no file that would only skip.
    run diff <(cd "$tree/tests" && ls ./*.bats | sed 's#^\./##') <(student_test_files "$REPO_ROOT")
    assert_success
    # make help offers only what works there.
    run make -s -C "$tree" BUILD=build help CUDA_ARCH=90
    assert_success
    refute_output --regexp '^  (reference|mistakes|skeletons|skeletons-check|handout|test-student-tree) '
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
    # It ran every test of the student's files, and only those.
    local planned want
    planned=$(grep -m1 -E '^1\.\.[0-9]+$' <<<"$output" | cut -d. -f3)
    want=$(cd "$tree/tests" && cat $(student_test_files "$tree") | grep -cE '^@test ')
    assert_equal "$planned" "$want"
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
