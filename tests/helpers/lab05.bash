# Lab 05's run checker and bars: what every run's rows must say, live or
# recorded, for however many GPUs the run had. Load after helpers/lab; the
# checks read the rows by column name (rows_awk).

LAB05_EXPERIMENTS="link warmup ce_bandwidth sm_bandwidth memcpy_latency pointer_chase pingpong cpu_timer cpu_sync default_stream streams preferl1 pageable"

# The awk function the bars below share (rows_awk: f(name) the field of that
# column).
LAB05_AWK_LIB='
    function bad(msg) { print "lab05: " msg; failed = 1 }
'

# The rules every run's rows obey (times, bandwidths and peaks, sweeps,
# latency windows, pitfalls, link rows, claims) are the lab's host tool's
# (its check, from labs/05-p2p-performance/harness/plausible.c), with the
# recomputed verdicts. What stays here are a test's own bars: that a whole run
# has every experiment (a run of some, -t, is a run too), and the bars of a
# machine (18 NVLink 4 links, nvbandwidth's figures, the machine a recording
# names).

# lab05_check_rows FILE: the rules every run's rows obey, whole or partial,
# and the recomputed verdicts: the lab's host tool's check.
lab05_check_rows() {
    checked_by_host_tool 05 "$1" "line 1 is not the lab's result header: "
}

# lab05_check_coverage FILE [KEYS]: every experiment of KEYS (default: the
# twelve every run has had since the first recording) has rows.
lab05_check_coverage() {
    rows_awk -v want="${2:-${LAB05_EXPERIMENTS% pageable}}" "$LAB05_AWK_LIB"'
        { seen[f("experiment")] = 1 }
        END { n = split(want, k, " "); for (i = 1; i <= n; i++) if (!(k[i] in seen)) bad("experiment " k[i] " has no rows"); exit failed }' "$1"
}

# lab05_check_run FILE: a whole run: every rule of its rows and every
# experiment there; every broken rule is printed.
lab05_check_run() {
    local file=$1 status=0
    lab05_check_rows "$file" || status=1
    # coverage reads the rows by name: only a file whose line 1 is the header
    [ "$(head -n 1 "$file" 2>/dev/null)" = "$(head -n 1 "$FIXTURES/rows-header.csv")" ] || return 1
    lab05_check_coverage "$file" || status=1
    return "$status"
}

# lab05_nvlink4x18 FILE: true when the one pair is linked by 18 NVLink 4
# links according to NVML (the bars of lab05_check_bars apply).
lab05_nvlink4x18() {
    rows_awk '
        f("experiment") == "config" && f("variant") == "pair_a" { a = f("value") }
        f("experiment") == "config" && f("variant") == "pair_b" { b = f("value") }
        f("experiment") == "link" && f("variant") == "nvlink_gen" { gen[f("src")] = f("value") }
        f("experiment") == "link" && f("variant") == "nvlinks" { links[f("src") "->" f("dst")] = f("value") }
        END { exit !(b >= 0 && gen[a] == 4 && gen[b] == 4 && links[a "->" b] == 18) }' "$1"
}

# lab05_pair_nvlink4x18: true when this machine's first pair with P2P (the pair
# lab 05 picks) is linked by 18 NVLink 4 links according to NVML: decided from
# the machine alone (tools/gpu-query links), never from a run of the program.
lab05_pair_nvlink4x18() {
    local a b gen_a gen_b links
    read -r a b gen_a gen_b links < <("$BUILD_DIR/tools/gpu-query" links 2>/dev/null) || return 1
    [ "$gen_a" = 4 ] && [ "$gen_b" = 4 ] && [ "$links" = 18 ]
}

