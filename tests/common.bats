#!/usr/bin/env bats
# The host side of common/: parsing, statistics, data, verification, output.
# Runs on every machine through build/tools/common-probe.

load helpers/lab

probe() {
    run "$BUILD_DIR/tools/common-probe" "$@"
}

@test "common: plain numbers are bytes" {
    probe size 4096
    assert_success
    assert_output 4096
    probe size 1B
    assert_output 1
}

@test "common: K, M, G and KiB, MiB, GiB are powers of 1024" {
    probe size 4K;     assert_output 4096
    probe size 256MiB; assert_output 268435456
    probe size 1G;     assert_output 1073741824
    probe size 2gib;   assert_output 2147483648
}

@test "common: KB, MB, GB are powers of 1000" {
    probe size 4KB; assert_output 4000
    probe size 1MB; assert_output 1000000
    probe size 1GB; assert_output 1000000000
}

@test "common: bad sizes are rejected with the reason" {
    probe size 0
    assert_equal "$status" 2
    assert_output --partial "greater than zero"
    probe size -4K
    assert_equal "$status" 2
    assert_output --partial "is not a size"
    probe size abc
    assert_equal "$status" 2
    probe size 4X
    assert_equal "$status" 2
    assert_output --partial "unknown unit"
    probe size 1.5K
    assert_equal "$status" 2
    probe size ""
    assert_equal "$status" 2
    assert_output --partial "empty"
}

@test "common: sizes that overflow size_t are rejected" {
    probe size 99999999999999999999
    assert_equal "$status" 2
    assert_output --partial "too large"
    probe size 20000000T
    assert_equal "$status" 2
    assert_output --partial "too large"
}

@test "common: integers are checked against their range" {
    probe int 7 0 10;  assert_output 7
    probe int -1 0 10
    assert_equal "$status" 2
    assert_output --partial "out of range"
    probe int 3x 0 10
    assert_equal "$status" 2
    assert_output --partial "not a whole number"
    probe int "" 0 10
    assert_equal "$status" 2
}

@test "common: sizes are printed with the largest exact binary unit" {
    probe format-size 4;          assert_output "4 B"
    probe format-size 65536;      assert_output "64 KiB"
    probe format-size 1073741824; assert_output "1 GiB"
    probe format-size 1000001;    assert_output "1000001 B"
    probe format-size 3145728;    assert_output "3 MiB"
}

@test "common: median, min, max and mean of odd and even sample counts" {
    probe stats 5 1 3
    assert_output "count=3 median=3 min=1 max=5 mean=3"
    probe stats 4 1 3 10
    assert_output "count=4 median=3.5 min=1 max=10 mean=4.5"
    probe stats 2.5
    assert_output "count=1 median=2.5 min=2.5 max=2.5 mean=2.5"
}

@test "common: statistics refuse no samples and non-finite samples" {
    probe stats
    assert_equal "$status" 2
    probe stats 1 inf 2
    assert_equal "$status" 2
    probe stats 1 nan
    assert_equal "$status" 2
}

@test "common: seeded bytes repeat for one seed and differ between seeds" {
    probe fill-bytes 42 64
    local first=$output
    probe fill-bytes 42 64
    assert_output "$first"
    probe fill-bytes 43 64
    refute_output "$first"
    # Never all zeros, and an odd length is filled to the last byte.
    refute_output --regexp '^(00)+$'
    probe fill-bytes 42 13
    assert_equal "${#output}" 26
    assert_equal "$output" "${first:0:26}"
}

@test "common: seeded floats lie in [1, 2) so that doubling is exact" {
    probe fill-floats 7 1000
    assert_success
    run awk '$1 < 1 || $1 >= 2 { bad++ } END { exit bad > 0 }' <<<"$output"
    assert_success
    probe fill-floats 7 1000
    local distinct
    distinct=$(sort -u <<<"$output" | wc -l)
    assert [ "$distinct" -gt 990 ]
}

