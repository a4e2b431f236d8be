#!/usr/bin/env bats
# The handouts (labs/*/README.md, README.zh-CN.md) and the READMEs: every
# recorded number generated from the fixture it cites, no hand-written line
# numbers, the build flags as the Makefile has them, and the Chinese
# handouts held to one glossary and to the chapter's own words.

load helpers/lab

handouts() {
    ls "$REPO_ROOT"/labs/[0-9][0-9]-*/README.md "$REPO_ROOT"/labs/[0-9][0-9]-*/README.zh-CN.md
}

numbers() {
    BUILD="$BUILD_DIR" "$1/tools/authoring/handout-numbers.py" "${@:2}"
}

# A copy of what the generator reads, to break on purpose.
copy_tree() {
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy/tests"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/Makefile" "$REPO_ROOT/README.md" "$copy/"
    cp -r "$REPO_ROOT/tests/fixtures" "$copy/tests/"
    echo "$copy"
}

# bats test_tags=lab-rules
@test "handouts: every generated number is what its fixture gives (make handout-numbers)" {
    run numbers "$REPO_ROOT" --check
    assert_success
    refute_output
}

# bats test_tags=lab-rules
@test "handouts: each cites the recording of every machine of machines.tsv, with the hardware" {
    local h nn part fx suffix gpus caption own
    [ -n "$(machine_suffixes)" ] || fail "tests/fixtures/machines.tsv names no machine"
    for h in $(handouts); do
        nn=$(basename "$(dirname "$h")" | cut -c1-2)
        # The recordings of the machines with no parts of their own are generated here.
        grep -qF "<!-- fill: other-recordings -->" "$h" || fail "$h: no generated part for the other machines' recordings"
        for suffix in $(machine_suffixes); do
            fx="lab$nn-$suffix.csv"
            # A machine has a caption, report and verdicts of its own, or none (a new machine's row).
            own=0
            for part in "machine ${fx%.csv} caption" "report ${fx%.csv}" "verdicts ${fx%.csv}"; do
                if grep -qF "<!-- fill: $part -->" "$h"; then own=$((own + 1)); fi
            done
            [ "$own" = 0 ] || [ "$own" = 3 ] || fail "$h: $own of the caption, report and verdicts of $fx"
            # A lab not recorded yet says so in each of its own parts (the next test holds that).
            [ -f "$FIXTURES/$fx" ] || continue
            # The caption names the machine as its row does: the GPUs, then its link.
            gpus=$(machine_field "$suffix" gpus)
            if [[ "$h" = *.zh-CN.md ]]; then
                caption="记录于 **$gpus**（$(machine_field "$suffix" link_zh)）"
            else
                caption="Recorded on **$gpus** ($(machine_field "$suffix" link_en))"
            fi
            grep -qF -- "$caption" "$h" || fail "$h: the recording $fx does not name its hardware: no '$caption'"
        done
    done
}

@test "handouts: a lab not recorded yet says so in its generated parts, leaves the README's ledger as it was, and the check passes" {
    local copy suffix kind=caption first part
    copy=$(copy_tree)
    mkdir -p "$copy/labs/98-unrecorded"
    # A caption of the first machine's recording, the verdicts of the next, and so on.
    printf '# Lab 98\n' >"$copy/labs/98-unrecorded/README.md"
    for suffix in $(machine_suffixes); do
        part="verdicts lab98-$suffix"
        [ "$kind" = caption ] && part="machine lab98-$suffix caption"
        printf '\n<!-- fill: %s -->\n<!-- /fill -->\n' "$part" >>"$copy/labs/98-unrecorded/README.md"
        [ "$kind" = caption ] && kind=verdicts || kind=caption
    done
    sed 's/^# Lab 98$/# 实验 98/' "$copy/labs/98-unrecorded/README.md" >"$copy/labs/98-unrecorded/README.zh-CN.md"
    run numbers "$copy"
    assert_success
    run numbers "$copy" --check
    assert_success
    run cat "$copy/labs/98-unrecorded/README.md"
    for suffix in $(machine_suffixes); do
        assert_output --partial "No recording of this lab yet (\`tests/fixtures/lab98-$suffix.csv\` does not exist)"
    done
    first=$(machine_suffixes | head -n 1)
    run cat "$copy/labs/98-unrecorded/README.zh-CN.md"
    assert_output --partial "本实验在这台机器上尚无记录（\`tests/fixtures/lab98-$first.csv\` 还不存在）"
    # The ledger counts and names the recorded labs only: a new lab changes nothing outside its folders.
    run diff "$REPO_ROOT/README.md" "$copy/README.md"
    assert_success
    run grep -F 'claims get a measured verdict' "$copy/README.md"
    assert_output --partial "\`tests/fixtures/labNN-$first.csv\` of labs 01, "
    refute_output --partial "98"
    # A fixture of another lab is still refused.
    printf '<!-- fill: report lab05-%s -->\n<!-- /fill -->\n' "$first" >>"$copy/labs/98-unrecorded/README.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "'lab05-$first' is not one of its recorded runs"
}

