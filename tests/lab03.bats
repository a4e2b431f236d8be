#!/usr/bin/env bats
# Lab 03 — kernels that read and write another GPU's memory (chapter 4.3).

load helpers/lab
load helpers/lab03

setup_file() {
    load helpers/lab
    capture csv 03 --csv --quick
    capture table 03 --quick
    # A size that is no multiple of the block: the bound check must hold.
    capture odd 03 --csv --min-size 1000004 --max-size 1000004 --stride-size 16M --reps 2 \
        --no-fault-demo
    # The child hangs on purpose: it must be killed after the timeout.
    capture hang 03 --csv --fault-only --simulate-child-hang --fault-timeout 2
}

# --- on every machine -------------------------------------------------------

@test "03: --help explains the program and exits 0" {
    lab_run 03 --help
    assert_success
    assert_output --partial "usage:"
    for option in --gpu-a --gpu-b --min-size --max-size --stride-size --reps --seed --quick \
        --fault-only --no-fault-demo --fault-timeout --csv; do
        assert_output --partial -- "$option"
    done
}

@test "03: an unknown option exits 2 naming it" {
    lab_run 03 --no-such-option
    assert_equal "$status" 2
    assert_output --partial "unknown option '--no-such-option'"
    assert_output --partial "Try '03-peer-kernels --help'"
}

@test "03: a stray argument exits 2 naming it" {
    lab_run 03 extra
    assert_equal "$status" 2
    assert_output --partial "unexpected argument 'extra'"
}

@test "03: bad option values exit 2 with a one-line error naming the problem" {
    local -a cases=(
        "--reps|option '--reps' needs a value"
        "--reps abc|--reps: 'abc' is not a whole number"
        "--reps -2|--reps: -2 is out of range"
        "--reps 0|--reps: 0 is out of range"
        "--max-size 0|--max-size: size '0' must be greater than zero"
        "--max-size -4K|--max-size: '-4K' is not a size"
        "--max-size 4Q|--max-size: unknown unit in '4Q'"
        "--max-size 4097|--max-size: 4097 is not a multiple of 4 bytes"
        "--max-size 5G|--max-size: 5G is out of range"
        "--min-size 1M --max-size 4K|--min-size (1 MiB) is larger than --max-size (4 KiB)"
        "--stride-size 1000|--stride-size: 1000 is not a multiple of 256 bytes"
        "--stride-size 2G|--stride-size: 2G is out of range"
        "--fault-timeout 0|--fault-timeout: 0 is out of range"
        "--seed x1|--seed: 'x1' is not a whole number"
        "--fault-only --no-fault-demo|leave nothing to run"
        "-a|option '-a' needs a value"
        "-a x -b 1|--gpu-a: 'x' is not a whole number"
        "-b -1|--gpu-b: -1 is out of range"
    )
    local entry args want
    for entry in "${cases[@]}"; do
        args=${entry%%|*}
        want=${entry#*|}
        # shellcheck disable=SC2086 # the arguments are split on purpose
        lab_run 03 $args
        [ "$status" -eq 2 ] || fail "'$args' exited $status, not 2: $output"
        [[ "$output" == *"error: "*"$want"* ]] || fail "'$args' did not say '$want': $output"
        [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "'$args': not one error line: $output"
    done
}

@test "03: equal GPU ids exit 2" {
    lab_run 03 -a 0 -b 0
    assert_equal "$status" 2
    assert_output --partial "the two GPUs must differ"
}

@test "03: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 03 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 0"
}

@test "03: with one GPU visible it exits 77 and says why" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 03 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 1"
}

@test "03: the schema checks accept a well-formed synthetic fixture" {
    run lab03_check_csv "$FIXTURES/lab03-synthetic-ok.csv"
    assert_success
    assert_output ""
}

