#!/usr/bin/env bats
# Lab 01 — peer checks (chapter 4.1). The program runs once per experiment
# (so each TODO's tests stand alone) and once whole.

setup_file() {
    load helpers/lab
    capture run 01 --csv
    capture table 01
    local key
    for key in gpus matrix attributes flags self_access enable_twice one_way disable_twice \
        explicit_memory; do
        capture "$key" 01 --csv -t "$key"
    done
}

setup() {
    load helpers/lab
    load helpers/lab01
}

# row_value FIELD=VALUE...: the value column of the captured run's matching rows.
row_value() {
    csv_get "$CAPTURED_CSV" value "$@"
}

# assert_all_verified EXPERIMENT: the harness confirmed its rows (an
# observation of the harness's own, verified -1, needs no confirming).
assert_all_verified() {
    run csv_get "$CAPTURED_CSV" verified experiment="$1"
    grep -qx 1 <<<"$output" || fail "no confirmed $1 rows"
    ! grep -qx 0 <<<"$output" ||
        fail "$1 has rows the harness did not confirm: $(rows_awk -v e="$1" 'f("experiment") == e && f("verified") == "0"' "$CAPTURED_CSV" | head -3)"
}

# --- on every machine -------------------------------------------------------

@test "01: --help explains the program and exits 0" {
    lab_run 01 --help
    assert_success
    assert_output --partial "usage:"
    assert_output --partial "--csv"
    assert_output --partial "-t, --test KEY"
}

@test "01: --list names every experiment" {
    lab_run 01 --list
    assert_success
    for key in gpus matrix attributes flags self_access enable_twice one_way disable_twice; do
        assert_line --regexp "^$key +[a-zA-Z]"
    done
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

@test "01: an unknown experiment key exits 2 naming it" {
    lab_run 01 -t no_such_key
    assert_equal "$status" 2
    assert_output --partial "no experiment 'no_such_key'"
}

@test "01: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 01
    assert_equal "$status" 77
    assert_output --regexp "skipped: needs [12] GPUs?: no (CUDA GPU|NVIDIA driver)"
}

# bats test_tags=points:1
@test "01: TODO 01.1 describe_gpu hands back the error of a device that does not exist (unit test, any machine)" {
    unit_run 01 01.1
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.2 check_access answers 0 when the call fails, and clears its error (unit test, any machine)" {
    unit_run 01 01.2
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.3 query_attributes hands back the error of a missing device (unit test, any machine)" {
    unit_run 01 01.3
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.4 try_nonzero_flags makes no call when the device cannot be made current (unit test, any machine)" {
    unit_run 01 01.4
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.5 enable_twice makes no call when the device cannot be made current (unit test, any machine)" {
    unit_run 01 01.5
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.6 disable_twice makes no call when the device cannot be made current (unit test, any machine)" {
    unit_run 01 01.6
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.1 describe_gpu describes each GPU as itself, keeps the current device and the error state, and returns the failing call's error (stand-in runtime, any machine)" {
    stand_in_run 01 01.1
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.2 check_access asks every cell, the diagonal too, answers with its own call's result and leaves nothing behind (stand-in runtime, any machine)" {
    stand_in_run 01 01.2
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.3 query_attributes asks source first in both directions and returns the first failing query's error (stand-in runtime, any machine)" {
    stand_in_run 01 01.3
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.4 try_nonzero_flags asks flags 1 from dev, on a pair and on a GPU itself, and leaves dev current (stand-in runtime, any machine)" {
    stand_in_run 01 01.4
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.5 enable_twice records both answers, turns on dev -> peer and no other direction, and leaves dev current (stand-in runtime, any machine)" {
    stand_in_run 01 01.5
    assert_success
}

# bats test_tags=points:1
@test "01: TODO 01.6 disable_twice records both answers, turns dev -> peer off and leaves dev current (stand-in runtime, any machine)" {
    stand_in_run 01 01.6
    assert_success
}

# --- the recorded runs (every machine; tests/fixtures/machines.tsv names theirs) ---

@test "01: every recorded run passes the run checker (its rows, floors and ceilings included)" {
    assert_checker_accepts_all 01 lab01_check_run
}

@test "01: the run checker rejects every broken edit of the recorded run" {
    assert_checker_rejects_all 01 lab01_check_run
}

@test "01: the host tool recomputes the verdicts recorded on a pair of GPUs" {
    local fx
    fx=$(recording 01 gpu_count=2)
    run "$(host_tool 01)" check "$fx"
    assert_success
    run "$(host_tool 01)" verdicts "$fx"
    assert_line --regexp '^claim,flags_must_be_zero,.*,holds,'
    assert_line --regexp '^claim,access_is_mutual,.*,does_not_hold,'
}