@test "handouts: a generated number edited by hand fails the check" {
    local copy fx
    copy=$(copy_tree)
    fx=$(recording 02 gpu_count=2)
    # The first table cell with a decimal inside a generated report (of the recording on a pair).
    python3 - "$copy/labs/02-memcpy-peer/README.md" "$(basename "$fx" .csv)" <<'EOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
a = s.index(f"<!-- fill: report {sys.argv[2]} -->")
m = re.compile(r"\| (\d+\.\d+) \|").search(s, a)
s = s[:m.start(1)] + "9" + s[m.start(1):]
open(p, "w").write(s)
EOF
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "labs/02-memcpy-peer/README.md: a generated part differs from its fixture"
    # Regenerating puts it right.
    run numbers "$copy"
    assert_success
    assert_output --partial "wrote labs/02-memcpy-peer/README.md"
    run numbers "$copy" --check
    assert_success
}

@test "handouts: a measured figure outside the generated parts must be in the lab's fixtures" {
    local copy
    copy=$(copy_tree)
    printf '\nThe link reached 123.456 GB/s.\n' >>"$copy/labs/03-peer-kernels/README.zh-CN.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "labs/03-peer-kernels/README.zh-CN.md: '123.456 GB/s' is in none of lab 03's fixtures"
}

@test "handouts: a row of handout-figures.tsv must name a figure its lab's handouts state" {
    local copy
    copy=$(copy_tree)
    # A bar the code no longer uses, left behind in the list: it would let the figure through.
    printf '05-p2p-performance\t0.3\tnvlink_table_latency'"'"'s old bar, within 0.3 us\n' >>"$copy/tools/authoring/handout-figures.tsv"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "tools/authoring/handout-figures.tsv: 05-p2p-performance 0.3 (nvlink_table_latency's old bar, within 0.3 us) is stated by no handout of its lab"
}

@test "handouts: a recording converted from an earlier program says so under its caption, and each claim it lists is untested there" {
    local line fixture claims id n verdicts
    while IFS=$'\t' read -r fixture claims; do
        case $fixture in '#'* | fixture) continue ;; esac
        [ -f "$FIXTURES/$fixture" ] || fail "converted.tsv names $fixture, which does not exist"
        n=${fixture:3:2}
        verdicts=$("$(host_tool "$n")" verdicts "$FIXTURES/$fixture")
        for id in $claims; do
            grep -q "^claim,$id,.*,untested," <<<"$verdicts" ||
                fail "$fixture: $id is listed as left untested by the conversion, but it has a verdict there"
        done
        # Said under the recording's caption, in both handouts.
        grep -qF "$(python3 "$REPO_ROOT/tools/lib/converted.py" "$fixture")" "$REPO_ROOT"/labs/"$n"-*/README.md ||
            fail "lab $n's handout does not say where $fixture came from"
    done <"$FIXTURES/converted.tsv"
    # A recording of the lab's own program has nothing to say.
    local own=0
    for fixture in $(all_recordings); do
        cut -f1 "$FIXTURES/converted.tsv" | grep -qFx -- "$(basename "$fixture")" && continue
        run python3 "$REPO_ROOT/tools/lib/converted.py" "$(basename "$fixture")"
        assert_success
        assert_output ""
        own=$((own + 1))
    done
    [ "$own" -gt 0 ] || fail "every recording is listed in converted.tsv: the test proves nothing"
}

