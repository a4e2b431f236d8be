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

# unit_group TODO: the unit-test driver's cases of one TODO (tests/unit/lab02.c).
unit_group() {
    unit_run 02 "$1"
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
    for key in args sweep stream_order timing switch current_device ordering; do
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
    unit_group 02.1
}

# bats test_tags=points:1
@test "02: TODO 02.2 p2p_check: every fault alone, the boundaries, several faults in order (unit, any machine)" {
    unit_group 02.2
}

# bats test_tags=points:1
@test "02: TODO 02.3 p2p_owner: NULL and host pointers belong to no device (unit, any machine)" {
    unit_group 02.3
    # With no GPU visible the runtime can place no pointer at all: still no device.
    CUDA_VISIBLE_DEVICES= unit_group 02.3
}

# bats test_tags=points:1
@test "02: TODOs 02.4 and 02.5: the wrappers refuse before they copy and write nothing (unit, any machine)" {
    unit_group 02.4
    unit_group 02.5
}

# bats test_tags=points:1
@test "02: TODO 02.6 p2p_copy_floats checks the count before anything is copied (unit, any machine)" {
    unit_group 02.6
}

# bats test_tags=points:1
@test "02: TODO 02.3 p2p_owner gives only device memory an owner, not pinned, managed or pageable host memory, and clears a failed query (stand-in runtime, any machine)" {
    stand_in_run 02 02.3
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.4 p2p_copy makes one cudaMemcpyPeer with the caller's arguments, leaves the current device alone and reports a failed copy (stand-in runtime, any machine)" {
    stand_in_run 02 02.4
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.5 p2p_copy_async makes one cudaMemcpyPeerAsync on the caller's stream, leaves the current device alone and reports a failed copy (stand-in runtime, any machine)" {
    stand_in_run 02 02.5
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.6 p2p_copy_floats copies count x 4 bytes through p2p_copy (stand-in runtime, any machine)" {
    stand_in_run 02 02.6
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.7 p2p_copy_staged makes its six calls in the contract's order, on the right streams, and returns the first error (stand-in runtime, any machine)" {
    stand_in_run 02 02.7
    assert_success
}

# --- the checker, on the recorded runs and edits of them --------------------
# (tests/fixtures/machines.tsv names the machines they were recorded on)

@test "02: the checker accepts every recorded run (its rows, floors and ceilings included), silently" {
    assert_checker_accepts_all 02 lab02_check_csv silent
}

@test "02: the verdicts recorded on a pair of GPUs are what the host tool recomputes" {
    local tool fx
    tool=$(host_tool 02)
    fx=$(recording 02 gpu_count=2)
    run "$tool" check "$fx"
    assert_success
    run "$tool" verdicts "$fx"
    assert_success
    assert_line --regexp "^claim,p2p_beats_host_staging,.*,holds,"
    assert_line --regexp "^claim,current_device_required,.*,does_not_hold,"
}

@test "02: a copy that does not arrive decides the current-device claim, with the figure its headline shows" {
    local file=$BATS_TEST_TMPDIR/lost.csv fx
    fx=$(recording 02 gpu_count=2)
    # Synthetic: the copies made with the source current did not arrive; those with the destination did.
    rows_edit 'f("experiment") == "current_device" && f("variant") == "current_src" { set("verified", 0) }' "$fx" >"$file"
    run "$(host_tool 02)" verdicts "$file"
    assert_line --regexp '^claim,current_device_required,.*,holds,copies made with another GPU current did not arrive'
    run "$(host_tool 02)" figures "$file"
    assert_line "current_device_required,failed_with,another GPU"
    rows_edit 'f("experiment") == "current_device" { set("verified", 0) }' "$fx" >"$file"
    run "$(host_tool 02)" verdicts "$file"
    assert_line --regexp '^claim,current_device_required,.*,does_not_hold,copies failed even with the destination current'
    run "$(host_tool 02)" figures "$file"
    assert_line "current_device_required,failed_with,the destination"
}

# switch_rows FILE ROUTE PEER_US SWITCH_US SIZE...: host-clocked switch rows of
# GPU 0 <-> GPU 1 over ROUTE, both ways at each SIZE, with PEER_US and SWITCH_US
# microseconds per call (one value for all sizes, or a list, one per size).
switch_rows() {
    local file=$1 route=$2 peer=$3 switched=$4
    shift 4
    head -n 1 "$FIXTURES/rows-header.csv" >"$file"
    awk -v route="$route" -v peer="$peer" -v switched="$switched" -v sizes="$*" 'BEGIN {
        n = split(sizes, size, " "); split(peer, p, " "); split(switched, q, " ")
        for (i = 1; i <= n; i++)
            for (src = 0; src < 2; src++)
                for (w = 0; w < 2; w++) {
                    us = w ? (i in q ? q[i] : q[1]) : (i in p ? p[i] : p[1])
                    printf "switch,%s,%s,%d,%d,host_clock,%d,10,5,%s,%s,%s,%.6f,0,1,,\n",
                        w ? "set_device_memcpy" : "memcpy_peer", route, src, 1 - src, size[i],
                        us, us, us, size[i] / 1e3 / us
                }
    }' >>"$file"
}

