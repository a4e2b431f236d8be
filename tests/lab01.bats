#!/usr/bin/env bats
# Lab 01 — peer checks (chapter 4.1).

load helpers/lab

setup_file() {
    load helpers/lab
    capture csv 01 --csv
    capture table 01
}

# --- on every machine -------------------------------------------------------

@test "01: --help explains the program and exits 0" {
    lab_run 01 --help
    assert_success
    assert_output --partial "usage:"
    assert_output --partial "--csv"
}

@test "01: an unknown option exits 2 with usage" {
    lab_run 01 --no-such-option
    assert_equal "$status" 2
    assert_output --partial "Try '01-peer-checks --help'"
}

@test "01: a stray argument exits 2 naming it" {
    lab_run 01 extra
    assert_equal "$status" 2
    assert_output --partial "unexpected argument 'extra'"
}

@test "01: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 01
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 0"
}

@test "01: with one GPU visible it exits 77 and says why" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 01
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 1"
}

# --- with two or more GPUs ----------------------------------------------------

@test "01: the run succeeds" {
    captured csv
    assert_equal "$status" 0
    captured table
    assert_equal "$status" 0
}

@test "01: every GPU is listed with name, compute capability, UVA and PCI id" {
    captured csv
    local n
    n=$(csv_get "$CAPTURED_CSV" value section=summary field=gpus)
    assert_equal "$n" "$(gpu_count)"
    for ((i = 0; i < n; i++)); do
        for field in name compute_capability unified_addressing pci_bus_id; do
            run csv_get "$CAPTURED_CSV" value section=gpu gpu=$i field=$field
            assert_success
            [ -n "$output" ] || fail "GPU $i has no $field"
        done
        run csv_get "$CAPTURED_CSV" value section=gpu gpu=$i field=compute_capability
        assert_output --regexp '^[0-9]+\.[0-9]+$'
    done
}

@test "01: the access matrix has every ordered pair, diagonal included" {
    captured csv
    local n
    n=$(gpu_count)
    run csv_get "$CAPTURED_CSV" value section=access field=can_access_peer
    assert_equal "${#lines[@]}" $((n * n))
    for ((i = 0; i < n; i++)); do
        for ((j = 0; j < n; j++)); do
            run csv_get "$CAPTURED_CSV" value section=access gpu=$i peer=$j field=can_access_peer
            assert_output --regexp '^[01]$'
        done
    done
}

@test "01: the matrix agrees with an independent cudaDeviceCanAccessPeer query" {
    captured csv
    local n row i=0
    n=$(gpu_count)
    while read -r -a row; do
        for ((j = 0; j < n; j++)); do
            [ "$i" -eq "$j" ] && continue
            run csv_get "$CAPTURED_CSV" value section=access gpu=$i peer=$j field=can_access_peer
            assert_output "${row[$j]}"
        done
        i=$((i + 1))
    done < <("$BUILD_DIR/tools/gpu-query" matrix)
}

@test "01: the diagonal is handled: a GPU is not reported as its own peer" {
    captured csv
    local n
    n=$(gpu_count)
    for ((i = 0; i < n; i++)); do
        run csv_get "$CAPTURED_CSV" value section=access gpu=$i peer=$i field=can_access_peer
        assert_output 0
        run csv_get "$CAPTURED_CSV" value section=attribute gpu=$i peer=$i field=performance_rank
        assert_output ""
    done
}

@test "01: every ordered pair of distinct GPUs has its four P2P attributes" {
    captured csv
    local n
    n=$(gpu_count)
    for ((i = 0; i < n; i++)); do
        for ((j = 0; j < n; j++)); do
            [ "$i" -eq "$j" ] && continue
            for field in performance_rank access_supported native_atomic_supported cuda_array_access_supported; do
                run csv_get "$CAPTURED_CSV" value section=attribute gpu=$i peer=$j field=$field
                assert_output --regexp '^-?[0-9]+$'
            done
            # The attribute and cudaDeviceCanAccessPeer describe the same thing.
            local can supported
            can=$(csv_get "$CAPTURED_CSV" value section=access gpu=$i peer=$j field=can_access_peer)
            supported=$(csv_get "$CAPTURED_CSV" value section=attribute gpu=$i peer=$j field=access_supported)
            assert_equal "$supported" "$can"
        done
    done
}