@test "handouts: a figure may be a recorded one rounded, its nvbandwidth runs' included, and no other" {
    local copy nvb r2 r1 off digit lab lab1
    copy=$(copy_tree)
    # The figures come from the recording: an nvbandwidth figure (as its converter writes it)
    # whose roundings no CSV fixture writes, a figure one decimal off and one a digit off that
    # neither nvbandwidth run rounds to, and a lab each-way figure whose rounding is written
    # nowhere.
    read -r nvb r2 r1 off digit lab lab1 < <(python3 "$BATS_TEST_DIRNAME/helpers/unwritten-figures.py" "$copy/tests/fixtures") ||
        fail "the recording offers no figures for this test"
    printf '\nnvbandwidth gave %s GB/s, or %s GB/s, or %s GB/s.\n' "$nvb" "$r2" "$r1" >>"$copy/labs/05-p2p-performance/README.md"
    run numbers "$copy" --check
    assert_success
    # One decimal off, and nvbandwidth's figure one digit off: refused.
    printf '\nnvbandwidth gave %s GB/s, or %s GB/s.\n' "$off" "$digit" >>"$copy/labs/05-p2p-performance/README.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "labs/05-p2p-performance/README.md: '$off GB/s' is in none of lab 05's fixtures"
    assert_output --partial "labs/05-p2p-performance/README.md: '$digit GB/s' is in none of lab 05's fixtures"
    refute_output --partial "'$r2 GB/s'"
    # The lab's own rows are quoted as written, not rounded.
    printf '\nThe lab gave %s GB/s, and %s GB/s.\n' "$lab" "$lab1" >>"$copy/labs/05-p2p-performance/README.md"
    run numbers "$copy" --check
    assert_output --partial "labs/05-p2p-performance/README.md: '$lab1 GB/s' is in none of lab 05's fixtures"
    refute_output --partial "'$lab GB/s'"
}

@test "handouts: the README's claim counts are generated too, and checked" {
    local copy
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: its README is the student's, with no claim counts"
    copy=$(copy_tree)
    local suffix
    # A machine's ledger has a part of its own, or is generated in other-recordings (a new row).
    grep -qF "<!-- fill: other-recordings -->" "$copy/README.md" || fail "README.md has no part for the other machines' ledgers"
    for suffix in $(machine_suffixes); do
        grep -qF "<!-- fill: ledger $suffix -->" "$copy/README.md" ||
            grep -qF "(\`tests/fixtures/labNN-$suffix.csv\` of lab" "$copy/README.md" ||
            fail "README.md has no ledger of the recordings labNN-$suffix.csv"
    done
    sed -i -E 's/: ([0-9]+) of the chapter.s/: 99 of the chapter'"'"'s/' "$copy/README.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "README.md: a generated part differs from its fixture"
}

@test "handouts: a generated part cites a fixture of its own lab that exists" {
    local copy fx
    copy=$(copy_tree)
    fx=$(basename "$(recording 05)" .csv)
    printf '\n<!-- fill: report %s -->\n<!-- /fill -->\n' "$fx" >>"$copy/labs/01-peer-checks/README.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "'$fx' is not one of its recorded runs"
}

@test "handouts: an unknown kind of part is refused, naming it, its handout and line; nothing is written" {
    local copy h n
    copy=$(copy_tree)
    h="$copy/labs/01-peer-checks/README.md"
    printf '\n<!-- fill: no-such-kind lab01-x -->\n<!-- /fill -->\n' >>"$h"
    n=$(grep -n 'no-such-kind' "$h" | cut -d: -f1)
    sed -i -E 's/: ([0-9]+) of the chapter.s/: 99 of the chapter'"'"'s/' "$copy/README.md"
    ! cmp -s "$REPO_ROOT/README.md" "$copy/README.md" || fail "the ledger was not made stale: the check below would mean nothing"
    cp "$copy/README.md" "$BATS_TEST_TMPDIR/README.before"
    run numbers "$copy"
    assert_failure
    assert_output --partial "labs/01-peer-checks/README.md:$n: <!-- fill: no-such-kind lab01-x -->: unknown kind 'no-such-kind'"
    # the stale ledger the same run would have rewritten is left as it was
    cmp "$copy/README.md" "$BATS_TEST_TMPDIR/README.before" || fail "a handout was written although a part could not be filled"
}

