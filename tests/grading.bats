#!/usr/bin/env bats
# Instructor tools: the scorecard, the handout tree.

load helpers/lab

setup() {
    [ -d "$REPO_ROOT/solutions" ] || skip "the instructor's tools: not in the student tree"
}

# score JUNIT [TESTS_DIR]: junit-summary.py on JUNIT with the points of TESTS_DIR/labNN.bats
# (default: this tree's): the scorecard in $output, junit.xml, summary.json and results.json in
# $SCORED.
score() {
    SCORED=$BATS_TEST_TMPDIR/scored
    mkdir -p "$SCORED"
    run python3 "$REPO_ROOT/tools/grading/junit-summary.py" "$1" "${2:-$REPO_ROOT/tests}" "$SCORED"
}

# The no-GPU grade of the untouched skeletons (build/grade/junit.xml). Made again, whenever the
# lab tests or the shape of junit.xml change, on any machine with the skeletons untouched:
#   CUDA_VISIBLE_DEVICES= make grade BUILD=/tmp/g CUDA_ARCH=90
#   cp /tmp/g/grade/junit.xml tests/fixtures/grade-skeleton-nogpu.junit.xml
SKELETON_JUNIT=grade-skeleton-nogpu.junit.xml

# suite_counts FILE SUITE: the counts Bats wrote in a <testsuite>'s attributes (tests, failures,
# skipped), independent of the scorer's own counting; SUITE "all" sums every suite.
suite_counts() {
    python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET
suites = [s for s in ET.parse(sys.argv[1]).getroot().iter("testsuite") if sys.argv[2] in ("all", s.get("name"))]
print(*(sum(int(s.get(k)) for s in suites) for k in ("tests", "failures", "skipped")))
PY
}
lab01_counts() {
    suite_counts "$FIXTURES/$SKELETON_JUNIT" lab01.bats
}

# points_declared [TESTS_DIR]: "file<TAB>test name<TAB>points" of every lab test, read apart
# from tools/grading/lab_tests.py: the "points:N" tag of the "# bats test_tags=" line right above an
# @test, 0 without one.
points_declared() {
    local file
    for file in "${1:-$REPO_ROOT/tests}"/lab[0-9][0-9].bats; do
        awk -v f="$(basename "$file")" '
            /^# bats test_tags=/ { tags = $0; next }
            /^@test "/ { name = $0; sub(/^@test "/, "", name); sub(/" \{$/, "", name)
                         pts = 0
                         if (match(tags, /(=|,)points:[0-9]+/)) pts = substr(tags, RSTART + 8, RLENGTH - 8)
                         print f "\t" name "\t" pts; tags = ""; next }
            { tags = "" }' "$file"
    done
}

# junit_without_failures OUT [SKIP_REASON]: the skeletons' grade with every failure removed
# (the test passed), or turned into a skip for SKIP_REASON.
junit_without_failures() {
    python3 - "$FIXTURES/$SKELETON_JUNIT" "$@" <<'PY'
import sys
import xml.etree.ElementTree as ET
tree = ET.parse(sys.argv[1])
for case in tree.getroot().iter("testcase"):
    failure = case.find("failure")
    if failure is not None:
        case.remove(failure)
        if len(sys.argv) > 3:
            ET.SubElement(case, "skipped").text = sys.argv[3]
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
PY
}

@test "grading: an untouched skeleton scores zero, each failure naming its TODO; its passing tests carry no points" {
    local tests failures skipped
    read -r tests failures skipped < <(suite_counts "$FIXTURES/$SKELETON_JUNIT" all)
    score "$FIXTURES/$SKELETON_JUNIT"
    assert_success
    assert_line --regexp "^01 +0 of [1-9][0-9]* +[0-9]+ points"
    assert_line --regexp '^total +0 of [1-9][0-9]* +[0-9]+ points'
    # Every test the skeleton passes is one without points: it shows the frame works.
    assert_line --regexp "^Tests without points: $((tests - failures - skipped)) of [0-9]+ passed here; a test without points shows that the lab's frame works"
    assert_output --partial "TODO 01.1 is not done yet (labs/01-peer-checks/"
}

@test "grading: a complete lab scores full marks" {
    local got possible
    junit_without_failures "$BATS_TEST_TMPDIR/all-pass.xml"
    score "$BATS_TEST_TMPDIR/all-pass.xml"
    assert_success
    read -r got possible < <(sed -n -E 's/^01 +([0-9]+) of ([0-9]+) .*/\1 \2/p' <<<"$output")
    [ "$possible" -gt 0 ] && [ "$got" -eq "$possible" ] || fail "lab 01 scores $got of $possible"
    refute_output --partial "[failed]"
}

@test "grading: skipped tests are not checkable here: neither earned nor lost, counted apart, saying why" {
    junit_without_failures "$BATS_TEST_TMPDIR/skipped.xml" "needs 2 GPU(s), this machine has 1"
    score "$BATS_TEST_TMPDIR/skipped.xml"
    assert_success
    assert_line --regexp "^01 +0 of 0 +[1-9][0-9]* points: needs 1 GPU \([0-9]+\), needs 2 GPUs \([1-9][0-9]*\)$"
    assert_output --partial "skipped: needs 2 GPU(s), this machine has 1"
    # In results.json: out of the total (max_score 0), no status, the reason in the output.
    run python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    if t["name"].startswith("01: TODO 01.1 describe_gpu"):
        print(t["score"], t["max_score"], t.get("status"), t["output"])
        break' "$SCORED/results.json"
    assert_output "0 0 None not checkable on this machine: needs 2 GPU(s), this machine has 1 (1 point, counted out of the total: neither earned nor lost)"
}

@test "grading: summary.json and results.json come from the JUnit file through a real serialiser, tabs and quotes in hints included" {
    local junit="$BATS_TEST_TMPDIR/junit.xml"
    # A hint with a tab, quotes and a backslash must still give valid JSON.
    python3 - "$FIXTURES/$SKELETON_JUNIT" "$junit" <<'PY'
import sys
import xml.etree.ElementTree as ET
tree = ET.parse(sys.argv[1])
for failure in tree.getroot().iter("failure"):
    failure.text = failure.text.replace("see TODO 01.1 under The TODOs in the lab's handout",
                                        'a "quoted"\tword \\ and a tab: \t')
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
PY
    grep -q 'a "quoted"' "$junit" || fail "the hint was not planted"
    score "$junit"
    assert_success
    run python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
lab = d["labs"][0]
hint = [t["hint"] for t in lab["tests"] if "TODO 01.1" in t["hint"]][0]
r = json.load(open(sys.argv[2]))
print(d["points"], d["max_points"], d["not_checkable_here"], lab["lab"], len(lab["tests"]),
      sum(t["state"] == "failed" for t in lab["tests"]), "\t" in hint, "\"quoted\"" in hint,
      r["score"], sum(t["max_score"] for t in r["tests"]), len(r["tests"]))' "$SCORED/summary.json" "$SCORED/results.json"
    assert_success
    # The totals, computed apart: the points each test declares (points_declared) over the
    # tests the JUnit file says ran, and over those it says were skipped.
    local tests failures skipped totals all
    read -r tests failures skipped < <(lab01_counts)
    all=$(suite_counts "$junit" all | cut -d' ' -f1)
    totals=$(python3 - "$junit" <(points_declared) <<'PY'
import sys
import xml.etree.ElementTree as ET
points = {}
for line in open(sys.argv[2], encoding="utf-8"):
    f, name, n = line.rstrip("\n").split("\t")
    points[(f, name)] = int(n)
ran = away = 0
for suite in ET.parse(sys.argv[1]).getroot().iter("testsuite"):
    for case in suite.iter("testcase"):
        n = points.get((suite.get("name"), case.get("name")), 0)
        if case.find("skipped") is not None:
            away += n
        else:
            ran += n
print(ran, away)
PY
)
    read -r ran away <<<"$totals"
    assert_output "0 $ran $away 01 $tests $failures True True 0 $ran $all"
}

