#!/usr/bin/env bats
# Lab 06 — P2P between processes: IPC handles, an all-reduce by hand, and NCCL beside it.
# The program is a launcher: each experiment starts rank processes (the program again) and
# writes their results as rows. Host-side TODOs are unit-tested on any machine.

setup_file() {
    load helpers/lab
    capture ipc 06 --csv --quick --ranks 3 -t ipc
    capture raw 06 --csv --quick -t raw_pointer,barrier
    capture allreduce 06 --csv --quick --ranks 3 -t allreduce
    capture two 06 --csv --quick --ranks 2 -t allreduce --max-size 64K
}

setup() {
    load helpers/lab
    load helpers/lab06
}

# col RUN COLUMN FIELD=VALUE...: one column of a captured run's matching rows.
col() {
    local file="$BATS_FILE_TMPDIR/$1.out" column=$2
    shift 2
    csv_get "$file" "$column" "$@"
}

# --- on every machine -------------------------------------------------------

@test "06: --help explains the program, its options and its ranks, and exits 0" {
    lab_run 06 --help
    assert_success
    assert_output --partial "usage:"
    for option in --ranks --timeout --max-size --reps --seed --quick --csv --out; do
        assert_output --partial -- "$option"
    done
    assert_output --partial "GPU r mod the GPUs visible"
    assert_output --partial "NCCL_NVLS_ENABLE=0"
}

@test "06: --list names every experiment" {
    lab_run 06 --list
    assert_success
    for key in ipc raw_pointer barrier allreduce; do
        assert_line --regexp "^$key +[a-zA-Z0-9]"
    done
    refute_output --partial "nccl_probe"
}

