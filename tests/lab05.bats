#!/usr/bin/env bats
# Lab 05 — measuring P2P performance (chapter 4.4).

load helpers/lab
load helpers/lab05

setup_file() {
    load helpers/lab
    # One quick run of every experiment: the table on stdout, the CSV in out/.
    capture quick 05 --quick --out "$BATS_FILE_TMPDIR/out"
    capture link_csv 05 --csv -t link
}

# The CSV the quick run wrote (after `captured quick`).
quick_csv() {
    echo "$BATS_FILE_TMPDIR/out/lab05.csv"
}

# --- on every machine -------------------------------------------------------

@test "05: --help explains the program and exits 0" {
    lab_run 05 --help
    assert_success
    assert_output --partial "usage:"
    for opt in --list --test --quick --csv --out --reps --min-size --max-size --gpu-a --gpu-b; do
        assert_output --partial -- "$opt"
    done
    assert_output --partial "plots.gp"
}

@test "05: --list shows every experiment of the registry, without a GPU" {
    CUDA_VISIBLE_DEVICES= lab_run 05 --list
    assert_success
    for key in $LAB05_EXPERIMENTS; do
        grep -qE "^$key +[^ ]" <<<"$output" || fail "--list does not show $key"
    done
    [ "${#lines[@]}" -eq "$(wc -w <<<"$LAB05_EXPERIMENTS")" ] || fail "expected one line per experiment"
}

@test "05: bad options exit 2 with a one-line error naming the problem" {
    local -a cases=(
        "--no-such-option|unknown option '--no-such-option'"
        "--reps|option '--reps' needs a value"
        "--reps many|--reps: 'many' is not a whole number"
        "--reps -3|--reps: -3 is out of range"
        "--reps 0|--reps: 0 is out of range"
        "--max-size 4Q|--max-size: unknown unit in '4Q'"
        "--min-size 0|--min-size: size '0' must be greater than zero"
        "--min-size -1K|--min-size: '-1K' is not a size"
        "--max-size 8G|--max-size: 8589934592 bytes is more than 4GiB"
        "--min-size 2M --max-size 1M|is larger than --max-size"
        "-t nonsense|--test: unknown experiment 'nonsense'"
        "--gpu-a x|--gpu-a: 'x' is not a whole number"
        "-a 0 -b 0|the two GPUs must differ"
        "stray|unexpected argument 'stray'"
    )
    local case args want
    for case in "${cases[@]}"; do
        args=${case%%|*}
        want=${case#*|}
        # shellcheck disable=SC2086
        lab_run 05 $args
        [ "$status" -eq 2 ] || fail "'$args' exited $status, expected 2: $output"
        assert_output --partial "$want"
        assert_output --partial "Try '05-p2p-performance --help'"
    done
}

@test "05: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 05 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 0"
}

@test "05: with one GPU visible it exits 77 and says why" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 05 --quick
    assert_equal "$status" 77
    assert_output --partial "skipped: needs 2 GPUs, this machine has 1"
}

@test "05: the sanity checks accept a well-formed CSV (synthetic)" {
    run lab05_check_csv "$FIXTURES/lab05-synthetic-ok.csv"
    assert_success
    run lab05_nvlink4x18 "$FIXTURES/lab05-synthetic-ok.csv"
    assert_success
    run lab05_check_bars "$FIXTURES/lab05-synthetic-ok.csv"
    assert_success
}

