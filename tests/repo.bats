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
    git -C "$REPO_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
        skip "not a git work tree (a copy without .git cannot tell ignored files)"
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

@test "repo: a GPU id beyond the machine's GPUs exits 2 naming it, for every program that takes one" {
    require_gpus 2
    local p n
    n=$(gpu_count)
    for p in $(all_programs); do
        "$p" --help | grep -q -- '--gpu-a' || continue
        for args in "-a 0 -b $n" "-a $((n + 5)) -b 0"; do
            # shellcheck disable=SC2086 # the arguments are split on purpose
            run "$p" $args
            [ "$status" -eq 2 ] || fail "$p $args exited $status: $output"
            [[ "$output" == *"does not exist: this machine has $n GPUs"* ]] || fail "$p $args: $output"
            [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "$p $args: not one error line: $output"
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

# The rows of the catalogue the report quotes (tools/chapter-claims.tsv),
# without comments and header, and their claim ids.
catalogue_rows() {
    grep -v '^#' "$REPO_ROOT/tools/chapter-claims.tsv" | tail -n +2
}
catalogue_ids() {
    catalogue_rows | cut -f1
}

# report_without_results DIR EXPECTED_REASON: a report with every lab skipped.
report_without_results() {
    local report=$1 reason=$2 id
    assert_file_exists "$report/report.md"
    run grep -c "| skipped: $reason" "$report/report.md"
    assert_output "$(lab_names | wc -l)"
    grep -q "cannot be tested on this machine ($(catalogue_ids | wc -l) of them because their lab did not run" \
        "$report/report.md" || fail "the summary does not count the claims that were not run"
    for id in $(catalogue_ids); do
        grep -q "(\`$id\`) | cannot be tested here | not measured: lab [0-9]* skipped: $reason" "$report/report.md" ||
            fail "the ledger does not say why $id was not measured"
    done
    assert_file_not_exists "$report/bandwidth.png"
    grep -q '^No plots: lab 05 skipped' "$report/report.md" || fail "the report does not say why there are no plots"
}

@test "repo: make run completes its report on a machine with no GPU visible" {
    local report="$BATS_TEST_TMPDIR/report"
    CUDA_VISIBLE_DEVICES= REPORT_DIR="$report" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/run-report.sh"
    assert_success
    assert_output --partial "05-p2p-performance: skipped: needs 2 GPUs" # progress, as it runs
    report_without_results "$report" "needs 2 GPUs, this machine has 0"
}

@test "repo: make run completes its report with one GPU visible" {
    require_gpus 1
    local report="$BATS_TEST_TMPDIR/report"
    CUDA_VISIBLE_DEVICES=0 REPORT_DIR="$report" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/run-report.sh"
    assert_success
    report_without_results "$report" "needs 2 GPUs, this machine has 1"
}

@test "repo: with a P2P pair, make run writes the full report (labs in their quick form)" {
    require_p2p_pair
    local report="$BATS_TEST_TMPDIR/report" id
    REPORT_QUICK=1 REPORT_DIR="$report" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/run-report.sh"
    assert_success
    assert_output --partial "running ce_bandwidth" # lab 05's progress, as it runs
    run grep -c '^| [0-9][0-9]-[a-z0-9-]* | ok |' "$report/report.md"
    assert_output "$(lab_names | wc -l)"
    for heading in '^cudaDeviceCanAccessPeer' '^== link:' "^Chapter 4.4's table" '^One counter' \
        '^Histogram' '^Latency of one atomic'; do
        grep -qE "$heading" "$report/report.md" || fail "the report lacks the block '$heading'"
    done
    if command -v gnuplot >/dev/null; then
        for png in bandwidth latency; do
            grep -qF "]($png.png)" "$report/report.md" || fail "the report does not show $png.png"
            [ "$(head -c 4 "$report/$png.png" | tail -c 3)" = PNG ] || fail "$png.png is not a PNG image"
        done
    else
        grep -q '^No plots: gnuplot is not installed' "$report/report.md" || fail "no plots and no reason"
    fi
    for id in $(catalogue_ids); do
        grep -qE "\(\`$id\`\) \| (\*\*holds\*\*|\*\*does not hold\*\*|cannot be tested here) \| [^|]*[0-9a-z]" \
            "$report/report.md" || fail "the ledger has no verdict with a measurement for $id"
    done
    refute_output --partial "claims missing from"
    run grep -c '| not measured: ' "$report/report.md"
    assert_output 0
}

@test "repo: every claim a lab prints is in the catalogue the report quotes, under its lab" {
    local n id lab section
    for n in $(lab_names | cut -c1-2); do
        for id in $(grep '^claim,' "$FIXTURES/lab$n-run.csv" | tr ',' '\n' | grep -E '^[a-z][a-z0-9_]+$' | grep -vxE 'claim|holds|does_not_hold|not_testable'); do
            lab=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$REPO_ROOT/tools/chapter-claims.tsv")
            [ "$lab" = "$n" ] || fail "claim $id of lab $n: the catalogue says lab '${lab}'"
        done
    done
    while IFS=$'\t' read -r id lab section quote meaning; do
        grep -qE "^claim,(.*,)?$id," "$FIXTURES/lab$lab-run.csv" || fail "$id: lab $lab's recorded run has no such claim"
        [[ "$section" =~ ^4\.[1-4]$ ]] || fail "$id: section '$section' is not one of 4.1-4.4"
        [ -n "$quote" ] && [ -n "$meaning" ] || fail "$id: no quote or no meaning"
    done < <(catalogue_rows)
}

@test "repo: an interrupted make run leaves the previous report as it was" {
    local fake="$BATS_TEST_TMPDIR/build" report="$BATS_TEST_TMPDIR/report" pid waited=0
    # A build whose only lab takes its time, like lab 05 does.
    mkdir -p "$fake/ref/bin" "$fake/tools" "$report"
    printf '#!/bin/sh\necho started >&2\nexec sleep 60\n' >"$fake/ref/bin/01-slow"
    chmod +x "$fake/ref/bin/01-slow"
    echo "the previous report" >"$report/report.md"
    # Its own process group, which Ctrl-C in a terminal or a job's kill hits
    # as a whole (SIGTERM: a background job of a script ignores SIGINT).
    BUILD="$fake" REPORT_DIR="$report" setsid "$REPO_ROOT/tools/run-report.sh" >"$BATS_TEST_TMPDIR/log" 2>&1 &
    pid=$!
    until grep -q started "$BATS_TEST_TMPDIR/log"; do
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 100 ] || { kill -- -"$pid"; fail "the run did not start the lab"; }
    done
    kill -TERM -- -"$pid"
    wait "$pid" || true
    assert_equal "$(cat "$report/report.md")" "the previous report"
    run ls -d "$report".tmp.*
    assert_failure # no half-written report left beside it
    run cat "$BATS_TEST_TMPDIR/log"
    assert_output --partial "interrupted; $report is left as it was"
}