@test "grading: points are read from each test's own tag, not guessed from words in the name" {
    local dir="$BATS_TEST_TMPDIR/tests" junit="$BATS_TEST_TMPDIR/t.xml" name
    mkdir -p "$dir"
    # (Written with printf: a line of this file that starts with "@test" or "# bats" would be
    # one of its own tests or tags.)
    printf '%s\n' "# bats file_tags=demo" "# bats test_tags=points:3" \
        '@test "01: TODO 01.9 rejects a bad id with one GPU" { true; }' '' \
        "# bats test_tags=compile-only, points:2" '@test "01: a frame test" { true; }' '' \
        '@test "01: TODO 01.8 a test without a points tag" { true; }' >"$dir/lab01.bats"
    {
        printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="lab01.bats">\n'
        for name in "01: TODO 01.9 rejects a bad id with one GPU" "01: a frame test" "01: TODO 01.8 a test without a points tag"; do
            printf '<testcase classname="lab01.bats" name="%s" time="0" />\n' "$name"
        done
        printf '</testsuite>\n</testsuites>\n'
    } >"$junit"
    score "$junit" "$dir"
    assert_success
    assert_line --regexp '^01 +5 of 5 +0 points$'
    # Each testcase carries its points; the suite its totals.
    run python3 -c 'import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
def props(e):
    return ",".join(p.get("name") + "=" + p.get("value") for p in e.find("properties"))
print(props(root.find("testsuite")))
for case in root.iter("testcase"):
    print(props(case))' "$SCORED/junit.xml"
    assert_output "points_earned=5,points_possible_here=5,points_not_checkable_here=0
points=3,checkable_here=true,points_earned=3
points=2,checkable_here=true,points_earned=2
points=0,checkable_here=true,points_earned=0"
    # A points tag the grade cannot read is an error naming the file and line, not 0 points.
    sed -i 's/points:3/points:three/' "$dir/lab01.bats"
    score "$junit" "$dir"
    assert_failure
    assert_output --regexp "lab01\.bats:3: points must be one tag 'points:N'"
    assert_file_not_exists "$SCORED/summary.json.part"
}

