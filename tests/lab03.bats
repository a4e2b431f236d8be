#!/usr/bin/env bats
# Lab 03 — kernels that read and write far memory (chapter 4.3): another
# GPU's (peer), mapped host memory (host), the same GPU's (loopback).

load helpers/lab
load helpers/lab03

setup_file() {
    load helpers/lab
    capture csv 03 --csv --quick
    capture table 03 --quick
    # A size that is no multiple of the block: the bound check must hold.
    capture odd 03 --csv --min-size 1000004 --max-size 1000004 --stride-size 16M --reps 2 \
        -t transfer,stride
    # The child hangs on purpose: it must be killed after the timeout.
    capture hang 03 --csv -t fault --simulate-child-hang --fault-timeout 2
    # Only GPU 0: the host and loopback routes, the peer route skipped once.
    CUDA_VISIBLE_DEVICES=0 capture single 03 --csv --quick -t transfer,bounds,stride \
        --max-size 1M --stride-size 1M
}

# routes_here: the routes a full run has on this machine.
routes_here() {
    local pair
    if pair=$("$BUILD_DIR/tools/gpu-query" pair 2>/dev/null) && [ -n "$pair" ]; then
        echo peer host loopback
    else
        echo host loopback
    fi
}

# --- on every machine -------------------------------------------------------

@test "03: --help explains the program and exits 0" {
    lab_run 03 --help
    assert_success
    assert_output --partial "usage:"
    for option in --gpu-a --gpu-b --min-size --max-size --stride-size --reps --seed --quick \
        --test --list --fault-timeout --simulate-child-hang --csv --out; do
        assert_output --partial -- "$option"
    done
}

@test "03: --list names the four experiments" {
    lab_run 03 --list
    assert_success
    local key
    for key in transfer bounds stride fault; do
        assert_line --regexp "^$key +"
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
        "--max-size 4097|--max-size: 4097 B is not a multiple of 4 bytes"
        "--max-size 5G|--max-size: 5 GiB is out of range (4 B .. 4 GiB)"
        "--min-size 1M --max-size 4K|--min-size (1 MiB) is larger than --max-size (4 KiB)"
        "--stride-size 1000|--stride-size: 1000 B is not a multiple of 256 bytes"
        "--stride-size 2G|--stride-size: 2 GiB is out of range (256 B .. 1 GiB)"
        "--fault-timeout 0|--fault-timeout: 0 is out of range"
        "--fault-child sideways -a 0|--fault-child: 'sideways' is not peer, one_way, pageable or unmapped"
        "--fault-child peer -a 0|--fault-child needs -a (and -b for peer and one_way)"
        "--seed x1|--seed: 'x1' is not a whole number"
        "-t nothing|no experiment 'nothing' (see --list)"
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
    assert_output --partial "skipped: needs 1 GPU"
}

# bats test_tags=points:1
@test "03: TODO 03.1 refuses equal or negative GPU ids with cudaErrorInvalidDevice (unit test, any machine)" {
    unit_run 03 03.1
    assert_success
    refute_output --partial "not ok"
}

# bats test_tags=points:1
@test "03: TODO 03.3 grid size: enough blocks, at most the cap, no overflow (unit test, any machine)" {
    unit_run 03 03.3
    assert_success
    refute_output --partial "not ok"
}

@test "03: the checker accepts every recorded run (its rows, floors and ceilings included), silently" {
    local fx
    assert_checker_accepts_all 03 lab03_check_csv silent
    # The recording on a pair of GPUs is the full default run: the sweep reaches 1 GiB.
    fx=$(recording 03 gpu_count=2)
    run csv_get "$fx" bytes experiment=transfer variant=pull route=peer
    assert_line 1073741824
}

@test "03: the checker rejects every broken edit of the recorded run, each for its own reason" {
    assert_checker_rejects_all 03 lab03_check_csv
}

@test "03: the verdicts recorded on a pair of GPUs are what the rows say" {
    local fx
    fx=$(recording 03 gpu_count=2)
    run "$(host_tool 03)" verdicts "$fx"
    assert_success
    assert_line --regexp '^claim,peer_kernel_access_works,.*,holds,'
    refute_line --regexp '^claim,pull_vs_copy_then_compute,'
    assert_line --regexp '^claim,access_without_enable_fails,.*,holds,child process: GPU 0.s kernel read GPU 1.s memory without cudaDeviceEnablePeerAccess'
    # Synthetic: the peer read finishing without an error (a system that maps peer memory
    # without the call) does not hold.
    sed -E 's/^(fault,outcome,peer_off,1,0,no_access,0,0,0,,,,,,-1),fault,/\1,silent_success,/' \
        "$fx" >"$BATS_TEST_TMPDIR/silent.csv"
    run "$(host_tool 03)" verdicts "$BATS_TEST_TMPDIR/silent.csv"
    assert_line --regexp '^claim,access_without_enable_fails,.*,does_not_hold,child process: GPU 0.s kernel read GPU 1.s memory without cudaDeviceEnablePeerAccess; and no error came'
}