@test "03: the schema checks reject broken output, each for its own reason" {
    local -a cases=(
        "header|the header is not the lab's schema"
        "unverified|transfer pull at 1048576 bytes: not verified"
        "times|transfer push at 262144 bytes: min <= median <= max does not hold"
        "ceiling|above the physical ceiling"
        "gbps|336.237 GB/s does not match"
        "missing-variant|transfer push at 16777216 bytes: expected one row, found 0"
        "no-growth|transfer pull: bandwidth does not rise with size"
        "copy-faster|is faster than its own copy"
        "fastest|fastest at 4194304 bytes says push but the medians say pull"
        "stride-order|coalesced peer reads (stride 1, 370.000 GB/s) are not clearly faster"
        "fault-outcome|fault outcome maybe is not one of the known outcomes"
        "fault-no-error|yet launch and synchronize both succeeded"
        "claim-verdict|claim pull_vs_copy_then_compute: holds where the medians say does_not_hold"
        "missing-claim|claim access_without_enable_fails: expected one row, found 0"
        "claim-fault|claim access_without_enable_fails: does_not_hold where the outcome fault says holds"
    )
    local entry name want n=0
    for entry in "${cases[@]}"; do
        name=${entry%%|*}
        want=${entry#*|}
        assert_file_exists "$FIXTURES/lab03-broken-$name.csv"
        run lab03_check_csv "$FIXTURES/lab03-broken-$name.csv"
        [ "$status" -ne 0 ] || fail "lab03-broken-$name.csv was accepted"
        [[ "$output" == *"$want"* ]] || fail "lab03-broken-$name.csv: expected '$want', got: $output"
        n=$((n + 1))
    done
    # Every broken fixture on disk is exercised above.
    assert_equal "$(find "$FIXTURES" -name 'lab03-broken-*.csv' | wc -l)" "$n"
}

@test "03: the recorded 2xH200 CSV passes the schema checks" {
    [ -f "$FIXTURES/lab03-run.csv" ] ||
        fail "fixture missing: tests/fixtures/lab03-run.csv (record it with: $(cat "$FIXTURES/lab03.cmd"))"
    run lab03_check_csv "$FIXTURES/lab03-run.csv"
    assert_success
    # The recording is the full default run: the sweep reaches 1 GiB.
    run csv_get "$FIXTURES/lab03-run.csv" value section=config variant=max_bytes
    assert_output 1073741824
}

# --- with two GPUs and peer access --------------------------------------------

@test "03: the run succeeds" {
    captured csv
    assert_equal "$status" 0
    captured table
    assert_equal "$status" 0
}

@test "03: the live CSV passes the schema checks" {
    captured csv
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "03: every variant ran at every size and was verified bit for bit" {
    captured csv
    local v n
    for v in local pull push copy_only copy_then_compute; do
        n=$(csv_get "$CAPTURED_CSV" verified section=transfer variant=$v | grep -c '^1$')
        [ "$n" -eq 8 ] || fail "$v: $n of 8 sizes (4 KiB .. 64 MiB) verified"
    done
    n=$(csv_get "$CAPTURED_CSV" verified section=stride | grep -c '^1$')
    assert_equal "$n" 14
}

@test "03: times are positive and no rate beats the physics of the link" {
    captured csv
    local v bytes ms
    for v in pull push copy_only copy_then_compute; do
        while IFS=, read -r bytes ms; do
            assert_float "$ms" '>' 0
            # Event time is never below bytes / ceiling.
            assert_float "$ms" '>=' "$(awk -v b="$bytes" -v c="$LAB03_LINK_CEILING" 'BEGIN { printf "%.9f", b / c / 1e6 }')"
        done < <(paste -d, <(csv_get "$CAPTURED_CSV" bytes section=transfer variant=$v) \
            <(csv_get "$CAPTURED_CSV" min_ms section=transfer variant=$v))
    done
}

@test "03: reading peer memory gets faster per byte as the array grows" {
    captured csv
    local small large
    small=$(csv_get "$CAPTURED_CSV" gbps section=transfer variant=pull bytes=4096)
    large=$(csv_get "$CAPTURED_CSV" gbps section=transfer variant=pull bytes=67108864)
    assert_float "$large" '>' "$small"
    small=$(csv_get "$CAPTURED_CSV" gbps section=transfer variant=push bytes=4096)
    large=$(csv_get "$CAPTURED_CSV" gbps section=transfer variant=push bytes=67108864)
    assert_float "$large" '>' "$small"
}

@test "03: copy-then-compute costs at least its copy" {
    captured csv
    local copy both
    copy=$(csv_get "$CAPTURED_CSV" median_ms section=transfer variant=copy_only bytes=67108864)
    both=$(csv_get "$CAPTURED_CSV" median_ms section=transfer variant=copy_then_compute bytes=67108864)
    assert_float "$both" '>=' "$(awk -v c="$copy" 'BEGIN { print 0.9 * c }')"
}

@test "03: coalesced peer reads beat strided ones by far" {
    captured csv
    local one wide
    one=$(csv_get "$CAPTURED_CSV" gbps section=stride variant=peer stride=1)
    wide=$(csv_get "$CAPTURED_CSV" gbps section=stride variant=peer stride=32)
    assert_float "$one" '>' "$(awk -v w="$wide" 'BEGIN { print 2 * w }')"
}

@test "03: the bound check holds at a size that is no multiple of the block" {
    captured odd
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" verified section=transfer
    assert_equal "${#lines[@]}" 5
    refute_output --partial 0
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" value section=claim variant=access_without_enable_fails
    assert_output not_testable
}

@test "03: without peer access the child reports what happened and the parent exits cleanly" {
    captured csv
    assert_equal "$status" 0
    local outcome
    outcome=$(csv_get "$CAPTURED_CSV" value section=fault variant=outcome)
    [[ "$outcome" =~ ^(fault|silent_success|wrong_data|hang|crash)$ ]] || fail "outcome '$outcome'"
    if [ "$outcome" = fault ]; then
        run csv_get "$CAPTURED_CSV" value section=fault variant=sync
        assert_output --regexp '^cuda(Success|Error[A-Za-z]+)$'
        run csv_get "$CAPTURED_CSV" value section=claim variant=access_without_enable_fails
        assert_output holds
    fi
    run csv_get "$CAPTURED_CSV" value section=fault variant=can_access_peer
    assert_output 1
}

@test "03: a hung child is killed after the timeout and the parent carries on" {
    captured hang
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" value section=fault variant=outcome
    assert_output hang
    run csv_get "$CAPTURED_CSV" value section=fault variant=seconds
    assert_float "$output" '>=' 1.9
    assert_float "$output" '<' 10
    run csv_get "$CAPTURED_CSV" value section=claim variant=access_without_enable_fails
    assert_output not_testable
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "03: the table for people shows every part and a verdict for each claim" {
    captured table
    assert_output --partial "local = 2 x peer, five ways"
    assert_output --partial "read pattern:"
    assert_output --partial "no peer access:"
    assert_output --partial "Chapter 4.3, claim by claim"
    for id in peer_kernel_access_works pull_vs_copy_then_compute access_without_enable_fails; do
        assert_output --regexp "claim $id: (holds|does_not_hold|not_testable): "
    done
}