# skeletons_untouched: skip unless labs/*/student/ hold the untouched skeletons.
skeletons_untouched() {
    local file
    for file in "$REPO_ROOT"/labs/*/student/*.c "$REPO_ROOT"/labs/*/student/*.cu; do
        student_edited "$file" && skip "${file#"$REPO_ROOT/"} holds a student's work: the untouched skeletons are not here to score"
    done
    return 0
}

# grade_files_agree GRADE_DIR full|zero: junit.xml and results.json of a make grade, read with
# xml.etree and json, against the points each test declares (points_declared, read apart): each
# testcase carries its points, each suite its totals, results.json each test's score (a skipped
# test out of the total, "not checkable on this machine"), and the score is full or zero. Prints
# "earned possible not-checkable".
grade_files_agree() {
    python3 - "$1" "$2" <(points_declared) <<'PY'
import json
import sys
import xml.etree.ElementTree as ET
grade, mode, declared = sys.argv[1:4]
points = {}
for line in open(declared, encoding="utf-8"):
    f, name, n = line.rstrip("\n").split("\t")
    points[(f, name)] = int(n)
results = json.load(open(f"{grade}/results.json", encoding="utf-8"))
by_name = {t["name"]: t for t in results["tests"]}
bad, total = [], [0, 0, 0]
props = lambda e: {p.get("name"): p.get("value") for p in e.findall("properties/property")}
for suite in ET.parse(f"{grade}/junit.xml").getroot().iter("testsuite"):
    sums = [0, 0, 0]
    for case in suite.iter("testcase"):
        name, want = case.get("name"), points.get((suite.get("name"), case.get("name")), 0)
        skipped = case.find("skipped") is not None
        passed = not skipped and case.find("failure") is None
        if props(case).get("points") != str(want):
            bad.append(f"{name}: points property {props(case).get('points')}, declared {want}")
        sums[2 if skipped else 1] += want
        sums[0] += want if passed else 0
        t = by_name.get(name, {})
        if skipped:
            ok = (t.get("score"), t.get("max_score"), "status" in t) == (0, 0, False) and \
                t.get("output", "").startswith("not checkable on this machine: ")
        else:
            ok = (t.get("score"), t.get("max_score"), t.get("status")) == \
                (want if passed else 0, want, "passed" if passed else "failed")
        if not ok:
            bad.append(f"results.json: {name}: {t}")
    totals = [props(suite).get(k) for k in ("points_earned", "points_possible_here", "points_not_checkable_here")]
    if totals != [str(x) for x in sums]:
        bad.append(f"{suite.get('name')}: totals {totals}, counted {sums}")
    total = [a + b for a, b in zip(total, sums)]
if results["score"] != total[0] or sum(t["score"] for t in results["tests"]) != total[0]:
    bad.append(f"results.json scores {results['score']}, counted {total[0]}")
if total[1] == 0 or total[0] != (total[1] if mode == "full" else 0):
    bad.append(f"{total[0]} of {total[1]} points: not the {mode} score")
print("\n".join(bad) if bad else " ".join(map(str, total)))
sys.exit(1 if bad else 0)
PY
}

@test "grading: make grade scores the reference in full and the untouched skeletons zero, in the scorecard, junit.xml and results.json alike" {
    local totals earned possible away
    graded ref-all GRADE_BUILD=ref
    assert_success
    refute_line --regexp '^ +\[failed\]'
    totals=$(grade_files_agree "$GRADED" full) || fail "$totals"
    read -r earned possible away <<<"$totals"
    assert_line --regexp "^total +$earned of $possible +$away points"
    skeletons_untouched
    graded skeleton-all
    assert_line --regexp '^total +0 of [1-9][0-9]* +[0-9]+ points'
    assert_output --partial "is not done yet"
    totals=$(grade_files_agree "$GRADED" zero) || fail "$totals"
    read -r earned possible away <<<"$totals"
    assert_line --regexp "^total +0 of $possible +$away points"
    # Every TODO of the untouched skeletons is unfinished, in the scorecard and in summary.json.
    refute_line --regexp '^  [0-9]{2}  .*(verified here|fails here|not verified here):'
    assert_line --regexp '^  01  unfinished: 01\.1, 01\.2, '
    run python3 -c 'import json, sys
print(sorted({t["state"] for l in json.load(open(sys.argv[1]))["labs"] for t in l["todos"]}))' "$GRADED/summary.json"
    assert_output "['unfinished']"
}

@test "grading: the same tests are checkable here for the reference and the skeletons: a skip depends on the machine only" {
    graded ref-all GRADE_BUILD=ref
    local ref=$GRADED
    skeletons_untouched
    graded skeleton-all
    # The skipped testcases of each junit.xml, with their points property.
    local skipped='import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("skipped") is not None:
        print(case.get("name"))'
    diff <(python3 -c "$skipped" "$ref/junit.xml") <(python3 -c "$skipped" "$GRADED/junit.xml") ||
        fail "the tests skipped here differ between the reference (<) and the skeletons (>)"
    [ -n "$(python3 -c "$skipped" "$ref/junit.xml")" ] || skip "this machine skips no test: nothing to compare"
}

# Not a lab-rules test: it builds every patch of the course (frame.bats runs a new lab's own
# patches in full instead).
@test "grading: every planted mistake still applies and builds" {
    # Every patch, whatever MISTAKES the caller has set to pick some.
    run env -u MISTAKES CUDA_ARCH=90 "$REPO_ROOT/tools/grading/mistakes.sh" --compile-only
    assert_success
    assert_output --regexp 'mistakes: 0 caught, 0 missed, 0 not checkable here, 0 broken'
    local patches
    patches=$(ls "$REPO_ROOT"/tests/mistakes/lab*.patch | wc -l)
    assert_equal "$(grep -c '^BUILDS ' <<<"$output")" "$patches"
}

# The log names patches of both sets: lab03-grid-wraps and lab04-warp-adds-32 were planted by
# b19e299, lab03-grid-negative-cap, lab04-privatized-no-tail and lab06-ring-negative-chunk after it.
@test "grading: mistakes.sh --tally counts a saved run's results per kind, newer ones apart where git knows them, and refuses what is no such log" {
    local log="$BATS_TEST_TMPDIR/mistakes.log" since="" since2=""
    cat >"$log" <<'LOG'
  LINK     build/tools/common-probe

CAUGHT         lab03-grid-wraps: TODO 03.3: rounds up with n + threads - 1 — 1 of its TODO's 4 test(s) fail (2 s)
CAUGHT         lab03-grid-negative-cap: TODO 03.3: refuses a cap of 0 but not a negative one (1 s)
MISSED         lab06-ring-negative-chunk: TODO 06.4: a plain % of a negative difference (5 s)
NOT CHECKABLE  lab04-warp-adds-32: TODO 04.3: the leader adds 32 — none of its TODO's 2 test(s) failed; 2 skipped here (1 s)
BROKEN         lab04-privatized-no-tail: does not build: error: expected ';'
lab 03: 2 caught, 0 missed, 0 not checkable here, 0 broken
mistakes: 2 caught, 1 missed, 1 not checkable here, 1 broken (9 s)
make: *** [Makefile:328: mistakes] Error 1
LOG
    if git -C "$REPO_ROOT" rev-parse -q --verify 'b19e299^{commit}' >/dev/null; then
        since=", 2 added since b19e299" since2=", 1 added since b19e299"
    fi
    run "$REPO_ROOT/tools/grading/mistakes.sh" --tally "$log"
    assert_success
    assert_output "kind edge-values: 2 caught, 1 missed, 0 not checkable here, 0 broken; 3 planted$since
kind tails: 0 caught, 0 missed, 1 not checkable here, 1 broken; 2 planted$since2"
    # Without git (a tarball) the column is left out, not guessed.
    local copy="$BATS_TEST_TMPDIR/copy"
    mkdir -p "$copy/tools/grading" "$copy/tests"
    cp "$REPO_ROOT/tools/grading/mistakes.sh" "$copy/tools/grading/"
    cp -r "$REPO_ROOT/tests/mistakes" "$copy/tests/"
    run env GIT_CEILING_DIRECTORIES="$BATS_TEST_TMPDIR" "$copy/tools/grading/mistakes.sh" --tally "$log"
    assert_success
    assert_line "kind edge-values: 2 caught, 1 missed, 0 not checkable here, 0 broken; 3 planted"
    # A line no run prints, a patch named twice, a patch with no kind, a missing table of
    # kinds: each an error, not a count.
    echo "lab03-grid-wraps was caught" >>"$log"
    run "$REPO_ROOT/tools/grading/mistakes.sh" --tally "$log"
    assert_failure 2
    assert_output "mistakes: $log:11: not a line of make mistakes: lab03-grid-wraps was caught"
    sed -i '$d' "$log"
    echo "CAUGHT         lab03-grid-wraps: again" >>"$log"
    run "$REPO_ROOT/tools/grading/mistakes.sh" --tally "$log"
    assert_failure 2
    assert_output --partial "lab03-grid-wraps a second time"
    sed -i '$d' "$log"
    sed -i '2d' "$copy/tests/mistakes/lab03-grid-wraps.patch"
    run env GIT_CEILING_DIRECTORIES="$BATS_TEST_TMPDIR" "$copy/tools/grading/mistakes.sh" --tally "$log"
    assert_failure 2
    assert_output --partial "lab03-grid-wraps.patch: its kind '' is not one of tests/mistakes/kinds.tsv"
    # and a run that would plant it stops before it builds anything
    run env GIT_CEILING_DIRECTORIES="$BATS_TEST_TMPDIR" CUDA_ARCH=90 MISTAKES=lab03-grid-wraps "$copy/tools/grading/mistakes.sh"
    assert_failure 2
    assert_output "mistakes: tests/mistakes/lab03-grid-wraps.patch: its kind '' is not one of tests/mistakes/kinds.tsv"
    rm "$copy/tests/mistakes/kinds.tsv"
    run env GIT_CEILING_DIRECTORIES="$BATS_TEST_TMPDIR" "$copy/tools/grading/mistakes.sh" --tally "$log"
    assert_failure 2
    assert_output "mistakes: tests/mistakes/kinds.tsv is missing: it lists the kinds a patch may name"
}

# bats test_tags=lab-rules
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

# bats test_tags=lab-rules
@test "grading: every lab test's points are one tag right above it, every test of a TODO carries some, every TODO has a test that runs it" {
    local bats bad="" lab nn id named
    for bats in "$REPO_ROOT"/tests/lab[0-9][0-9].bats; do
        bad+=$(awk -v f="tests/$(basename "$bats")" '
            function problem(why) { printf "\n%s:%d: %s", f, FNR, why }
            /^[ \t]*#[ \t]*bats[ \t]+file_tags=.*points/ { problem("points in file_tags: each test declares its own") }
            /^[ \t]*#[ \t]*bats[ \t]+test_tags=/ {
                if (tags != "") problem("a second test_tags line: Bats keeps only the last")
                tags = $0; sub(/^[^=]*=/, "", tags)
                n = split(tags, t, ",")
                for (i = 1; i <= n; i++) if (t[i] !~ /^ *[-_:A-Za-z0-9]+ *$/) problem("tags Bats cannot read: " tags)
                next }
            /^[ \t]*@test / {
                n = split(tags, t, / *, */); pts = ""; count = 0
                for (i = 1; i <= n; i++) if (t[i] ~ /^ *points/) { count++; pts = t[i] }
                gsub(/ /, "", pts)
                if (count > 1) problem("more than one points tag")
                else if (count == 1 && pts !~ /^points:[0-9]+$/) problem("the points tag " pts " is not points:N")
                else if (/TODO/ && (pts == "" || pts == "points:0")) problem("a test of a TODO carries no points")
                tags = ""; next }
            tags != "" { problem("test_tags not right above an @test"); tags = "" }
            END { if (tags != "") problem("test_tags with no @test after them") }' "$bats")
    done
    # Each TODO is named by a test that runs its code (not only compile-only ones), or it
    # could never be verified.
    for lab in $(cd "$REPO_ROOT/labs" && ls -d [0-9][0-9]-*); do
        nn=${lab%%-*}
        named=$(awk '/^# bats test_tags=/ { tags = $0; next }
            /^@test "/ { if (tags !~ /compile-only/ && /TODO/) print; tags = ""; next } { tags = "" }' \
            "$REPO_ROOT/tests/lab$nn.bats")
        for id in $(cat "$REPO_ROOT"/labs/"$lab"/harness/*.h | grep -oE "TODO $nn\.[0-9]+" | cut -d' ' -f2 | sort -u); do
            grep -qE "[^0-9.]${id//./\\.}([^0-9]|$)" <<<"$named" ||
                bad+=$'\n'"TODO $id: no test that runs its code names it"
        done
    done
    [ -z "$bad" ] || fail "$bad"
}

@test "grading: a failure's hint is its unfinished TODO, else what the program or a checker said and where, else where to look" {
    local junit="$BATS_TEST_TMPDIR/hints.xml"
    cat >"$junit" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="lab01.bats">
<testcase name="01: todo"><failure>(in test file tests/lab01.bats, line 7)
  | TODO 01.1 is not done yet (x.c:3)
unfinished: TODO 01.1 is not done yet (x.c:3): see TODO 01.1</failure></testcase>
<testcase name="01: said and where"><failure>(in test file tests/lab01.bats, line 9)
  | first words
  | not ok case_b: got 1, expected 2</failure></testcase>
<testcase name="01: said"><failure>  | something went wrong</failure></testcase>
<testcase name="01: checker"><failure>(in test file tests/lab01.bats, line 11)
-- command failed --
status : 1
output : bar: 0.97x of the reference
--</failure></testcase>
<testcase name="01: checker, lines"><failure>(in test file tests/lab01.bats, line 13)
-- output differs --
output : not this one
--
-- command failed --
status : 1
output (2 lines):
  first: 1.4x apart
  second
--</failure></testcase>
<testcase name="01: checker, blank first line"><failure>(in test file tests/lab01.bats, line 15)
-- command failed --
status : 1
output (3 lines):

  --
  after a blank: 0.9x
--</failure></testcase>
<testcase name="01: nothing"><failure>plain message</failure></testcase>
</testsuite></testsuites>
XML
    score "$junit"
    assert_success
    assert_line "      TODO 01.1 is not done yet (x.c:3): see TODO 01.1"
    assert_line "      not ok case_b: got 1, expected 2 (tests/lab01.bats:9)"
    assert_line "      something went wrong (the test's output in tests.tap)"
    assert_line "      bar: 0.97x of the reference (tests/lab01.bats:11)"
    assert_line "      first: 1.4x apart (tests/lab01.bats:13)"
    assert_line "      after a blank: 0.9x (tests/lab01.bats:15)"
    assert_line "      see the test's output in tests.tap"
}

@test "grading: make check gives each TODO one state: verified here, fails here, not verified here with the need, unfinished" {
    local tap="$BATS_TEST_TMPDIR/t.tap"
    printf '%s\n' '1..8' 'ok 1 02: --help explains the program and exits 0' \
        'ok 2 02: TODO 02.1 p2p_bytes (unit, any machine)' \
        'ok 3 02: TODO 02.6 p2p_copy_floats checks the count (unit, any machine)' \
        'ok 4 02: TODOs 02.2 and 02.6 through the real calls # skip needs 1 GPU(s), this machine has 0' \
        'ok 5 02: TODO 02.4: whichever GPU is current # skip needs 2 GPU(s), this machine has 0' \
        'ok 6 02: TODOs 02.4 and 02.5: copies # skip 02-memcpy-peer: skipped: needs 1 GPU: no NVIDIA driver' \
        'not ok 7 02: TODO 02.2 p2p_check' '# (in test file tests/lab02.bats, line 9)' \
        'not ok 8 02: TODO 02.3 p2p_owner' \
        '# unfinished: TODO 02.3 is not done yet (labs/02-memcpy-peer/student/p2p_copy.c:50): see TODO 02.3' >"$tap"
    run "$REPO_ROOT/tools/grading/check-summary.py" 02 "$tap"
    assert_success
    assert_line 'check 02: TODO 02.1: verified here (its test ran here and passed)'
    assert_line 'check 02: TODO 02.2: fails here (1 of its 2 tests failed)'
    assert_line --regexp '^check 02: TODO 02\.3: unfinished \(a test stopped at it: TODO 02\.3 is not done yet \(labs/02-memcpy-peer/student/p2p_copy\.c:50\)\)$'
    # A TODO whose tests need more than this machine has is never verified; its need is the
    # most any of its skipped tests needs.
    assert_line 'check 02: TODO 02.4: not verified here (needs 2 GPUs; 0 of its 2 tests ran here and passed)'
    assert_line 'check 02: TODO 02.5: not verified here (needs 1 GPU; 0 of its 1 test ran here and passed)'
    assert_line 'check 02: TODO 02.6: not verified here (needs 1 GPU; 1 of its 2 tests ran here and passed)'
    assert_line 'check 02: TODO 02.7: not verified here (no test names it)'
    assert_line "check 02: of the lab's 7 TODOs: 1 verified here, 1 fails here, 4 not verified here, 1 unfinished"
    # LAB_TODO still in the student's file is unfinished, whatever its tests said.
    mkdir -p "$BATS_TEST_TMPDIR/labs/02-x/student"
    printf 'int f(void)\n{\n    LAB_TODO("02.1");\n}\n' >"$BATS_TEST_TMPDIR/labs/02-x/student/p2p_copy.c"
    run "$REPO_ROOT/tools/grading/check-summary.py" 02 "$tap" "$BATS_TEST_TMPDIR/labs"
    assert_line "check 02: TODO 02.1: unfinished (LAB_TODO(\"02.1\") is still in $BATS_TEST_TMPDIR/labs/02-x/student/p2p_copy.c:3)"
    # No test of a TODO ran: nothing was checked, and make check fails.
    printf '%s\n' '1..2' 'ok 1 02: --help explains the program and exits 0' \
        'ok 2 02: TODO 02.1 p2p_bytes # skip no NVIDIA driver' >"$tap"
    run "$REPO_ROOT/tools/grading/check-summary.py" 02 "$tap"
    assert_failure
    assert_line 'check 02: TODO 02.1: not verified here (no NVIDIA driver; 0 of its 1 test ran here and passed)'
    assert_output --partial "no test of the lab's 7 TODOs ran here: nothing was checked"
}

@test "grading: a test tagged compile-only never verifies a TODO: it reads the compiled code, it does not run it" {
    local tap="$BATS_TEST_TMPDIR/t.tap" ptx
    ptx=$(sed -n -E '/^# bats test_tags=.*compile-only/{n;s/^@test "(.*)" \{$/\1/p}' "$REPO_ROOT/tests/lab04.bats")
    [[ "$ptx" == *"TODOs 04.2, 04.3, 04.4 and 04.7"*PTX* ]] || fail "lab 04's PTX test is not tagged compile-only: '$ptx'"
    printf '%s\n' '1..1' "ok 1 $ptx" >"$tap"
    run "$REPO_ROOT/tools/grading/check-summary.py" 04 "$tap"
    assert_failure
    assert_line 'check 04: TODO 04.3: not verified here (only compiled here: no test of it ran its code)'
    assert_output --partial "nothing was checked"
    refute_output --regexp 'TODO 04\.[0-9]: verified here'
}

@test "grading: make check on the untouched skeleton reads each TODO unfinished, with its file:line, and fails" {
    skeletons_untouched
    run make -s -C "$REPO_ROOT" check LAB=3 BUILD="$BUILD_DIR" CUDA_ARCH=90 LAB_NO_INSTALL=1
    assert_failure
    local id n=0
    for id in $(cat "$REPO_ROOT"/labs/03-*/harness/*.h | grep -oE 'TODO 03\.[0-9]+' | cut -d' ' -f2 | sort -u); do
        assert_line --regexp "^check 03: TODO ${id//./\\.}: unfinished \(LAB_TODO\(\"${id//./\\.}\"\) is still in labs/03-peer-kernels/student/peer_(host\.c|kernels\.cu):[0-9]+\)$"
        n=$((n + 1))
    done
    assert_line "check 03: of the lab's $n TODOs: $n unfinished"
}

@test "grading: make check on a mistake only a GPU test can see says 'not verified here (needs 1 GPU)' without a GPU, and 'fails here' with one" {
    command -v unifdef >/dev/null || skip "unifdef is needed to make the student's file"
    local tree="$BATS_TEST_TMPDIR/tree" build="$BATS_TEST_TMPDIR/build" lab=04-peer-atomics file
    mkdir -p "$tree/solutions/$lab" "$tree/labs/$lab/student"
    cp "$REPO_ROOT/solutions/$lab"/* "$tree/solutions/$lab/"
    # TODO 04.3's leader adds 32 for a partial warp: only a kernel run on a GPU shows it (its
    # compiled PTX, which the machine without a GPU checks too, is right).
    patch -s -p1 -d "$tree" <"$REPO_ROOT/tests/mistakes/lab04-warp-adds-32.patch"
    for file in "$tree/solutions/$lab"/*; do
        unifdef -ULAB_SKELETON -o "$tree/labs/$lab/student/$(basename "$file")" "$file" || [ $? -eq 1 ]
    done
    # A copy of the build, so that only the planted files are compiled again.
    cp -a "$BUILD_DIR" "$build"
    run make -s -C "$REPO_ROOT" check LAB=04 BUILD="$build" STUDENT_ROOT="$tree/labs" CUDA_ARCH=90 LAB_NO_INSTALL=1
    if [ "$("$BUILD_DIR/tools/gpu-query" count 2>/dev/null || echo 0)" -eq 0 ]; then
        assert_success
        assert_line --regexp '^check 04: TODO 04\.3: not verified here \(needs 1 GPU; 1 of its [0-9]+ tests ran here and passed\)$'
        refute_line --regexp '^check 04: TODO 04\.[0-9]+: (verified|fails) here'
    else
        assert_failure
        assert_line --regexp '^check 04: TODO 04\.3: fails here'
    fi
}

@test "grading: a failed check shows the program's own error line, not only the status" {
    run program_said 1 $'ok check_valid\nnot ok check_size_overflow: got P2P_ERR_ZERO_SIZE, expected P2P_ERR_SIZE_OVERFLOW\nok check_one_byte'
    assert_success
    assert_line 'the program exited 1 and said:'
    assert_line '  | not ok check_size_overflow: got P2P_ERR_ZERO_SIZE, expected P2P_ERR_SIZE_OVERFLOW'
    refute_output --partial check_valid
    run program_said 0 "not ok ignored"
    assert_output ""
    run program_said 77 "skipped: needs 1 GPU"
    assert_output ""
    # Through captured, as the lab tests read a run: stderr's error line is shown.
    BATS_FILE_TMPDIR=$BATS_TEST_TMPDIR
    printf 'a,b\n' >"$BATS_TEST_TMPDIR/fake.out"
    printf 'lab: copying\nlab: error: cudaMemcpyPeer returned cudaErrorInvalidValue\n' >"$BATS_TEST_TMPDIR/fake.err"
    echo 1 >"$BATS_TEST_TMPDIR/fake.status"
    run captured fake
    assert_line '  | lab: error: cudaMemcpyPeer returned cudaErrorInvalidValue'
}

# bats test_tags=lab-rules
@test "grading: every TODO has at least three planted mistakes, each naming a TODO the lab declares" {
    local id lab n bad="" patch
    for id in $(cat "$REPO_ROOT"/labs/*/harness/*.h | grep -oE 'TODO [0-9]{2}\.[0-9]+' | cut -d' ' -f2 | sort -uV); do
        lab=${id%%.*}
        n=$(head -qn 1 "$REPO_ROOT"/tests/mistakes/lab"$lab"-*.patch 2>/dev/null | grep -cE "^# TODO ${id//./\\.}:" || true)
        [ "$n" -ge 3 ] || bad+=" $id ($n)"
    done
    for patch in "$REPO_ROOT"/tests/mistakes/*.patch; do
        id=$(head -n 1 "$patch" | sed -nE 's/^# TODO ([0-9]{2}\.[0-9]+):.*/\1/p')
        lab=$(basename "$patch" | sed -E 's/^lab([0-9]{2})-.*/\1/')
        [ "${id%%.*}" = "$lab" ] && grep -qE "TODO ${id//./\\.}\b" "$REPO_ROOT"/labs/"$lab"-*/harness/*.h ||
            bad+=" $(basename "$patch") names '$id'"
    done
    [ -z "$bad" ] || fail "too few planted mistakes (or a wrong TODO id):$bad"
}

# bats test_tags=lab-rules
@test "grading: every planted mistake names one kind of tests/mistakes/kinds.tsv on its second line, and every kind has a patch" {
    local table="$REPO_ROOT/tests/mistakes/kinds.tsv" kinds patch lines kind bad=""
    assert_file_exists "$table"
    kinds=$(tsv_column "$table" id) || fail "$table: no column id"
    [ -n "$kinds" ] || fail "$table lists no kind"
    for patch in "$REPO_ROOT"/tests/mistakes/*.patch; do
        lines=$(grep -c '^# kind:' "$patch" || true)
        kind=$(sed -n '2s/^# kind: \([a-z0-9-]*\)$/\1/p' "$patch")
        if [ "$lines" -ne 1 ] || [ -z "$kind" ]; then
            bad+=$'\n'"$(basename "$patch"): needs one '# kind: ID' line, its second ($lines found)"
        elif ! grep -qxF -- "$kind" <<<"$kinds"; then
            bad+=$'\n'"$(basename "$patch"): kind '$kind' is not in tests/mistakes/kinds.tsv"
        fi
    done
    for kind in $kinds; do
        grep -qx "# kind: $kind" "$REPO_ROOT"/tests/mistakes/*.patch || bad+=$'\n'"kind $kind: no patch plants one"
    done
    [ -z "$bad" ] || fail "planted mistakes and their kinds:$bad"
}

# bats test_tags=lab-rules
@test "grading: each handout ends with its Contracts table: every TODO the lab declares, each clause with a test that exists" {
    local lab nn readme todo ref bad=""
    for lab in $(cd "$REPO_ROOT/labs" && ls -d [0-9][0-9]-*); do
        nn=${lab%%-*}
        for readme in README.md README.zh-CN.md; do
            local section
            section=$(awk '/^## (Contracts|契约)$/ { on = 1 } on' "$REPO_ROOT/labs/$lab/$readme")
            [ -n "$section" ] || { bad+=$'\n'"labs/$lab/$readme has no Contracts section"; continue; }
            # The section is the handout's last.
            [ "$(grep -c '^## ' <<<"$section")" -eq 1 ] || bad+=$'\n'"labs/$lab/$readme: the Contracts section is not the last"
            for todo in $(cat "$REPO_ROOT"/labs/"$lab"/harness/*.h | grep -oE "TODO $nn\.[0-9]+" | cut -d' ' -f2 | sort -u); do
                grep -qE "^\| ${todo//./\\.} \| .+ \| \`" <<<"$section" || bad+=$'\n'"labs/$lab/$readme: no clause of TODO $todo"
            done
            while IFS= read -r ref; do
                grep -qF -- "$ref" "$REPO_ROOT/tests/lab$nn.bats" "$REPO_ROOT/tests/unit/lab$nn.c" ||
                    bad+=$'\n'"labs/$lab/$readme names a test that does not exist: $ref"
            done < <(grep -E '^\| [0-9]{2}\.[0-9]+ \|' <<<"$section" | awk -F' \\| ' '{ print $NF }' | grep -oE '`[^`]+`' | tr -d '`')
        done
    done
    [ -z "$bad" ] || fail "$bad"
}

# --- make grade on a submission: each defect a student's tree can show -------

# solve_only SRC ID: SRC (a solutions/ file) with only TODO ID solved, the
# others left as the skeleton has them.
solve_only() {
    awk -v id="LAB_TODO(\"$2\")" '
        /^#ifndef LAB_SKELETON/ { inblock = 1; part = "solution"; sol = ""; skel = ""; next }
        inblock && /^#else/ { part = "skeleton"; next }
        inblock && /^#endif/ { inblock = 0; printf "%s", (index(skel, id) ? sol : skel); next }
        inblock { if (part == "solution") sol = sol $0 "\n"; else skel = skel $0 "\n"; next }
        { print }' "$1"
}

# submission_tree DIR: the untouched skeletons as a submission (DIR/labs/NN-*/student/).
submission_tree() {
    local src lab
    for src in "$REPO_ROOT"/solutions/[0-9][0-9]-*/*.c "$REPO_ROOT"/solutions/[0-9][0-9]-*/*.cu; do
        lab=$(basename "$(dirname "$src")")
        mkdir -p "$1/labs/$lab/student"
        unifdef -DLAB_SKELETON -o "$1/labs/$lab/student/$(basename "$src")" "$src" || [ $? -eq 1 ]
    done
}

# graded NAME ARGS...: `make grade ARGS...` once per file (the tests share
# the run): its output and status, and its build/grade/ kept in
# $BATS_FILE_TMPDIR/NAME/.
graded() {
    local name=$1 keep="$BATS_FILE_TMPDIR/$1"
    shift
    if [ ! -f "$keep/status" ]; then
        mkdir -p "$keep"
        local rc=0
        make -s -C "$REPO_ROOT" grade BUILD="$BUILD_DIR" CUDA_ARCH=90 "$@" >"$keep/output" 2>&1 || rc=$?
        echo "$rc" >"$keep/status"
        cp -r "$BUILD_DIR/grade" "$keep/grade"
    fi
    output=$(cat "$keep/output")
    mapfile -t lines <<<"$output" # as `run` leaves them, for assert_line
    status=$(cat "$keep/status")
    GRADED="$keep/grade"
}

# lab02_wrong_and_coloured DIR: lab 02 solved in submission DIR, but
# p2p_bytes counts one byte too many and prints terminal colour codes.
lab02_wrong_and_coloured() {
    local file="$1/labs/02-memcpy-peer/student/p2p_copy.c"
    unifdef -ULAB_SKELETON "$REPO_ROOT/solutions/02-memcpy-peer/p2p_copy.c" |
        sed -e 's|^#include <stdint.h>|&\n#include <stdio.h>|' \
            -e 's|^    \*bytes = count \* elem_size;|    *bytes = count * elem_size + 1;\n    fprintf(stderr, "error: \\x1b[31mdebug\\x1b[0m \\xff\\xfe\\n");|' >"$file"
    grep -q 'elem_size + 1' "$file" || fail "the lab 02 edit no longer applies"
}

# The submission the next tests grade: lab 01 does not compile; lab 02's
# p2p_bytes is wrong and prints colour codes; lab 03 has only TODO 03.1
# done; lab 04 has its kernels (04.2, 04.3, 04.4, 04.7) done.
graded_submission() {
    local tree="$BATS_FILE_TMPDIR/submission"
    if [ ! -d "$tree" ]; then
        command -v unifdef >/dev/null || skip "unifdef is needed to make the submission"
        submission_tree "$tree"
        echo 'int broken(' >>"$tree/labs/01-peer-checks/student/peer_checks.c"
        lab02_wrong_and_coloured "$tree"
        solve_only "$REPO_ROOT/solutions/03-peer-kernels/peer_host.c" 03.1 >"$tree/labs/03-peer-kernels/student/peer_host.c"
        unifdef -ULAB_SKELETON -o "$tree/labs/04-peer-atomics/student/atomic_kernels.cu" \
            "$REPO_ROOT/solutions/04-peer-atomics/atomic_kernels.cu" || [ $? -eq 1 ]
    fi
    graded submission SUBMISSION="$tree" GRADE_LABS="01 02 03 04"
}

@test "grading: SUBMISSION scores lab 04's system-scope PTX from the submission's own kernels" {
    command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || skip "nvcc is not installed"
    graded_submission
    refute_output --partial "[failed] 04: TODOs 04.2, 04.3, 04.4 and 04.7"
    grep -q '^ok .* 04: TODOs 04.2, 04.3, 04.4 and 04.7: .*PTX' "$GRADED/tests.tap" || fail "the PTX test did not pass"
}

@test "grading: lab 04's PTX test names an unfinished kernel TODO with file:line" {
    command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || skip "nvcc is not installed"
    local tree="$BATS_TEST_TMPDIR/skeleton"
    submission_tree "$tree"
    run env LAB_BUILD=student STUDENT_ROOT="$tree/labs" BUILD="$BUILD_DIR" bats -f 'system-scope' "$REPO_ROOT/tests/lab04.bats"
    assert_output --regexp "unfinished: TODO 04\.[2347] is not done yet \(.*/04-peer-atomics/student/atomic_kernels\.cu:[0-9]+\)"
    # When make grade could not build lab 04, the PTX of one file earns nothing.
    printf '04\tlabs/04-peer-atomics/student/atomic_host.c:3:1: error: expected ;\n' >"$BATS_TEST_TMPDIR/unbuilt.tsv"
    run env LAB_BUILD=student STUDENT_ROOT="$tree/labs" BUILD="$BUILD_DIR" GRADE_UNBUILT="$BATS_TEST_TMPDIR/unbuilt.tsv" \
        bats -f 'system-scope' "$REPO_ROOT/tests/lab04.bats"
    assert_line --regexp '^not ok 1 '
    assert_line '# not built: lab 04 does not build: labs/04-peer-atomics/student/atomic_host.c:3:1: error: expected ;'
}

@test "grading: a lab that does not compile is named with the compiler's error and scores 0 of what this machine checks; the others score" {
    graded_submission
    assert_failure
    assert_line --regexp "^lab 01 does not build, .*: labs/01-peer-checks/student/peer_checks\.c:[0-9]+(:[0-9]+)?: error"
    refute_output --partial "Command not found"
    refute_output --regexp 'see $'
    local row
    row=$(grep -E '^01 ' <<<"$output")
    # The maximum and what is not checkable here are the reference's.
    graded ref GRADE_BUILD=ref GRADE_LABS=01
    assert_success
    local want
    want=$(grep -E '^01 ' <<<"$output" | awk '{ print $4, $5 }')
    [[ "$row" =~ ^01\ +0\ of\ ([0-9]+)\ +([0-9]+)\ points ]] || fail "lab 01's row: $row"
    assert_equal "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}" "$want"
    # Lab 02 was scored as usual: its unit tests of 02.2 and later pass.
    graded_submission
    assert_line --regexp '^02 +[1-9][0-9]* of [0-9]+ '
}

@test "grading: control characters and bytes that are not UTF-8 a program prints do not break junit.xml, and the JSON files are written" {
    command -v unifdef >/dev/null || skip "unifdef is needed to make the submission"
    local tree="$BATS_FILE_TMPDIR/coloured"
    [ -d "$tree" ] || { submission_tree "$tree" && lab02_wrong_and_coloured "$tree"; }
    graded coloured SUBMISSION="$tree" GRADE_LABS=02
    local said=$output rc=$status
    grep -q $'\e\\[31m' "$GRADED/tests.tap" || fail "the program's colour codes did not reach the test output"
    run python3 -c 'import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])' "$GRADED/junit.xml"
    assert_success
    assert_file_exists "$GRADED/summary.json"
    run python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$GRADED/results.json"
    assert_success
    output=$said status=$rc
    assert_success
    assert_output --regexp $'\ngrade: written: [^\n]*junit\\.xml, [^\n]*results\\.json, [^\n]*summary\\.json'
}

@test "grading: an output that was not written is said with its true cause, and make grade fails" {
    local stub="$BATS_TEST_TMPDIR/bin"
    mkdir -p "$stub"
    printf '#!/bin/sh\ncase "$1" in *junit-summary.py) echo "junit-summary: cannot write: disk full" >&2; exit 1 ;; esac\nexec %q "$@"\n' \
        "$(command -v python3)" >"$stub/python3"
    chmod +x "$stub/python3"
    run env PATH="$stub:$PATH" make -s -C "$REPO_ROOT" grade GRADE_BUILD=ref GRADE_LABS=02 BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_failure
    assert_output --partial "junit-summary: cannot write: disk full"
    refute_output --partial "python3 is needed"
    assert_line --regexp '^grade: written: '
    refute_line --regexp '^grade: written: .*(junit\.xml|summary\.json|results\.json)'
    assert_file_not_exists "$BUILD_DIR/grade/summary.json"
    assert_file_not_exists "$BUILD_DIR/grade/results.json"
}

@test "grading: a wrong answer's hint is the program's own failing line with file:line, the same in summary.json" {
    graded_submission
    local hint
    hint=$(grep -A1 -F '[failed] 02: TODO 02.1 ' <<<"$output" | tail -n 1 | sed 's/^ *//')
    [[ "$hint" =~ ^not\ ok\ bytes_[a-z_]+:\ got\ .*\ \(tests/lab02\.bats:[0-9]+\)$ ]] || fail "hint: '$hint'"
    run python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print([t["hint"] for l in d["labs"] for t in l["tests"] if t["name"].startswith("02: TODO 02.1 ")][0])' "$GRADED/summary.json"
    assert_output "$hint"
}

@test "grading: a bad GRADE_LABS is one clear error, exit 2, and the previous results stay" {
    local build="$BATS_TEST_TMPDIR/b"
    mkdir -p "$build/grade"
    echo kept >"$build/grade/summary.json"
    run env BUILD="$build" GRADE_LABS=abc "$REPO_ROOT/tools/grading/grade.sh"
    assert_equal "$status" 2
    assert_output --regexp "^grade: GRADE_LABS: 'abc' is no lab number"
    assert_equal "${#lines[@]}" 1
    run env BUILD="$build" GRADE_LABS="01 98" "$REPO_ROOT/tools/grading/grade.sh"
    assert_equal "$status" 2
    assert_output --partial "no lab 98"
    run env BUILD="$build" GRADE_BUILD=bogus GRADE_LABS=02 "$REPO_ROOT/tools/grading/grade.sh"
    assert_equal "$status" 2
    assert_output "grade: GRADE_BUILD: 'bogus' is neither student nor ref"
    assert_equal "$(cat "$build/grade/summary.json")" kept
}

@test "grading: a lab named twice in GRADE_LABS is graded once" {
    run make -s -C "$REPO_ROOT" grade GRADE_BUILD=ref GRADE_LABS="2 02" BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_success
    assert_equal "$(grep -c '^02 ' <<<"$output")" 1
    run python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["labs"][0]["tests"]))' "$BUILD_DIR/grade/summary.json"
    assert_output "$(bats --count "$REPO_ROOT/tests/lab02.bats")"
}

