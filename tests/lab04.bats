#!/usr/bin/env bats
# Lab 04 — atomics on far memory: scopes, correctness and cost (chapter 4.3).
# The program runs once whole and once per group of experiments, so that
# each TODO's tests stand alone as far as the experiments allow.

setup_file() {
    load helpers/lab
    capture run 04 --csv --quick
    capture counter 04 --csv --quick -t link,counter
    capture peer 04 --csv --quick -t link,counter-peer
    capture hist 04 --csv --quick -t histogram
    capture hist_peer 04 --csv --quick -t histogram-peer
    capture chain 04 --csv --quick -t latency,latency-peer
    capture mixed 04 --csv --quick -t link,cpu-gpu
    capture small 04 --csv --quick --reps 2 --blocks 7 --threads 33 --iters 3 --host-iters 2 \
        -t counter,counter-peer
    local pair a b
    if pair=$("$BUILD_DIR/tools/gpu-query" pair 2>/dev/null); then
        read -r a b <<<"$pair"
        capture swapped 04 --csv --quick --reps 2 -a "$b" -b "$a" -t link,counter-peer
    fi
}

setup() {
    load helpers/lab
    load helpers/lab04
}

# col COLUMN FIELD=VALUE...: one column of the captured run's matching rows.
col() {
    local column=$1
    shift
    csv_get "$CAPTURED_CSV" "$column" "$@"
}

# need_rows EXPERIMENT: skip, with the program's reason, when it did not run.
need_rows() {
    local why
    why=$(col detail experiment="$1" variant=skipped)
    [ -z "$why" ] || skip "$1: $why"
    [ -n "$(col variant experiment="$1")" ] || fail "no $1 rows"
}

# detail_of ROW-FILTERS... KEY: the number after KEY= in the matching row's detail.
detail_of() {
    local key=${*: -1}
    col detail "${@:1:$#-1}" | grep -oE "(^| )$key=-?[0-9.]+" | head -1 | sed 's/.*=//'
}

# assert_exact EXPERIMENT VARIANT ROUTE MODE: verified, and counted what it should.
assert_exact() {
    local verified value count
    verified=$(col verified experiment="$1" variant="$2" route="$3" mode="$4")
    value=$(col value experiment="$1" variant="$2" route="$3" mode="$4")
    count=$(col count experiment="$1" variant="$2" route="$3" mode="$4")
    [ -n "$count" ] || fail "no $1 $2 $3 $4 row"
    [ "$verified" = 1 ] && [ "$value" = "$count" ] ||
        fail "$1 $2 $3 $4: counted $value, expected $count (verified $verified): $(col detail experiment="$1" variant="$2" route="$3" mode="$4")"
}

# --- on every machine -------------------------------------------------------

@test "04: --help explains the program and its options and exits 0" {
    lab_run 04 --help
    assert_success
    assert_output --partial "usage:"
    for option in --gpu-a --gpu-b --reps --iters --host-iters --blocks --threads --hist-size \
        --host-hist-size --chain-steps --seed --quick --csv --simulate-no-native-atomics; do
        assert_output --partial -- "$option"
    done
}