@test "06: bad usage exits 2 with a one-line error naming the problem" {
    local -a cases=(
        "--no-such-option|unknown option '--no-such-option'"
        "extra|unexpected argument 'extra'"
        "-t no_such_key|no experiment 'no_such_key'"
        "--ranks 0|--ranks: 0 is out of range (1..8)"
        "--ranks 9|--ranks: 9 is out of range (1..8)"
        "--ranks two|--ranks: 'two' is not a whole number"
        "--timeout 0|--timeout: 0 is out of range"
        "--max-size 2G|--max-size: 2 GiB is out of range (4 KiB .. 1 GiB)"
        "--max-size 1K|--max-size: 1 KiB is out of range (4 KiB .. 1 GiB)"
    )
    local entry args want
    for entry in "${cases[@]}"; do
        args=${entry%%|*}
        want=${entry#*|}
        # shellcheck disable=SC2086 # the arguments are split on purpose
        lab_run 06 $args
        [ "$status" -eq 2 ] || fail "'$args' exited $status, not 2: $output"
        [[ "$output" == *"error: "*"$want"* ]] || fail "'$args' did not say '$want': $output"
        [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "'$args': not one error line: $output"
    done
}

@test "06: with no GPU visible it exits 77, says why, and starts no rank" {
    CUDA_VISIBLE_DEVICES= lab_run 06 --quick
    assert_equal "$status" 77
    assert_output --regexp "skipped: needs 1 GPU: no (CUDA GPU|NVIDIA driver)"
    refute_output --partial "rank "
}

# bats test_tags=points:1
@test "06: TODO 06.3 ipc_close of an empty peer succeeds and calls nothing (unit test, any machine)" {
    unit_run 06 06.3
    assert_success
}

# bats test_tags=points:1
@test "06: TODO 06.4 the ring schedule for every n 1..8, rank and step, and the ring simulated (unit test, any machine)" {
    unit_run 06 06.4
    assert_success
    assert_line "ok schedule_ring_simulated_n1_to_8"
}

# bats test_tags=points:1
@test "06: TODO 06.7 algbw and busbw as nccl-tests define them, bad times refused (unit test, any machine)" {
    unit_run 06 06.7
    assert_success
}

@test "06: the host tool judges the cross-process claim from rows, and reports the all-reduce" {
    local rows="$FIXTURES/lab06-rows-synthetic.csv" tool
    tool=$(host_tool 06) || fail "lab 06's host tool is not built"
    run "$tool" verdicts "$rows"
    assert_success
    assert_line --regexp '^claim,access_is_per_process,.*,holds,between processes \(loopback\)'
    run "$tool" report "$rows"
    assert_success
    assert_output --partial "| 4 KiB | 0.04 GB/s, 100.0 us (loopback) |"
    assert_output --partial "NCCL did not run: nccl: two ranks on one GPU"
    # Rank 0's own data through a raw pointer would mean the memory is seen: the claim fails.
    sed 's/,cudaErrorInvalidValue,/,peer_data,/' "$rows" >"$BATS_TEST_TMPDIR/seen.csv"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/seen.csv"
    assert_line --regexp '^claim,access_is_per_process,.*,does_not_hold,'
    # Without the raw_pointer rows it cannot be judged, and says why.
    grep -v '^raw_pointer,' "$rows" >"$BATS_TEST_TMPDIR/none.csv"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/none.csv"
    assert_line --regexp '^claim,access_is_per_process,.*,untested,no raw_pointer rows'
}

@test "06: P2P on one machine is judged size by size against host staging and NCCL; across machines it cannot be" {
    local rows="$FIXTURES/lab06-rows-synthetic-2gpu.csv" tool
    tool=$(host_tool 06) || fail "lab 06's host tool is not built"
    run "$tool" verdicts "$rows"
    assert_success
    assert_line --regexp '^claim,p2p_best_on_one_machine,.*,holds,P2P \(by hand or NCCL\) beat host staging at 2 of 2 sizes; by hand beat NCCL at: 4 KiB; NCCL won at: 1 MiB$'
    assert_line --regexp '^claim,no_p2p_across_machines,.*,untested,the course runs on one machine: .*NCCL ran here within this machine with 2_ranks'
    # Host staging faster than every P2P path at one size: the claim does not hold.
    rows_edit 'f("variant") == "host_staged" && f("bytes") == 4096 { set("median_us", 5.0) }' "$rows" >"$BATS_TEST_TMPDIR/staged.csv"
    run "$tool" verdicts "$BATS_TEST_TMPDIR/staged.csv"
    assert_line --regexp '^claim,p2p_best_on_one_machine,.*,does_not_hold,P2P \(by hand or NCCL\) beat host staging at 1 of 2 sizes'
    # Ranks sharing one GPU measure no link: untested, with the reason.
    run "$tool" verdicts "$FIXTURES/lab06-rows-synthetic.csv"
    assert_line --regexp '^claim,p2p_best_on_one_machine,.*,untested,needs two GPUs of one machine with one rank per GPU \(route peer\): this run.s ranks shared one GPU'
    assert_line --regexp '^claim,no_p2p_across_machines,.*,untested,.*NCCL did not run here: nccl: two ranks on one GPU'
}

@test "06: the sanitizers follow every rank process" {
    local tool
    for tool in memcheck racecheck initcheck synccheck; do
        grep -qE "^$tool: .*--target-processes all" "$REPO_ROOT/labs/06-ipc-allreduce/sanitize.conf" ||
            fail "sanitize.conf: $tool does not follow the rank processes"
    done
    # Peer buffers are written by another process: initcheck knows only through the NVTX marks.
    grep -qE '^initcheck: .*--nvtx yes' "$REPO_ROOT/labs/06-ipc-allreduce/sanitize.conf" ||
        fail "sanitize.conf: initcheck does not read the harness's NVTX marks of peer buffers"
}

# --- with a GPU ---------------------------------------------------------------

# bats test_tags=points:3
@test "06: TODOs 06.1, 06.2, 06.3: every rank reads every other rank's buffer through IPC handles" {
    captured ipc
    assert_success
    lab06_check_rows "$CAPTURED_CSV"
    run col ipc verified experiment=ipc variant=open_read_close
    assert_output 1
    run col ipc mode experiment=ipc variant=open_read_close
    assert_output 3_ranks
}

# bats test_tags=points:3
@test "06: TODOs 06.4, 06.5, 06.6, 06.7: every all-reduce is exact on every rank, odd sizes included" {
    captured allreduce
    assert_success
    lab06_check_rows "$CAPTURED_CSV"
    local algo bytes
    for algo in ring one_shot host_staged; do
        for bytes in 4096 4108 1048576 1048604; do
            run col allreduce verified experiment=allreduce variant="$algo" bytes="$bytes"
            [ "$output" = 1 ] || fail "$algo at $bytes bytes: verified '$output'"
        done
    done
}

@test "06: on one GPU the ranks share it as loopback, and NCCL's refusal or absence is said once" {
    captured two
    assert_success
    [ "$(gpu_count)" = 1 ] || skip "this machine has $(gpu_count) GPUs"
    run col two route experiment=allreduce variant=ring
    assert_output --regexp '^(loopback[[:space:]]*)+$'
    run col two detail experiment=allreduce variant=skipped mode=nccl
    assert_output --regexp '^nccl: (two ranks on one GPU: ncclCommInitRank: |NCCL was missing at build time)'
    run col two verified experiment=allreduce variant=nccl
    assert_output ""
}

@test "06: a raw device pointer is nothing in another process; a barrier across processes is timed" {
    captured raw
    assert_success
    lab06_check_rows "$CAPTURED_CSV"
    run col raw value experiment=raw_pointer variant=raw_pointer
    assert_output --regexp '^(cuda[A-Za-z]+|own_data|other_data)$'
    run col raw median_us experiment=barrier variant=host_barrier
    assert_float "$output" '>' 0
    run col raw median_us experiment=barrier variant=event_round
    assert_float "$output" '>' 0
}

@test "06: a rank killed mid-run is named; no rank is left, no half-written result file; the next run works" {
    require_gpus 1
    local out="$BATS_TEST_TMPDIR/out" program launcher victim
    program=$(lab_program 06)
    mkdir -p "$out"
    "$program" --csv -t allreduce --max-size 256M --out "$out" >"$BATS_TEST_TMPDIR/log" 2>&1 &
    launcher=$!
    victim=$(lab06_wait_for_rank "$launcher" allreduce 1) || stop_and_fail "$launcher" "$BATS_TEST_TMPDIR/log" "no rank 1 appeared"
    kill -KILL "$victim" 2>/dev/null || true # a rank that stopped at a TODO is gone already
    lab06_launcher_failed "$launcher" "$BATS_TEST_TMPDIR/log" "after rank 1 was killed"
    assert_output --partial "rank 1 killed by signal SIGKILL"
    lab06_no_rank_left "$launcher"
    lab06_whole_or_none "$out"
    rm -f "$out"/*
    # Interrupted: every rank stopped, no file, the launcher dies of the signal.
    "$program" --csv -t allreduce --max-size 256M --out "$out" >"$BATS_TEST_TMPDIR/log" 2>&1 &
    launcher=$!
    lab06_wait_for_rank "$launcher" allreduce 1 >/dev/null || stop_and_fail "$launcher" "$BATS_TEST_TMPDIR/log" "no rank 1 appeared"
    kill -INT "$launcher" 2>/dev/null || true
    lab06_launcher_failed "$launcher" "$BATS_TEST_TMPDIR/log" "after SIGINT"
    assert_output --partial "interrupted (SIGINT): stopped all 2 ranks"
    lab06_no_rank_left "$launcher"
    run ls -A "$out"
    assert_output ""
    # And the next run works.
    lab_run 06 --csv --quick -t ipc --out "$out"
    assert_success
    assert_file_exists "$out/06-ipc-allreduce.csv"
}

@test "06: a rank that stays silent past --timeout is named, and the run fails" {
    require_gpus 1
    local program launcher victim
    program=$(lab_program 06)
    "$program" --csv -t allreduce --max-size 64M --timeout 2 >"$BATS_TEST_TMPDIR/log" 2>&1 &
    launcher=$!
    victim=$(lab06_wait_for_rank "$launcher" allreduce 0) || stop_and_fail "$launcher" "$BATS_TEST_TMPDIR/log" "no rank 0 appeared"
    kill -STOP "$victim" 2>/dev/null || true # a rank that stopped at a TODO is gone already
    lab06_launcher_failed "$launcher" "$BATS_TEST_TMPDIR/log" "with rank 0 stopped"
    assert_output --regexp "timeout: no word from ranks? 0(, 1)? within 2 s"
    lab06_no_rank_left "$launcher"
}

@test "06: built without NCCL, the all-reduce says so and measures the rest" {
    require_gpus 1
    local build="$BATS_FILE_TMPDIR/no-nccl"
    make -s -C "$REPO_ROOT" BUILD="$build" LAB06_NCCL=no CUDA_ARCH="${CUDA_ARCH:-90}" \
        "$build/$LAB_BUILD/bin/06-ipc-allreduce" >"$BATS_TEST_TMPDIR/build.log" 2>&1 ||
        fail "the build without NCCL failed: $(tail -5 "$BATS_TEST_TMPDIR/build.log")"
    run ldd "$build/$LAB_BUILD/bin/06-ipc-allreduce"
    refute_output --partial libnccl
    run "$build/$LAB_BUILD/bin/06-ipc-allreduce" --csv --quick -t allreduce --max-size 64K
    fail_if_todo
    assert_success
    assert_line --regexp '^allreduce,skipped,,-1,-1,nccl,.*,skipped,nccl: NCCL was missing at build time'
    assert_line --regexp '^allreduce,ring,'
}

@test "06: make doctor says whether NCCL was found for this lab, and where, or how to get it" {
    local header want
    header=$(make -s -C "$REPO_ROOT" --no-print-directory -p -q CUDA_ARCH=90 2>/dev/null |
        sed -n 's/^LAB06_NCCL_HOME := //p')
    run env BUILD="$BUILD_DIR" DOCTOR_MAKE="make -C $REPO_ROOT CUDA_ARCH=90" "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    if [ -n "$header" ]; then
        want=$(sed -nE 's/^#define NCCL_(MAJOR|MINOR|PATCH) +([0-9]+).*/\2/p' "$header/include/nccl.h" | paste -sd.)
        assert_line --regexp "^ +NCCL ${want//./\\.} \\(header in ${header//./\\.}/include\\): ncclAllReduce runs beside"
    else
        assert_line --regexp '^ +NCCL not found \(looked in NCCL_HOME, .* and /usr\): .* install libnccl-dev or set NCCL_HOME$'
    fi
    # The line stands under lab 06's, and under no other lab's.
    run awk '/^== Labs on this machine/ { on = 1; next } on && /^  [0-9][0-9]-/ { lab = $1 } on && /NCCL/ { print lab }' <<<"$output"
    assert_output 06-ipc-allreduce
    run env BUILD="$BUILD_DIR" DOCTOR_MAKE="make -C $REPO_ROOT CUDA_ARCH=90 LAB06_NCCL=no" "$REPO_ROOT/tools/machine/doctor.sh"
    assert_line --regexp '^ +NCCL left out \(LAB06_NCCL=no\)$'
}

@test "06: the plot draws busbw from every recorded run, one line per algorithm and route that ran" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed"
    local fixture out algo route points drawn want n=0
    for fixture in $(recordings 06); do
        out="$BATS_TEST_TMPDIR/plots-$n"
        mkdir -p "$out"
        # After the script, the points it found for each line (N), as the key shows them.
        run gnuplot -e "csv='$fixture'; out='$out'" "$REPO_ROOT/labs/06-ipc-allreduce/harness/plots.gp" \
            -e 'do for [i = 1:12] { print sprintf("line %s %s %d", ALGO[(i - 1) / 3 + 1], ROUTE[(i - 1) % 3 + 1], N[i]) }'
        assert_success
        assert_file_not_empty "$out/busbw.png"
        [ "$(head -c 4 "$out/busbw.png" | tail -c 3)" = PNG ] || fail "$out/busbw.png is not a PNG"
        drawn=0
        while read -r _ algo route points; do
            want=$(csv_get "$fixture" gbps experiment=allreduce variant="$algo" route="$route" verified=1 | grep -c . || true)
            [ "$points" -eq "$want" ] || fail "$(basename "$fixture"): $algo over $route: $points points drawn, $want verified rows"
            drawn=$((drawn + points))
        done < <(grep '^line ' <<<"$output")
        [ "$drawn" -gt 0 ] || fail "$(basename "$fixture"): no all-reduce line drawn"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || fail "no recording of lab 06"
}
