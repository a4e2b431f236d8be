#!/usr/bin/env bats
# Lab 04 — cross-GPU atomics: scopes, correctness and cost (chapter 4.3).

load helpers/lab
load helpers/lab04

setup_file() {
    load helpers/lab
    capture csv 04 --csv --quick
    capture table 04 --quick
    capture small 04 --csv --quick --iters 3 --blocks 7 --reps 2
    local pair
    if pair=$("$BUILD_DIR/tools/gpu-query" pair 2>/dev/null); then
        local a b
        read -r a b <<<"$pair"
        capture swapped 04 --csv --quick --reps 2 -a "$b" -b "$a"
    fi
}

# --- on every machine -------------------------------------------------------

@test "04: --help explains the program and exits 0" {
    lab_run 04 --help
    assert_success
    assert_output --partial "usage:"
    for option in --gpu-a --gpu-b --reps --iters --blocks --hist-size --chain-steps --seed --quick --csv; do
        assert_output --partial -- "$option"
    done
}

@test "04: an unknown option exits 2 naming it" {
    lab_run 04 --no-such-option
    assert_equal "$status" 2
    assert_output --partial "unknown option '--no-such-option'"
    assert_output --partial "Try '04-peer-atomics --help'"
}

@test "04: a stray argument exits 2 naming it" {
    lab_run 04 extra
    assert_equal "$status" 2
    assert_output --partial "unexpected argument 'extra'"
}

@test "04: bad option values exit 2 with a one-line error naming the problem" {
    local -a cases=(
        "--reps|needs a value"
        "--reps abc|--reps: 'abc' is not a whole number"
        "--iters -3|--iters: -3 is out of range"
        "--reps 0|--reps: 0 is out of range"
        "--blocks 0|--blocks: 0 is out of range"
        "--chain-steps 1e3|--chain-steps: '1e3' is not a whole number"
        "--hist-size 4Q|--hist-size: unknown unit in '4Q'"
        "--hist-size 0|--hist-size: size '0' must be greater than zero"
        "--hist-size 2G|--hist-size: 2G is out of range"
        "--seed -1|--seed: -1 is out of range"
        "-a|option '-a' needs a value"
        "-a x -b 1|--gpu-a: 'x' is not a whole number"
    )
    local entry args want
    for entry in "${cases[@]}"; do
        args=${entry%%|*}
        want=${entry#*|}
        # shellcheck disable=SC2086 # the arguments are split on purpose
        lab_run 04 $args
        [ "$status" -eq 2 ] || fail "'$args' exited $status, not 2: $output"
        [[ "$output" == *"error: "*"$want"* ]] || fail "'$args' did not say '$want': $output"
        [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "'$args': not one error line: $output"
    done
}

@test "04: equal GPU ids exit 2" {
    lab_run 04 -a 0 -b 0
    assert_equal "$status" 2
    assert_output --partial "the two GPUs must differ"
}

@test "04: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 04 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 0"
}

@test "04: with one GPU visible it exits 77 and says why" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 04 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 1"
}

@test "04: the fixture checks accept a well-formed synthetic CSV" {
    run lab04_check_csv "$FIXTURES/lab04-synthetic-ok.csv"
    assert_success
}