@test "01: the report section draws the recorded P2P matrix as a Markdown table" {
    local fx
    fx=$(recording 01 gpu_count=2)
    run "$(host_tool 01)" report "$fx"
    assert_success
    assert_line '| | GPU 0 | GPU 1 |'
    assert_line '| **GPU 0** | 0 (itself) | 1 |'
    assert_line '| **GPU 1** | 1 | 0 (itself) |'
    assert_output --partial "On the diagonal a GPU is asked about itself"
    assert_line '| 0 → 1 | 0 | 1 | 1 | 1 |'
}

# --- with one GPU or more -------------------------------------------------------

# bats test_tags=points:1
@test "01: TODO 01.1: every GPU is described as the runtime describes it" {
    captured gpus
    assert_success
    assert_all_verified gpus
    local id cc name
    while read -r id cc name; do
        assert_equal "$(row_value experiment=gpus variant=name src="$id")" "$name"
        assert_equal "$(row_value experiment=gpus variant=compute_capability src="$id")" "$cc"
        run row_value experiment=gpus variant=pci_bus_id src="$id"
        assert_output --regexp '^[0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]+\.[0-9a-fA-F]+$'
    done < <("$BUILD_DIR/tools/gpu-query" list)
}

# bats test_tags=points:1
@test "01: TODO 01.1: with two GPUs or more each is described as itself, PCI id included (two GPUs)" {
    require_gpus 2
    captured gpus
    assert_success
    assert_all_verified gpus
    run row_value experiment=gpus variant=pci_bus_id
    [ "$(sort -u <<<"$output" | wc -l)" -eq "${#lines[@]}" ] || fail "two GPUs share a PCI id: $output"
}

# bats test_tags=points:1
@test "01: TODO 01.2: the access matrix covers every ordered pair, diagonal included, as the runtime answers" {
    captured matrix
    assert_success
    assert_all_verified matrix
    local n row i=0
    n=$(gpu_count)
    run row_value experiment=matrix
    assert_equal "${#lines[@]}" $((n * n))
    while read -r -a row; do
        for ((j = 0; j < n; j++)); do
            run row_value experiment=matrix src=$i dst=$j
            if [ "$i" -eq "$j" ]; then assert_output 0; else assert_output "${row[$j]}"; fi
        done
        i=$((i + 1))
    done < <("$BUILD_DIR/tools/gpu-query" matrix)
}

# bats test_tags=points:1
@test "01: TODO 01.4: flags 1 asked on each GPU itself is answered as the harness's own call is" {
    captured flags
    assert_success
    assert_all_verified flags
    for ((i = 0; i < $(gpu_count); i++)); do
        run row_value experiment=flags route=loopback src=$i dst=$i
        assert_output --regexp '^cudaError[A-Za-z]+$'
    done
}

# bats test_tags=points:1
@test "01: TODO 01.5 and 01.6: enabling and disabling a GPU's access to itself answer as the runtime does" {
    captured self_access
    assert_success
    assert_all_verified self_access
    for variant in enable_first enable_again disable_first disable_again; do
        run row_value experiment=self_access variant=$variant src=0 dst=0
        assert_output --regexp '^cuda[A-Za-z]+$'
    done
}