# lab05_check_bars FILE: the bars for a pair joined by 18 NVLink 4 links on the one
# pair at 256 MiB: copy engine >= 383 GB/s one way and >= 760 both ways;
# SM pull and push >= 360; a one-way ping-pong latency reported.
lab05_check_bars() {
    rows_awk "$LAB05_AWK_LIB"'
        f("experiment") == "config" && f("variant") == "pair_a" { a = f("value") }
        f("experiment") == "config" && f("variant") == "pair_b" { b = f("value") }
        f("bytes") == 268435456 && f("route") == "peer" { g[f("experiment"), f("variant"), f("src"), f("dst"), f("mode")] = f("gbps") }
        f("experiment") == "pingpong" && f("variant") == "write_remote" { pp = f("median_us") }
        END {
            lo = a < b ? a : b; hi = a < b ? b : a
            x = g["ce_bandwidth", "ce", a, b, "one_way"]; if (x + 0 < 383) bad("copy engine one way at 256 MiB: " x " GB/s < 383")
            x = g["ce_bandwidth", "ce", lo, hi, "both_ways"]; if (x + 0 < 760) bad("copy engine both ways at 256 MiB: " x " GB/s < 760")
            x = g["sm_bandwidth", "sm_pull", a, b, "one_way"]; if (x + 0 < 360) bad("SM pull at 256 MiB: " x " GB/s < 360")
            x = g["sm_bandwidth", "sm_push", a, b, "one_way"]; if (x + 0 < 360) bad("SM push at 256 MiB: " x " GB/s < 360")
            if (pp + 0 <= 0) bad("no one-way ping-pong latency")
            exit failed
        }' "$1"
}

# lab05_rows_of_its_machine RECORDING: true when a recording's rows describe
# the machine its name says it was made on (tests/fixtures/machines.tsv):
# gpu_count GPUs, GPU a named as the row's gpu, and the row's link as NVML saw
# it: "NVLink G ×N", generation G on both GPUs of the pair and N links between
# them; "PCIe GenG ×W", GPU a's host link at generation G and width W.
lab05_rows_of_its_machine() {
    local file=$1 count gpu link nvlink='^NVLink ([0-9]+) ×([0-9]+)$' pcie='^PCIe Gen([0-9]+) ×([0-9]+)$' kind="" g="" n=""
    count=$(recording_field "$file" gpu_count) && gpu=$(recording_field "$file" gpu) &&
        link=$(recording_field "$file" link) || return 1
    if [[ $link =~ $nvlink ]]; then
        kind=nvlink
    elif [[ $link =~ $pcie ]]; then
        kind=pcie
    else
        echo "$(basename "$file"): its machine's link '$link' is neither 'NVLink G ×N' nor 'PCIe GenG ×W'" >&2
        return 1
    fi
    g=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
    rows_awk -v count="$count" -v gpu="$gpu" -v kind="$kind" -v g="$g" -v n="$n" '
        f("experiment") == "config" && f("variant") == "gpus" { gpus = f("value") }
        f("experiment") == "config" && f("variant") == "pair_a" { a = f("value") }
        f("experiment") == "config" && f("variant") == "pair_b" { b = f("value") }
        f("experiment") == "machine" && f("variant") == "gpu" { name[f("src")] = f("value") }
        f("experiment") == "link" && f("variant") == "nvlink_gen" { nvgen[f("src")] = f("value") }
        f("experiment") == "link" && f("variant") == "nvlinks" { links[f("src") "->" f("dst")] = f("value") }
        f("experiment") == "link" && f("variant") == "pcie_gen" { gen[f("src")] = f("value") }
        f("experiment") == "link" && f("variant") == "pcie_width" { width[f("src")] = f("value") }
        END {
            ok = gpus == count && name[a] == gpu
            if (kind == "nvlink") ok = ok && b >= 0 && nvgen[a] == g && nvgen[b] == g && links[a "->" b] == n
            if (kind == "pcie") ok = ok && gen[a] == g && width[a] == n
            exit !ok
        }' "$file"
}