@test "03: on one GPU the fault on unregistered host memory is labelled as such, no verdict on peer access" {
    local file=$BATS_TEST_TMPDIR/silent.csv fx
    fx=$(recording 03 gpu_count=1)
    run "$(host_tool 03)" verdicts "$fx"
    assert_line --regexp '^claim,access_without_enable_fails,.*,untested,the claim is about a peer GPU.s memory and needs two GPUs\. The host-memory analogue in a child process: GPU 0.s kernel read host memory never given to it: launch cudaSuccess; synchronize cudaErrorIllegalAddress; .*what was withheld is host registration and not peer access$'
    # Synthetic: the same child finishing without an error is no verdict on peer access either.
    sed -E 's/^(fault,outcome,host,-1,0,pageable,0,0,0,,,,,,-1),fault,/\1,silent_success,/' \
        "$fx" >"$file"
    run "$(host_tool 03)" verdicts "$file"
    assert_line --regexp '^claim,access_without_enable_fails,.*,untested,the claim is about a peer GPU.s memory'
}

@test "03: the report section of the run recorded on a pair of GPUs has the transfer and read-pattern tables" {
    local fx
    fx=$(recording 03 gpu_count=2)
    run "$(host_tool 03)" report "$fx"
    assert_success
    assert_line "| peer | 1 GiB | 368.9 | 368.0 | 395.5 | 314.1 |"
    assert_line "| 1 | 360.7 | - | 1469.8 |"
}

# --- with a GPU --------------------------------------------------------------

@test "03: the run succeeds" {
    captured csv
    assert_equal "$status" 0
    captured table
    assert_equal "$status" 0
}