# bats test_tags=points:1
@test "01: the whole run succeeds and its rows pass the run checker" {
    captured run
    assert_success
    run lab01_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "01: the table for people shows each experiment and a verdict for every claim" {
    captured table
    assert_success
    run cat "$CAPTURED_CSV"
    assert_line matrix
    assert_line gpus
    for id in flags_must_be_zero access_is_mutual uva_required physical_link_required; do
        assert_output --regexp "  $id +4\.1 += (holds|does_not_hold|untested)"
    done
}

# bats test_tags=points:1
@test "01: with one GPU visible the pair experiments are skipped once each, with the reason" {
    require_gpus 1
    local out="$BATS_TEST_TMPDIR/one.csv" err="$BATS_TEST_TMPDIR/one.err" rc=0
    CUDA_VISIBLE_DEVICES=0 "$(lab_program 01)" --csv >"$out" 2>"$err" || rc=$?
    output=$(cat "$err") fail_if_todo
    assert_equal "$rc" 0
    for key in attributes enable_twice one_way disable_twice explicit_memory; do
        run grep -cE "skipped $key: needs 2 GPUs[,;] this machine has 1" "$err"
        assert_output 1
    done
    CAPTURED_CSV=$out
    assert_all_verified matrix
    assert_all_verified self_access
    run row_value experiment=claim variant=access_is_mutual
    assert_output untested
}

@test "01: a GPU id beyond the machine's GPUs exits 2 naming it" {
    require_gpus 1
    lab_run 01 -a 99
    assert_equal "$status" 2
    assert_output --partial "GPU 99 does not exist"
}

# --- with two GPUs or more --------------------------------------------------------

# bats test_tags=points:1
@test "01: TODO 01.3: every ordered pair of distinct GPUs has its four P2P attributes, as the runtime reports them" {
    require_gpus 2
    captured attributes
    assert_success
    assert_all_verified attributes
    local n row i=0
    n=$(gpu_count)
    run row_value experiment=attributes
    assert_equal "${#lines[@]}" $((4 * n * (n - 1)))
    while read -r -a row; do
        for ((j = 0; j < n; j++)); do
            [ "$i" -eq "$j" ] && continue
            run row_value experiment=attributes variant=access_supported src=$i dst=$j
            assert_output "${row[$j]}"
        done
        i=$((i + 1))
    done < <("$BUILD_DIR/tools/gpu-query" matrix)
}

# bats test_tags=points:1
@test "01: TODO 01.4: flags 1 on a pair is answered with a named error, and the flags claim holds" {
    require_p2p_pair
    captured flags
    assert_success
    run row_value experiment=flags route=peer src="$P2P_A" dst="$P2P_B"
    assert_output --regexp '^cudaError[A-Za-z]+$'
    run row_value experiment=claim variant=flags_must_be_zero
    assert_output holds
}

# bats test_tags=points:1
@test "01: TODO 01.5: enabling with flags 0 succeeds, and the second enable is the harmless already-enabled" {
    require_p2p_pair
    captured enable_twice
    assert_success
    assert_all_verified enable_twice
    run row_value experiment=enable_twice variant=enable_first src="$P2P_A" dst="$P2P_B"
    assert_output cudaSuccess
    run row_value experiment=enable_twice variant=enable_again src="$P2P_A" dst="$P2P_B"
    assert_output cudaErrorPeerAccessAlreadyEnabled
}

# bats test_tags=points:1
@test "01: TODO 01.5: access is one-way: right after a -> b is enabled, b -> a is still off" {
    require_p2p_pair
    captured one_way
    assert_success
    assert_all_verified one_way
    run row_value experiment=one_way variant=reverse_disable
    [ -n "$output" ] || fail "no probe row"
    ! grep -qvx cudaErrorPeerAccessNotEnabled <<<"$output" || fail "a reverse direction was on: $output"
    run row_value experiment=claim variant=access_is_mutual
    assert_output does_not_hold
}

# bats test_tags=points:1
@test "01: TODO 01.6: access is disabled again, and disabling twice says so" {
    require_p2p_pair
    captured disable_twice
    assert_success
    assert_all_verified disable_twice
    run row_value experiment=disable_twice variant=disable_first src="$P2P_A" dst="$P2P_B"
    assert_output cudaSuccess
    run row_value experiment=disable_twice variant=disable_again src="$P2P_A" dst="$P2P_B"
    assert_output cudaErrorPeerAccessNotEnabled
}

@test "01: a peer's buffer stays its owner's device memory with access on, and is gone once freed" {
    require_p2p_pair
    captured explicit_memory
    assert_success
    assert_all_verified explicit_memory
    run row_value experiment=explicit_memory variant=owner_with_access src="$P2P_B" dst="$P2P_A"
    assert_output "device $P2P_B"
    run row_value experiment=explicit_memory variant=after_owner_free src="$P2P_B" dst="$P2P_A"
    refute_output --regexp '^device '
    run row_value experiment=claim variant=memory_still_explicit
    assert_output holds
}

@test "01: the explicit-memory claim is judged from its rows: kept on every direction, or not" {
    local file=$BATS_TEST_TMPDIR/explicit.csv fx
    fx=$(recording 01 gpu_count=2)
    { grep -v '^claim,' "$fx"
      echo "explicit_memory,owner_with_access,peer,1,0,,0,0,0,,,,,,1,device 1,"
      echo "explicit_memory,after_owner_free,peer,1,0,,0,0,0,,,,,,-1,cudaErrorInvalidValue,"; } >"$file"
    run "$(host_tool 01)" verdicts "$file"
    assert_line --regexp '^claim,memory_still_explicit,.*,holds,on 1 of 1 directions .*saw cudaErrorInvalidValue$'
    # the figures of the deck's headline (labs/01-peer-checks/headlines.tsv)
    run "$(host_tool 01)" figures "$file"
    assert_line "memory_still_explicit,kept,1"
    assert_line "memory_still_explicit,pairs,1"
    sed -i 's/^explicit_memory,owner_with_access,peer,1,0,,0,0,0,,,,,,1,device 1,$/explicit_memory,owner_with_access,peer,1,0,,0,0,0,,,,,,0,managed,/' "$file"
    run "$(host_tool 01)" verdicts "$file"
    assert_line --regexp '^claim,memory_still_explicit,.*,does_not_hold,on 0 of 1 directions '
}