@test "04: the schema checks reject broken output, each for its own reason" {
    local -a cases=(
        "header|the header is not the lab's schema"
        "count|counter both_system: count"
        "race-defined|data race, yet it is called defined"
        "missing-variant|counter both_warp_aggregated: expected one row, found 0"
        "aggregation|a full warp adds 32 increments with one atomic"
        "histogram-slower|is not faster than naive"
        "histogram-inexact|histogram naive: not bit-exact"
        "latency-order|cannot beat a local one"
        "times|counter local: a time is not positive"
        "claim-verdict|claim remote_atomics_100x_slower: holds with a latency ratio of 3"
        "missing-claim|claim pcie_atomics_need_hw_support: missing"
        "no-native|has no native atomics"
    )
    local entry name want n=0
    for entry in "${cases[@]}"; do
        name=${entry%%|*}
        want=${entry#*|}
        assert_file_exists "$FIXTURES/lab04-broken-$name.csv"
        run lab04_check_csv "$FIXTURES/lab04-broken-$name.csv"
        [ "$status" -ne 0 ] || fail "lab04-broken-$name.csv was accepted"
        [[ "$output" == *"$want"* ]] || fail "lab04-broken-$name.csv: expected '$want', got: $output"
        n=$((n + 1))
    done
    # Every broken fixture on disk is exercised above.
    assert_equal "$(find "$FIXTURES" -name 'lab04-broken-*.csv' | wc -l)" "$n"
}

@test "04: the fixture command records the reference binary's CSV in one line" {
    assert_file_exists "$FIXTURES/lab04.cmd"
    assert_equal "$(wc -l <"$FIXTURES/lab04.cmd")" 1
    run cat "$FIXTURES/lab04.cmd"
    assert_output --regexp '^build/ref/bin/04-peer-atomics .*--csv'
}

@test "04: the recorded 2xH200 CSV passes the schema checks" {
    [ -f "$FIXTURES/lab04-run.csv" ] ||
        fail "fixture missing: tests/fixtures/lab04-run.csv (record it on the 2xH200 machine with: $(cat "$FIXTURES/lab04.cmd"))"
    run lab04_check_csv "$FIXTURES/lab04-run.csv"
    assert_success
}

# --- with two or more GPUs ----------------------------------------------------

@test "04: the run succeeds" {
    captured csv
    assert_equal "$status" 0
    captured table
    assert_equal "$status" 0
}

@test "04: a pair without native atomics exits 77 with the reason" {
    require_p2p_pair
    lab_run 04 --quick --simulate-no-native-atomics
    assert_equal "$status" 77
    assert_output --partial "skipped: no native atomics from GPU"
    assert_output --partial "cudaDevP2PAttrNativeAtomicSupported"
}

@test "04: the live CSV passes every sanity check" {
    captured csv
    run lab04_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "04: every counter variant the memory model guarantees counts exactly" {
    captured csv
    local name expected count
    for name in $LAB04_COUNTERS; do
        [ "$name" = both_device ] && continue
        expected=$(csv_get "$CAPTURED_CSV" expected section=counter name="$name")
        count=$(csv_get "$CAPTURED_CSV" count section=counter name="$name")
        [ -n "$expected" ] || fail "no counter row for $name"
        assert_equal "$count" "$expected"
        assert_equal "$(csv_get "$CAPTURED_CSV" exact section=counter name="$name")" 1
    done
}

@test "04: two GPUs with system-scope atomics reach the exact total" {
    captured csv
    local single both
    single=$(csv_get "$CAPTURED_CSV" expected section=counter name=local)
    both=$(csv_get "$CAPTURED_CSV" count section=counter name=both_system)
    assert_equal "$both" $((2 * single))
}

@test "04: device scope across two GPUs is reported as a race, never as correct" {
    captured csv
    assert_equal "$(csv_get "$CAPTURED_CSV" defined section=counter name=both_device)" 0
    run csv_get "$CAPTURED_CSV" count section=counter name=both_device
    assert_output --regexp '^[0-9]+$'
    captured table
    assert_output --regexp 'both_device +[0-9]+\+[0-9]+ +device +[0-9]+ +[0-9]+ +race, '
    assert_output --partial "data race under the CUDA memory model"
}

@test "04: the expected totals follow --blocks and --iters" {
    captured small
    assert_equal "$status" 0
    assert_equal "$(csv_get "$CAPTURED_CSV" expected section=counter name=peer)" $((7 * 256 * 3))
    assert_equal "$(csv_get "$CAPTURED_CSV" count section=counter name=both_block_aggregated)" $((2 * 7 * 256 * 3))
    assert_equal "$(csv_get "$CAPTURED_CSV" peer_ops section=counter name=both_block_aggregated)" 7
    run lab04_check_counters "$CAPTURED_CSV"
    assert_success
}

@test "04: the histogram is bit-exact and privatized beats naive peer atomics" {
    captured csv
    local name naive private
    for name in naive privatized; do
        assert_equal "$(csv_get "$CAPTURED_CSV" exact section=histogram name=$name)" 1
    done
    naive=$(csv_get "$CAPTURED_CSV" median_ms section=histogram name=naive)
    private=$(csv_get "$CAPTURED_CSV" median_ms section=histogram name=privatized)
    assert_float "$private" '<' "$naive"
}

@test "04: a remote atomic takes longer than a local one" {
    captured csv
    local local_ns peer_ns
    local_ns=$(csv_get "$CAPTURED_CSV" ns_per_op section=latency name=local)
    peer_ns=$(csv_get "$CAPTURED_CSV" ns_per_op section=latency name=peer)
    assert_float "$local_ns" '>' 0
    assert_float "$peer_ns" '>' "$local_ns"
}

@test "04: the chosen pair reports native atomics where the peer's atomics go" {
    captured csv
    local a b
    a=$(csv_get "$CAPTURED_CSV" value section=config name=gpu_a)
    b=$(csv_get "$CAPTURED_CSV" value section=config name=gpu_b)
    assert_equal "$(csv_get "$CAPTURED_CSV" value section=link name=native_atomics writers="$b" target="$a")" 1
    assert_equal "$(csv_get "$CAPTURED_CSV" value section=link name=can_access_peer writers="$b" target="$a")" 1
}

@test "04: the pair can be chosen with -a and -b, either way round" {
    require_p2p_pair
    captured swapped
    assert_equal "$status" 0
    assert_equal "$(csv_get "$CAPTURED_CSV" value section=config name=gpu_a)" "$P2P_B"
    assert_equal "$(csv_get "$CAPTURED_CSV" value section=config name=gpu_b)" "$P2P_A"
    run lab04_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "04: the table for people ends with a verdict for each claim" {
    captured table
    assert_output --partial "Chapter 4.3, claim by claim"
    for id in $LAB04_CLAIMS; do
        assert_output --regexp "claim $id: (holds|does_not_hold|not_testable): "
    done
    assert_output --regexp 'claim remote_atomics_100x_slower: [a-z_]+: one remote atomic takes [0-9]+ ns, a local one [0-9]+ ns'
    assert_output --partial "bar >= 10x on 2xH200"
}

@test "04: the counters both GPUs update use system-scope atomics (in the compiled PTX)" {
    # On NVLink a device-scope atomic from two GPUs may even count right,
    # so the run cannot show this mistake: the compiled code can.
    local nvcc=${NVCC:-nvcc} dir kernel body
    command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
    [ -x "$(command -v "$nvcc")" ] || skip "nvcc is not installed"
    dir=$([ "$LAB_BUILD" = student ] && echo labs || echo solutions)/04-peer-atomics
    run "$nvcc" -ptx -arch=compute_90 -I "$REPO_ROOT/common" -o "$BATS_TEST_TMPDIR/counters.ptx" \
        "$REPO_ROOT/$dir/counter_kernels.cu"
    assert_success
    for kernel in count_per_thread_kernel count_warp_aggregated_kernel count_block_aggregated_kernel; do
        # The kernel's body: from its .entry line to the closing brace.
        body=$(awk -v k="$kernel" '$0 ~ "\\.entry .*" k { found = 1 } found { print } found && /^}/ { exit }' \
            "$BATS_TEST_TMPDIR/counters.ptx")
        [ -n "$body" ] || fail "$kernel is not in $dir/counter_kernels.cu"
        grep -qE '(atom|red)\.global\.sys\.add' <<<"$body" ||
            fail "$kernel has no system-scope atomic add (atomicAdd_system): device scope is atomic only within one GPU"
    done
}
