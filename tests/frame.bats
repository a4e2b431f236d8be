#!/usr/bin/env bats
# The shared harness: labs are discovered, the grade cannot be forged from
# the student's tree, and verdicts are functions of recorded rows.

setup_file() {
    load helpers/lab
    [ -d "$REPO_ROOT/tools/lab-template" ] || return 0 # a student tree: setup() skips
    # A scratch copy of the course with a lab 99 made from the template.
    export SCRATCH="$BATS_FILE_TMPDIR/course"
    mkdir -p "$SCRATCH"
    (cd "$REPO_ROOT" && tools/source-files.sh | xargs -0 cp --parents -t "$SCRATCH")
    git -C "$SCRATCH" init -q && git -C "$SCRATCH" add -A &&
        git -C "$SCRATCH" -c user.name=t -c user.email=t@t commit -qm base
    (cd "$SCRATCH" && tools/new-lab.sh 99 demo-lab >"$BATS_FILE_TMPDIR/new-lab.log" 2>&1)
    make -s -C "$SCRATCH" -j2 all CUDA_ARCH=90 BUILD="$SCRATCH/build" >"$BATS_FILE_TMPDIR/build.log" 2>&1 ||
        echo "build failed" >>"$BATS_FILE_TMPDIR/build.log"
}

setup() {
    load helpers/lab
    [ -d "$REPO_ROOT/tools/lab-template" ] || skip "the lab template is the maintainers': not in the student tree"
}

# outside_lab99: the scratch copy's changed or new files that are not lab 99's own, one a line.
outside_lab99() {
    local changed
    changed=$(git -C "$SCRATCH" status --porcelain --untracked-files=all) || return 1
    sed -E 's/^...//' <<<"$changed" |
        grep -vE '^(labs/99-demo-lab/|solutions/99-demo-lab/|tests/lab99\.bats$|tests/unit/lab99\.c$|tests/mistakes/lab99-[a-z0-9-]+\.patch$)' ||
        true
}

@test "frame: a new lab from the template touches only its own folders and test files" {
    local outside
    outside=$(outside_lab99) || fail "git status failed in the scratch copy"
    [ -z "$outside" ] || fail "adding lab 99 touched: $outside"
    assert_file_exists "$SCRATCH/labs/99-demo-lab/student/copy_count.c"
}

# The rules are the tests tagged lab-rules in the suite's own files: each judges every lab.
@test "frame: a new lab from the template passes every rule the suite holds labs to" {
    local files=() f
    for f in repo handouts grading; do
        [ -f "$SCRATCH/tests/$f.bats" ] && files+=("tests/$f.bats")
    done
    [ "${#files[@]}" -gt 0 ] || fail "no file of the suite's rules in the scratch copy"
    # The inner Bats gets none of this run's Bats variables (a -f filter, its test's names and
    # folders), only where its libraries are.
    local clean=() v
    for v in $(compgen -e); do
        if [[ $v == BATS_* && $v != BATS_LIB_PATH ]]; then clean+=(-u "$v"); fi
    done
    run env "${clean[@]}" BUILD="$SCRATCH/build" CUDA_ARCH=90 bash -c \
        'cd "$1" && shift && bats --formatter tap --filter-tags lab-rules "$@"' _ "$SCRATCH" "${files[@]}"
    assert_success
    assert_line --regexp '^1\.\.[1-9][0-9]*$'
    assert_line --regexp '^ok [0-9]+ [^#]*$' # one ran and passed, not only skips
    # Its planted mistakes apply, build and are caught (the rules' run builds no patch).
    local patches
    patches=$(ls "$SCRATCH"/tests/mistakes/lab99-*.patch | wc -l)
    run env "${clean[@]}" BUILD="$SCRATCH/build" CUDA_ARCH=90 MISTAKES='lab99-*' "$SCRATCH/tools/mistakes.sh"
    assert_success
    assert_line --regexp "^mistakes: $patches caught, 0 missed, 0 not checkable here, 0 broken"
    # The rules' runs left nothing behind outside lab 99's own files.
    local outside
    outside=$(outside_lab99) || fail "git status failed in the scratch copy"
    [ -z "$outside" ] || fail "the new lab, or the rules run on it, touched: $outside"
}

@test "frame: the new lab builds, lists its experiments and appears in make help" {
    run cat "$BATS_FILE_TMPDIR/build.log"
    refute_output --partial "build failed"
    run "$SCRATCH/build/ref/bin/99-demo-lab" --list
    assert_success
    assert_output --regexp '^copy +a verified copy'
    run make -s -C "$SCRATCH" help CUDA_ARCH=90
    assert_output --regexp 'labs: .*99'
}