# bats test_tags=lab-rules
@test "handouts: no hand-written line numbers in the handouts, READMEs and lecture decks" {
    local readmes=() f
    for f in "$REPO_ROOT/README.md" "$REPO_ROOT/tools/authoring/handout/README.md"; do
        [ -f "$f" ] && readmes+=("$f")
    done
    # the decks' sources: a TODO's place is filled in from the skeleton ({{todo NN.K}})
    for f in "$REPO_ROOT"/slides/*.md; do
        [ -f "$f" ] && readmes+=("$f")
    done
    run grep -nE '\.(c|cu|h|sh|py|bats|mk):[0-9]+' "${readmes[@]}" $(handouts)
    assert_failure
    refute_output
}

# unit_todos NN: the TODOs whose functions tests/unit/labNN.c calls (a function
# of the skeleton holds the LAB_TODO of its step).
unit_todos() {
    local unit="$REPO_ROOT/tests/unit/lab$1.c" id fn
    [ -f "$unit" ] || return 0
    awk 'FNR == 1 { fn = "" }
         /^[A-Za-z_].*[A-Za-z_0-9]+\(/ && !/;[[:space:]]*$/ { match($0, /[A-Za-z_0-9]+\(/); fn = substr($0, RSTART, RLENGTH - 1) }
         /LAB_TODO\("/ { match($0, /"[0-9]+\.[0-9]+"/); print substr($0, RSTART + 1, RLENGTH - 2), fn }' \
        "$REPO_ROOT"/labs/"$1"-*/student/*.c "$REPO_ROOT"/labs/"$1"-*/student/*.cu 2>/dev/null |
        while read -r id fn; do
            grep -qE "\\<$fn\(" "$unit" && echo "$id"
        done | sort -u
}

# bats test_tags=lab-rules
@test "handouts: the TODOs a handout says its unit tests call are the ones tests/unit/labNN.c calls" {
    local h n said want checked=0
    for h in $(handouts); do
        n=$(basename "$(dirname "$h")" | cut -c1-2)
        # English: "(`tests/unit/labNN.c`) call(s) ... directly"; Chinese: "（`tests/unit/labNN.c`）直接调用 ...，/；"
        said=$(tr '\n' ' ' <"$h" | LC_ALL=C.UTF-8 grep -oE "\\(\`tests/unit/lab$n\\.c\`\\) calls? [^;]*directly|\`tests/unit/lab$n\\.c\`）直接调用[^；，]*" |
               grep -oE "$n\\.[0-9]+" | sort -u || true)
        [ -n "$said" ] || continue
        want=$(unit_todos "$n")
        [ "$(echo $said)" = "$(echo $want)" ] ||
            fail "$(basename "$(dirname "$h")")/$(basename "$h") says the unit tests call $(echo $said); tests/unit/lab$n.c calls $(echo $want)"
        checked=$((checked + 1))
    done
    # labs 04 and 05 name them in both languages: the check compared something
    [ "$checked" -ge 4 ] || fail "only $checked handouts name the TODOs their unit tests call"
}

# bats test_tags=lab-rules
@test "handouts: each says how the student's code is built, with the Makefile's flags" {
    local h warn
    warn=$(sed -nE 's/^WARN_C := (.*)$/\1/p' "$REPO_ROOT/Makefile")
    [ -n "$warn" ]
    for h in $(handouts); do
        grep -qF "<!-- fill: build-flags -->" "$h" || fail "$h: no generated build flags"
        grep -qF -- "-std=c11 $warn" "$h" || fail "$h: the C flags are not the Makefile's ($warn)"
        grep -qF 'struct cudaDeviceProp' "$h" || fail "$h: does not say that C needs 'struct cudaDeviceProp'"
    done
}

CHAPTER="$REPO_ROOT/../shared/chapter/000_93af1dbb3a5801f1.txt"

# bats test_tags=lab-rules
@test "handouts: the Chinese handouts use the glossary, translate every heading, header and comment, and quote the chapter word for word" {
    local args=()
    [ -f "$CHAPTER" ] && args=("$CHAPTER")
    run "$REPO_ROOT/tools/authoring/zh-handout-check.py" "${args[@]}"
    assert_success
    refute_output
    [ -f "$CHAPTER" ] || skip "the chapter's text is not beside this tree: the quotes were not compared"
}

@test "handouts: the glossary is one table, and each of its avoided spellings makes the check fail" {
    local copy head english avoid word n=0
    head=$(grep -v '^#' "$REPO_ROOT/labs/glossary.zh-CN.tsv" | head -n 1)
    [ "$head" = $'english\t中文\tavoid\tnote' ]
    [ "$(grep -v '^#' "$REPO_ROOT/labs/glossary.zh-CN.tsv" | cut -f1 | sort | uniq -d)" = "" ]
    copy=$(copy_tree)
    cp "$copy/labs/01-peer-checks/README.zh-CN.md" "$BATS_TEST_TMPDIR/clean.md"
    # Tab is a blank to read(1): awk picks the rows that avoid something.
    while IFS=$'\t' read -r english avoid; do
        word=${avoid%%|*}
        { cat "$BATS_TEST_TMPDIR/clean.md"; echo "这里写了$word。"; } >"$copy/labs/01-peer-checks/README.zh-CN.md"
        run "$copy/tools/authoring/zh-handout-check.py"
        [ "$status" -eq 1 ] || fail "'$word' written into a handout passed the check"
        assert_output --partial "'$word' is not the glossary's word for '$english'"
        n=$((n + 1))
    done < <(awk -F'\t' '!/^#/ { if (!h) { h = 1; next } if ($3 != "") print $1 "\t" $3 }' \
        "$REPO_ROOT/labs/glossary.zh-CN.tsv")
    [ "$n" -ge 8 ] || fail "only $n glossary terms name spellings to avoid"
}

@test "handouts: an untranslated heading, header or shell comment, a missing glossary link, a made-up quote: each fails" {
    local copy h
    copy=$(copy_tree)
    h="$copy/labs/02-memcpy-peer/README.zh-CN.md"
    printf '本章写道：GPU必须支持UVA。\n' >"$BATS_TEST_TMPDIR/chapter.txt"
    cp "$h" "$BATS_TEST_TMPDIR/clean.md"
    printf '\n## Recorded output\n\n| size | 说明 |\n|---|---|\n| 1 | 2 |\n\n```sh\nmake run   # every lab\n```\n' >>"$h"
    run "$copy/tools/authoring/zh-handout-check.py"
    assert_failure
    assert_output --partial "heading not translated: ## Recorded output"
    assert_output --partial "table header not translated: 'size'"
    assert_output --partial "shell comment not translated: make run   # every lab"
    grep -v 'glossary.zh-CN.tsv' "$BATS_TEST_TMPDIR/clean.md" >"$h"
    printf '\n> GPU必须支持UVA\n\n本章说「GPU必须支持NVLink」。\n' >>"$h"
    run "$copy/tools/authoring/zh-handout-check.py" "$BATS_TEST_TMPDIR/chapter.txt"
    assert_failure
    assert_output --partial "labs/02-memcpy-peer/README.zh-CN.md: does not link the glossary"
    assert_output --partial "not the chapter's words: GPU必须支持NVLink"
    refute_output --partial "02-memcpy-peer/README.zh-CN.md: not the chapter's words: GPU必须支持UVA"
}

todo_count() { grep -c 'LAB_TODO(' "$1"; }

@test "handouts: make handout ships the generated skeletons and committed files only, naming what it left out" {
    command -v unifdef >/dev/null || skip "unifdef is not installed (sudo apt-get install unifdef)"
    [ -d "$REPO_ROOT/solutions" ] || skip "make handout is the instructor's: not in the student tree"
    local repo="$BATS_TEST_TMPDIR/course" file tree want
    scratch_repo "$repo"
    file=labs/02-memcpy-peer/student/p2p_copy.c
    want=$(todo_count "$repo/$file")
    [ "$want" -gt 0 ] || fail "$file holds no LAB_TODO"
    # The instructor fills in the skeleton to try make grade, and keeps notes.
    unifdef -ULAB_SKELETON "$repo/solutions/02-memcpy-peer/p2p_copy.c" >"$repo/$file" || true
    touch "$repo/answers-notes.md"
    run make -s -C "$repo" handout BUILD="$BATS_TEST_TMPDIR/b"
    assert_success
    assert_output --regexp "left out, not committed: .*answers-notes\.md"
    assert_output --partial "$file"
    tree="$BATS_TEST_TMPDIR/b/handout/p2p-course"
    assert_equal "$(todo_count "$tree/$file")" "$want"
    assert_file_not_exists "$tree/answers-notes.md"
    # Committed, the filled-in file still ships as the generator's skeleton.
    git -C "$repo" add -A
    git -C "$repo" -c user.name=course -c user.email=course@localhost commit -qm filled
    run make -s -C "$repo" handout BUILD="$BATS_TEST_TMPDIR/b"
    assert_success
    assert_equal "$(todo_count "$tree/$file")" "$want"
    cmp -s "$tree/$file" "$REPO_ROOT/$file" || fail "$file in the handout is not the generated skeleton"
    # Its checksums say every skeleton is untouched.
    for sums in "$tree"/labs/*/student/.checksums; do
        (cd "$tree/labs" && sha256sum --quiet -c "$sums") || fail "$sums does not match the handout's skeletons"
    done
    assert_file_exists "$tree/answers-notes.md" # committed now, so it is course content
}

