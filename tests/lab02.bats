#!/usr/bin/env bats
# Lab 02 — a cudaMemcpyPeer wrapper that is correct, checked and measured (chapter 4.2).

load helpers/lab
load helpers/lab02

# Each run prints its table and writes its rows to NAME.d/02-memcpy-peer.csv.
# The args and sweep experiments also run alone: they need TODOs 02.1 to
# 02.6 only, so that work is checked before 02.7 is done.
setup_file() {
    load helpers/lab
    capture run 02 --quick --out "$BATS_FILE_TMPDIR/run.d"
    capture args 02 -t args --out "$BATS_FILE_TMPDIR/args.d"
    capture sweep 02 -t sweep --quick --out "$BATS_FILE_TMPDIR/sweep.d"
    # --max-size not in the list of sizes, and odd: it must be copied and timed too.
    capture small 02 --quick --reps 2 --max-size 3001 --out "$BATS_FILE_TMPDIR/small.d"
    CUDA_VISIBLE_DEVICES=0 capture single 02 --quick --max-size 16MiB \
        --out "$BATS_FILE_TMPDIR/single.d"
}

# captured_rows NAME: captured NAME, with CAPTURED_CSV the run's result file.
captured_rows() {
    captured "$1"
    CAPTURED_CSV="$BATS_FILE_TMPDIR/$1.d/02-memcpy-peer.csv"
    [ -f "$CAPTURED_CSV" ] || fail "the run wrote no result file (status $status): $stderr"
}

# unit_group GROUP: the unit-test driver's cases of one group (tests/unit/lab02.c).
unit_group() {
    LAB02_UNIT=$1 unit_run 02
    assert_success
    assert_output --partial "ok "
    refute_output --partial "not ok"
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
    for option in --list --test --csv --quick --reps --seed --gpu-a --gpu-b --max-size; do
        assert_output --partial -- "$option"
    done
}

@test "02: --list names every experiment" {
    lab_run 02 --list
    assert_success
    for key in args sweep stream_order timing current_device ordering; do
        assert_line --regexp "^$key "
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
        "--reps 0|--reps: 0 is out of range"
        "--max-size 0|--max-size: size '0' must be greater than zero"
        "--max-size 4Q|--max-size: unknown unit in '4Q'"
        "--max-size -1|--max-size: '-1' is not a size"
        "--max-size 2G|--max-size: 2 GiB is out of range (1 B .. 1 GiB)"
        "--seed x|--seed: 'x' is not a whole number"
        "-a|option '-a' needs a value"
        "-a x -b 1|--gpu-a: 'x' is not a whole number"
        "-b -2|--gpu-b: -2 is out of range"
        "-t nosuch|no experiment 'nosuch'"
        "-z|unknown option '-z'"
        "--quick=yes|option '--quick' takes no value"
        "--help=yes|option '--help' takes no value"
        "--out=|option '--out' needs a value"
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
    assert_output --regexp "skipped: needs [12] GPUs?"
}

# bats test_tags=points:1
@test "02: TODO 02.1 p2p_bytes: zero, one, odd sizes, the largest product, overflow (unit, any machine)" {
    unit_group bytes
}

# bats test_tags=points:1
@test "02: TODO 02.2 p2p_check: every fault alone, the boundaries, several faults in order (unit, any machine)" {
    unit_group check
}

# bats test_tags=points:1
@test "02: TODO 02.3 p2p_owner: NULL and host pointers belong to no device (unit, any machine)" {
    unit_group owner
    # With no GPU visible the runtime can place no pointer at all: still no device.
    CUDA_VISIBLE_DEVICES= unit_group owner
}

# bats test_tags=points:1
@test "02: TODOs 02.4 and 02.5: the wrappers refuse before they copy and write nothing (unit, any machine)" {
    unit_group copy
}

# bats test_tags=points:1
@test "02: TODO 02.6 p2p_copy_floats checks the count before anything is copied (unit, any machine)" {
    unit_group floats
}

# --- the checker, on the recorded 2xH200 run and edits of it ----------------

@test "02: the checker accepts the recorded 2xH200 run" {
    [ -f "$FIXTURES/lab02-run.csv" ] || fail "fixture missing: record it with: $(cat "$FIXTURES/lab02.cmd")"
    run lab02_check_csv "$FIXTURES/lab02-run.csv"
    assert_success
    assert_output ""
}

@test "02: the recorded run's verdicts are what the host tool recomputes" {
    local tool
    tool=$(host_tool 02)
    run "$tool" check "$FIXTURES/lab02-run.csv"
    assert_success
    run "$tool" verdicts "$FIXTURES/lab02-run.csv"
    assert_success
    assert_line --regexp "^claim,p2p_beats_host_staging,.*,holds,"
    assert_line --regexp "^claim,current_device_required,.*,does_not_hold,"
}

@test "02: the checker refuses every broken edit of the recorded run with the reason" {
    assert_checker_rejects_all 02 lab02_check_csv
}

@test "02: the host tool's report section draws its tables from the recorded rows" {
    local tool
    tool=$(host_tool 02)
    run "$tool" report "$FIXTURES/lab02-run.csv"
    assert_success
    assert_output --partial "| 256 MiB | peer | GPU0 -> GPU1 | 388.54 |"
    assert_output --partial '`args`: 29 of 29 checks passed'
    assert_output --partial '`ordering`: 12 of 12 checks passed'
    refute_output --partial "The host link" # that run had no host route
}