@test "frame: the new lab's unfinished TODO names itself; its reference passes its unit tests" {
    run "$SCRATCH/build/student/unit/99-demo-lab"
    assert_failure
    assert_output --regexp 'TODO 99\.1 is not done yet \(labs/99-demo-lab/student/copy_count\.c:[0-9]+\)'
    run "$SCRATCH/build/ref/unit/99-demo-lab"
    assert_success
    assert_line "ok overflow"
}

@test "frame: the new lab appears in the report, with its rows as data" {
    run env BUILD="$SCRATCH/build" REPORT_QUICK=1 "$SCRATCH/tools/report/run_report.py"
    assert_file_exists "$SCRATCH/build/report/report.md"
    assert_file_exists "$SCRATCH/build/report/data/99-demo-lab.csv"
    run grep -c '^## 99-demo-lab$' "$SCRATCH/build/report/report.md"
    assert_output 1
    run head -1 "$SCRATCH/build/report/data/99-demo-lab.csv"
    assert_output "$(head -1 "$FIXTURES/rows-header.csv")"
}

@test "frame: the new lab is graded, and an edit of the harness in a student's tree changes no score" {
    local student="$BATS_FILE_TMPDIR/student"
    cp -r "$SCRATCH" "$student"
    rm -rf "$student/build"
    run env BUILD="$SCRATCH/build" SUBMISSION="$student" GRADE_LABS=99 "$SCRATCH/tools/grade.sh"
    assert_line --regexp '^99 '
    assert_line --regexp '^total +0 of [1-9]'
    local honest
    honest=$(grep -E '^total ' <<<"$output")
    # The student forges the checker, the harness and the tests of its own tree.
    printf 'int main(void) { return 0; }\n' >"$student/tests/unit/lab99.c"
    sed -i 's/return failed;/return 0;/' "$student/tests/unit/lab99.c"
    sed -i 's/row.verified = memcmp(got, want, bytes) == 0;/row.verified = 1;/' \
        "$student/labs/99-demo-lab/harness/experiments.c"
    sed -i 's/^@test /@test /; s/assert_failure/true/g; s/assert_success/true/g' "$student/tests/lab99.bats"
    run env BUILD="$SCRATCH/build" SUBMISSION="$student" GRADE_LABS=99 "$SCRATCH/tools/grade.sh"
    assert_equal "$(grep -E '^total ' <<<"$output")" "$honest"
    # Graded in its own tree with the forged tests, the same work would score more.
    run make -s -C "$student" grade GRADE_LABS=99 CUDA_ARCH=90 BUILD="$student/build"
    local forged
    forged=$(grep -E '^total ' <<<"$output")
    [ "$forged" != "$honest" ] || fail "the forged tree scores the same in place: the test proves nothing"
}

@test "frame: the verdicts recomputed from every recorded run (on every machine of machines.tsv) are the recorded ones" {
    local fixture lab tool n=0
    for fixture in $(all_recordings); do
        lab=$(basename "$fixture" | cut -c4-5)
        tool=$(host_tool "$lab" 2>/dev/null) || continue
        run "$tool" check "$fixture"
        [ "$status" -eq 0 ] || fail "$(basename "$fixture"): $output"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || fail "no recorded run has a host tool"
}

@test "frame: every lab's claims.tsv and its judges name the same claims" {
    local dir lab tool fixture n=0
    for dir in "$REPO_ROOT"/labs/[0-9][0-9]-*/harness; do
        lab=$(basename "$(dirname "$dir")")
        tool="$BUILD_DIR/host/$lab"
        # A lab not recorded yet has no run to judge.
        for fixture in $(recordings "${lab%%-*}"); do
            diff <(lab_claim_ids "${lab%%-*}" | sort) \
                 <("$tool" verdicts "$fixture" | rows_awk '{ print f("variant") }' | sort) ||
                fail "$lab: claims.tsv and the lab's judges of $(basename "$fixture") differ (< catalogue, > judges)"
            n=$((n + 1))
        done
    done
    [ "$n" -gt 0 ] || fail "no lab has a recording to judge"
}