@test "handouts: make handout in a copy without git warns, and still generates the student's files" {
    command -v unifdef >/dev/null || skip "unifdef is not installed (sudo apt-get install unifdef)"
    [ -d "$REPO_ROOT/solutions" ] || skip "make handout is the instructor's: not in the student tree"
    local copy="$BATS_TEST_TMPDIR/nogit" file=labs/02-memcpy-peer/student/p2p_copy.c want
    source_copy "$copy"
    want=$(todo_count "$copy/$file")
    unifdef -ULAB_SKELETON "$copy/solutions/02-memcpy-peer/p2p_copy.c" >"$copy/$file" || true
    GIT_CEILING_DIRECTORIES="$BATS_TEST_TMPDIR" run make -s -C "$copy" handout BUILD="$BATS_TEST_TMPDIR/b"
    assert_success
    assert_output --partial "handout: warning: not a git checkout"
    assert_equal "$(todo_count "$BATS_TEST_TMPDIR/b/handout/p2p-course/$file")" "$want"
}

@test "handouts: the student tree's make help offers only what works there" {
    command -v unifdef >/dev/null || skip "unifdef is not installed (sudo apt-get install unifdef)"
    [ -d "$REPO_ROOT/solutions" ] || skip "make handout is the instructor's: not in the student tree"
    local repo="$BATS_TEST_TMPDIR/course" tree
    scratch_repo "$repo"
    run make -s -C "$repo" handout BUILD="$BATS_TEST_TMPDIR/b"
    assert_success
    tree="$BATS_TEST_TMPDIR/b/handout/p2p-course"
    run make -s -C "$tree" help BUILD=build CUDA_ARCH=90
    assert_success
    assert_line --regexp '^  grade +'
    # make grade GRADE_BUILD=ref, SUBMISSION= and MISTAKES= need the solutions.
    refute_output --regexp 'GRADE_BUILD|SUBMISSION|MISTAKES'
    # There is no reference build there: run, test and sanitize run the student's.
    refute_output --partial "reference"
    assert_line --regexp '^  run +run every lab here \(your build\)'
}