@test "grading: a submission without a lab's files is told so, not sent to a harness link error" {
    command -v unifdef >/dev/null || skip "unifdef is needed to make the submission"
    local tree="$BATS_TEST_TMPDIR/partial"
    submission_tree "$tree"
    rm -r "$tree/labs/04-peer-atomics"
    run make -s -C "$REPO_ROOT" grade SUBMISSION="$tree" GRADE_LABS="02 04" BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_output --partial "lab 04 does not build, so it scores 0 of what this machine can check: the submission has no labs/04-peer-atomics/student/ files"
    refute_output --partial "undefined reference"
    assert_line --regexp '^02 '
}

@test "grading: make grade takes a SUBMISSION whose path has a space" {
    command -v unifdef >/dev/null || skip "unifdef is needed to make the submission"
    local tree="$BATS_TEST_TMPDIR/a student/tree"
    submission_tree "$tree"
    run make -s -C "$REPO_ROOT" grade SUBMISSION="$tree" GRADE_LABS=02 BUILD="$BUILD_DIR" CUDA_ARCH=90
    assert_success
    assert_line --regexp '^02 '
}

@test "grading: with SUBMISSION the hints name the submission's files, not the grader's copy" {
    graded_submission
    refute_output --partial "grade/submission"
    run grep -c 'grade/submission' "$GRADED/tests.tap" "$GRADED/junit.xml" "$GRADED/summary.json" "$GRADED/results.json"
    refute_output --regexp ':[1-9]'
    graded_submission
    assert_output --regexp "TODO 03\.3 is not done yet \(labs/03-peer-kernels/student/peer_host\.c:[0-9]+\)"
}

