#!/usr/bin/env bats
# The lecture decks in slides/: the plots they show can be drawn again from
# the recorded runs, and every claim verdict and measured number a deck shows
# is the one the lab's recorded run computed (tests/fixtures/labNN-run.csv, in
# the course's one row format: tests/fixtures/rows-header.csv).
#
# Conventions the decks follow (slides/README.md):
#   - a chapter quote is a Markdown quote line "> 原文…"; decks 02-05 end it
#     with its section, "— 4.N";
#   - a verdict is shown in bold: **holds**, **does_not_hold**, **untested**;
#   - decks 02-05 name the claim next to it: Verdict for `claim_id`: **verdict**

load helpers/lab

# deck NN: the deck of lab NN.
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

# quote_lines DECK: the Markdown quote lines that hold Chinese text (UTF-8
# bytes E4-E9 start the CJK ideographs), matched bytewise for any locale.
quote_lines() {
    LC_ALL=C grep -E $'^> .*[\xe4-\xe9][\x80-\xbf][\x80-\xbf]' "$1" || true
}

# quote_blocks_without_section DECK: each run of quote lines holding Chinese
# text, joined on one line, that does not end with its section "— 4.N".
quote_blocks_without_section() {
    awk '/^>/ { b = b $0 " "; next } { if (b != "") print b; b = "" } END { if (b != "") print b }' "$1" |
        LC_ALL=C grep -E $'[\xe4-\xe9][\x80-\xbf][\x80-\xbf]' | grep -vE '— 4\.[1-4] *$' || true
}

# verdict_words DECK: every bold word that looks like a verdict (holds,
# does_not_hold, untested, and stale words such as not_testable).
verdict_words() {
    grep -oiE '\*\*[a-z_]*(hold|test)[a-z_]*\*\*' "$1" | tr -d '*' || true
}

# deck_claims DECK: "claim_id verdict" for each "Verdict for `id`: **v**".
deck_claims() {
    grep -oE 'Verdict for `[a-z0-9_]+`: \*\*[a-z_]+\*\*' "$1" |
        sed -E 's/Verdict for `([a-z0-9_]+)`: \*\*([a-z_]+)\*\*/\1 \2/' || true
}

# csv_claims CSV: "claim_id verdict" for each claim row of a lab's CSV: the
# rows whose "experiment" is "claim", the id in "variant", the verdict in
# "value". A CSV without those columns prints nothing.
csv_claims() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
                       ok = ("experiment" in col) && ("variant" in col) && ("value" in col)
                       e = col["experiment"]; id = col["variant"]; v = col["value"]; next }
             ok && $e == "claim" { print $id, $v }' "$1"
}

# claim_slide_numbers DECK: the measured numbers on the slides that show a
# verdict, one per line: every number of a chain such as "388.8 / 388.7 GB/s"
# or "29.8 → 9.4 GB/s" that ends in a unit (GB/s, ms, μs, us, ns, s). Quotes
# (the chapter's own figures), headings, code excerpts (recorded output, not
# the fixture), captions and image lines are left out.
claim_slide_numbers() {
    slide_bodies "$1" |
        awk '/^@@slide$/ { if (s ~ /Verdict for `/) printf "%s", s; s = ""; next }
             /^```/      { code = !code; next }
             code || /^(#|>|!\[|<small>|<!--)/ { next }
             { s = s $0 "\n" }
             END { if (s ~ /Verdict for `/) printf "%s", s }' |
        grep -oE '[0-9]+(\.[0-9]+)?( *(/|→|–) *[0-9]+(\.[0-9]+)?)* *(GB/s|ms|μs|us|ns|s)([^A-Za-z]|$)' |
        grep -oE '[0-9]+(\.[0-9]+)?' || true
}

# number_in_csv CSV: reads numbers on stdin; prints those that no field of
# CSV gives, neither rounded to the same decimals nor written in a text field.
number_in_csv() {
    awk -F, 'FNR == NR {
                 for (i = 1; i <= NF; i++) {
                     f = $i
                     if (f ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
                         for (d = 0; d <= 4; d++) have[sprintf("%." d "f", f + 0)] = 1
                     n = split(f, tok, /[^0-9.]+/)
                     for (k = 1; k <= n; k++) if (tok[k] != "") { sub(/\.$/, "", tok[k]); have[tok[k]] = 1 }
                 }
                 next
             }
             !($1 in have) { print $1 }' "$1" -
}