@test "04: --list names every experiment" {
    lab_run 04 --list
    assert_success
    for key in link counter counter-peer histogram histogram-peer latency latency-peer cpu-gpu; do
        assert_line --regexp "^$key +[a-zA-Z0-9]"
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

@test "04: an unknown experiment key exits 2 naming it" {
    lab_run 04 -t no_such_key
    assert_equal "$status" 2
    assert_output --partial "no experiment 'no_such_key'"
}

@test "04: bad option values exit 2 with a one-line error naming the problem" {
    local -a cases=(
        "--reps|needs a value"
        "--reps abc|--reps: 'abc' is not a whole number"
        "--iters -3|--iters: -3 is out of range"
        "--reps 0|--reps: 0 is out of range"
        "--blocks 0|--blocks: 0 is out of range"
        "--threads 1025|--threads: 1025 is out of range"
        "--host-iters 0|--host-iters: 0 is out of range"
        "--chain-steps 1e3|--chain-steps: '1e3' is not a whole number"
        "--hist-size 4Q|--hist-size: unknown unit in '4Q'"
        "--hist-size 0|--hist-size: size '0' must be greater than zero"
        "--hist-size 2G|--hist-size: 2 GiB is out of range (64 B .. 1 GiB)"
        "--host-hist-size 32|--host-hist-size: 32 B is out of range (64 B .. 1 GiB)"
        "--seed -1|--seed: -1 is out of range"
        "-a|option '-a' needs a value"
        "-a x -b 1|--gpu-a: 'x' is not a whole number"
        "-a 0 -b 0|the two GPUs must differ"
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

@test "04: with no GPU visible it exits 77 and says why" {
    CUDA_VISIBLE_DEVICES= lab_run 04 --quick
    assert_equal "$status" 77
    assert_output --regexp "skipped: needs 1 GPU: no (CUDA GPU|NVIDIA driver)"
    # The reason is the least the chosen experiments need, whatever their order.
    CUDA_VISIBLE_DEVICES= lab_run 04 -t cpu-gpu,latency-peer
    assert_equal "$status" 77
    assert_output --regexp "skipped: needs 1 GPU: no (CUDA GPU|NVIDIA driver)"
    CUDA_VISIBLE_DEVICES= lab_run 04 -t latency-peer
    assert_output --regexp "skipped: needs 2 GPUs: no (CUDA GPU|NVIDIA driver)"
}

# bats test_tags=points:1
@test "04: TODO 04.8 the CPU adds with one atomic per increment, and stops when told (unit test, any machine)" {
    unit_run 04 04.8
    assert_success
    # Two threads at once, under ThreadSanitizer: a race fails on any number of CPUs.
    threads_run 04 04.8
    assert_success
}

# bats test_tags=points:1,compile-only
@test "04: TODOs 04.2, 04.3, 04.4 and 04.7: the atomics both GPUs reach are system-scope (in the compiled PTX)" {
    # On NVLink a device-scope atomic from two GPUs may even count right, so
    # the run cannot show this mistake: the compiled code can.
    local nvcc=${NVCC:-nvcc} dir file shown kernel body why
    # A lab that make grade could not build scores nothing, this test too.
    why=$(lab_unbuilt 04) && fail "$why"
    command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
    [ -x "$(command -v "$nvcc")" ] || skip "nvcc is not installed"
    # The file the student program was built from: STUDENT_ROOT (make grade
    # sets it to the tree being graded) holds the student's labs/NN-*/student/.
    if [ "$LAB_BUILD" = student ]; then
        dir=${STUDENT_ROOT:-labs}/04-peer-atomics/student
    else
        dir=solutions/04-peer-atomics
    fi
    [[ "$dir" = /* ]] || dir=$REPO_ROOT/$dir
    file=$dir/atomic_kernels.cu
    shown=${file#"$REPO_ROOT/"}
    run "$nvcc" -ptx -arch=compute_90 -I "$REPO_ROOT/common" -I "$REPO_ROOT/labs/04-peer-atomics/harness" \
        -o "$BATS_TEST_TMPDIR/kernels.ptx" "$file"
    assert_success
    for kernel in count_per_thread_kernel count_warp_aggregated_kernel count_block_aggregated_kernel \
        atomic_chain_kernel; do
        # The kernel's body: from its .entry line to the closing brace.
        body=$(awk -v k="$kernel" '$0 ~ "\\.entry .*" k { found = 1 } found { print } found && /^}/ { exit }' \
            "$BATS_TEST_TMPDIR/kernels.ptx")
        [ -n "$body" ] || fail "$kernel is not in $shown"
        if ! grep -qE '(atom|red)\.(global\.)?sys\.add' <<<"$body"; then
            # An untouched skeleton has no atomics at all: that is unfinished
            # work, named as the programs name it (file:line).
            local at
            at=$(grep -nE -m1 'LAB_TODO\("04\.[2347]"\)' "$file" || true)
            [ -z "$at" ] || output=$(todo_message "$(sed -E 's/.*"(04\.[0-9]+)".*/\1/' <<<"$at")" "$shown" "${at%%:*}")
            fail_if_todo
            fail "$kernel has no system-scope atomic add (atomicAdd_system): device scope is atomic only within one GPU"
        fi
    done
}

# --- the recorded runs (every machine; tests/fixtures/machines.tsv names theirs) ---

@test "04: each recording's command records the reference binary's rows in one line" {
    local fx cmd
    [ -n "$(recordings 04)" ] || fail "lab 04 has no recording (tests/fixtures/lab04-SUFFIX.csv)"
    for fx in $(recordings 04); do
        cmd=$(recording_command "$fx")
        assert_file_exists "$cmd"
        assert_equal "$(wc -l <"$cmd")" 1
        run cat "$cmd"
        assert_output --regexp '^build/ref/bin/04-peer-atomics .*(--csv|--out DIR)'
    done
}

@test "04: every recorded run passes the run checker (its rows, floors and ceilings included)" {
    assert_checker_accepts_all 04 lab04_check_run
}

@test "04: the run checker rejects every broken edit of the recorded run" {
    assert_checker_rejects_all 04 lab04_check_run
}

@test "04: the host tool recomputes the verdicts recorded on a pair of GPUs" {
    local fx
    fx=$(recording 04 gpu_count=2)
    run "$(host_tool 04)" check "$fx"
    assert_success
    run "$(host_tool 04)" verdicts "$fx"
    assert_line --regexp '^claim,pcie_atomics_100x_slower,.*,untested,no chain of atomics both locally and over the host link'
    # Only one half of the NVLink claim was measured: no host link in that recording.
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,untested,half of the claim is measured: one atomic across the peer link takes 878 ns against 208 ns locally: 4\.2x .*: "much slower than local" holds; "better than PCIe" needs a chain of atomics over the host link'
    assert_line --regexp '^claim,cross_gpu_atomics_dreadful,.*,untested,the chapter explains it by PCIe: .*this run has no host-link counter; across the peer link \(which the chapter calls better\) the same counter takes 2\.8x fewer'
    assert_line --regexp '^claim,avoid_cross_gpu_atomics,.*,holds,the same 4325376 per-thread atomics take 8803 us .* 3172 us locally: 2\.8x .* cost 1\.05x'
    assert_line --regexp '^claim,gather_or_coarse_sync,.*,holds,.*exact in every run; 20\.6 us; 500x faster .* 0\.95x the time'
    assert_line --regexp '^claim,pcie_atomics_need_hw_support,.*,untested,'
}

@test "04: the host tool judges the recorded run plus host-link rows by the host link" {
    local file=$BATS_TEST_TMPDIR/with-host.csv fx
    fx=$(recording 04 gpu_count=2)
    { cat "$fx"
      echo "latency,device,host,0,-1,,0,4096,5,90000,89000,91000,,,1,4096,ns_per_atomic=21972.7 slots=1024"
      echo "link,host_native_atomics,host,0,-1,,0,0,0,,,,,,-1,0,"
      echo "cpu-gpu,system,host,0,-1,gpu_and_cpu,0,1000,0,,,,,,-1,990,runs=3 gpu=800 cpu=200 lost=10 overlapped_runs=3 host_native_atomics=0 not promised"
    } >"$file"
    run "$(host_tool 04)" verdicts "$file"
    assert_line --regexp '^claim,pcie_atomics_100x_slower,.*,holds,one atomic across the host link \(PCIe\) takes 21973 ns against 208 ns locally: 105\.5x; about two orders'
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,holds,.*4\.2x .*; the host link \(PCIe\) takes 21973 ns: the peer link is better'
    assert_line --regexp '^claim,pcie_atomics_need_hw_support,.*,holds,.*10 of 1000 increments were lost'
    sed -i 's/lost=10 /lost=0 /; s/,990,runs/,1000,runs/' "$file"
    run "$(host_tool 04)" verdicts "$file"
    assert_line --regexp '^claim,pcie_atomics_need_hw_support,.*,untested,.*lost none of 1000 increments'
}

@test "04: a peer direction without native atomics makes the hardware claim hold, with the figures its headline shows" {
    local file=$BATS_TEST_TMPDIR/no-peer-atomics.csv fx
    fx=$(recording 04 gpu_count=2)
    # Synthetic: the pair's scan finds one of its two directions with access without native atomics.
    rows_edit 'f("experiment") == "link" && f("variant") == "directions_without_native_atomics" { set("value", 1); set("detail", "0->1") }' \
        "$fx" >"$file"
    run "$(host_tool 04)" verdicts "$file"
    assert_line --regexp '^claim,pcie_atomics_need_hw_support,.*,holds,1 of 2 directions with peer access carry no native atomics \(0->1\)'
    # the deck's headline of that verdict has its figures (labs/04-peer-atomics/headlines.tsv)
    run "$(host_tool 04)" figures "$file"
    assert_line "pcie_atomics_need_hw_support,without,1"
    assert_line "pcie_atomics_need_hw_support,with_access,2"
}

@test "04: the NVLink claim holds only with both halves measured, and fails on either" {
    local tool file=$BATS_TEST_TMPDIR/halves.csv fx
    tool=$(host_tool 04)
    fx=$(recording 04 gpu_count=2)
    # Synthetic: the run recorded on a pair of GPUs plus a host-link chain of 1162 ns per atomic
    # (the one-GPU recording's): the peer link (878 ns) is better, and much slower than local (208 ns).
    { cat "$fx"
      echo "latency,device,host,0,-1,,0,4096,5,4758.6,4757.2,4764.7,,,1,4096,ns_per_atomic=1161.8 slots=1024"
    } >"$file"
    run "$tool" verdicts "$file"
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,holds,.*: 4\.2x .*; the host link \(PCIe\) takes 1162 ns: the peer link is better$'
    # A host link faster than the peer link fails the first half ...
    sed -i 's/^latency,device,host,0,-1,,0,4096,5,4758.6,/latency,device,host,0,-1,,0,4096,5,2000,/' "$file"
    run "$tool" verdicts "$file"
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,does_not_hold,.*the host link \(PCIe\) takes 488 ns: the peer link is not better$'
    # ... and a peer link below 2x local fails the second, even with the host link unmeasured.
    rows_edit 'f("experiment") == "latency-peer" && f("variant") == "device" { set("median_us", 1200) }' "$fx" >"$file"
    run "$tool" verdicts "$file"
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,does_not_hold,.*: 1\.4x \(bar for much slower: 2x\): not much slower than local; the host link \(PCIe\) was not measured'
}

@test "04: cross-GPU atomics are dreadful only at 10x fewer increments than locally" {
    local tool fx file=$BATS_TEST_TMPDIR/dreadful.csv
    tool=$(host_tool 04)
    fx=$(recording 04 gpu_count=1)
    # Synthetic: a one-GPU recording's host-link counter 5x slower than the local one (the
    # local rate over 5, as the count over the median time): not dreadful.
    rows_edit 'f("experiment") == "counter" && f("variant") == "device" && f("mode") == "one" && f("route") == "loopback" { local = f("count") / f("median_us") }
        f("experiment") == "counter" && f("variant") == "device" && f("mode") == "one" && f("route") == "host" { set("median_us", f("count") / (local / 5)) }' "$fx" >"$file"
    run "$tool" verdicts "$file"
    assert_line --regexp '^claim,cross_gpu_atomics_dreadful,.*,does_not_hold,.*locally: 5x fewer \(bar 10x'
}

@test "04: a run recorded on one GPU on PCIe judges the chapter's PCIe latency on the host link" {
    local fx host local ratio
    fx=$(recording 04 gpu_count=1 link_kind=PCIe)
    # The expected figures, computed here from the chain rows: median us * 1000 / steps.
    host=$(csv_get "$fx" median_us experiment=latency variant=device route=host)
    local=$(csv_get "$fx" median_us experiment=latency variant=device route=loopback)
    ratio=$(awk -v h="$host" -v l="$local" 'BEGIN { printf "%.1f", h / l }')
    run "$(host_tool 04)" verdicts "$fx"
    assert_line --regexp "^claim,pcie_atomics_100x_slower,.*,$(awk -v r="$ratio" 'BEGIN { print (r >= 31.6 ? "holds" : "does_not_hold") }'),one atomic across the host link \\(PCIe\\) takes $(awk -v h="$host" 'BEGIN { printf "%.0f", h * 1000 / 4096 }') ns against $(awk -v l="$local" 'BEGIN { printf "%.0f", l * 1000 / 4096 }') ns locally: ${ratio//./\\.}x; .*x fewer"
    assert_line --regexp '^claim,nvlink_atomics_much_slower,.*,untested,the claim is about a peer link'
    # The chapter's atomicAdd on one counter, across the host link (PCIe): increments per second
    # against the same counter locally (count / median time).
    local fewer
    fewer=$(rows_awk 'f("experiment") == "counter" && f("variant") == "device" && f("mode") == "one" { r[f("route")] = f("count") / f("median_us") } END { printf "%.0f", r["loopback"] / r["host"] }' "$fx")
    assert_line --regexp "^claim,cross_gpu_atomics_dreadful,.*,$(awk -v f="$fewer" 'BEGIN { print (f >= 10 ? "holds" : "does_not_hold") }'),every thread adding 1 to one counter \\(the chapter.s code\\) across the host link \\(PCIe\\) makes .* locally: ${fewer}x fewer \\(bar 10x"
    # The same run with a host-link chain 100x the local one holds.
    local slow=$BATS_TEST_TMPDIR/slow-host.csv
    rows_edit -v l="$local" 'f("experiment") == "latency" && f("variant") == "device" && f("route") == "host" { set("median_us", l * 100) }' \
        "$fx" >"$slow"
    run "$(host_tool 04)" verdicts "$slow"
    assert_line --regexp '^claim,pcie_atomics_100x_slower,.*,holds,.*: 100\.0x; about two orders'
}

@test "04: the report section of the run recorded on a pair of GPUs has the atomics tables" {
    local fx
    fx=$(recording 04 gpu_count=2)
    run "$(host_tool 04)" report "$fx"
    assert_success
    assert_line "### Counters: every variant issues the same increments"
    assert_line '| device | peer | GPUs 0+1 -> GPU 0 | 8650752 | 8650752 | 4325376 | 10316.224 | 8.39e+08 | race, exact anyway |'
    assert_line '| block_aggregated | peer | GPUs 0+1 -> GPU 0 | 8650752 | 1056 | 528 | 21.632 | 4e+11 | exact |'
    assert_line "### Histogram: naive vs privatized"
    assert_line '| privatized | peer | GPUs 0+1 -> GPU 0 | 64 MiB | 0 | 48.1 | 1396.24 | 420.4x | yes |'
    assert_line "### Latency of one atomic (a chain of dependent atomics)"
    assert_line '| peer | device | GPU 1 -> GPU 0 | 4096 | 878.3 [878.1, 878.6] | 4.2 |'
    assert_line "### The GPU and the CPU on one host counter"
    assert_output --partial "GPU 1 -> GPU 0: 1 (cudaDevP2PAttrNativeAtomicSupported)"
}

# --- with one GPU or more -------------------------------------------------------

# bats test_tags=points:1
@test "04: the whole run succeeds and its rows pass the run checker" {
    captured run
    assert_success
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.2, 04.3, 04.4: every counter counts exactly in GPU memory and in host memory" {
    captured counter
    assert_success
    for route in loopback host; do
        for variant in device system warp_aggregated block_aggregated; do
            assert_exact counter "$variant" "$route" one
        done
    done
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.3, 04.4: blocks of 33 threads (a warp of one lane) count exactly" {
    captured small
    assert_success
    assert_equal "$(col count experiment=counter variant=device route=loopback)" $((7 * 33 * 3))
    assert_equal "$(col count experiment=counter variant=device route=host)" $((7 * 33 * 2))
    assert_equal "$(detail_of experiment=counter variant=warp_aggregated route=loopback atomics)" $((7 * 2 * 3))
    assert_equal "$(detail_of experiment=counter variant=block_aggregated route=host atomics)" 7
    for route in loopback host; do
        for variant in warp_aggregated block_aggregated; do
            assert_exact counter "$variant" "$route" one
        done
    done
    if [ -n "$(col count experiment=counter-peer variant=block_aggregated mode=both)" ]; then
        assert_exact counter-peer block_aggregated peer both
        assert_equal "$(col value experiment=counter-peer variant=block_aggregated mode=both)" $((2 * 7 * 33 * 3))
    fi
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.1: two GPUs with system-scope atomics reach the exact total" {
    require_p2p_pair
    captured peer
    assert_success
    need_rows counter-peer
    local one both
    for variant in device system; do assert_exact counter-peer "$variant" peer one; done
    for variant in system warp_aggregated block_aggregated; do assert_exact counter-peer "$variant" peer both; done
    one=$(col value experiment=counter-peer variant=system mode=one)
    both=$(col value experiment=counter-peer variant=system mode=both)
    assert_equal "$both" $((2 * one))
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: device scope across two GPUs is reported as a race, never as correct" {
    require_p2p_pair
    captured peer
    assert_success
    need_rows counter-peer
    assert_equal "$(col verified experiment=counter-peer variant=device mode=both)" -1
    run col value experiment=counter-peer variant=device mode=both
    assert_output --regexp '^[0-9]+$'
    run col detail experiment=counter-peer variant=device mode=both
    assert_output --partial "a data race under the CUDA memory model"
}

# bats test_tags=points:1
@test "04: TODO 04.5: counting per GPU and gathering once is exact, with no atomic across the link" {
    require_p2p_pair
    captured peer
    assert_success
    need_rows counter-peer
    assert_exact counter-peer local_then_copy peer both
    assert_equal "$(detail_of experiment=counter-peer variant=local_then_copy across)" 0
}

# bats test_tags=points:1
@test "04: TODO 04.6: the privatized histogram is bit-exact and beats naive atomics, local and over the host link" {
    captured hist
    assert_success
    local naive private
    for route in loopback host; do
        for variant in naive privatized; do
            assert_equal "$(col verified experiment=histogram variant=$variant route=$route)" 1
        done
        naive=$(col median_us experiment=histogram variant=naive route=$route)
        private=$(col median_us experiment=histogram variant=privatized route=$route)
        assert_float "$private" '<' "$naive"
    done
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.6 with 04.1 and 04.5: the two-GPU histogram is bit-exact and privatized beats naive" {
    require_p2p_pair
    captured hist_peer
    assert_success
    need_rows histogram-peer
    for variant in naive privatized; do
        assert_equal "$(col verified experiment=histogram-peer variant=$variant)" 1
    done
    assert_float "$(col median_us experiment=histogram-peer variant=privatized)" '<' \
        "$(col median_us experiment=histogram-peer variant=naive)"
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.7: an atomic over the host link or the peer link takes longer than a local one" {
    captured chain
    assert_success
    local local_ns far_ns
    for scope in device system; do
        assert_equal "$(col verified experiment=latency variant=$scope route=loopback)" 1
        assert_equal "$(col verified experiment=latency variant=$scope route=host)" 1
    done
    local_ns=$(detail_of experiment=latency variant=device route=loopback ns_per_atomic)
    far_ns=$(detail_of experiment=latency variant=device route=host ns_per_atomic)
    assert_float "$local_ns" '>' 0
    assert_float "$far_ns" '>' "$local_ns"
    if [ -n "$(col count experiment=latency-peer variant=device)" ]; then
        assert_float "$(detail_of experiment=latency-peer variant=device ns_per_atomic)" '>' "$local_ns"
    fi
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: TODO 04.8 with 04.2: the GPU and the CPU both add to one host counter, checked where it is promised" {
    captured mixed
    assert_success
    local native cpu
    native=$(col value experiment=link variant=host_native_atomics)
    [[ "$native" =~ ^[01]$ ]] || fail "no host_native_atomics row: $native"
    for scope in system device; do
        cpu=$(detail_of experiment=cpu-gpu variant=$scope cpu)
        assert_float "$cpu" '>' 0
        assert_equal "$(detail_of experiment=cpu-gpu variant=$scope host_native_atomics)" "$native"
    done
    if [ "$native" = 1 ]; then
        assert_exact cpu-gpu system host gpu_and_cpu
    else
        assert_equal "$(col verified experiment=cpu-gpu variant=system)" -1
    fi
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

# bats test_tags=points:1
@test "04: the link rows give the host link's and the chosen pair's native atomics" {
    require_p2p_pair
    captured peer
    assert_success
    run col value experiment=link variant=host_native_atomics route=host
    assert_output --regexp '^[01]$'
    need_rows counter-peer
    local a b
    a=$(col dst experiment=counter-peer variant=system mode=one)
    b=$(col src experiment=counter-peer variant=system mode=one)
    assert_equal "$(col value experiment=link variant=native_atomics src="$b" dst="$a")" 1
    assert_equal "$(col value experiment=link variant=can_access_peer src="$b" dst="$a")" 1
}

# bats test_tags=points:1
@test "04: the pair can be chosen with -a and -b, either way round" {
    require_p2p_pair
    captured swapped
    assert_success
    assert_equal "$(col dst experiment=counter-peer variant=system mode=both)" "$P2P_B"
    assert_equal "$(col src experiment=counter-peer variant=system mode=both)" "$P2P_A"
    run lab04_check_run "$CAPTURED_CSV"
    assert_success
}

@test "04: a pair without native atomics skips the peer experiments with the reason (exit 77)" {
    require_p2p_pair
    lab_run 04 --quick --simulate-no-native-atomics -t counter-peer,histogram-peer,latency-peer
    assert_equal "$status" 77
    assert_output --partial "skipped: no native atomics from GPU"
    assert_output --partial "cudaDevP2PAttrNativeAtomicSupported"
    assert_output --partial "simulated by --simulate-no-native-atomics"
    assert_output --partial "GPU 0 -> GPU 1: cudaDeviceGetP2PAtomicCapabilities reports no native capability bit for integer add (0) while cudaDevP2PAttrNativeAtomicSupported is 1. The two queries disagree here; the peer counters, exact in every run, side with the attribute."
    # Each direction is read against its own attribute: with 1 -> 0's at 0 they agree there.
    local one_way=$BATS_TEST_TMPDIR/one-direction.csv fx
    fx=$(recording 04 gpu_count=2)
    sed 's/^link,native_atomics,peer,1,0,,0,0,0,,,,,,-1,1,/link,native_atomics,peer,1,0,,0,0,0,,,,,,-1,0,/' \
        "$fx" >"$one_way"
    run "$(host_tool 04)" report "$one_way"
    assert_output --partial "GPU 0 -> GPU 1: cudaDeviceGetP2PAtomicCapabilities reports"
    refute_output --partial "GPU 1 -> GPU 0: cudaDeviceGetP2PAtomicCapabilities reports"
}

# bats test_tags=points:1
@test "04: with one GPU visible the peer experiments are skipped with the reason and the rest runs" {
    require_gpus 1
    CUDA_VISIBLE_DEVICES=0 lab_run 04 --csv --quick -t link,counter,counter-peer
    assert_success
    assert_output --partial "skipped counter-peer: needs 2 GPUs; this machine has 1"
    assert_line --regexp '^counter,block_aggregated,host,0,-1,one,'
    assert_line --regexp '^claim,avoid_cross_gpu_atomics,.*,untested,the claim is about atomics between two GPUs'
}