@test "02: the device-switch verdict holds only where cudaMemcpyPeer is never slower and faster at some size, on the host clock" {
    local tool rows="$BATS_TEST_TMPDIR/switch.csv"
    tool=$(host_tool 02)
    # 20 % faster at 4 KiB, the same at 256 MiB: a sound preference.
    switch_rows "$rows" peer "10 700" "12 700" 4096 268435456
    run "$tool" verdicts "$rows"
    assert_line --regexp '^claim,memcpypeer_beats_memcpy_default,.*,holds,.*faster by more than 5% both ways at: 4 KiB;'
    # The same everywhere: nothing to prefer.
    switch_rows "$rows" peer "10 700" "10.2 700" 4096 268435456
    run "$tool" verdicts "$rows"
    assert_line --regexp '^claim,memcpypeer_beats_memcpy_default,.*,does_not_hold,.*at: none;'
    # Faster when small but 10 % slower when large: the advice costs there.
    switch_rows "$rows" peer "10 770" "12 700" 4096 268435456
    run "$tool" verdicts "$rows"
    assert_line --regexp '^claim,memcpypeer_beats_memcpy_default,.*,does_not_hold,.*slower by more than 5% at 1 of 2 sizes'
    # Loopback alone is no link: the claim is not judged there.
    switch_rows "$rows" loopback "10 700" "12 700" 4096 268435456
    run "$tool" verdicts "$rows"
    assert_line --regexp '^claim,memcpypeer_beats_memcpy_default,.*,untested,'
    # A recording made before the experiment (the one on a pair of GPUs) says so.
    local fx
    fx=$(recording 02 gpu_count=2)
    run "$tool" verdicts "$fx"
    assert_line --regexp '^claim,memcpypeer_beats_memcpy_default,.*,untested,.*predates the switch experiment'
}

@test "02: the checker refuses switch rows with a way missing, a bandwidth that is not bytes / time, or an unverified copy" {
    local tool rows="$BATS_TEST_TMPDIR/switch.csv"
    tool=$(host_tool 02)
    # with the claim rows the host tool gives them, as a run of the experiment alone has
    switch_rows "$rows" peer 10 12 4096
    "$tool" verdicts "$rows" | tail -n +2 >>"$rows"
    run lab02_check_rows "$rows"
    assert_success
    sed -i '/set_device_memcpy,peer,1,0/d' "$rows"
    run lab02_check_rows "$rows"
    assert_failure
    assert_output --partial "switch set_device_memcpy/peer/1->0/4096 is missing"
    switch_rows "$rows" peer 10 12 4096
    "$tool" verdicts "$rows" | tail -n +2 >>"$rows"
    sed -i -E '2s/,[0-9.]+,0,1,,$/,9,0,0,,/' "$rows"
    run lab02_check_rows "$rows"
    assert_failure
    assert_output --partial "gbps is not bytes / median time"
    assert_output --partial ": not verified"
}

@test "02: the checker refuses every broken edit of the recorded run with the reason" {
    assert_checker_rejects_all 02 lab02_check_csv
}

@test "02: the host tool's report section draws its tables from the rows recorded on a pair of GPUs" {
    local tool fx
    tool=$(host_tool 02)
    fx=$(recording 02 gpu_count=2)
    run "$tool" report "$fx"
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
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
    run rows_awk 'f("experiment") == "args" && f("variant") != "skipped" { print f("verified") }' "$CAPTURED_CSV"
    assert_all_ones
    run csv_get "$CAPTURED_CSV" value experiment=args variant=valid_count mode=p2p_copy_floats
    assert_output P2P_OK
}

# bats test_tags=points:1
@test "02: TODOs 02.4 and 02.5: every size from 1 byte to the largest is copied with both wrappers, every byte verified, the source still current" {
    captured_rows sweep
    assert_equal "$status" 0
    run lab02_check_rows "$CAPTURED_CSV"
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
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=stream_order variant=p2p_copy_staged
    assert_all_ones
    run csv_get "$CAPTURED_CSV" verified experiment=stream_order variant=p2p_copy_async
    assert_all_ones
}

# bats test_tags=points:1
@test "02: TODOs 02.4, 02.5 and 02.7: timing is sane: verified, finite, positive, below the ceiling, rising with size" {
    captured_rows run
    run lab02_check_rows "$CAPTURED_CSV"
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
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "02: TODO 02.4: cudaMemcpyPeer delivers the data whichever GPU is current" {
    require_gpus 2
    captured_rows run
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=current_device variant=current_src
    assert_all_ones
    run csv_get "$CAPTURED_CSV" verified experiment=current_device variant=current_dst
    assert_all_ones
}

@test "02: cudaMemcpyPeer and a device switch with cudaMemcpy are timed on the host clock over every route here, both ways, every copy verified" {
    captured_rows run
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" route experiment=switch variant=set_device_memcpy
    assert_line loopback
    if [ "$(gpu_count)" -ge 2 ]; then assert_line peer_off; fi
    run csv_get "$CAPTURED_CSV" verified experiment=switch mode=host_clock
    assert_all_ones
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "02: a copy in a non-blocking stream does not wait for a legacy default stream" {
    require_gpus 2
    captured_rows run
    run lab02_check_rows "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" value experiment=ordering variant=memcpy_peer
    assert_line waited
}

# bats test_tags=points:1
@test "02: the claims of chapter 4.2 get a verdict computed from the run" {
    captured_rows run
    run lab02_check_rows "$CAPTURED_CSV"
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
