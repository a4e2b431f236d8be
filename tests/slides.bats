#!/usr/bin/env bats
# The lecture decks in slides/. A deck is Markdown with placeholders that
# tools/slides/slides-fill.py fills from the recorded runs it cites
# (tests/fixtures/labNN-SUFFIX.csv, one per machine that tests/fixtures/machines.tsv
# names, where the lab has been recorded there): every verdict is the one the lab's
# host tool computes, every measured number a value of the run. The tests check the
# sources, the filled decks, the plots drawn from the runs, and, where Marp
# and Chromium are installed, the rendered pages.

load helpers/lab

# The labs with a deck, found from the files (slides/NN-*.md but the introduction,
# 00): a new lab's deck is checked with no edit here.
LABS=$(cd "$REPO_ROOT/slides" && for d in [0-9][0-9]-*.md; do [ "${d%%-*}" = 00 ] || echo "${d%%-*}"; done | sort -u | tr '\n' ' ')

# recorded NN SUFFIX: lab NN has a recording on the machine of SUFFIX.
recorded() {
    [ -f "$FIXTURES/lab$1-$2.csv" ]
}

# The words a deck shows for a machine a lab has no recording of (tools/slides/slides-fill.py).
NOT_RECORDED="no recording of this lab on that machine yet"

# deck NN: the deck of lab NN (00: the introduction).
deck() {
    local d
    for d in "$REPO_ROOT"/slides/"$1"-*.md; do
        [ -f "$d" ] && { echo "$d"; return 0; }
    done
    echo "no deck slides/$1-*.md" >&2
    return 1
}