# bats test_tags=points:1
@test "03: the live rows pass the checker" {
    captured csv
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "03: TODOs 03.1, 03.2, 03.4 and 03.5: every variant ran at every size on every route here and was verified bit for bit" {
    captured csv
    local route v n
    for route in $(routes_here); do
        for v in pull push copy_only copy_then_compute; do
            n=$(csv_get "$CAPTURED_CSV" verified experiment=transfer variant=$v route=$route | grep -c '^1$')
            [ "$n" -eq 8 ] || fail "$v on $route: $n of 8 sizes (4 KiB .. 64 MiB) verified"
        done
        n=$(csv_get "$CAPTURED_CSV" verified experiment=stride route=$route | grep -c '^1$')
        [ "$n" -eq 7 ] || fail "stride on $route: $n of 7 strides verified"
    done
}

# bats test_tags=points:1
@test "03: TODO 03.1: peer access follows on, then off, in both directions (two GPUs)" {
    require_p2p_pair
    captured csv
    # The harness reads the access state after each lab03_peer_both call.
    [[ "$stderr" != *"lab03_peer_both"* ]] || fail "$(grep -m1 lab03_peer_both <<<"$stderr")"
    assert_equal "$status" 0
    local n
    n=$(csv_get "$CAPTURED_CSV" verified experiment=transfer route=peer | grep -c '^1$')
    [ "$n" -eq 32 ] || fail "transfer on peer: $n of 32 rows (8 sizes x 4 variants) verified"
}

# bats test_tags=points:1
@test "03: TODOs 03.2, 03.3, 03.4 and 03.6: odd sizes and small grids stay within bounds for every kernel on every route here" {
    captured csv
    local route n
    for route in $(routes_here); do
        n=$(csv_get "$CAPTURED_CSV" verified experiment=bounds route=$route | grep -c '^1$')
        [ "$n" -eq 21 ] || fail "bounds on $route: $n of 21 shapes verified"
    done
    run csv_get "$CAPTURED_CSV" count experiment=bounds variant=push route=host
    assert_line 1
    assert_line 31
    assert_line 1000003
}

# bats test_tags=points:1
@test "03: times are positive, no rate beats the physics of the link, and large transfers reach its floor" {
    captured csv
    local route v bytes us
    for route in $(routes_here); do
        [ "$route" != loopback ] || continue
        for v in pull push copy_only copy_then_compute; do
            # From 64 MiB every working link moves more than 1 GB/s.
            assert_float "$(csv_get "$CAPTURED_CSV" gbps experiment=transfer variant=$v route=$route bytes=67108864)" '>' 1
            while IFS=$'\t' read -r bytes us; do
                assert_float "$us" '>' 0
                # Event time is never below bytes / ceiling.
                assert_float "$us" '>=' "$(awk -v b="$bytes" -v c="$LAB03_LINK_CEILING" 'BEGIN { printf "%.9f", b / c / 1e3 }')"
            done < <(paste <(csv_get "$CAPTURED_CSV" bytes experiment=transfer variant=$v route=$route) \
                <(csv_get "$CAPTURED_CSV" min_us experiment=transfer variant=$v route=$route))
        done
    done
}

# bats test_tags=points:1
@test "03: reading and writing far memory gets faster per byte as the array grows" {
    captured csv
    local route v small large
    for route in $(routes_here); do
        for v in pull push; do
            small=$(csv_get "$CAPTURED_CSV" gbps experiment=transfer variant=$v route=$route bytes=4096)
            large=$(csv_get "$CAPTURED_CSV" gbps experiment=transfer variant=$v route=$route bytes=67108864)
            assert_float "$large" '>' "$small"
        done
    done
}

# bats test_tags=points:1
@test "03: TODO 03.5: copy-then-compute costs at least its copy" {
    captured csv
    local route copy both
    for route in $(routes_here); do
        copy=$(csv_get "$CAPTURED_CSV" median_us experiment=transfer variant=copy_only route=$route bytes=67108864)
        both=$(csv_get "$CAPTURED_CSV" median_us experiment=transfer variant=copy_then_compute route=$route bytes=67108864)
        assert_float "$both" '>=' "$(awk -v c="$copy" 'BEGIN { print 0.9 * c }')"
    done
}

# bats test_tags=points:1
@test "03: TODO 03.6: coalesced reads beat strided ones over every link, by far over the peer link" {
    captured csv
    local route one wide factor
    for route in $(routes_here); do
        [ "$route" != loopback ] || continue
        # Over PCIe the GPU's L2 may keep host lines between the strided
        # passes, so only the order is sure there; over NVLink each 4-byte
        # read costs a sector of its own.
        factor=1
        [ "$route" != peer ] || factor=2
        one=$(csv_get "$CAPTURED_CSV" gbps experiment=stride variant=stride_1 route=$route)
        wide=$(csv_get "$CAPTURED_CSV" gbps experiment=stride variant=stride_32 route=$route)
        assert_float "$one" '>' "$(awk -v w="$wide" -v f="$factor" 'BEGIN { print f * w }')"
    done
}

# bats test_tags=points:1
@test "03: TODO 03.2: the bound check holds at a size that is no multiple of the block" {
    captured odd
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" verified experiment=transfer
    [ "${#lines[@]}" -ge 8 ] || fail "only ${#lines[@]} transfer rows"
    refute_line 0
    run csv_get "$CAPTURED_CSV" count experiment=transfer variant=pull route=host
    assert_output 250001
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
    run csv_get "$CAPTURED_CSV" value experiment=claim variant=access_without_enable_fails
    assert_output untested
}

# bats test_tags=points:1
@test "03: TODO 03.7: the child that touches unreachable memory reports what happened and the parent exits cleanly" {
    captured csv
    assert_equal "$status" 0
    local outcome mode
    outcome=$(csv_get "$CAPTURED_CSV" value experiment=fault variant=outcome)
    mode=$(csv_get "$CAPTURED_CSV" mode experiment=fault variant=outcome)
    [[ "$outcome" =~ ^(fault|silent_success|wrong_data|hang|crash)$ ]] || fail "outcome '$outcome'"
    [[ "$mode" =~ ^(no_access|pageable|unmapped)$ ]] || fail "mode '$mode'"
    run csv_get "$CAPTURED_CSV" value experiment=fault variant=sync
    assert_output --regexp '^cuda(Success|Error[A-Za-z]+)$'
    # The harness waited as well: a fault there must be the one *sync reported.
    local waited launch
    waited=$(csv_get "$CAPTURED_CSV" value experiment=fault variant=waited)
    launch=$(csv_get "$CAPTURED_CSV" value experiment=fault variant=launch)
    [[ "$waited" =~ ^cuda(Success|Error[A-Za-z]+)$ ]] || fail "the harness's own wait is '$waited'"
    if [ "$waited" != cudaSuccess ] && [ "$launch" = cudaSuccess ]; then
        assert_output "$waited"
    fi
    run csv_get "$CAPTURED_CSV" value experiment=claim variant=access_without_enable_fails
    if [ "$mode" != no_access ]; then
        # One GPU: host memory stands in for the peer's and is no verdict on peer access.
        assert_output untested
    elif [ "$outcome" = fault ]; then
        assert_output holds
    fi
    [ "$mode" != unmapped ] || assert_equal "$outcome" fault
}

# bats test_tags=points:1
@test "03: a hung child is killed after the timeout and the parent carries on" {
    captured hang
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" value experiment=fault variant=outcome
    assert_output hang
    run csv_get "$CAPTURED_CSV" value experiment=fault variant=seconds
    assert_float "$output" '>=' 1.9
    assert_float "$output" '<' 10
    run csv_get "$CAPTURED_CSV" value experiment=claim variant=access_without_enable_fails
    assert_output untested
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "03: with a single GPU visible the host and loopback routes run verified and the peer route is skipped once" {
    captured single
    assert_equal "$status" 0
    run csv_get "$CAPTURED_CSV" route experiment=transfer variant=skipped
    assert_output peer
    run csv_get "$CAPTURED_CSV" route variant=skipped
    assert_output peer
    [[ "$stderr" == *"skipped transfer: the peer route needs two GPUs"* ]] || fail "stderr: $stderr"
    local route n
    for route in host loopback; do
        n=$(csv_get "$CAPTURED_CSV" verified experiment=transfer route=$route | grep -c '^1$')
        [ "$n" -eq 20 ] || fail "transfer on $route: $n of 20 rows (5 sizes x 4 variants) verified"
        n=$(csv_get "$CAPTURED_CSV" verified experiment=bounds route=$route | grep -c '^1$')
        [ "$n" -eq 21 ] || fail "bounds on $route: $n of 21 verified"
    done
    run lab03_check_csv "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "03: the table for people shows every experiment and a verdict for each claim" {
    captured table
    local part id
    for part in transfer bounds stride fault claim; do
        assert_line "$part"
    done
    for id in $(lab_claim_ids 03); do
        assert_output --regexp "$id +4\.[13] += (holds|does_not_hold|untested)"
    done
}

@test "03: access is per direction: a read with access enabled only the other way is judged beside the one with none" {
    local file=$BATS_TEST_TMPDIR/one-way.csv fx
    fx=$(recording 03 gpu_count=2)
    { cat "$fx"
      echo "fault,outcome,peer_off,1,0,one_way,0,0,0,,,,,,-1,fault,"
      echo "fault,reverse_enabled,peer_off,1,0,one_way,0,0,0,,,,,,-1,cudaSuccess,"
      echo "fault,launch,peer_off,1,0,one_way,0,0,0,,,,,,-1,cudaSuccess,"
      echo "fault,sync,peer_off,1,0,one_way,0,0,0,,,,,,-1,cudaErrorIllegalAddress,"; } >"$file"
    run "$(host_tool 03)" verdicts "$file"
    assert_line --regexp '^claim,access_without_enable_fails,.*,holds,child process: GPU 0.s kernel read GPU 1.s memory without cudaDeviceEnablePeerAccess.*; with only GPU 1 -> GPU 0 enabled: fault$'
    run lab03_check_csv "$file"
    assert_success
    sed -i 's/^fault,reverse_enabled,peer_off,1,0,one_way,0,0,0,,,,,,-1,cudaSuccess,/fault,reverse_enabled,peer_off,1,0,one_way,0,0,0,,,,,,-1,cudaErrorPeerAccessUnsupported,/' "$file"
    run lab03_check_csv "$file"
    assert_failure
    assert_output --partial "enabling access the other way returned cudaErrorPeerAccessUnsupported"
}

# bats test_tags=points:1
@test "03: TODO 03.1 switches both directions through lab_peer_access, GPU 0 included, and returns its first error (unit test, any machine)" {
    unit_run 03 03.1-calls
    assert_success
    refute_output --partial "not ok"
}

# bats test_tags=points:1
@test "03: TODOs 03.2 and 03.6: each launch is one kernel on lab03_grid's blocks (captured), and strided reads whose n x stride passes 2^32 are verified on every route here" {
    captured csv
    [[ "$stderr" != *"check failed: TODO 03."[26]* ]] || fail "$(grep -m1 'check failed: TODO 03\.[26]' <<<"$stderr")"
    assert_equal "$status" 0
}
