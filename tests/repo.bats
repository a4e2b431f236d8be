#!/usr/bin/env bats
# The repository itself: skeletons in step with the solutions, every program
# behaving on a machine without GPUs, every lab complete.

load helpers/lab

all_programs() {
    local p
    for p in "$BUILD_DIR"/ref/bin/* "$BUILD_DIR"/student/bin/*; do
        [ -x "$p" ] && echo "$p"
    done
}

lab_names() {
    local d
    for d in "$REPO_ROOT"/labs/[0-9][0-9]-*/; do
        basename "$d"
    done
}

@test "repo: the committed skeletons are exactly what the generator makes" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    run "$REPO_ROOT/tools/skeletons.sh" check
    assert_success
    assert_output --partial "labs/ matches solutions/"
}

@test "repo: regenerating never overwrites a skeleton a student edited" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$copy/"
    local edited
    edited=$(find "$copy/labs" -name '*.c' | sort | head -n 1)
    echo "/* my work */" >>"$edited"
    # Make the master differ too, so that the generator has something to write.
    local master="$copy/solutions/${edited#"$copy/labs/"}"
    echo "/* a newer master */" >>"$master"
    run "$copy/tools/skeletons.sh" generate
    assert_failure 1
    assert_output --partial "kept your edited"
    run tail -n 1 "$edited"
    assert_output "/* my work */"
    assert_file_exists "$edited.new"
    run tail -n 1 "$edited.new"
    assert_output "/* a newer master */"
}

@test "repo: regenerating updates a skeleton nobody edited" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$copy/"
    local master
    master=$(find "$copy/solutions" -name '*.c' | sort | head -n 1)
    echo "/* a newer master */" >>"$master"
    run "$copy/tools/skeletons.sh" generate
    assert_success
    run tail -n 1 "$copy/labs/${master#"$copy/solutions/"}"
    assert_output "/* a newer master */"
    run "$copy/tools/skeletons.sh" check
    assert_success
}

@test "repo: no solution text survives in a skeleton" {
    run grep -rl --include='*.c' --include='*.cu' --include='*.h' 'LAB_SKELETON' "$REPO_ROOT/labs"
    assert_failure
}

@test "repo: an unfinished TODO stops the program naming the TODO and file:line" {
    local src="$BATS_TEST_TMPDIR/todo_demo.c"
    printf '#include "todo.h"\nint main(void)\n{\n    LAB_TODO("99.1");\n}\n' >"$src"
    run gcc -std=c11 -Wall -Wextra -Werror -I "$REPO_ROOT/common" "$src" "$REPO_ROOT/common/todo.c" \
        -o "$BATS_TEST_TMPDIR/todo_demo"
    assert_success
    run "$BATS_TEST_TMPDIR/todo_demo"
    assert_failure 1
    assert_output --regexp "^TODO 99\.1 is not done yet \(.*todo_demo\.c:4\)"
}

@test "repo: every lab has a handout, tests, a skeleton and a solution" {
    local lab number
    for lab in $(lab_names); do
        number=${lab%%-*}
        assert_file_exists "$REPO_ROOT/labs/$lab/README.md"
        assert_file_exists "$REPO_ROOT/tests/lab$number.bats"
        [ -n "$(find "$REPO_ROOT/labs/$lab" -name '*.c' -o -name '*.cu')" ] || fail "labs/$lab has no sources"
        if [ -d "$REPO_ROOT/solutions" ]; then
            assert_dir_exists "$REPO_ROOT/solutions/$lab"
        fi
    done
}

@test "repo: every TODO in a skeleton is explained in its handout" {
    local lab id
    for lab in $(lab_names); do
        for id in $(grep -rhoE 'LAB_TODO\("[0-9]+\.[0-9]+"\)' "$REPO_ROOT/labs/$lab" | grep -oE '[0-9]+\.[0-9]+' | sort -u); do
            grep -qE "TODO $id\b" "$REPO_ROOT/labs/$lab/README.md" ||
                fail "labs/$lab/README.md does not explain TODO $id"
        done
    done
}

@test "repo: every lab program built, reference and student" {
    local lab
    for lab in $(lab_names); do
        [ -d "$REPO_ROOT/solutions" ] && assert_file_executable "$BUILD_DIR/ref/bin/$lab"
        assert_file_executable "$BUILD_DIR/student/bin/$lab"
    done
}

@test "repo: every program answers --help with usage and exit 0" {
    local p
    for p in $(all_programs); do
        run "$p" --help
        [ "$status" -eq 0 ] || fail "$p --help exited $status"
        [[ "$output" == *usage:* ]] || fail "$p --help prints no usage"
    done
}

@test "repo: every program without a GPU exits 77 with the reason" {
    local p
    for p in $(all_programs); do
        CUDA_VISIBLE_DEVICES= run "$p"
        [ "$status" -eq 77 ] || fail "$p exited $status without GPUs: $output"
        [[ "$output" == *"skipped: needs"* ]] || fail "$p gave no reason: $output"
    done
}

