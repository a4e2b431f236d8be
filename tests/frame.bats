#!/usr/bin/env bats
# The shared harness: labs are discovered, the grade cannot be forged from
# the student's tree, and verdicts are functions of recorded rows.

setup_file() {
    load helpers/lab
    [ -d "$REPO_ROOT/tools/authoring/lab-template" ] || return 0 # a student tree: setup() skips
    # A scratch copy of the course with a lab 99 made from the template.
    export SCRATCH="$BATS_FILE_TMPDIR/course"
    scratch_repo "$SCRATCH"
    (cd "$SCRATCH" && tools/authoring/new-lab.sh 99 demo-lab >"$BATS_FILE_TMPDIR/new-lab.log" 2>&1)
    make -s -C "$SCRATCH" -j2 all CUDA_ARCH=90 BUILD="$SCRATCH/build" >"$BATS_FILE_TMPDIR/build.log" 2>&1 ||
        echo "build failed" >>"$BATS_FILE_TMPDIR/build.log"
}

setup() {
    load helpers/lab
    [ -d "$REPO_ROOT/tools/authoring/lab-template" ] || skip "the lab template is the maintainers': not in the student tree"
}

# outside_lab99: the scratch copy's changed or new files that are not lab 99's own, one a line.
outside_lab99() {
    local changed
    changed=$(git -C "$SCRATCH" status --porcelain --untracked-files=all) || return 1
    sed -E 's/^...//' <<<"$changed" |
        grep -vE '^(labs/99-demo-lab/|solutions/99-demo-lab/|slides/99-demo-lab\.md$|tests/lab99\.bats$|tests/unit/lab99\.c$|tests/mistakes/lab99-[a-z0-9-]+\.patch$)' ||
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
    for f in repo handouts grading slides; do
        [ -f "$SCRATCH/tests/$f.bats" ] && files+=("tests/$f.bats")
    done
    [ "${#files[@]}" -gt 0 ] || fail "no file of the suite's rules in the scratch copy"
    # The inner Bats gets none of this run's Bats variables (a -f filter, its test's names and
    # folders), only where Bats and its libraries are: "bats" in PATH is now Bats' libexec
    # launcher, which reads BATS_ROOT.
    local clean=() v
    for v in $(compgen -e); do
        if [[ $v == BATS_* && $v != BATS_LIB_PATH && $v != BATS_ROOT ]]; then clean+=(-u "$v"); fi
    done
    run env "${clean[@]}" BUILD="$SCRATCH/build" CUDA_ARCH=90 bash -c \
        'cd "$1" && shift && bats --formatter tap --filter-tags lab-rules "$@"' _ "$SCRATCH" "${files[@]}"
    assert_success
    assert_line --regexp '^1\.\.[1-9][0-9]*$'
    assert_line --regexp '^ok [0-9]+ [^#]*$' # one ran and passed, not only skips
    # Its planted mistakes apply, build and are caught (the rules' run builds no patch).
    local patches
    patches=$(ls "$SCRATCH"/tests/mistakes/lab99-*.patch | wc -l)
    run env "${clean[@]}" BUILD="$SCRATCH/build" CUDA_ARCH=90 MISTAKES='lab99-*' "$SCRATCH/tools/grading/mistakes.sh"
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

# add_machine COPY SUFFIX GPU LINK FROM: a machine of one GPU named GPU, its link to the host
# LINK (PCIe), as one row of COPY's machines.tsv (its columns in the header's order), and its
# recordings: those of the machine FROM, with FROM's GPU name and file names changed to its own.
add_machine() {
    local copy=$1 suffix=$2 gpu=$3 link=$4 from=$5 col line="" f g base new name was
    local -A row=([suffix]=$suffix [gpus]="1× $gpu" [link]=$link [link_en]="$link to the host"
                  [link_zh]="经 $link 连接主机" [gpu_count]=1 [gpu]=$gpu [label]="1× $gpu" [link_kind]=PCIe)
    while IFS= read -r col; do
        line+="${line:+$'\t'}${row[$col]?machines.tsv has a column '$col' the test does not fill}"
    done < <(grep -v '^#' "$copy/tests/fixtures/machines.tsv" | head -n 1 | tr '\t' '\n')
    printf '%s\n' "$line" >>"$copy/tests/fixtures/machines.tsv"
    was=$(machine_field "$from" gpu | sed 's/[][\.*^$/]/\\&/g')
    for f in $(all_recordings suffix="$from"); do
        base=$(basename "$f" .csv)
        new=${base%"-$from"}-$suffix
        for g in "$FIXTURES/$base".*; do # its rows, its command, its nvbandwidth runs
            name=$(basename "$g")
            sed -e "s/$was/$gpu/g" -e "s/$base\./$new./g" "$g" >"$copy/tests/fixtures/${name/"$base"/"$new"}"
        done
    done
}

# outside_other_recordings: a handout (stdin) with the generated part other-recordings emptied.
outside_other_recordings() {
    awk '/^<!-- fill: other-recordings -->$/ { print; skip = 1; next } /^<!-- \/fill -->$/ { skip = 0 } !skip'
}

@test "frame: a new machine is one row and its recordings: the report, the handouts, the README's ledger, the scoreboard and the plots show it" {
    local copy="$BATS_TEST_TMPDIR/course" suffix=madeup gpu="Made-up GPU" link="PCIe Gen4 ×16"
    local from gpus f nn lab h n labs=()
    from=$(machine_suffixes gpu_count=1 | head -n 1)
    [ -n "$from" ] || fail "no machine of one GPU in machines.tsv to derive the new one's recordings from"
    gpus="1× $gpu" # its row's GPUs and its label
    scratch_repo "$copy"
    add_machine "$copy" "$suffix" "$gpu" "$link" "$from"
    for f in "$copy"/tests/fixtures/lab[0-9][0-9]-"$suffix".csv; do
        labs+=("$(basename "$f" | cut -c4-5)")
    done
    [ "${#labs[@]}" -gt 0 ] || fail "no recording derived from the machine $from"

    # The report, as make run writes it where no GPU is seen: the recordings of each lab.
    CUDA_VISIBLE_DEVICES= REPORT_DIR="$BATS_TEST_TMPDIR/report" BUILD="$BUILD_DIR" run "$copy/tools/report/run_report.py"
    assert_success
    run grep -cF "### Recorded on $gpus ($link to the host), " "$BATS_TEST_TMPDIR/report/report.md"
    assert_output "${#labs[@]}"
    run grep -c "^- on $gpus ($link to the host): [0-9]* hold, " "$BATS_TEST_TMPDIR/report/report.md"
    assert_output 1

    # The handouts: each lab's, in both languages, shows it in its part other-recordings, and
    # nothing else of any handout (or of the README) changes.
    BUILD="$BUILD_DIR" run "$copy/tools/authoring/handout-numbers.py"
    assert_success
    for nn in "${labs[@]}"; do
        for h in "$copy"/labs/"$nn"-*/README.md "$copy"/labs/"$nn"-*/README.zh-CN.md; do
            lab=$(basename "$(dirname "$h")")
            run sed -n '/^<!-- fill: other-recordings -->$/,/^<!-- \/fill -->$/p' "$h"
            if [[ $h == *.zh-CN.md ]]; then
                assert_line "### 一块 $gpu（$link）"
                assert_output --partial "记录于 **$gpus**（经 $link 连接主机）"
            else
                assert_line "### $gpus ($link)"
                assert_output --partial "Recorded on **$gpus** ($link to the host)"
            fi
            assert_output --partial "(../../tests/fixtures/lab$nn-$suffix.csv)"
            # its verdicts: the first claim's, as the lab's host tool judges it
            assert_output --partial "$("$BUILD_DIR/host/$lab" verdicts "$copy/tests/fixtures/lab$nn-$suffix.csv" |
                rows_awk 'NR == 2 { print f("variant") ": " f("value") ": " }')"
        done
    done
    # The README's ledger, in its part other-recordings.
    run grep -c "^- on $gpus ($link to the host): [0-9]* of the chapter's [0-9]* claims get a measured verdict" "$copy/README.md"
    assert_output 1
    for h in "$copy"/README.md "$copy"/labs/[0-9][0-9]-*/README*.md; do
        diff <(git -C "$copy" show "HEAD:${h#"$copy/"}" | outside_other_recordings) <(outside_other_recordings <"$h") ||
            fail "${h#"$copy/"}: make handout-numbers changed more than its part other-recordings"
    done
    BUILD="$BUILD_DIR" run "$copy/tools/authoring/handout-numbers.py" --check
    assert_success

    # Deck 00's scoreboard: a column for it on every page.
    BUILD="$BUILD_DIR" run "$copy/tools/slides/slides-fill.py" "$copy/slides/00-introduction.md" "$BATS_TEST_TMPDIR/00.md"
    assert_success
    n=$(grep -c '^{{scoreboard ' "$copy/slides/00-introduction.md")
    [ "$n" -gt 0 ] || fail "deck 00 has no scoreboard"
    run grep -c "^| lab | claim | § | .* | $gpus, $link |\$" "$BATS_TEST_TMPDIR/00.md"
    assert_output "$n"

    # The plots: make run's report draws each of its recordings, titled with it; every slide
    # plot of a lab it has a recording of, and the topology diagram, show it: each is drawn
    # otherwise than from the same scripts and the fixtures without it.
    if command -v gnuplot >/dev/null && command -v dot >/dev/null; then
        run grep -c "^!\[[0-9][0-9]-[a-z0-9-]*: [a-z0-9-]*, $gpus, [0-9-]*\]([0-9][0-9]-[a-z0-9-]*-$suffix-[a-z0-9-]*\.png)\$" \
            "$BATS_TEST_TMPDIR/report/report.md"
        [ "$output" -gt 0 ] || fail "the report draws no plot of the new machine's recordings"
        for f in $(sed -nE "s/^!\[.*\]\(([0-9][0-9]-[a-z0-9-]*-$suffix-[a-z0-9-]*\.png)\)\$/\1/p" "$BATS_TEST_TMPDIR/report/report.md"); do
            assert_file_exists "$BATS_TEST_TMPDIR/report/$f"
        done
        mkdir -p "$BATS_TEST_TMPDIR/bin"
        printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\nexec %q "$@"\n' "$BATS_TEST_TMPDIR/gnuplot.log" "$(command -v gnuplot)" \
            >"$BATS_TEST_TMPDIR/bin/gnuplot"
        chmod +x "$BATS_TEST_TMPDIR/bin/gnuplot"
        PATH="$BATS_TEST_TMPDIR/bin:$PATH" run "$copy/slides/plots/make-plots.sh" "$BATS_TEST_TMPDIR/img"
        assert_success
        # every plot script of a lab it has a recording of is handed it, its row's words with it
        for nn in "${labs[@]}"; do
            [ -e "$copy/slides/plots/lab$nn.gp" ] || continue
            grep "lab$nn\.gp\$" "$BATS_TEST_TMPDIR/gnuplot.log" | grep -F "='$copy/tests/fixtures/lab$nn-$suffix.csv';" |
                grep -qF "='$gpus';" || fail "make-plots.sh does not hand lab$nn.gp the new machine's recording and row"
        done
        # and every plot and the diagram show it: none is drawn the same as without it
        FIXTURES="$FIXTURES" PLOTS="$copy/slides/plots" run "$copy/slides/plots/make-plots.sh" "$BATS_TEST_TMPDIR/img-before"
        assert_success
        local same=() compared=0
        for nn in "${labs[@]}"; do
            for f in "$BATS_TEST_TMPDIR"/img-before/lab"$nn"-*.png; do
                [ -e "$f" ] || continue
                compared=$((compared + 1))
                cmp -s "$f" "$BATS_TEST_TMPDIR/img/$(basename "$f")" && same+=("$(basename "$f")")
            done
        done
        [ "$compared" -gt 0 ] || fail "no plot of a lab the new machine has recordings of was drawn"
        [ "${#same[@]}" -eq 0 ] || fail "drawn the same with the new machine as without it: ${same[*]}"
        svg_words "$BATS_TEST_TMPDIR/img/topology.svg" | grep -qxF "$gpus, $link" ||
            fail "the topology diagram does not show the new machine ($gpus, $link)"
        ! svg_words "$BATS_TEST_TMPDIR/img-before/topology.svg" | grep -qxF "$gpus, $link" ||
            fail "the topology diagram shows the new machine without its recordings"
    else
        echo "# the plots are not checked: gnuplot or dot is not installed" >&3
    fi

    # Nothing changed in the copy but the row, the recordings, the handouts and the README.
    run bash -c "git -C '$copy' status --porcelain --untracked-files=all | cut -c4- |
        grep -vxE 'tests/fixtures/machines\.tsv|tests/fixtures/lab[0-9]{2}-$suffix\.(csv|cmd|nvbandwidth-[a-z]+\.json)|(labs/[0-9]{2}-[a-z0-9-]+/)?README(\.zh-CN)?\.md'"
    assert_output ""
}

@test "frame: the new lab is graded, and an edit of the harness in a student's tree changes no score" {
    local student="$BATS_FILE_TMPDIR/student"
    cp -r "$SCRATCH" "$student"
    rm -rf "$student/build"
    run env BUILD="$SCRATCH/build" SUBMISSION="$student" GRADE_LABS=99 "$SCRATCH/tools/grading/grade.sh"
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
    run env BUILD="$SCRATCH/build" SUBMISSION="$student" GRADE_LABS=99 "$SCRATCH/tools/grading/grade.sh"
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