@test "common: verification passes equal data and names the first differing byte" {
    probe verify-bytes 00112233 00112233
    assert_success
    assert_output equal
    probe verify-bytes 00112233 00114433
    assert_failure 1
    assert_output --partial "byte 2 of 4 is 0x22, expected 0x44"
}

@test "common: GB/s means 1e9 bytes per second" {
    probe gbps 1000000000 1000
    assert_output "1.000"
    probe gbps 268435456 1
    assert_output "268.435"
}

@test "common: the probe rejects a command it does not know" {
    probe no-such-command
    assert_equal "$status" 2
}

@test "common: a result file appears whole, with no temporary file left beside it" {
    local file="$BATS_TEST_TMPDIR/result.csv"
    probe outfile "$file" 3 0
    assert_success
    assert_equal "$(cat "$file")" "$(printf 'line 1 of 3\nline 2 of 3\nline 3 of 3')"
    assert_equal "$(find "$BATS_TEST_TMPDIR" -name 'result.csv.tmp.*' | wc -l)" 0
}

@test "common: an interrupted write leaves the previous result file as it was" {
    local file="$BATS_TEST_TMPDIR/result.csv" pid waited=0
    printf 'old, complete\n' >"$file"
    "$BUILD_DIR/tools/common-probe" outfile "$file" 400 50 &
    pid=$!
    # Interrupt it in the middle: once a few lines are in the temporary file.
    # (A background job of a script ignores SIGINT, so SIGTERM stands in.)
    until [ "$(cat "$file" "$file".tmp.* 2>/dev/null | grep -c "^line ")" -ge 3 ]; do
        sleep 0.05
        waited=$((waited + 1))
        [ "$waited" -lt 200 ] || { kill "$pid"; fail "the probe wrote nothing in 10 s"; }
    done
    kill -TERM "$pid" # what Ctrl-C, a job limit or kill does to a run
    wait "$pid" || true
    assert_equal "$(cat "$file")" "old, complete"
}

@test "common: a result file that cannot be written is an error naming the path" {
    probe outfile "$BATS_TEST_TMPDIR/no/such/folder/result.csv" 1 0
    assert_equal "$status" 1
    assert_output --partial "cannot write $BATS_TEST_TMPDIR/no/such/folder/result.csv: No such file or directory"
}

@test "common: a result row keeps a long text whole; a line past the reader's limit is refused" {
    local header text long
    header=$(sed -n 1p "$FIXTURES/rows-header.csv")
    # A verdict's text can run to hundreds of characters (the writer turns commas into ';').
    text="$(printf 'measured; then compared %.0s' {1..28})end"
    probe rows <<<"$(printf '%s\nclaim,x,,-1,-1,4.4,0,0,0,,,,,,-1,holds,%s\n' "$header" "$text")"
    assert_success
    assert_line --index 1 "claim,x,,-1,-1,4.4,0,0,0,,,,,,-1,holds,$text"
    long="$(printf 'x%.0s' {1..2100})"
    probe rows <<<"$(printf '%s\nclaim,x,,-1,-1,4.4,0,0,0,,,,,,-1,holds,%s\n' "$header" "$long")"
    assert_failure
    assert_output --partial "line 2: longer than 2046 characters"
}

@test "common: todo_message is the line a skeleton prints at its unfinished TODO" {
    local program="$BUILD_DIR/student/unit/01-peer-checks" file=labs/01-peer-checks/student/peer_checks.c line
    [ -x "$program" ] || skip "lab 01's skeleton unit driver is not built"
    student_edited "$REPO_ROOT/$file" && skip "$file is a student's work: its TODO 01.1 may be done"
    line=$(grep -n -m1 'LAB_TODO("01.1")' "$REPO_ROOT/$file" | cut -d: -f1)
    [ -n "$line" ] || fail "no LAB_TODO(\"01.1\") in $file"
    run "$program" 01.1
    assert_failure
    assert_line "$(todo_message 01.1 "$file" "$line")"
}
