#!/usr/bin/env bats
# Lab 02 — a cudaMemcpyPeer wrapper that is correct, checked and measured (chapter 4.2).

load helpers/lab
load helpers/lab02

setup_file() {
    load helpers/lab
    capture csv 02 --csv --quick
    capture table 02 --quick
    # --max-size not in the list of sizes, and odd: it must be copied and timed too.
    capture small 02 --csv --quick --reps 2 --max-size 3001
    capture bad_gpus 02 --bad-args --csv
    CUDA_VISIBLE_DEVICES= capture bad_none 02 --bad-args --csv
    CUDA_VISIBLE_DEVICES= capture bad_none_table 02 --bad-args
}

# The value of info row KEY in a CSV file.
info_value() {
    csv_get "$1" got section=info case="$2"
}

# assert_all_ones: $output is one or more lines, each exactly "1".
assert_all_ones() {
    [ -n "$output" ] || fail "no rows"
    [ "$(sort -u <<<"$output")" = 1 ] || fail "not every row is 1: $(tr '\n' ' ' <<<"$output")"
}

# --- on every machine -------------------------------------------------------

@test "02: --help explains the program and exits 0" {
    lab_run 02 --help
    assert_success
    assert_output --partial "usage:"
    for option in --gpu-a --gpu-b --max-size --reps --seed --quick --bad-args --csv; do
        assert_output --partial -- "$option"
    done
}

@test "02: an unknown option exits 2 naming it" {
    lab_run 02 --no-such-option
    assert_equal "$status" 2
    assert_output --partial "unknown option '--no-such-option'"
    assert_output --partial "Try '02-memcpy-peer --help'"
}

@test "02: a stray argument exits 2 naming it" {
    lab_run 02 extra
    assert_equal "$status" 2
    assert_output --partial "unexpected argument 'extra'"
}

@test "02: bad option values exit 2 with a one-line error naming the problem" {
    local -a cases=(
        "--reps|needs a value"
        "--reps abc|--reps: 'abc' is not a whole number"
        "--reps -3|--reps: -3 is out of range"
        "--reps 0|--reps: 0 is out of range"
        "--max-size 0|--max-size: size '0' must be greater than zero"
        "--max-size 4Q|--max-size: unknown unit in '4Q'"
        "--max-size -1|--max-size: '-1' is not a size"
        "--max-size 2G|--max-size: 2G is out of range"
        "--seed x|--seed: 'x' is not a whole number"
        "--seed -1|--seed: -1 is out of range"
        "-a|option '-a' needs a value"
        "-a x -b 1|--gpu-a: 'x' is not a whole number"
        "-b -2|--gpu-b: -2 is out of range"
        "-z|unknown option '-z'"
    )
    local entry args want
    for entry in "${cases[@]}"; do
        args=${entry%%|*}
        want=${entry#*|}
        # shellcheck disable=SC2086 # the arguments are split on purpose
        lab_run 02 $args
        [ "$status" -eq 2 ] || fail "'$args' exited $status, not 2: $output"
        [[ "$output" == *"error: "*"$want"* ]] || fail "'$args' did not say '$want': $output"
        [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "'$args': not one error line: $output"
    done
}

@test "02: equal GPU ids exit 2" {
    lab_run 02 -a 0 -b 0
    assert_equal "$status" 2
    assert_output --partial "the two GPUs must differ"
}

@test "02: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 02 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 0"
}

@test "02: with one GPU visible it exits 77 and says why" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 02 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 1"
}

@test "02: the host-side checks work without a GPU (--bad-args): overflow, null, zero size, device ids; nothing written" {
    captured bad_none
    assert_equal "$status" 0
    run lab02_check_bad_args "$CAPTURED_CSV" 0
    assert_success
    # The cases that need a GPU say so instead of passing silently.
    run csv_get "$CAPTURED_CSV" verdict section=bad_args case=dst_on_other_gpu method=p2p_copy
    assert_output skipped
    run csv_get "$CAPTURED_CSV" got section=bad_args case=size_overflow method=p2p_copy_floats
    assert_output P2P_ERR_SIZE_OVERFLOW
}

@test "02: --bad-args without a GPU prints one table row per case and call" {
    captured bad_none_table
    assert_equal "$status" 0
    assert_output --partial "Bad arguments: each call must be rejected and write nothing"
    assert_output --regexp "null_dst +p2p_copy +P2P_ERR_NULL_DST +P2P_ERR_NULL_DST +yes +pass"
    assert_output --regexp "dst_device_negative +p2p_copy_async +P2P_ERR_BAD_DST_DEVICE +P2P_ERR_BAD_DST_DEVICE +yes +pass"
    assert_output --regexp "valid_copy +p2p_copy +P2P_OK +skipped"
    refute_output --partial "fail"
}