@test "01: enabling access with flags 0 succeeds; enabling twice is benign" {
    require_p2p_pair
    captured csv
    run csv_get "$CAPTURED_CSV" value section=enable gpu=$P2P_A peer=$P2P_B field=first
    assert_output cudaSuccess
    run csv_get "$CAPTURED_CSV" value section=enable gpu=$P2P_A peer=$P2P_B field=again
    assert_output cudaErrorPeerAccessAlreadyEnabled
}

@test "01: a non-zero flags argument is rejected with a named error" {
    require_p2p_pair
    captured csv
    run csv_get "$CAPTURED_CSV" value section=enable gpu=$P2P_A peer=$P2P_B field=flags_1
    assert_output --regexp '^cudaError[A-Za-z]+$'
    refute_output cudaSuccess
    run csv_get "$CAPTURED_CSV" value section=claim field=flags_must_be_zero
    assert_output holds
}

@test "01: access is one-way: the reverse direction is not enabled by the first" {
    require_p2p_pair
    captured csv
    run csv_get "$CAPTURED_CSV" value section=enable gpu=$P2P_A peer=$P2P_B field=reverse_disable
    assert_output cudaErrorPeerAccessNotEnabled
    run csv_get "$CAPTURED_CSV" value section=claim field=access_is_mutual
    assert_output does_not_hold
}

@test "01: access is disabled again at the end, and disabling twice says so" {
    require_p2p_pair
    captured csv
    run csv_get "$CAPTURED_CSV" value section=disable gpu=$P2P_A peer=$P2P_B field=first
    assert_output cudaSuccess
    run csv_get "$CAPTURED_CSV" value section=disable gpu=$P2P_A peer=$P2P_B field=again
    assert_output cudaErrorPeerAccessNotEnabled
}

@test "01: the table for people shows the matrix and a verdict for each claim" {
    captured table
    assert_output --partial "cudaDeviceCanAccessPeer (row = device, column = peer)"
    for id in flags_must_be_zero access_is_mutual uva_required physical_link_required; do
        assert_output --regexp "claim $id: (holds|does_not_hold|not_testable): "
    done
}

# --- recorded output (every machine) ------------------------------------------

@test "01: the live CSV passes the schema checks" {
    load helpers/lab01
    captured csv
    run lab01_check_csv "$CAPTURED_CSV"
    assert_success
}

@test "01: the recorded 2xH200 CSV passes the schema checks" {
    load helpers/lab01
    assert_file_exists "$FIXTURES/lab01-run.csv"
    run lab01_check_csv "$FIXTURES/lab01-run.csv"
    assert_success
}

@test "01: the schema checks reject broken output" {
    load helpers/lab01
    local broken="$BATS_TEST_TMPDIR/broken.csv"
    # A missing pair.
    grep -v '^access,1,0,can_access_peer' "$FIXTURES/lab01-run.csv" >"$broken"
    run lab01_check_csv "$broken"
    assert_failure
    assert_output --partial "no access row for 1->0"
    # A GPU that is its own peer.
    sed 's/^access,0,0,can_access_peer,0$/access,0,0,can_access_peer,1/' "$FIXTURES/lab01-run.csv" >"$broken"
    run lab01_check_csv "$broken"
    assert_failure
    assert_output --partial "its own peer"
    # A non-zero flags value that was accepted.
    sed 's/^enable,0,1,flags_1,.*/enable,0,1,flags_1,cudaSuccess/' "$FIXTURES/lab01-run.csv" >"$broken"
    run lab01_check_csv "$broken"
    assert_failure
    assert_output --partial "flags=1 accepted"
    # A verdict that is not one of the three words.
    sed 's/^claim,,,access_is_mutual,.*/claim,,,access_is_mutual,maybe/' "$FIXTURES/lab01-run.csv" >"$broken"
    run lab01_check_csv "$broken"
    assert_failure
    assert_output --partial "verdict maybe"
}