@test "slides: the plots in slides/img are exactly what slides/plots/make-plots.sh draws from the fixtures" {
    command -v gnuplot >/dev/null || skip "gnuplot is missing (Debian: sudo apt-get install gnuplot-nox)"
    local out="$BATS_TEST_TMPDIR/img"
    run "$REPO_ROOT/slides/plots/make-plots.sh" "$out"
    assert_success
    local want got
    want=$(cd "$REPO_ROOT/slides/img" && ls -1 -- *.png)
    got=$(cd "$out" && ls -1 -- *.png)
    [ "$got" = "$want" ] || fail "make-plots.sh drew: $(echo $got); slides/img holds: $(echo $want)"
    local png
    for png in "$out"/*.png; do
        [ -s "$png" ] || fail "$(basename "$png") is empty"
        [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
            fail "$(basename "$png") is not a PNG"
    done
}

@test "slides: every image in slides/img is shown by some deck" {
    local img
    for img in "$REPO_ROOT"/slides/img/*; do
        [ -e "$img" ] || continue
        grep -qF "(img/$(basename "$img"))" "$REPO_ROOT"/slides/[0-9][0-9]-*.md ||
            fail "slides/img/$(basename "$img") is shown by no deck"
    done
}

@test "slides: decks 01-05 quote the chapter and show only the three verdicts" {
    local n d words w
    for n in 01 02 03 04 05; do
        d=$(deck "$n") || fail "lab $n has no deck"
        [ -n "$(quote_lines "$d")" ] || fail "$(basename "$d") quotes no claim of the chapter (a '> ' line in Chinese)"
        words=$(verdict_words "$d")
        [ -n "$words" ] || fail "$(basename "$d") shows no verdict"
        for w in $words; do
            case $w in
                holds | does_not_hold | untested) ;;
                *) fail "$(basename "$d") shows the verdict '$w': only holds, does_not_hold, untested exist" ;;
            esac
        done
    done
}

@test "slides: every claim verdict in decks 02-05 is the one the lab's recorded run gives" {
    local n d csv line id verdict recorded
    for n in 02 03 04 05; do
        d=$(deck "$n") || fail "lab $n has no deck"
        csv="$FIXTURES/lab$n-run.csv"
        assert_file_exists "$csv"
        [ -n "$(deck_claims "$d")" ] || fail "$(basename "$d") names no claim (Verdict for \`id\`: **verdict**)"
        while read -r id verdict; do
            recorded=$(csv_claims "$csv" | awk -v id="$id" '$1 == id { print $2 }')
            [ -n "$recorded" ] || fail "$(basename "$d") shows claim $id, which lab$n-run.csv does not have"
            [ "$verdict" = "$recorded" ] ||
                fail "$(basename "$d") shows $id: $verdict; lab$n-run.csv recorded $recorded"
        done < <(deck_claims "$d")
    done
}

@test "slides: every claim of a lab's recorded run has its verdict in the lab's deck" {
    local n d id verdict
    for n in 02 03 04 05; do
        d=$(deck "$n") || fail "lab $n has no deck"
        while read -r id verdict; do
            deck_claims "$d" | grep -qx "$id $verdict" ||
                fail "$(basename "$d") does not show claim $id ($verdict in lab$n-run.csv)"
        done < <(csv_claims "$FIXTURES/lab$n-run.csv")
    done
}

@test "slides: every measured number on a claim slide of decks 02-05 comes from the lab's recorded run" {
    local n d missing count
    for n in 02 03 04 05; do
        d=$(deck "$n") || fail "lab $n has no deck"
        count=$(claim_slide_numbers "$d" | wc -l)
        [ "$count" -gt 0 ] || fail "$(basename "$d"): no measured number on its claim slides"
        missing=$(claim_slide_numbers "$d" | number_in_csv "$FIXTURES/lab$n-run.csv")
        [ -z "$missing" ] ||
            fail "$(basename "$d") shows numbers that lab$n-run.csv does not hold: $(echo $missing)"
    done
}

@test "slides: decks 02-05 name the hardware, keep 6-12 slides, cite each quote's section and list the lab's TODOs" {
    local n d title slides q todos_deck todos_lab
    for n in 02 03 04 05; do
        d=$(deck "$n") || fail "lab $n has no deck"
        title=$(slide_bodies "$d" | awk '/^@@slide$/ { exit } { print }')
        [[ "$title" == *"2× NVIDIA H200"* && "$title" == *"NVLink 4"* && "$title" == *"CUDA 13.0"* ]] ||
            fail "$(basename "$d"): the title slide does not name the hardware"
        slides=$(( $(slide_bodies "$d" | grep -c '^@@slide$') + 1 ))
        [ "$slides" -ge 6 ] && [ "$slides" -le 12 ] || fail "$(basename "$d") has $slides slides (6-12)"
        q=$(quote_blocks_without_section "$d")
        [ -z "$q" ] || fail "$(basename "$d"): a quote does not name its section (— 4.N): $q"
        todos_deck=$(grep -oE "^\| $n\.[0-9]+ \|" "$d" | grep -oE "$n\.[0-9]+" | sort -u | tr '\n' ' ')
        todos_lab=$(grep -rhoE "LAB_TODO\(\"$n\.[0-9]+\"\)" "$REPO_ROOT"/labs/"$n"-*/ | grep -oE "$n\.[0-9]+" | sort -u | tr '\n' ' ')
        [ -n "$todos_lab" ] || fail "labs/$n-*: no LAB_TODO found"
        [ "$todos_deck" = "$todos_lab" ] || fail "$(basename "$d") lists TODOs '$todos_deck'; the lab has '$todos_lab'"
    done
}