@test "grading: lab 03's TODO 03.1 done alone earns its unit test's point" {
    graded_submission
    refute_output --partial "[failed] 03: TODO 03.1 "
    assert_output --partial "[failed] 03: TODO 03.3 "
    grep -q '^ok .* 03: TODO 03.1 refuses' "$GRADED/tests.tap" || fail "TODO 03.1's unit test did not pass"
}

# --- a planted mistake, built as a student's files: what its test says -------

# planted NAME: the reference of tests/mistakes/NAME.patch's lab with that mistake planted,
# built as a student's files (the lab's unit-test drivers) in $BATS_TEST_TMPDIR/NAME/build,
# which PLANTED names. Only the lab's files are compiled: common/ and the tools are this tree's
# build, linked in.
planted() {
    local name=$1 tree="$BATS_TEST_TMPDIR/$1" nn lab targets=()
    nn=${name#lab}
    nn=${nn%%-*}
    lab=$(cd "$REPO_ROOT/solutions" && ls -d "$nn"-*)
    mkdir -p "$tree/solutions" "$tree/labs/$lab" "$tree/build"
    cp -r "$REPO_ROOT/solutions/$lab" "$tree/solutions/"
    patch -s -p1 -d "$tree" <"$REPO_ROOT/tests/mistakes/$name.patch" ||
        fail "tests/mistakes/$name.patch no longer applies"
    cp -r "$tree/solutions/$lab" "$tree/labs/$lab/student"
    cp -al "$BUILD_DIR/common" "$BUILD_DIR/tools" "$tree/build/" 2>/dev/null ||
        cp -a "$BUILD_DIR/common" "$BUILD_DIR/tools" "$tree/build/"
    mapfile -t targets < <("$REPO_ROOT/tools/grading/test-drivers.sh" "$tree/build" student "$lab")
    make -s -C "$REPO_ROOT" BUILD="$tree/build" STUDENT_ROOT="$tree/labs" CUDA_ARCH=90 "${targets[@]}" ||
        fail "the planted $name does not build"
    PLANTED="$tree/build"
}

@test "grading: a racy TODO 04.8 fails its test on one CPU (taskset -c 0), whatever the threads' turns" {
    command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
    local name
    for name in lab04-cpu-plain-increment lab04-cpu-volatile-increment; do
        planted "$name"
        run taskset -c 0 env LAB_BUILD=student BUILD="$PLANTED" \
            bats -f 'TODO 04\.8 the CPU adds' "$REPO_ROOT/tests/lab04.bats"
        assert_failure
        assert_line --regexp '^not ok 1 04: TODO 04\.8 the CPU adds'
        assert_output --partial "not ok two_threads: ThreadSanitizer found a data race on the counter"
        assert_output --regexp "SUMMARY: ThreadSanitizer: data race .*/atomic_host\.c:[0-9]+ in cpu_add_while"
    done
    # The reference passes the same test on the same one CPU.
    run taskset -c 0 env LAB_BUILD=ref BUILD="$BUILD_DIR" bats -f 'TODO 04\.8 the CPU adds' "$REPO_ROOT/tests/lab04.bats"
    assert_success
}

@test "grading: where ThreadSanitizer cannot map memory, the thread tests run again without address-space randomisation, else skip saying why" {
    local dir="$BATS_TEST_TMPDIR/b/student/threads"
    mkdir -p "$dir"
    # A stand-in driver that fails as ThreadSanitizer does on such a kernel, unless setarch -R
    # turned randomisation off for it (ADDR_NO_RANDOMIZE in its personality).
    printf '%s\n' '#!/bin/sh' \
        'if [ $((0x$(cat /proc/self/personality) & 0x40000)) -eq 0 ]; then' \
        '    echo "FATAL: ThreadSanitizer: unexpected memory mapping 0x555555554000-0x555555555000" >&2; exit 66' \
        'fi' 'echo "ok two_threads"' >"$dir/99-stand-in"
    chmod +x "$dir/99-stand-in"
    setarch "$(uname -m)" -R true 2>/dev/null || skip "setarch -R is not allowed here"
    BUILD_DIR="$BATS_TEST_TMPDIR/b" LAB_BUILD=student
    # A skip of threads_run's own is a failure here.
    skip() { fail "skipped: $*"; }
    threads_run 99 99.1
    assert_success
    assert_output "ok two_threads"
    # Where even that fails, the test is skipped with the reason and the fix.
    printf '%s\n' '#!/bin/sh' 'echo "FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2" >&2' 'exit 66' >"$dir/99-stand-in"
    skip() { echo "skipped: $*"; exit 0; }
    run threads_run 99 99.1
    unset -f skip
    assert_output --regexp '^skipped: ThreadSanitizer cannot map memory on this kernel, even with setarch -R: FATAL: .* \(fix: sudo sysctl vm\.mmap_rnd_bits=28\)$'
}

@test "grading: a crash in a unit-tested TODO names its signal, its case and its TODO, in the test and in the scorecard's hint" {
    planted lab04-cpu-null-counter-used
    local junit="$BATS_TEST_TMPDIR/junit" said
    mkdir -p "$junit"
    cd "$REPO_ROOT"
    run env LAB_BUILD=student BUILD="$PLANTED" bats --report-formatter junit --output "$junit" \
        -f 'TODO 04\.8 the CPU adds' tests/lab04.bats
    assert_failure
    said="not ok null_counter: crashed with SIGSEGV (invalid memory access, e.g. a NULL or freed pointer), signal 11, in TODO 04.8 (case null_counter)"
    assert_output --partial "$said"
    refute_output --partial "exited 139"
    for _ in $(seq 1 50); do
        grep -q '</testsuites>' "$junit/report.xml" 2>/dev/null && break
        sleep 0.2
    done
    score "$junit/report.xml"
    assert_line --regexp "^      $(sed 's/[][().*^$]/\\&/g' <<<"$said") \(tests/lab04\.bats:[0-9]+\)$"
}

@test "grading: a program killed by a signal is said so by the signal's name, first among what it said" {
    run bash -c 'echo "lab: copying 4 KiB"; kill -SEGV $$'
    assert_equal "$status" 139
    run program_said "$status" "$output"
    assert_line --index 0 'the program was killed by SIGSEGV (signal 11: invalid memory access, e.g. a NULL or freed pointer) and said:'
    assert_line --index 1 '  | crashed: killed by SIGSEGV (signal 11: invalid memory access, e.g. a NULL or freed pointer)'
    assert_line '  | lab: copying 4 KiB'
    refute_output --partial "exited 139"
    run program_said 134 "lab: checking"
    assert_line --index 0 'the program was killed by SIGABRT (signal 6: abort, e.g. a failed assert) and said:'
    run program_said 3 "lab: error: x"
    assert_line --index 0 'the program exited 3 and said:'
    # The scorecard's hint is the crash, named.
    local junit="$BATS_TEST_TMPDIR/crash.xml"
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="lab01.bats">\n<testcase name="01: crash"><failure>(in test file tests/lab01.bats, line 5)\n%s\n</failure></testcase>\n</testsuite></testsuites>\n' \
        "$(program_said 139 'lab: copying 4 KiB')" >"$junit"
    score "$junit"
    assert_line '      crashed: killed by SIGSEGV (signal 11: invalid memory access, e.g. a NULL or freed pointer) (tests/lab01.bats:5)'
}