@test "repo: every program rejects an unknown option with exit 2" {
    local p
    for p in $(all_programs); do
        run "$p" --definitely-not-an-option
        [ "$status" -eq 2 ] || fail "$p exited $status on an unknown option"
    done
}

@test "repo: make help lists the targets and the variables" {
    run make -s -C "$REPO_ROOT" help CUDA_ARCH=90
    assert_success
    for target in all run test check doctor skeletons clean help; do
        assert_line --regexp "^  $target +"
    done
    for variable in LAB CUDA_HOME NVCC CUDA_ARCH V=1; do
        assert_output --partial "  $variable"
    done
}

@test "repo: make check without LAB says how to call it" {
    run make -s -C "$REPO_ROOT" check CUDA_ARCH=90
    assert_failure
    assert_output --partial "make check LAB=01"
}

@test "repo: build output stays under build/, sources stay clean" {
    run git -C "$REPO_ROOT" status --porcelain --ignored=matching -- labs solutions common tests tools
    refute_output --regexp '\.(o|d|a)$'
}

@test "repo: make docs builds the API and handout pages with no warning" {
    command -v doxygen >/dev/null || skip "doxygen is not installed (sudo apt-get install doxygen)"
    local out="$BATS_TEST_TMPDIR/docs"
    run make -s -C "$REPO_ROOT" docs BUILD="$out" CUDA_ARCH=90
    assert_success
    assert_file_exists "$out/docs/html/index.html"
    run cat "$out/docs/warnings.log"
    assert_output ""
    # The common/ API and every lab's handout are pages of their own.
    assert_file_exists "$out/docs/html/devices_8h.html"
    local lab
    for lab in $(lab_names); do
        grep -rqs "$(head -n 1 "$REPO_ROOT/labs/$lab/README.md" | sed 's/^# //' | cut -c1-20)" "$out/docs/html" ||
            fail "no docs page for labs/$lab/README.md"
    done
}

@test "repo: every handout has a Chinese twin with the same sections and TODO ids" {
    local lab en zh
    for lab in $(lab_names); do
        en="$REPO_ROOT/labs/$lab/README.md"
        zh="$REPO_ROOT/labs/$lab/README.zh-CN.md"
        assert_file_exists "$zh"
        [ "$(grep -c '^## ' "$en")" -eq "$(grep -c '^## ' "$zh")" ] ||
            fail "$lab: README.md has $(grep -c '^## ' "$en") sections, README.zh-CN.md $(grep -c '^## ' "$zh")"
        [ "$(grep -oE 'TODO [0-9]+\.[0-9]+' "$en" | sort -u)" = "$(grep -oE 'TODO [0-9]+\.[0-9]+' "$zh" | sort -u)" ] ||
            fail "$lab: the two handouts name different TODOs"
        [ "$(grep -m1 '^Needs: ' "$en")" = "$(grep -m1 '^Needs: ' "$zh")" ] ||
            fail "$lab: the two handouts state different needs"
        grep -q 'README.zh-CN.md' "$en" || fail "$lab: README.md does not link its Chinese twin"
    done
    grep -q 'README.zh-CN.md' "$REPO_ROOT/README.md" || fail "the top README does not link the Chinese handouts"
}

@test "repo: make slides renders every deck, and every image a deck shows exists" {
    command -v npm >/dev/null || skip "npm is not installed (sudo apt-get install npm)"
    local out="$BATS_TEST_TMPDIR/s" deck name img
    run make -s -C "$REPO_ROOT" slides BUILD="$out"
    assert_success
    for deck in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$deck" .md)
        assert_file_exists "$out/slides/$name.html"
        grep -q '<section' "$out/slides/$name.html" || fail "$name.html has no slides"
        for img in $(grep -oE '!\[[^]]*\]\([^)]+\)' "$deck" | sed -E 's/.*\(([^)]+)\)/\1/'); do
            assert_file_exists "$REPO_ROOT/slides/$img"
            assert_file_exists "$out/slides/$img"
        done
    done
}

@test "repo: with one GPU visible every program exits 77 with the reason" {
    require_gpus 1
    local p
    for p in $(all_programs); do
        CUDA_VISIBLE_DEVICES=0 run "$p"
        [ "$status" -eq 77 ] || fail "$p exited $status with one GPU: $output"
        [[ "$output" == *"this machine has 1"* ]] || fail "$p gave no reason: $output"
    done
}

@test "repo: make run completes its report on a machine with no GPU visible" {
    local report="$BATS_TEST_TMPDIR/report"
    CUDA_VISIBLE_DEVICES= REPORT_DIR="$report" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/run-report.sh"
    assert_success
    assert_file_exists "$report/report.md"
    run grep -c '— skipped: needs 2 GPUs' "$report/report.md"
    assert_output "$(lab_names | wc -l)"
    run grep -q 'no claim could be tested' "$report/report.md"
    assert_success
}