# --- with a GPU -------------------------------------------------------------

# bats test_tags=points:1
@test "02: the run succeeds and its rows pass the checker" {
    captured_rows run
    assert_equal "$status" 0
    run lab02_check_csv "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "02: TODOs 02.2, 02.3, 02.4, 02.5 and 02.6 through the real calls: each status as the harness expects, nothing written when refused" {
    captured_rows args
    assert_equal "$status" 0
    run lab02_check_args "$CAPTURED_CSV"
    assert_success
    run awk -F, '$1 == "args" && $2 != "skipped" { print $15 }' "$CAPTURED_CSV"
    assert_all_ones
    run csv_get "$CAPTURED_CSV" value experiment=args variant=valid_count mode=p2p_copy_floats
    assert_output P2P_OK
}

# bats test_tags=points:1
@test "02: TODOs 02.4 and 02.5: every size from 1 byte to the largest is copied with both wrappers, every byte verified, the source still current" {
    captured_rows sweep
    assert_equal "$status" 0
    run lab02_check_sweep "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=sweep bytes=1
    assert_all_ones
    for odd in 3 4097 65537 16777213; do
        run csv_get "$CAPTURED_CSV" verified experiment=sweep bytes=$odd mode=unaligned
        assert_all_ones
    done
}

# bats test_tags=points:1
@test "02: TODOs 02.5 and 02.7: p2p_copy_async and p2p_copy_staged run in their stream's order" {
    captured_rows run
    run lab02_check_stream_order "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=stream_order variant=p2p_copy_staged
    assert_all_ones
    run csv_get "$CAPTURED_CSV" verified experiment=stream_order variant=p2p_copy_async
    assert_all_ones
}

# bats test_tags=points:1
@test "02: TODOs 02.4, 02.5 and 02.7: timing is sane: verified, finite, positive, below the ceiling, rising with size" {
    captured_rows run
    run lab02_check_timing "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" variant experiment=timing bytes=16777216 route=loopback
    for method in $LAB02_METHODS; do
        assert_line "$method"
    done
    run csv_get "$CAPTURED_CSV" mode experiment=timing route=host variant=pageable
    assert_line h2d
    assert_line d2h
}

# bats test_tags=points:1
@test "02: TODOs 02.4 and 02.7: with P2P, peer access on beats off and a peer copy beats host staging at 16 MiB and above" {
    require_p2p_pair
    captured_rows run
    run csv_get "$CAPTURED_CSV" variant experiment=timing route=peer bytes=16777216
    assert_line memcpy_peer
    run lab02_check_timing "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.4: cudaMemcpyPeer delivers the data whichever GPU is current" {
    require_gpus 2
    captured_rows run
    run lab02_check_current_device "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=current_device variant=current_src
    assert_all_ones
    run csv_get "$CAPTURED_CSV" verified experiment=current_device variant=current_dst
    assert_all_ones
}

# bats test_tags=points:1
@test "02: a copy in a non-blocking stream does not wait for a legacy default stream" {
    require_gpus 2
    captured_rows run
    run lab02_check_ordering "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" value experiment=ordering variant=memcpy_peer
    assert_line waited
}

# bats test_tags=points:1
@test "02: the claims of chapter 4.2 get a verdict computed from the run" {
    captured_rows run
    run lab02_check_claims "$CAPTURED_CSV"
    assert_success
    captured run
    for id in current_device_required memcpypeer_beats_memcpy_default p2p_beats_host_staging \
        peer_access_makes_copy_direct memcpy_default_adds_sync; do
        assert_output --regexp "$id .*= (holds|does_not_hold|untested)"
    done
}

# bats test_tags=points:1
@test "02: the table shows every experiment that ran" {
    captured run
    for key in args sweep stream_order timing; do
        assert_line "$key"
    done
}

# bats test_tags=points:1
@test "02: an odd --max-size is copied and timed, and the claims needing 16 MiB are untested" {
    captured_rows small
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" verified experiment=sweep bytes=3001
    assert_all_ones
    run csv_get "$CAPTURED_CSV" bytes experiment=timing variant=memcpy_peer route=loopback
    assert_output 3001
    run csv_get "$CAPTURED_CSV" value experiment=claim variant=memcpypeer_beats_memcpy_default
    assert_output untested
    run lab02_check_csv "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "02: with a single visible GPU the loopback and host routes run and verify, and the peer routes say why not" {
    require_gpus 1
    captured_rows single
    assert_equal "$status" 0
    run lab02_check_csv "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" route experiment=sweep variant=p2p_copy
    assert_line loopback
    refute_line peer
    run csv_get "$CAPTURED_CSV" detail experiment=timing variant=skipped route=peer
    assert_output --partial "need 2 GPUs; this machine has 1"
    run csv_get "$CAPTURED_CSV" value experiment=claim variant=peer_access_makes_copy_direct
    assert_output untested
}

@test "02: the checker accepts the run recorded on 1x H200 (its rows, floors and ceilings included)" {
    run lab02_check_csv "$FIXTURES/lab02-run-1xh200.csv"
    assert_success
}