@test "05: the sanity checks reject broken CSVs, naming the broken rule" {
    local -a cases=(
        "header|the header is not the lab's schema"
        "times|min <= median <= max does not hold"
        "unverified|not verified"
        "above-peak|is above the peak"
        "gbps-mismatch|is not bytes / time"
        "falling|falls below 0.7 x"
        "p2p-slower|does not beat P2P off"
        "missing-pair|ce_bandwidth covers 1 ordered pairs"
        "latency-order|a peer load (0.3 us) is not slower than a local one"
        "cpu-timer|shows no discrepancy with events"
        "legacy-stream|are not serialized against non-blocking streams"
        "claim-verdict|claim cpu_timers_mislead has verdict maybe"
        "missing-claim|claim preferl1_doubles_bandwidth appears 0 times"
        "missing-experiment|experiment streams has no rows"
        "link|no link path row for 1->0"
    )
    local case name want
    for case in "${cases[@]}"; do
        name=${case%%|*}
        want=${case#*|}
        assert_file_exists "$FIXTURES/lab05-broken-$name.csv"
        run lab05_check_csv "$FIXTURES/lab05-broken-$name.csv"
        [ "$status" -ne 0 ] || fail "lab05-broken-$name.csv was accepted"
        assert_output --partial "$want"
    done
}

@test "05: the bars are not met by a run that misses them" {
    run lab05_check_bars "$FIXTURES/lab05-broken-p2p-slower.csv"
    assert_failure
    assert_output --partial "copy engine both ways at 256 MiB"
}

@test "05: the recorded 2xH200 CSV passes the sanity checks" {
    [ -f "$FIXTURES/lab05-run.csv" ] || fail "fixture missing: record it with $(cat "$FIXTURES/lab05.cmd") > tests/fixtures/lab05-run.csv"
    run lab05_check_csv "$FIXTURES/lab05-run.csv"
    assert_success
    grep -q '^link,name,0,,.*H200' "$FIXTURES/lab05-run.csv" || fail "the recording does not come from an H200"
}

@test "05: the recorded 2xH200 CSV meets the issue's bars where NVML saw 18 NVLink 4 links" {
    [ -f "$FIXTURES/lab05-run.csv" ] || fail "fixture missing: record it with $(cat "$FIXTURES/lab05.cmd") > tests/fixtures/lab05-run.csv"
    lab05_nvlink4x18 "$FIXTURES/lab05-run.csv" || skip "the recording's NVML did not report 18 NVLink 4 links"
    run lab05_check_bars "$FIXTURES/lab05-run.csv"
    assert_success
}

@test "05: the plot script draws bandwidth and latency from a CSV" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed"
    local out="$BATS_TEST_TMPDIR/plots"
    mkdir -p "$out"
    run gnuplot -e "csv='$FIXTURES/lab05-synthetic-ok.csv'; out='$out'" \
        "$REPO_ROOT/solutions/05-p2p-performance/plots.gp"
    assert_success
    assert_file_not_empty "$out/bandwidth.png"
    assert_file_not_empty "$out/latency.png"
}

# --- with two or more GPUs ----------------------------------------------------

@test "05: the quick run succeeds and writes its CSV files" {
    captured quick
    assert_equal "$status" 0
    assert_file_exists "$(quick_csv)"
    for key in $LAB05_EXPERIMENTS; do
        grep -q "^$key," "$(quick_csv)" || continue
        assert_file_exists "$BATS_FILE_TMPDIR/out/$key.csv"
    done
}

@test "05: the live CSV passes the sanity checks (times, peak, sweeps, latency, pitfalls, claims)" {
    captured quick
    run lab05_check_csv "$(quick_csv)"
    assert_success
}

@test "05: every ordered pair is swept, one way, with every size" {
    captured quick
    local n sizes
    n=$(gpu_count)
    sizes=$(csv_get "$(quick_csv)" bytes experiment=ce_bandwidth src=0 dst=1 mode=one_way peer=0 | wc -l)
    [ "$sizes" -ge 5 ] || fail "only $sizes sizes"
    for ((i = 0; i < n; i++)); do
        for ((j = 0; j < n; j++)); do
            [ "$i" -eq "$j" ] && continue
            run csv_get "$(quick_csv)" gbps experiment=ce_bandwidth src=$i dst=$j mode=one_way peer=0
            assert_equal "${#lines[@]}" "$sizes"
        done
    done
}

@test "05: P2P on beats P2P off at 16 MiB and above" {
    require_p2p_pair
    captured quick
    local on off size
    for size in 16777216 67108864 268435456; do
        on=$(csv_get "$(quick_csv)" gbps experiment=ce_bandwidth src=$P2P_A dst=$P2P_B mode=one_way peer=1 bytes=$size)
        off=$(csv_get "$(quick_csv)" gbps experiment=ce_bandwidth src=$P2P_A dst=$P2P_B mode=one_way peer=0 bytes=$size)
        assert_float "$on" '>' "$off"
    done
}

@test "05: SM pull and push and the three latencies are measured where P2P exists" {
    require_p2p_pair
    captured quick
    for v in sm_pull sm_push; do
        run csv_get "$(quick_csv)" gbps experiment=sm_bandwidth variant=$v src=$P2P_A dst=$P2P_B mode=one_way bytes=268435456
        assert_float "$output" '>' 0
    done
    run csv_get "$(quick_csv)" median_us experiment=memcpy_latency variant=ce_queued src=$P2P_A dst=$P2P_B peer=1
    assert_float "$output" '>' 0
    run csv_get "$(quick_csv)" median_us experiment=pointer_chase mode=peer src=$P2P_A dst=$P2P_B
    assert_float "$output" '>' 0
    run csv_get "$(quick_csv)" median_us experiment=pingpong variant=write_remote
    assert_float "${lines[0]}" '>' 0
}