# --- with two or more GPUs ----------------------------------------------------

@test "02: the run succeeds" {
    captured csv
    assert_equal "$status" 0
    captured table
    assert_equal "$status" 0
}

@test "02: the live CSV passes the schema checks" {
    captured csv
    run lab02_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "02: every size from 1 byte to the largest is copied both ways with both calls, every byte verified" {
    captured csv
    run lab02_check_sweep "$CAPTURED_CSV"
    assert_success
    local max
    max=$(info_value "$CAPTURED_CSV" max_size)
    run csv_get "$CAPTURED_CSV" verified section=sweep bytes=1
    assert_all_ones
    run csv_get "$CAPTURED_CSV" verified section=sweep bytes="$max"
    assert_all_ones
    # Odd sizes, also at offsets that no copy engine finds aligned.
    for odd in 3 4097 65537 16777213; do
        run csv_get "$CAPTURED_CSV" verified section=sweep bytes=$odd case=unaligned
        assert_all_ones
    done
}

@test "02: the wrapper leaves the current device alone: the sweep ran with the source current" {
    captured csv
    run awk -F, '$1 == "sweep" && $7 != $5 { print "row " NR ": current " $7 ", source " $5 }' "$CAPTURED_CSV"
    assert_output ""
}

@test "02: p2p_copy_async runs in its stream's order" {
    captured csv
    run lab02_check_stream_order "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified section=stream_order
    assert_all_ones
}

@test "02: timing is sane: verified, finite, positive, below the link ceiling" {
    captured csv
    run lab02_check_timing "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" method section=timing bytes=16777216 peer=off
    assert_line memcpy_peer
    assert_line memcpy_peer_async
    assert_line memcpy_default
    assert_line host_staged
}

@test "02: with P2P, peer access on beats off at 16 MiB and above" {
    require_p2p_pair
    captured csv
    local a b size method on off
    a=$(info_value "$CAPTURED_CSV" gpu_a)
    b=$(info_value "$CAPTURED_CSV" gpu_b)
    for size in $(csv_get "$CAPTURED_CSV" bytes section=timing method=memcpy_peer peer=on src_gpu="$a" | sort -un); do
        [ "$size" -ge 16777216 ] || continue
        for method in memcpy_peer memcpy_peer_async memcpy_default; do
            for pair in "$a $b" "$b $a"; do
                read -r s d <<<"$pair"
                on=$(csv_get "$CAPTURED_CSV" gbps section=timing method=$method peer=on src_gpu=$s dst_gpu=$d bytes=$size)
                off=$(csv_get "$CAPTURED_CSV" gbps section=timing method=$method peer=off src_gpu=$s dst_gpu=$d bytes=$size)
                float_ok "$on" '>' "$off" || fail "$method $s->$d at $size B: on $on GB/s, off $off GB/s"
            done
        done
    done
}

@test "02: with P2P, a peer copy beats staging through host memory at 16 MiB and above" {
    require_p2p_pair
    captured csv
    local a b size p2p staged
    a=$(info_value "$CAPTURED_CSV" gpu_a)
    b=$(info_value "$CAPTURED_CSV" gpu_b)
    for size in $(csv_get "$CAPTURED_CSV" bytes section=timing method=host_staged peer=on src_gpu="$a" | sort -un); do
        [ "$size" -ge 16777216 ] || continue
        p2p=$(csv_get "$CAPTURED_CSV" gbps section=timing method=memcpy_peer peer=on src_gpu=$a dst_gpu=$b bytes=$size)
        staged=$(csv_get "$CAPTURED_CSV" gbps section=timing method=host_staged peer=on src_gpu=$a dst_gpu=$b bytes=$size)
        assert_float "$p2p" '>' "$staged"
    done
}

@test "02: cudaMemcpyPeer delivers the data whichever GPU is current" {
    captured csv
    run lab02_check_current_device "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified section=current_device case=current_src
    assert_all_ones
    if [ "$(info_value "$CAPTURED_CSV" third_gpu)" -ge 0 ]; then
        run csv_get "$CAPTURED_CSV" verified section=current_device case=current_other
        assert_all_ones
    fi
}

@test "02: a copy in a non-blocking stream does not wait for a legacy default stream" {
    captured csv
    run lab02_check_ordering "$CAPTURED_CSV"
    assert_success
}

@test "02: each invalid call returns its status and writes nothing, ownership cases included" {
    captured csv
    run lab02_check_bad_args "$CAPTURED_CSV" "$(info_value "$CAPTURED_CSV" gpus)"
    assert_success
    captured bad_gpus
    assert_equal "$status" 0
    run lab02_check_bad_args "$CAPTURED_CSV" "$(gpu_count)"
    assert_success
    run csv_get "$CAPTURED_CSV" got section=bad_args case=dst_on_other_gpu method=p2p_copy_async
    assert_output P2P_ERR_DST_NOT_ON_DEVICE
}

@test "02: --bad-args on a single visible GPU runs the cases it can and skips the rest" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 02 --bad-args --csv
    assert_success
    local file="$BATS_TEST_TMPDIR/one.csv"
    printf '%s\n' "$output" >"$file"
    run lab02_check_bad_args "$file" 1
    assert_success
}