@test "frame: a host tool refuses a file that is not a result file, naming the line" {
    local tool
    tool="$SCRATCH/build/host/99-demo-lab"
    printf 'not,a,header\n' >"$BATS_TEST_TMPDIR/bad.csv"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/bad.csv"
    assert_failure 1
    assert_output --partial "line 1 is not the result header"
    { head -1 "$FIXTURES/rows-header.csv"; echo "copy,x,,0,0,,12,1,1,1.0,1.0,1.0,,,1,,"; echo "copy,x,,zero,0"; } >"$BATS_TEST_TMPDIR/bad2.csv"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/bad2.csv"
    assert_failure 1
    assert_output --partial "line 3: not a result row"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/missing.csv"
    assert_failure 1
    assert_output --partial "cannot open"
    local other
    other=$(recording 01)
    run "$tool" report "$other"
    assert_failure 1
    assert_output --partial "the rows of another lab"
    run "$tool"
    assert_failure 2
}

@test "frame: a host tool told --recording calls the machine that made the rows 'that machine', in its sentences and in the rows'" {
    local suffix fixture tool kind plain told spoke=0
    # Every recording, each verdict and report section: told, it is the same text with the
    # recording's machine named from elsewhere, and nothing of it speaks of "this machine".
    for suffix in $(machine_suffixes); do
        for fixture in "$FIXTURES"/lab[0-9][0-9]-"$suffix".csv; do
            tool=$(host_tool "$(basename "$fixture" | cut -c4-5)") || continue
            for kind in verdicts report; do
                plain=$("$tool" "$kind" "$fixture") || fail "$tool $kind $fixture failed"
                told=$("$tool" --recording "$kind" "$fixture") || fail "$tool --recording $kind $fixture failed"
                grep -q "[Tt]his machine" <<<"$plain" && spoke=$((spoke + 1))
                plain=${plain//this machine/that machine}
                assert_equal "$told" "${plain//This machine/That machine}"
            done
        done
    done
    [ "$spoke" -gt 0 ] || fail "no recording speaks of this machine: the test proves nothing"
    # A detail the measuring program wrote of its own machine, in a row of no recording.
    tool=$(host_tool 02)
    { head -1 "$FIXTURES/rows-header.csv"
      echo "sweep,skipped,peer,-1,-1,,0,0,0,,,,,,-1,,the peer routes need 2 GPUs; This machine has 1"; } >"$BATS_TEST_TMPDIR/one.csv"
    run "$tool" report "$BATS_TEST_TMPDIR/one.csv"
    assert_output --partial "This machine has 1"
    run "$tool" report --recording "$BATS_TEST_TMPDIR/one.csv"
    assert_success
    assert_output --partial "That machine has 1"
    refute_output --partial "This machine"
    run "$tool" --recorded report "$BATS_TEST_TMPDIR/one.csv"
    assert_failure 2
    assert_output --partial "unknown option: --recorded"
}

@test "frame: shared options — --list beside another option, an unknown key, a bad count: exit 2 with one line" {
    run "$SCRATCH/build/ref/bin/99-demo-lab" --list --csv
    assert_failure 2
    assert_output --partial "--list takes no other option"
    run "$SCRATCH/build/ref/bin/99-demo-lab" -t nosuch
    assert_failure 2
    assert_output --partial "no experiment 'nosuch'"
    run "$SCRATCH/build/ref/bin/99-demo-lab" --reps 0
    assert_failure 2
    run "$SCRATCH/build/ref/bin/99-demo-lab" --csv --help
    assert_success
    assert_output --partial "usage: 99-demo-lab"
}

@test "frame: a lab's lab.mk gives its harness and its link flags of its own, and no other lab" {
    printf 'LAB_CFLAGS_99-demo-lab := -DLAB99_OWN_FLAG\nLAB_LDLIBS_99-demo-lab := -lLAB99_own_lib\n' \
        >"$SCRATCH/labs/99-demo-lab/lab.mk"
    run make -n -B -C "$SCRATCH" V=1 CUDA_ARCH=90 BUILD="$SCRATCH/build" \
        "$SCRATCH/build/ref/bin/99-demo-lab" "$SCRATCH/build/ref/bin/01-peer-checks"
    rm "$SCRATCH/labs/99-demo-lab/lab.mk"
    assert_success
    assert_line --regexp '-DLAB99_OWN_FLAG .*-c labs/99-demo-lab/harness/experiments\.c'
    assert_line --regexp '-o .*/bin/99-demo-lab .*-lLAB99_own_lib'
    refute_line --regexp 'DLAB99_OWN_FLAG.*labs/01-peer-checks/'
    refute_line --regexp '-o .*/bin/01-peer-checks .*LAB99_own_lib'
}