@test "05: the CPU-timer pitfall shows its discrepancy" {
    captured quick
    local event nosync
    event=$(csv_get "$(quick_csv)" gbps experiment=cpu_timer variant=event)
    nosync=$(csv_get "$(quick_csv)" gbps experiment=cpu_timer variant=host_no_sync)
    assert_float "$nosync" '>' "$event"
    run csv_get "$(quick_csv)" value experiment=claim variant=cpu_timers_mislead
    assert_output --regexp '^(holds|does_not_hold)$'
}

@test "05: the table for people shows the chapter's table and every claim with a verdict" {
    captured quick
    assert_output --partial "Chapter 4.4's table of link speeds"
    assert_output --partial "Chapter 4.4, claim by claim"
    for id in $LAB05_CLAIMS; do
        assert_output --regexp "claim $id: (holds|does_not_hold|not_testable): "
    done
}

@test "05: the plots are drawn from the live CSV" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed"
    captured quick
    local out="$BATS_TEST_TMPDIR/plots"
    mkdir -p "$out"
    run gnuplot -e "csv='$(quick_csv)'; out='$out'" "$REPO_ROOT/solutions/05-p2p-performance/plots.gp"
    assert_success
    assert_file_not_empty "$out/bandwidth.png"
    assert_file_not_empty "$out/latency.png"
}

@test "05: the bars of the issue hold where NVML reports 18 NVLink 4 links" {
    captured quick
    lab05_nvlink4x18 "$(quick_csv)" || skip "NVML does not report 18 NVLink 4 links for the pair (or nvml.h was missing at build time)"
    run lab05_check_bars "$(quick_csv)"
    assert_success
}

@test "05: --csv -t runs one experiment and prints only CSV" {
    captured link_csv
    assert_equal "$status" 0
    assert_equal "$(head -n 1 "$CAPTURED_CSV")" "$LAB05_HEADER"
    run awk -F, 'NR > 1 && $1 != "config" && $1 != "link" && $1 != "claim" { print $1 }' "$CAPTURED_CSV"
    assert_output ""
    run lab05_check_link "$CAPTURED_CSV"
    assert_success
}

@test "05: two runs at once on the same GPUs both finish and verify every measurement" {
    require_p2p_pair
    local program run pids=() rc
    program=$(lab_program 05)
    # Slower than one run alone, and timing rules may not hold while they
    # share the link; what must hold is that both finish and verify their data.
    for run in first second; do
        "$program" --quick --out "$BATS_TEST_TMPDIR/$run" >"$BATS_TEST_TMPDIR/$run.log" 2>&1 &
        pids+=($!)
    done
    for run in first second; do
        rc=0
        wait "${pids[0]}" || rc=$?
        pids=("${pids[@]:1}")
        output=$(cat "$BATS_TEST_TMPDIR/$run.log")
        fail_if_todo
        [ "$rc" -eq 0 ] || fail "the $run run exited $rc: $(tail -n 5 "$BATS_TEST_TMPDIR/$run.log")"
        run lab05_check_header "$BATS_TEST_TMPDIR/$run/lab05.csv"
        assert_success
        run lab05_check_times "$BATS_TEST_TMPDIR/$run/lab05.csv" # every timed row verified
        assert_success
        run lab05_check_coverage "$BATS_TEST_TMPDIR/$run/lab05.csv"
        assert_success
    done
}

@test "05: an interrupted run leaves the previous CSV files as they were, and no part of new ones" {
    require_p2p_pair
    local program out="$BATS_TEST_TMPDIR/out" pid waited=0
    program=$(lab_program 05)
    mkdir -p "$out"
    echo "the previous run" >"$out/lab05.csv"
    "$program" --quick --progress --out "$out" >/dev/null 2>"$BATS_TEST_TMPDIR/err" &
    pid=$!
    until grep -q 'running sm_bandwidth' "$BATS_TEST_TMPDIR/err"; do
        sleep 0.1
        waited=$((waited + 1))
        if [ "$waited" -ge 600 ] || ! kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null
            output=$(cat "$BATS_TEST_TMPDIR/err")
            fail_if_todo
            fail "the run never reached sm_bandwidth: $output"
        fi
    done
    kill -TERM "$pid"
    wait "$pid" || true
    assert_equal "$(cat "$out/lab05.csv")" "the previous run"
    run find "$out" -type f ! -name lab05.csv
    assert_output ""
}