@test "02: the claims of chapter 4.2 get a verdict computed from the run" {
    captured table
    assert_output --partial "Chapter 4.2, claim by claim"
    for id in $LAB02_CLAIMS; do
        assert_output --regexp "claim $id: (holds|does_not_hold|not_testable): "
    done
    captured csv
    run lab02_check_claims "$CAPTURED_CSV"
    assert_success
}

@test "02: the table shows every part of the run" {
    captured table
    for heading in "Bad arguments" "Every size, every byte" "Stream order" "Four ways to copy" \
        "The current device" "What the current device orders"; do
        assert_output --partial "$heading"
    done
}

@test "02: an odd --max-size is copied and timed, and the claims needing 16 MiB are not testable" {
    captured small
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" verified section=sweep bytes=3001
    assert_all_ones
    run csv_get "$CAPTURED_CSV" bytes section=timing method=memcpy_peer peer=off
    assert_line 3001
    run csv_get "$CAPTURED_CSV" verdict section=claim case=memcpypeer_beats_memcpy_default
    assert_output not_testable
    run lab02_check_sweep "$CAPTURED_CSV"
    assert_success
}

# --- recorded output (every machine) ------------------------------------------

@test "02: the recorded 2xH200 CSV passes the schema checks" {
    [ -f "$FIXTURES/lab02-run.csv" ] || fail "fixture missing: record it with: $(cat "$FIXTURES/lab02.cmd") > tests/fixtures/lab02-run.csv"
    run lab02_check_csv "$FIXTURES/lab02-run.csv"
    assert_success
}

@test "02: the schema checks accept the synthetic well-formed fixture" {
    run lab02_check_csv "$FIXTURES/lab02-synthetic-ok.csv"
    assert_success
    assert_output ""
}

@test "02: the schema checks reject each broken CSV with the reason" {
    local -a cases=(
        "header|the header is not the lab's schema"
        "sweep-unverified|4097 B: not verified"
        "sweep-guard-written|a guard byte was written"
        "sweep-no-one-byte|has no 1-byte copy"
        "sweep-missing-direction|sweep on/1->0/p2p_copy_async is missing"
        "stream-order|did not follow its stream"
        "timing-above-ceiling|above the 1000 GB/s ceiling"
        "timing-min-above-median|min <= median <= max does not hold"
        "timing-gbps-inconsistent|is not bytes / median time"
        "timing-peer-off-faster|peer access on (300 GB/s) does not beat off (400 GB/s)"
        "timing-staging-faster|does not beat host staging"
        "timing-missing-method|timing host_staged/off/0->1/1048576 is missing"
        "current-device-lost|the data did not arrive every time"
        "current-device-missing|current_dst is missing"
        "ordering-async-waited|waited for the legacy stream"
        "bad-args-written|a rejected call wrote to the destination"
        "bad-args-wrong-status|expected P2P_ERR_NULL_SRC, got P2P_ERR_NULL_DST"
        "bad-args-missing|bad_args size_overflow is missing"
        "bad-args-valid-copy-refused|the valid copy did not write"
        "claim-verdict|claim p2p_beats_host_staging has verdict maybe"
        "claim-missing|claim memcpypeer_beats_memcpy_default appears 0 times"
        "claim-contradicts-data|the data always arrived, yet the verdict is holds"
    )
    local entry name want n=0
    for entry in "${cases[@]}"; do
        name=${entry%%|*}
        want=${entry#*|}
        assert_file_exists "$FIXTURES/lab02-broken-$name.csv"
        run lab02_check_csv "$FIXTURES/lab02-broken-$name.csv"
        [ "$status" -ne 0 ] || fail "lab02-broken-$name.csv was accepted"
        [[ "$output" == *"$want"* ]] || fail "lab02-broken-$name.csv: expected '$want', got: $output"
        n=$((n + 1))
    done
    # Every broken fixture on disk is exercised here.
    assert_equal "$n" "$(find "$FIXTURES" -name 'lab02-broken-*.csv' | wc -l)"
}