# lab05_check_host_bars FILE NVBANDWIDTH.json...: GPU a's host link (its best
# at 64 MiB or more, its least load latency; FILE may hold the rows of several
# runs) against the best of the nvbandwidth runs given on the same GPU
# (tools/report/nvbandwidth_rows.py): at least 0.98x of each copy-engine and SM
# transfer, a load from host memory at most 1.02x of nvbandwidth's latency.
# Where nvbandwidth's own runs of a transfer differ by more than 2%, the bar is
# its slower run, but never under 0.75x its best (a figure halved by a mistake
# stays caught): no tool is held closer to nvbandwidth than nvbandwidth is to
# itself (its host -> GPU copy while GPU -> host runs moves by up to a quarter).
# The testcase of each transfer is matched here on its own, not taken from the
# report's code.
lab05_check_host_bars() {
    local csv=$1 reference="$BATS_TEST_TMPDIR/nvbandwidth-rows.csv"
    shift
    python3 "$REPO_ROOT/tools/report/nvbandwidth_rows.py" "$@" >"$reference" || return 1
    rows_awk "$LAB05_AWK_LIB"'
        function dir() { return f("src") < 0 ? "h2d" : "d2h" }
        function gpu_a() { return (f("src") < 0 ? f("dst") : f("src")) == a }
        file == 1 && f("experiment") == "config" && f("variant") == "pair_a" { a = f("value") }
        file == 1 && f("route") == "host" && f("bytes") >= 67108864 && f("gbps") != "" { k = f("experiment") " " f("variant") " " dir() " " f("mode"); if (f("gbps") + 0 > best[k]) best[k] = f("gbps") + 0 }
        file == 1 && f("experiment") == "pointer_chase" && f("route") == "host" && f("mode") == "beyond_l2" && f("median_us") != "" && (lat == "" || f("median_us") * 1000 < lat) { lat = f("median_us") * 1000 }
        file == 2 && f("experiment") == "nvbandwidth" && f("gbps") != "" && gpu_a() { if (f("gbps") + 0 > want[f("variant")]) want[f("variant")] = f("gbps") + 0
            if (!(f("variant") in worst) || f("gbps") + 0 < worst[f("variant")]) worst[f("variant")] = f("gbps") + 0 }
        file == 2 && f("variant") == "host_device_latency_sm" && gpu_a() { if (nvb_lat == "" || f("median_us") * 1000 < nvb_lat) nvb_lat = f("median_us") * 1000 }
        function bar(k, testcase,   w, floor) {
            if (!(testcase in want)) { bad("nvbandwidth ran no " testcase " on GPU " a); return }
            w = 0.98 * want[testcase]; floor = worst[testcase] < w ? worst[testcase] : w
            if (floor < 0.75 * want[testcase]) floor = 0.75 * want[testcase]
            if (best[k] < floor)
                bad(k ": " best[k] + 0 " GB/s < " (floor < w ? floor ", the slower of nvbandwidth runs more than 2% apart (at least 0.75x its best)" : "0.98 x " want[testcase]) " (nvbandwidth " testcase ")")
        }
        END {
            bar("ce_bandwidth ce h2d one_way", "host_to_device_memcpy_ce")
            bar("ce_bandwidth ce d2h one_way", "device_to_host_memcpy_ce")
            bar("ce_bandwidth ce h2d each_way", "host_to_device_bidirectional_memcpy_ce")
            bar("ce_bandwidth ce d2h each_way", "device_to_host_bidirectional_memcpy_ce")
            bar("sm_bandwidth sm_pull h2d one_way", "host_to_device_memcpy_sm")
            bar("sm_bandwidth sm_push d2h one_way", "device_to_host_memcpy_sm")
            if (nvb_lat == "") bad("nvbandwidth ran no host_device_latency_sm on GPU " a)
            else if (lat == "" || lat > 1.02 * nvb_lat) bad("a load from host memory takes " lat " ns > 1.02 x " nvb_lat " (nvbandwidth)")
            exit failed
        }' "$csv" "$reference"
}