# slide_bodies DECK: the deck without its front matter, slides separated by
# a line holding only "@@slide".
slide_bodies() {
    awk 'NR == 1 && /^---$/ { front = 1; next }
         front && /^---$/   { front = 0; next }
         front              { next }
         /^```/             { code = !code }
         !code && /^---$/   { print "@@slide"; next }
         { print }' "$1"
}

# fill DECK OUT: the deck filled from the recorded runs.
fill() {
    BUILD="$BUILD_DIR" "$REPO_ROOT/tools/slides/slides-fill.py" "$1" "$2"
}

# claim_ids NN SUFFIX: the claims lab NN's host tool judges on labNN-SUFFIX.csv
# (none where lab NN has no recording on that machine).
claim_ids() {
    local tool
    recorded "$1" "$2" || return 0
    tool=$(host_tool "$1") || return 1
    "$tool" verdicts "$FIXTURES/lab$1-$2.csv" | rows_awk 'f("experiment") == "claim" { print f("variant") }'
}

# quote_blocks_without_section DECK: each run of quote lines, joined on one
# line, that does not end with its section "— 4.N" (or "— 4", the chapter's opening).
quote_blocks_without_section() {
    awk '/^>/ { b = b $0 " "; next } { if (b != "") print b; b = "" } END { if (b != "") print b }' "$1" |
        grep -vE '— 4(\.[1-4])? *$' || true
}

# untested_everywhere NN ID: no recording of lab NN tests claim ID.
untested_everywhere() {
    local suffix tool
    tool=$(host_tool "$1") || return 1
    for suffix in $(machine_suffixes); do
        recorded "$1" "$suffix" || continue
        "$tool" verdicts "$FIXTURES/lab$1-$suffix.csv" | rows_awk -v id="$2" 'f("experiment") == "claim" && f("variant") == id && f("value") != "untested" { found = 1 } END { exit !found }' &&
            return 1
    done
    return 0
}

# pages FILLED: one line per page of a filled deck, its text joined (the
# front matter left out), so that a page can be grepped as a whole.
pages() {
    slide_bodies "$1" | awk '/^@@slide$/ { print p; p = ""; next } { p = p " " $0 } END { print p }'
}

need_host_tools() {
    local n
    for n in $LABS; do
        host_tool "$n" >/dev/null 2>&1 || skip "lab $n's host tool is not built (make tools)"
    done
}

@test "slides: every deck uses the one theme and repeats no style of its own" {
    local d
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        grep -qx 'theme: course' "$d" || fail "$(basename "$d") does not use 'theme: course'"
        ! grep -qiE '^style:|<style' "$d" || fail "$(basename "$d") has a style block: styles live in slides/theme/course.css"
    done
    grep -q '@theme course' "$REPO_ROOT/slides/theme/course.css"
}

@test "slides: the theme sets code at 20px or more and a CJK font for the chapter's quotes" {
    local css="$REPO_ROOT/slides/theme/course.css" px
    for px in $(grep -E 'pre|code' "$css" | grep -oE 'font-size: *[0-9]+px' | grep -oE '[0-9]+'); do
        [ "$px" -ge 20 ] || fail "course.css sets code at ${px}px"
    done
    awk '/blockquote *\{/,/\}/' "$css" | grep -q 'Noto Sans CJK SC' || fail "quotes have no CJK font in course.css"
}

@test "slides: the plots and the diagram in slides/img are what make-plots.sh draws from the fixtures" {
    command -v gnuplot >/dev/null || skip "gnuplot is missing (Debian: sudo apt-get install gnuplot-nox)"
    command -v dot >/dev/null || skip "dot is missing (Debian: sudo apt-get install graphviz)"
    local out="$BATS_TEST_TMPDIR/img"
    run "$REPO_ROOT/slides/plots/make-plots.sh" "$out"
    assert_success
    local want got
    want=$(cd "$REPO_ROOT/slides/img" && ls -1)
    got=$(cd "$out" && ls -1)
    [ "$got" = "$want" ] || fail "make-plots.sh drew: $(echo $got); slides/img holds: $(echo $want)"
    local png
    for png in "$out"/*.png; do
        [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
            fail "$(basename "$png") is not a PNG"
    done
    # the diagram's words and figures (the layout may differ between Graphviz versions)
    [ "$(svg_words "$out/topology.svg")" = "$(svg_words "$REPO_ROOT/slides/img/topology.svg")" ] ||
        fail "slides/img/topology.svg is not what slides/diagrams/topology.py draws: run slides/plots/make-plots.sh"
}

@test "slides: every plot keeps its key outside its data area, as drawn (and the check sees a key moved inside)" {
    command -v gnuplot >/dev/null || skip "gnuplot is missing (Debian: sudo apt-get install gnuplot-nox)"
    command -v dot >/dev/null || skip "dot is missing (Debian: sudo apt-get install graphviz)"
    local out="$BATS_TEST_TMPDIR/check" png
    # drawn for the check: border cyan, key text magenta (slides/plots/screen.gp)
    LAYOUT_CHECK=1 run "$REPO_ROOT/slides/plots/make-plots.sh" "$out"
    assert_success
    for png in "$REPO_ROOT"/slides/img/*.png; do
        assert_file_exists "$out/$(basename "$png")"
    done
    run "$REPO_ROOT/tools/slides/slides-plot-layout.py" "$out"/*.png
    [ "$status" -eq 0 ] || fail "a key sits in its plot's data area: $output"
    # a key moved back inside the data: every key of lab 05's plots that sits beside its data
    # (the bandwidth plots draw theirs in a strip of its own, with no data to move into)
    # (only lab 05's script and what it loads: make-plots.sh then draws lab 05's plots alone)
    mkdir -p "$BATS_TEST_TMPDIR/plots"
    cp "$REPO_ROOT"/slides/plots/{lab05,screen}.gp "$BATS_TEST_TMPDIR/plots/"
    sed -i 's/^set key .*/&\nset key inside left top/' "$BATS_TEST_TMPDIR/plots/lab05.gp"
    LAYOUT_CHECK=1 PLOTS="$BATS_TEST_TMPDIR/plots" run "$REPO_ROOT/slides/plots/make-plots.sh" "$BATS_TEST_TMPDIR/inside"
    assert_success
    run "$REPO_ROOT/tools/slides/slides-plot-layout.py" "$BATS_TEST_TMPDIR"/inside/lab05-*.png
    assert_failure
    for png in latency streams cpu-sync; do
        assert_output --regexp "lab05-$png\.png: [0-9]+ pixels of the key inside the data area"
    done
    # an image drawn without the check's colours is not passed for want of a key
    run "$REPO_ROOT/tools/slides/slides-plot-layout.py" "$REPO_ROOT/slides/img/lab05-streams.png"
    assert_failure
    assert_output --partial "LAYOUT_CHECK=1"
}

@test "slides: the topology diagram shows the measured figures of both machines" {
    run "$REPO_ROOT/slides/diagrams/topology.py"
    assert_success
    local pair one
    pair=$(recording 05 gpu_count=2)
    one=$(recording 05 gpu_count=1)
    assert_output --partial "$(printf '%.1f GB/s' "$(csv_get "$pair" gbps experiment=ce_bandwidth route=peer src=0 dst=1 mode=one_way bytes=1073741824)")"
    assert_output --partial "host→GPU $(printf '%.1f' "$(csv_get "$one" gbps experiment=ce_bandwidth route=host src=-1 mode=one_way bytes=1073741824)")"
    assert_output --partial "$(recording_field "$pair" gpus)"
    assert_output --partial "$(recording_field "$one" gpus)"
}

@test "slides: a machine with recordings but none of lab 05 is drawn with its GPUs, named as the others, and says no link was measured" {
    local fixtures="$BATS_TEST_TMPDIR/fixtures" one suffix
    one=$(recording 05 gpu_count=1)
    suffix=$(basename "$one" .csv)
    suffix=${suffix#lab05-}
    cp -r "$FIXTURES" "$fixtures"
    rm "$fixtures/lab05-$suffix".*
    FIXTURES="$fixtures" run "$REPO_ROOT/slides/diagrams/topology.py"
    assert_success
    assert_output --partial "label=\"$(machine_field "$suffix" gpus), $(machine_field "$suffix" link)\"; "
    assert_output --partial "no lab 05 recording: no link measured"
}

@test "slides: every image in slides/img is shown by some deck, and every image a deck shows exists" {
    local img
    for img in "$REPO_ROOT"/slides/img/*; do
        grep -qF "(img/$(basename "$img"))" "$REPO_ROOT"/slides/[0-9][0-9]-*.md ||
            fail "slides/img/$(basename "$img") is shown by no deck"
    done
    for img in $(grep -ohE '\(img/[^)]+\)' "$REPO_ROOT"/slides/[0-9][0-9]-*.md | tr -d '()' | sort -u); do
        assert_file_exists "$REPO_ROOT/slides/$img"
    done
    for n in 00 01 05; do
        grep -qF '(img/topology.svg)' "$(deck "$n")" || fail "deck $n does not show the topology diagram"
    done
}

# bats test_tags=lab-rules
@test "slides: no deck writes a verdict or a measured number by hand" {
    local d words
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        words=$(grep -oiE '\*\*(holds|does_not_hold|untested|does not hold)\*\*' "$d" || true)
        [ -z "$words" ] || fail "$(basename "$d") writes the verdict $words: use {{claim NN id}}"
        # badges only in the one legend line that shows all three
        grep 'class="badge' "$d" | grep -v 'badge holds.*badge does_not_hold.*badge untested' &&
            fail "$(basename "$d") writes a badge by hand"
        run "$REPO_ROOT/tools/slides/slides-numbers.py" literals "$d"
        [ "$status" -eq 0 ] || fail "$(basename "$d") writes measured numbers by hand: $output"
    done
    # the check itself finds a number, a machine's versions and a TODO's line written by hand
    local first label
    first=$(machine_suffixes | head -n 1)
    label=$(machine_field "$first" label)
    printf '%s\n' "a copy at 395.7 GB/s, 4.2×, then $label" '> 两个数量级 100× — 4.3' \
        "Recorded on **{{machine lab03-$first hw}}** (driver 580.159.04)" "on {{machine lab03-$first hw}}, CUDA 13.0" \
        '`TODO 02.1 is not done yet (labs/02-memcpy-peer/student/p2p_copy.c:15)`' \
        "\`{{todo 02.1}}\` on {{machine lab02-$first hw}} {{machine lab02-$first versions}}" >"$BATS_TEST_TMPDIR/hand.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" literals "$BATS_TEST_TMPDIR/hand.md"
    assert_failure
    assert_output "$(printf '%s\n' "a copy at 395.7 GB/s, 4.2×, then $label" 'Recorded on ** ** (driver 580.159.04)' \
        'on  , CUDA 13.0' '`TODO 02.1 is not done yet (labs/02-memcpy-peer/student/p2p_copy.c:15)`')"
}

# bats test_tags=lab-rules
@test "slides: each lab deck's title page names the CUDA and driver versions its own fixtures record, and nothing they lack" {
    need_host_tools
    local n suffix fix title want
    for n in $LABS; do
        fill "$(deck "$n")" "$BATS_TEST_TMPDIR/$n.md"
        title=$(slide_bodies "$BATS_TEST_TMPDIR/$n.md" | awk '/^@@slide$/ { exit } { print }')
        for suffix in $(machine_suffixes); do
            fix="lab$n-$suffix"
            if ! recorded "$n" "$suffix"; then
                # a machine the lab has no recording of: said so, with the file it lacks
                [[ "$title" == *"** ($NOT_RECORDED; $fix.csv)"* ]] ||
                    fail "deck $n's title page does not say '$NOT_RECORDED' beside $fix's hardware: $title"
                continue
            fi
            # what the fixture's machine,cuda row says (a row copied "(from ...)" was not recorded)
            want=""
            [ -n "$(csv_get "$FIXTURES/$fix.csv" value experiment=machine variant=cuda)" ] &&
            want=$(paste -d, <(csv_get "$FIXTURES/$fix.csv" value experiment=machine variant=cuda) \
                             <(csv_get "$FIXTURES/$fix.csv" detail experiment=machine variant=cuda) |
                   awk -v fix="$fix" '{
                       cuda = $0; sub(/,.*/, "", cuda); detail = substr($0, length(cuda) + 2)
                       if (detail ~ /\(from /) { print "(" fix ".csv: CUDA and driver versions not recorded"; exit }
                       s = "CUDA " cuda
                       if (match(detail, /driver [0-9]+(\.[0-9]+)+/)) s = s ", " substr(detail, RSTART, RLENGTH)
                       print "(" s "; " fix ".csv)"; exit }')
            [ -n "$want" ] || want="($fix.csv records no CUDA or driver version)"
            [[ "$title" == *"** $want"* ]] ||
                fail "deck $n's title page does not say '$want' beside $fix's hardware: $title"
        done
    done
    # a version borrowed from another lab's recording is a number the deck's runs do not hold
    # (lab 03's recording on a pair of GPUs records none: its deck says so)
    fix=$(basename "$(recording 03 gpu_count=2)" .csv)
    sed -i "s/($fix.csv records no CUDA or driver version)/(CUDA 13.0, driver 580.159.04; $fix.csv)/" "$BATS_TEST_TMPDIR/03.md"
    grep -qF "driver 580.159.04; $fix.csv" "$BATS_TEST_TMPDIR/03.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" sources "$BATS_TEST_TMPDIR/03.md" $(recordings 03)
    assert_failure
    assert_output --partial "580.159.04"
}

# bats test_tags=lab-rules
@test "slides: a TODO message a deck shows is the skeleton's, at the line of its LAB_TODO" {
    need_host_tools
    local n d name id place= msgs unit line
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$d" .md)
        fill "$d" "$BATS_TEST_TMPDIR/$name.md"
        run "$REPO_ROOT/tools/slides/slides-numbers.py" lines "$BATS_TEST_TMPDIR/$name.md"
        [ "$status" -eq 0 ] || fail "$name points at lines that do not hold its TODO: $output"
    done
    for n in $LABS; do
        grep -qE "TODO $n\.[0-9]+ is not done yet \(labs/$n-[a-z0-9-]+/student/[a-z0-9_]+\.(c|cu):[0-9]+\)" \
            "$BATS_TEST_TMPDIR/$n-"*.md || fail "deck $n shows no TODO message with its file and line"
    done
    # a line number gone stale is found
    sed -E 's/(p2p_copy\.c):([0-9]+)/\1:1\2/' "$BATS_TEST_TMPDIR/02-memcpy-peer.md" >"$BATS_TEST_TMPDIR/stale.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" lines "$BATS_TEST_TMPDIR/stale.md"
    assert_failure
    assert_output --regexp '^labs/02-memcpy-peer/student/p2p_copy\.c:1[0-9]+$'
    # the very line the student's unit-test driver prints, where it is built and stops at a TODO the deck shows
    for unit in "$BUILD_DIR"/student/unit/[0-9][0-9]-*; do
        [ -x "$unit" ] || continue
        n=$(basename "$unit" | cut -c1-2)
        line=$("$unit" 2>&1 | grep -m1 -E '^TODO [0-9.]+ is not done yet' || true)
        id=$(awk '{ print $2 }' <<<"$line")
        msgs=$(grep -ohE "TODO $n\.[0-9]+ is not done yet[^\`]*" "$BATS_TEST_TMPDIR/$n-"*.md || true)
        grep -q "^TODO $id " <<<"$msgs" || continue
        [ "$(grep "^TODO $id " <<<"$msgs")" = "$line" ] ||
            fail "deck $n shows '$(grep "^TODO $id " <<<"$msgs")'; $(basename "$unit") prints '$line'"
        place=checked
    done
    [ -n "$place" ] || skip "no student unit-test driver built that stops at a TODO a deck shows (make student)"
}

# bats test_tags=lab-rules
@test "slides: every deck fills from the recorded runs, and every number it then shows is in the runs it cites" {
    need_host_tools
    local d name n fx files tool
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$d" .md)
        run fill "$d" "$BATS_TEST_TMPDIR/$name.md"
        [ "$status" -eq 0 ] || fail "$name does not fill: $output"
        ! grep -q '{{' "$BATS_TEST_TMPDIR/$name.md" || fail "$name: a placeholder was left"
        files=()
        for n in $LABS; do
            [ "${name%%-*}" = 00 ] || [ "${name%%-*}" = "$n" ] || continue
            tool=$(host_tool "$n")
            for fx in $(machine_suffixes); do
                recorded "$n" "$fx" || continue
                fx="$FIXTURES/lab$n-$fx.csv"
                "$tool" verdicts "$fx" >"$BATS_TEST_TMPDIR/$n-$(basename "$fx").verdicts"
                "$tool" report "$fx" >"$BATS_TEST_TMPDIR/$n-$(basename "$fx").report"
                files+=("$fx" "$BATS_TEST_TMPDIR/$n-$(basename "$fx").verdicts" "$BATS_TEST_TMPDIR/$n-$(basename "$fx").report")
            done
        done
        run "$REPO_ROOT/tools/slides/slides-numbers.py" sources "$BATS_TEST_TMPDIR/$name.md" "${files[@]}"
        [ "$status" -eq 0 ] || fail "$name shows numbers its runs do not hold: $output"
    done
}

@test "slides: a placeholder that does not match the runs stops the filler with the reason" {
    need_host_tools
    printf '{{claim 05 no_such_claim}}\n' >"$BATS_TEST_TMPDIR/bad.md"
    run fill "$BATS_TEST_TMPDIR/bad.md" "$BATS_TEST_TMPDIR/out.md"
    assert_failure
    assert_output --partial "no_such_claim"
    assert_file_not_exists "$BATS_TEST_TMPDIR/out.md"
    printf '{{num lab05-%s gbps experiment=ce_bandwidth}}\n' "$(machine_suffixes | head -n 1)" >"$BATS_TEST_TMPDIR/bad.md"
    run fill "$BATS_TEST_TMPDIR/bad.md" "$BATS_TEST_TMPDIR/out.md"
    assert_failure
    assert_output --partial "need exactly one"
}

@test "slides: an unknown kind of placeholder stops the filler, naming it and its line" {
    printf 'intro\n\n{{no-such-kind 05}}\n' >"$BATS_TEST_TMPDIR/bad.md"
    run fill "$BATS_TEST_TMPDIR/bad.md" "$BATS_TEST_TMPDIR/out.md"
    assert_failure 1
    assert_output --partial "bad.md:3: {{no-such-kind 05}}: unknown kind 'no-such-kind'"
    assert_file_not_exists "$BATS_TEST_TMPDIR/out.md"
}

@test "slides: a headline naming a figure its claim did not name stops the filler, naming both" {
    need_host_tools
    local copy=$BATS_TEST_TMPDIR/copy id=small_transfers_latency_bound suffix
    suffix=$(machine_suffixes | head -n 1)
    source_copy "$copy" # the filler and what it reads, to plant a change in
    printf '%s\n' "{{claim 05 $id}}" "| {{verdictcell lab05-$suffix $id}} |" >"$BATS_TEST_TMPDIR/deck.md"
    # the copy as it is fills: what stops it below is the planted name
    BUILD="$BUILD_DIR" FIXTURES="$FIXTURES" run "$copy/tools/slides/slides-fill.py" "$BATS_TEST_TMPDIR/deck.md" "$BATS_TEST_TMPDIR/ok.md"
    assert_success
    grep -q "^$id"$'\t'".*{small_pct}" "$copy"/labs/05-*/headlines.tsv || fail "lab 05's headline of $id no longer shows {small_pct}"
    sed -i "/^$id"$'\t'"/s/{small_pct}/{small_share}/" "$copy"/labs/05-*/headlines.tsv
    BUILD="$BUILD_DIR" FIXTURES="$FIXTURES" run "$copy/tools/slides/slides-fill.py" "$BATS_TEST_TMPDIR/deck.md" "$BATS_TEST_TMPDIR/out.md"
    assert_failure 1
    assert_output --partial "claim $id: its headline names a figure the claim did not emit"
    assert_output --partial ": small_share;"
    assert_output --partial "it emitted: small_pct"
    assert_file_not_exists "$BATS_TEST_TMPDIR/out.md"
}

# figures_not_said VERDICTS FIGURES: each figure of a host tool's figures (FIGURES) that is not,
# as a whole number or word, in the sentence of its claim (VERDICTS), a line each; and a line
# for a claim with figures and no sentence.
figures_not_said() {
    rows_awk '
        # C (then N) after the value, whose last character is E, would make it a longer token
        function longer_after(e, c, n) {
            return (e ~ /[0-9]/ && (c ~ /[0-9]/ || (c == "." && n ~ /[0-9]/))) ||
                   (e ~ /[A-Za-z_]/ && c ~ /[A-Za-z_0-9]/)
        }
        # C before the value, whose first character is B, would make it a longer token
        function longer_before(b, c) {
            return (b ~ /[0-9]/ && c ~ /[0-9.]/) || (b ~ /[A-Za-z_]/ && c ~ /[A-Za-z_0-9]/)
        }
        function whole_in(v, s,    at, from, pos, after) {
            for (from = 1; v != "" && (at = index(substr(s, from), v)) > 0; from = pos + 1) {
                pos = from + at - 1
                after = substr(s, pos + length(v), 2)
                if (!longer_before(substr(v, 1, 1), pos > 1 ? substr(s, pos - 1, 1) : "") &&
                    !longer_after(substr(v, length(v), 1), substr(after, 1, 1), substr(after, 2, 1)))
                    return 1
            }
            return 0
        }
        file == 1 { if (f("experiment") == "claim") said[f("variant")] = f("detail"); next }
        !(f("claim") in said) { print f("claim") ": figures, and no sentence"; next }
        !whole_in(f("value"), said[f("claim")]) {
            print f("claim") ": " f("figure") "=" f("value") " is not in its sentence: " said[f("claim")]
        }' "$1" "$2"
}

@test "slides: every figure a host tool names is the number its claim's sentence says, on every recording" {
    need_host_tools
    local n tool fx bad figures=0
    for n in $LABS; do
        tool=$(host_tool "$n")
        for fx in $(recordings "$n"); do
            "$tool" verdicts "$fx" >"$BATS_TEST_TMPDIR/verdicts.csv"
            "$tool" figures "$fx" >"$BATS_TEST_TMPDIR/figures.csv"
            bad=$(figures_not_said "$BATS_TEST_TMPDIR/verdicts.csv" "$BATS_TEST_TMPDIR/figures.csv") ||
                fail "$(basename "$fx"): the figures cannot be read"
            [ -z "$bad" ] || fail "$(basename "$fx"): $bad"
            figures=$((figures + $(rows_awk 'END { print NR - 1 }' "$BATS_TEST_TMPDIR/figures.csv")))
        done
    done
    [ "$figures" -gt 0 ] || fail "no host tool named a figure on any recording"
    # the check sees a figure its sentence does not say, and one that is only part of a number
    # (it reads the claim rows' columns by name: these three are all it needs)
    printf '%s\n' experiment,variant,detail "claim,x,at 14.0x and 140.5 GB/s" >"$BATS_TEST_TMPDIR/verdicts.csv"
    printf '%s\n' claim,figure,value x,ratio,14.0 x,gbps,40.5 x,size,14 >"$BATS_TEST_TMPDIR/figures.csv"
    run figures_not_said "$BATS_TEST_TMPDIR/verdicts.csv" "$BATS_TEST_TMPDIR/figures.csv"
    assert_success
    assert_output "x: gbps=40.5 is not in its sentence: at 14.0x and 140.5 GB/s
x: size=14 is not in its sentence: at 14.0x and 140.5 GB/s"
}

# bats test_tags=lab-rules
@test "slides: every lab has its deck, and every lab deck its lab" {
    local lab n
    [ -n "$LABS" ] || fail "no lab deck slides/NN-*.md found"
    for lab in "$REPO_ROOT"/labs/[0-9][0-9]-*/; do
        n=$(basename "$lab" | cut -c1-2)
        [[ " $LABS " == *" $n "* ]] || fail "labs/$(basename "$lab") has no deck slides/$n-*.md"
    done
    for n in $LABS; do
        compgen -G "$REPO_ROOT/labs/$n-*/" >/dev/null || fail "slides/$n-*.md is a deck of no lab (labs/$n-*/)"
    done
}

@test "slides: a machine a lab has no recording of is said to have none, and none of its numbers is made up" {
    need_host_tools
    local fx="$BATS_TEST_TMPDIR/fixtures" out="$BATS_TEST_TMPDIR/out.md" gone kept hw
    # lab 05 as if it had not been recorded on the first machine yet (the other one keeps its recording)
    gone=$(machine_suffixes | sed -n 1p)
    kept=$(machine_suffixes | sed -n 2p)
    [ -n "$gone" ] && [ -n "$kept" ] || fail "tests/fixtures/machines.tsv names fewer than two machines"
    hw="$(machine_field "$gone" gpus), $(machine_field "$gone" link)"
    cp -r "$FIXTURES" "$fx"
    rm "$fx/lab05-$gone.csv"
    printf '%s\n' "Recorded on {{machine lab05-$gone hw}} {{machine lab05-$gone versions}}" '{{claim 05 small_transfers_latency_bound}}' \
        "| {{verdictcell lab05-$gone small_transfers_latency_bound}} |" '{{scoreboard 05:1-8}}' '{{untested 05}}' \
        "{{unrecorded lab05-$gone}}" >"$BATS_TEST_TMPDIR/new.md"
    FIXTURES=$fx run fill "$BATS_TEST_TMPDIR/new.md" "$out"
    assert_success
    assert_file_contains "$out" "^Recorded on $hw ($NOT_RECORDED; lab05-$gone.csv)$"
    assert_file_contains "$out" "data-run=\"lab05-$gone\"><span class=\"hw\">[^<]*</span> <span class=\"na\">$NOT_RECORDED</span>"
    assert_file_contains "$out" "data-run=\"lab05-$kept\">.*<span class=\"badge "
    assert_file_contains "$out" '^| <span class="na" title="[^"]*">no recording yet</span> |$'
    assert_file_contains "$out" "lab05-$gone.csv does not exist"
    assert_file_contains "$out" "^$NOT_RECORDED$"
    ! grep -F "data-run=\"lab05-$gone\"" "$out" | grep -q 'class="badge' || fail "a verdict was shown for a recording that does not exist"
    # a number from the missing recording is refused, never invented
    printf '{{num lab05-%s gbps experiment=ce_bandwidth variant=ce route=peer src=0 dst=1 mode=one_way bytes=1073741824}}\n' "$gone" \
        >"$BATS_TEST_TMPDIR/bad.md"
    FIXTURES=$fx run fill "$BATS_TEST_TMPDIR/bad.md" "$BATS_TEST_TMPDIR/bad-out.md"
    assert_failure
    assert_output --partial "lab05-$gone.csv is missing: $NOT_RECORDED"
    assert_file_not_exists "$BATS_TEST_TMPDIR/bad-out.md"
    # once the recording exists, the words that say it is missing are refused
    run fill "$BATS_TEST_TMPDIR/new.md" "$BATS_TEST_TMPDIR/stale.md"
    assert_failure
    assert_output --partial "lab05-$gone.csv exists now"
    # a lab with no recording on any machine has no verdicts to show
    rm "$fx/lab05-$kept.csv"
    printf '{{claim 05 small_transfers_latency_bound}}\n' >"$BATS_TEST_TMPDIR/none.md"
    FIXTURES=$fx run fill "$BATS_TEST_TMPDIR/none.md" "$BATS_TEST_TMPDIR/none-out.md"
    assert_failure
    assert_output --partial "lab 05 has no recording"
}

# bats test_tags=lab-rules
@test "slides: the verdicts a filled deck shows are the host tools' for both machines" {
    need_host_tools
    local n d id tool suffix verdict word
    for n in $LABS; do
        d=$(deck "$n")
        fill "$d" "$BATS_TEST_TMPDIR/$n.md"
        tool=$(host_tool "$n")
        for suffix in $(machine_suffixes); do
            if ! recorded "$n" "$suffix"; then
                # no recording on that machine: each claim page says so for it, and shows no verdict
                for id in $(grep -oE "^\{\{claim $n [a-z0-9_]+\}\}$" "$d" | awk '{ print $3 }' | tr -d '}'); do
                    grep -F "data-claim=\"$id\" data-run=\"lab$n-$suffix\"" "$BATS_TEST_TMPDIR/$n.md" |
                        grep -qF "<span class=\"na\">$NOT_RECORDED</span>" ||
                        fail "deck $n does not say '$NOT_RECORDED' for $id on lab$n-$suffix"
                done
                ! grep -F "data-run=\"lab$n-$suffix\"" "$BATS_TEST_TMPDIR/$n.md" | grep -q 'class="badge' ||
                    fail "deck $n shows a verdict of lab$n-$suffix.csv, which does not exist"
                continue
            fi
            while IFS=$'\t' read -r id verdict; do
                case $verdict in
                    holds) word="holds" ;; does_not_hold) word="does not hold" ;; untested) word="cannot be tested here" ;;
                    *) fail "lab $n: unknown verdict $verdict" ;;
                esac
                # a claim no recording tests is a row of the deck's table of them
                if untested_everywhere "$n" "$id"; then
                    grep -qF "<span data-claim=\"$id\">" "$BATS_TEST_TMPDIR/$n.md" ||
                        fail "deck $n does not list $id among the claims no recording tests"
                    continue
                fi
                grep -F "data-claim=\"$id\" data-run=\"lab$n-$suffix\"" "$BATS_TEST_TMPDIR/$n.md" |
                    grep -qF "<span class=\"badge $verdict\">$word</span>" ||
                    fail "deck $n does not show $id: $verdict (lab$n-$suffix.csv)"
            done < <("$tool" verdicts "$FIXTURES/lab$n-$suffix.csv" | rows_awk 'f("experiment") == "claim" { print f("variant") "\t" f("value") }')
        done
    done
}

# bats test_tags=lab-rules
@test "slides: every claim a recording tests has its page, the others share one table, and deck 00 shows each once" {
    need_host_tools
    local n id suffix board=$BATS_TEST_TMPDIR/00-filled.md
    fill "$(deck 00)" "$board"
    for n in $LABS; do
        fill "$(deck "$n")" "$BATS_TEST_TMPDIR/$n.md"
        for id in $(for suffix in $(machine_suffixes); do claim_ids "$n" "$suffix"; done | sort -u); do
            if untested_everywhere "$n" "$id"; then
                ! grep -qE "^\{\{claim $n $id\}\}$" "$(deck "$n")" || fail "deck $n gives $id, which no recording tests, a page of its own"
                grep -qF "<span data-claim=\"$id\">" "$BATS_TEST_TMPDIR/$n.md" || fail "deck $n's table of untested claims lacks $id"
            else
                grep -qE "^\{\{claim $n $id\}\}$" "$(deck "$n")" || fail "deck $n has no page for claim $id"
            fi
            [ "$(grep -cF "data-claim=\"$id\"" "$board")" -eq 1 ] ||
                fail "deck 00 shows claim $n $id $(grep -cF "data-claim=\"$id\"" "$board") times, not once (scoreboard or untested table)"
        done
    done
    # the scoreboard names claims in plain English, and counts as percentages
    ! grep -qE '^\| [0-9]{2} \| `' "$board" || fail "the scoreboard names a claim by its id"
    ! grep -E '^\| [0-9]{2} \|' "$board" | sed 's/data-of="[^"]*"//g' | grep -qE '[0-9]{7,}' ||
        fail "the scoreboard shows a count of seven digits or more"
    # a page for a claim no recording tests is refused, with the place it belongs
    printf '{{claim 01 uva_required}}\n' >"$BATS_TEST_TMPDIR/bad.md"
    run fill "$BATS_TEST_TMPDIR/bad.md" "$BATS_TEST_TMPDIR/out.md"
    assert_failure
    assert_output --partial "{{untested 01}}"
    # one claim per page
    local d page
    for n in $LABS; do
        d=$(deck "$n")
        page=$(slide_bodies "$d" | awk '/^@@slide$/ { if (c > 1) print p; c = 0; p = ""; next }
                                        /^\{\{claim / { c++; p = p " " $3 } END { if (c > 1) print p }')
        [ -z "$page" ] || fail "deck $n shows several claims on one page:$page"
    done
}

@test "slides: deck 00 gives a recorded lab that none of its pages names a scoreboard page of its own" {
    need_host_tools
    local n id suffix
    # The last lab with a recording, as if deck 00 had been written before it.
    n=$(for suffix in $(machine_suffixes); do ls "$FIXTURES"/lab[0-9][0-9]-"$suffix".csv; done | sed -E 's|.*/lab([0-9]{2})-.*|\1|' | sort -u | tail -n 1)
    sed -E "/^\{\{(scoreboard|untested) $n\}\}$/d" "$(deck 00)" >"$BATS_TEST_TMPDIR/00-without.md"
    ! grep -qE "\{\{(scoreboard|untested)( [0-9:-]+)* $n( |\}\})" "$BATS_TEST_TMPDIR/00-without.md" ||
        fail "deck 00 names lab $n in a placeholder the test does not take out"
    fill "$BATS_TEST_TMPDIR/00-without.md" "$BATS_TEST_TMPDIR/00-more.md"
    assert_file_contains "$BATS_TEST_TMPDIR/00-more.md" "^## Scoreboard: lab $n$"
    for id in $(for suffix in $(machine_suffixes); do claim_ids "$n" "$suffix"; done | sort -u); do
        [ "$(grep -cF "data-claim=\"$id\"" "$BATS_TEST_TMPDIR/00-more.md")" -eq 1 ] ||
            fail "the page made for lab $n does not show claim $id once"
    done
    # As deck 00 is, every lab has its pages: none is made.
    fill "$(deck 00)" "$BATS_TEST_TMPDIR/00.md"
    ! grep -qE "^## Scoreboard: lab [0-9]+$" "$BATS_TEST_TMPDIR/00.md" || fail "deck 00 made a page for a lab it names"
}

@test "slides: the sentence labs 01, 03 and 06 all judge is shown with the three tests" {
    need_host_tools
    local d00 first
    d00=$(deck 00)
    first=$(machine_suffixes | head -n 1)
    grep -qF '互相可见' "$d00" || fail "deck 00 does not show the sentence"
    grep -qF "{{verdictcell lab01-$first access_is_mutual}}" "$d00"
    grep -qF "{{verdictcell lab03-$first access_without_enable_fails}}" "$d00"
    grep -qF "{{verdictcell lab06-$first access_is_per_process}}" "$d00" || fail "deck 00 does not show lab 06's test (between processes)"
    grep -qF 'access_without_enable_fails' "$(deck 01)" || fail "deck 01 does not point to lab 03's test"
    grep -qF 'access_is_mutual' "$(deck 03)" || fail "deck 03 does not point to lab 01's test"
    grep -qF 'access_is_mutual' "$(deck 06)" && grep -qF 'access_without_enable_fails' "$(deck 06)" ||
        fail "deck 06 does not point to the tests of labs 01 and 03 within one process"
}

# bats test_tags=lab-rules
@test "slides: each lab deck follows the template: both machines, questions, TODOs, claims with section, pitfalls, what you measured" {
    local n d title todos_deck todos_lab q last suffix
    for n in $LABS; do
        d=$(deck "$n")
        title=$(slide_bodies "$d" | awk '/^@@slide$/ { exit } { print }')
        # {{recorded-on NN}} names every machine of machines.tsv (a new lab's deck has it)
        for suffix in $(machine_suffixes); do
            [[ "$title" == *"{{recorded-on $n}}"* ]] ||
            [[ "$title" == *"{{machine lab$n-$suffix hw}}"* && "$title" == *"{{machine lab$n-$suffix versions}}"* ]] ||
                fail "$(basename "$d"): the title page does not name the machine of lab$n-$suffix (with its versions)"
        done
        grep -qE '^## The questions' "$d" || fail "$(basename "$d") has no questions page"
        grep -qE '^## Pitfalls' "$d" || fail "$(basename "$d") has no pitfalls page"
        # the last page before the appendix; after it, appendix pages only, the TODOs among them
        last=$(slide_bodies "$d" | awk '/^@@slide$/ { if (!app) l = t; t = ""; app = 0; next }
                                        /_class:.*appendix/ { app = 1 } /^## / && t == "" { t = $0 }
                                        END { if (!app) l = t; print l }')
        [[ "$last" == "## What you measured"* ]] || fail "$(basename "$d") ends with '$last' before its appendix, not 'What you measured'"
        slide_bodies "$d" | awk '/^@@slide$/ { if (seen && p !~ /_class:.*appendix/) bad = 1; if (p ~ /## What you measured/) seen = 1; p = ""; next }
                                { p = p "\n" $0 } END { if (seen && p !~ /_class:.*appendix/) bad = 1; exit bad }' ||
            fail "$(basename "$d"): a page after 'What you measured' is not in the appendix (<!-- _class: appendix -->)"
        pages "$d" | grep -E '## The TODOs' | grep -qE '_class:[^>]*appendix' || fail "$(basename "$d"): the TODO page is not in the appendix"
        q=$(quote_blocks_without_section "$d")
        [ -z "$q" ] || fail "$(basename "$d"): a quote does not name its section (— 4.N): $q"
        todos_deck=$(grep -oE "^\| $n\.[0-9]+ \|" "$d" | grep -oE "$n\.[0-9]+" | sort -u | tr '\n' ' ')
        todos_lab=$(grep -rhoE "LAB_TODO\(\"$n\.[0-9]+\"\)" "$REPO_ROOT"/labs/"$n"-*/student/ | grep -oE "$n\.[0-9]+" | sort -u | tr '\n' ' ')
        [ -n "$todos_lab" ] || fail "labs/$n-*: no LAB_TODO found"
        [ "$todos_deck" = "$todos_lab" ] || fail "$(basename "$d") lists TODOs '$todos_deck'; the lab has '$todos_lab'"
    done
}

# notes_missing FILLED: the titles of the pages that show a plot, code or a
# claim's verdicts but have no speaker note (an HTML comment that is not a
# directive such as _class or the code marker).
notes_missing() {
    pages "$1" | awk '{
        page = $0; notes = 0
        while ((at = index(page, "<!--")) > 0) {
            page = substr(page, at + 4)
            shut = index(page, "-->")
            c = substr(page, 1, shut ? shut - 1 : length(page))
            if (c !~ /^ *_?[a-z]+: [^ ]* *$/ && c !~ /^ *code: /) notes = 1
            page = substr(page, shut ? shut + 3 : length(page) + 1)
        }
        if (!notes && ($0 ~ /!\[/ || $0 ~ /<!-- code: / || $0 ~ /class="verdicts"/)) {
            t = $0; sub(/.*## /, "", t); print substr(t, 1, 50)
        }
    }'
}

# bats test_tags=lab-rules
@test "slides: every deck has speaker notes, on every page with a plot, code or a claim's verdicts" {
    need_host_tools
    local d name
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$d" .md)
        fill "$d" "$BATS_TEST_TMPDIR/$name.md"
        grep -q '^<!--$' "$BATS_TEST_TMPDIR/$name.md" || fail "$name has no speaker notes"
        run notes_missing "$BATS_TEST_TMPDIR/$name.md"
        [ -z "$output" ] || fail "$name: pages without speaker notes: $output"
    done
    # pages whose notes are taken away are found: the plot of deck 03, its claims, its code
    awk '/^<!--$/ { skip = 1 } skip && /^-->$/ { skip = 0; next } !skip' \
        "$BATS_TEST_TMPDIR/03-peer-kernels.md" >"$BATS_TEST_TMPDIR/no-note.md"
    run notes_missing "$BATS_TEST_TMPDIR/no-note.md"
    assert_output --partial "Reading over the link against copying first"
    assert_output --partial "The code: a kernel whose memory is on the other"
    assert_output --partial "Claim: "
}

# bats test_tags=lab-rules
@test "slides: every lab deck has a code page, and its code is the named source file's, line for line" {
    local n d
    for n in $LABS; do
        d=$(deck "$n")
        grep -qE '^<!-- code: [^ ]+ -->$' "$d" || fail "$(basename "$d") has no code page (<!-- code: FILE --> before a fenced block)"
    done
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        run "$REPO_ROOT/tools/slides/slides-numbers.py" code "$d"
        [ "$status" -eq 0 ] || fail "$(basename "$d"): $output"
    done
    # code that drifted from its file is found: a line changed, lines reordered, a file gone
    d=$(deck 01)
    sed 's/cudaDeviceEnablePeerAccess(peer, 0)/cudaDeviceEnablePeerAccess(peer, 1)/' "$d" >"$BATS_TEST_TMPDIR/changed.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" code "$BATS_TEST_TMPDIR/changed.md"
    assert_failure
    assert_output --partial "common/devices.c does not hold, in this order: err = on ? cudaDeviceEnablePeerAccess(peer, 1)"
    awk '/^    if \(err != cudaSuccess\)$/ && !done { held = $0; done = 1; next } held != "" { print; print held; held = ""; next } { print }' \
        "$d" >"$BATS_TEST_TMPDIR/swapped.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" code "$BATS_TEST_TMPDIR/swapped.md"
    assert_failure
    sed 's|<!-- code: common/devices.c -->|<!-- code: common/no-such.c -->|' "$d" >"$BATS_TEST_TMPDIR/gone.md"
    run "$REPO_ROOT/tools/slides/slides-numbers.py" code "$BATS_TEST_TMPDIR/gone.md"
    assert_failure
    assert_output --partial "common/no-such.c does not exist"
}

@test "slides: every font stack of the theme names a Latin font before the CJK one" {
    local css="$REPO_ROOT/slides/theme/course.css" stack first
    [ "$(grep -c 'font-family:' "$css")" -gt 0 ]
    while IFS= read -r stack; do
        first=$(sed -E 's/^ *font-family: *//; s/,.*//; s/"//g' <<<"$stack")
        [[ $first != *CJK* && $first != *SC* ]] || fail "course.css puts the CJK font first: $stack"
        grep -q 'CJK' <<<"$stack" || fail "course.css has a font stack without the CJK font after it: $stack"
    done < <(grep 'font-family:' "$css")
}

@test "slides: a line break inside a paragraph is a space on the slide (Marp's forced breaks off)" {
    [ -x "$BUILD_DIR/slides-tool/node_modules/.bin/marp" ] ||
        skip "Marp CLI is not installed in $BUILD_DIR/slides-tool (make slides installs it from the npm registry)"
    printf -- '---\nmarp: true\ntheme: course\n---\n\none line of a paragraph\nand its next line\n' >"$BATS_TEST_TMPDIR/breaks.md"
    "$BUILD_DIR/slides-tool/node_modules/.bin/marp" --config-file "$REPO_ROOT/slides/.marprc.yml" --theme-set "$REPO_ROOT/slides/theme" \
        --html "$BATS_TEST_TMPDIR/breaks.md" -o "$BATS_TEST_TMPDIR/breaks.html" >/dev/null 2>&1
    grep -q 'one line of a paragraph' "$BATS_TEST_TMPDIR/breaks.html"
    ! grep -qE 'a paragraph<br ?/?>' "$BATS_TEST_TMPDIR/breaks.html" || fail "Marp turned the line break into <br>"
    # tools/slides/slides.sh renders with these settings
    grep -qF -- '--config-file slides/.marprc.yml' "$REPO_ROOT/tools/slides/slides.sh"
}

@test "slides: make slides refuses, and says why, where no CJK font is installed" {
    command -v fc-list >/dev/null || skip "fc-list is missing (Debian: fontconfig)"
    printf '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n' >"$BATS_TEST_TMPDIR/fonts.conf"
    FONTCONFIG_FILE="$BATS_TEST_TMPDIR/fonts.conf" run env BUILD="$BATS_TEST_TMPDIR/build" "$REPO_ROOT/tools/slides/slides.sh"
    assert_failure
    assert_output --partial "no CJK font"
    assert_output --partial "fonts-noto-cjk"
}

# need_marp: skip unless Marp CLI, Chromium and a CJK font are here.
need_marp() {
    local browser
    browser=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$browser" ] || skip "Chromium is missing (Debian: sudo apt-get install chromium)"
    command -v npm >/dev/null || skip "npm is missing (Debian: sudo apt-get install npm)"
    need_cjk_font
    [ -x "$BUILD_DIR/slides-tool/node_modules/.bin/marp" ] ||
        skip "Marp CLI is not installed in $BUILD_DIR/slides-tool (make slides installs it from the npm registry)"
}

# render: every deck to HTML and PNG pages (Marp CLI with Chromium).
render() {
    need_marp
    need_host_tools
    run env BUILD="$BUILD_DIR" "$REPO_ROOT/tools/slides/slides.sh" --png
    assert_success
}

@test "slides: every deck renders to one PNG per page, with nothing past the edge, every image loaded, CJK glyphs drawn and titles at the top" {
    render
    local d name pages pngs
    for d in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$d" .md)
        pages=$(( $(slide_bodies "$d" | grep -c '^@@slide$') + 1 ))
        pngs=$(ls "$BUILD_DIR/slides/png/$name".*.png 2>/dev/null | wc -l)
        [ "$pngs" -eq "$pages" ] || fail "$name: $pngs PNG pages for $pages slides"
        assert_file_exists "$BUILD_DIR/slides/$name.html"
    done
    CHROME_PATH=$(command -v chromium || command -v chromium-browser) SLIDES_TOOL="$BUILD_DIR/slides-tool" \
        run node "$REPO_ROOT/tools/slides/slides-check.mjs" "$BUILD_DIR"/slides/[0-9][0-9]-*.html
    [ "$status" -eq 0 ] || fail "the rendered decks: $output"
}

@test "slides: the page check finds a page that runs past the edge, an image that is missing, a title pushed down and Chinese without a CJK font" {
    need_marp
    local md="$BATS_TEST_TMPDIR/zz-overflow.md"
    { printf -- '---\nmarp: true\ntheme: course\n---\n\n## Too long\n\n'; seq 1 40 | sed 's/^/- line /'
      printf '\n---\n\n![](img/no-such.png)\n'
      printf '\n---\n\n<div style="height: 200px"></div>\n\n## A title pushed down\n'
      printf '\n---\n\n## A table squeezed by the text below it\n\n| a | b |\n| --- | --- |\n'; seq 1 12 | sed 's/.*/| & | row & |/'
      printf '\nA closing line.\n'; } >"$md"
    "$BUILD_DIR/slides-tool/node_modules/.bin/marp" --theme-set "$REPO_ROOT/slides/theme" --html --allow-local-files \
        "$md" -o "$BATS_TEST_TMPDIR/zz-overflow.html" >/dev/null 2>&1
    CHROME_PATH=$(command -v chromium || command -v chromium-browser) SLIDES_TOOL="$BUILD_DIR/slides-tool" \
        run node "$REPO_ROOT/tools/slides/slides-check.mjs" "$BATS_TEST_TMPDIR/zz-overflow.html"
    assert_failure
    assert_output --partial "overflow zz-overflow.html page 1"
    assert_output --partial "image zz-overflow.html page 2: img/no-such.png"
    assert_output --partial "title zz-overflow.html page 3"
    assert_output --regexp 'overflow zz-overflow.html page 4: table "a b 1 row 1[^"]*" cut off \([0-9]+px hidden\)'
    # Chinese text without a CJK font: a browser that sees only DejaVu
    [ -d /usr/share/fonts/truetype/dejavu ] || skip "no DejaVu fonts to draw without CJK (Debian: fonts-dejavu-core)"
    printf -- '---\nmarp: true\ntheme: course\n---\n\n## A quote\n\n> 点对点通信 — 4.1\n' >"$md"
    "$BUILD_DIR/slides-tool/node_modules/.bin/marp" --theme-set "$REPO_ROOT/slides/theme" --html \
        "$md" -o "$BATS_TEST_TMPDIR/zz-cjk.html" >/dev/null 2>&1
    printf '<?xml version="1.0"?>\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir></fontconfig>\n' >"$BATS_TEST_TMPDIR/fonts.conf"
    FONTCONFIG_FILE="$BATS_TEST_TMPDIR/fonts.conf" CHROME_PATH=$(command -v chromium || command -v chromium-browser) \
        SLIDES_TOOL="$BUILD_DIR/slides-tool" run node "$REPO_ROOT/tools/slides/slides-check.mjs" "$BATS_TEST_TMPDIR/zz-cjk.html"
    assert_failure
    assert_output --partial "cjk zz-cjk.html"
}
