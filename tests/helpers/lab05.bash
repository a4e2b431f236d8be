# Lab 05's run checker and bars: what every run's rows must say, live or
# recorded, for however many GPUs the run had. Load after helpers/lab; the
# checks read the rows by column name (rows_awk).

LAB05_EXPERIMENTS="link warmup ce_bandwidth sm_bandwidth memcpy_latency pointer_chase pingpong cpu_timer cpu_sync default_stream streams preferl1 pageable"

# The awk functions every check below shares.
LAB05_AWK_LIB='
    function bad(msg) { print "lab05: " msg; failed = 1 }
    function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
    function copies() { return f("mode") == "both_ways" ? 2 : f("experiment") == "streams" ? f("value") + 0 : 1 }
    function row() { return f("experiment") " " f("variant") " " f("route") " " f("src") "->" f("dst") (f("mode") != "" ? " " f("mode") : "") " " f("bytes") " B" }
'

# lab05_check_times FILE: every timed row: numbers, 0 < min <= median <= max,
# verified; GB/s = bytes x copies / median, never above the link's peak
# (the fastest sample included) except the two pitfalls that time nothing,
# and, from 64 MiB, never below a fifth of it for the copy sweeps.
lab05_check_times() {
    rows_awk "$LAB05_AWK_LIB"'
        f("reps") == 0 { next }
        {
            if (!num(f("median_us")) || !num(f("min_us")) || !num(f("max_us"))) { bad(row() ": a time is not a number"); next }
            if (f("min_us") + 0 <= 0) bad(row() ": a time is not positive")
            if (f("min_us") + 0 > f("median_us") + 0 || f("median_us") + 0 > f("max_us") + 0) bad(row() ": min <= median <= max does not hold")
            if (f("verified") != "1") bad(row() ": not verified")
            if (f("gbps") == "") next
            want = f("bytes") * copies() / (f("median_us") * 1000)
            if (!num(f("gbps")) || f("gbps") <= 0 || f("gbps") / want > 1.01 || f("gbps") / want < 0.99)
                bad(row() ": " f("gbps") " GB/s is not bytes x copies / time (" want ")")
            # Timings that are wrong on purpose (the enqueue alone, CPU time) may beat any link.
            if (f("experiment") == "cpu_timer" && (f("variant") ~ /no_sync$/ || f("variant") ~ /^clock_/)) next
            top = f("bytes") * copies() / (f("min_us") * 1000)
            if (f("peak_gbps") != "" && top > 1.02 * f("peak_gbps")) bad(row() ": " top " GB/s is above the peak " f("peak_gbps"))
            # A floor a correct copy reaches on its link: at 64 MiB or more, a
            # copy-engine or SM copy moves at least a fifth of the link peak.
            if (f("peak_gbps") != "" && f("bytes") >= 67108864 && (f("experiment") == "ce_bandwidth" || f("experiment") == "sm_bandwidth") && f("route") != "peer_off" && f("gbps") < 0.2 * f("peak_gbps"))
                bad(row() ": " f("gbps") " GB/s is below a fifth of the link peak " f("peak_gbps"))
            if (f("peak_gbps") == "" && top > (f("mode") == "both_ways" ? 2000 : 1000)) bad(row() ": " top " GB/s is above any link")
        }
        END { exit failed }' "$1"
}

# lab05_check_sweeps FILE: each sweep has 3+ sizes, ascending, rising with
# size and not collapsing; one way it never falls below 0.7x of a smaller
# size; the pairs cover the config and share sizes; P2P on beats off from
# 16 MiB.
lab05_check_sweeps() {
    rows_awk "$LAB05_AWK_LIB"'
        f("experiment") == "config" && f("variant") == "pairs" { pairs = f("value") }
        f("experiment") != "ce_bandwidth" && f("experiment") != "sm_bandwidth" || f("reps") == 0 { next }
        {
            k = f("experiment") " " f("variant") " " f("route") " " f("src") "->" f("dst") " " f("mode")
            n[k]++; size[k, n[k]] = f("bytes") + 0; gb[k, n[k]] = f("gbps") + 0
            if (f("experiment") == "ce_bandwidth" && f("mode") == "one_way" && f("route") ~ /^peer/) { pair[f("src") "->" f("dst")] = 1; sizes[f("route") " " f("src") "->" f("dst")] = sizes[f("route") " " f("src") "->" f("dst")] " " f("bytes") }
            if (f("experiment") == "ce_bandwidth" && f("bytes") >= 16777216) ce[f("route"), f("src"), f("dst"), f("mode"), f("bytes")] = f("gbps") + 0
        }
        END {
            for (k in n) {
                if (n[k] < 3) bad(k ": only " n[k] " sizes")
                best = 0
                for (i = 1; i <= n[k]; i++) {
                    if (i > 1 && size[k, i] <= size[k, i - 1]) bad(k ": sizes are not ascending")
                    if (gb[k, i] > best) best = gb[k, i]
                }
                if (gb[k, n[k]] < 0.5 * best) bad(k ": bandwidth at the largest size collapses")
                if (gb[k, 1] >= gb[k, n[k]]) bad(k ": bandwidth does not rise with size")
                if (k ~ / one_way$/)
                    for (i = 1; i <= n[k]; i++)
                        for (j = i + 1; j <= n[k]; j++)
                            if (gb[k, j] < 0.7 * gb[k, i])
                                bad(k ": " gb[k, j] " GB/s at " size[k, j] " B falls below 0.7 x " gb[k, i] " GB/s at " size[k, i] " B")
            }
            np = 0; for (p in pair) np++
            if (np && pairs != "" && np != pairs + 0) bad("ce_bandwidth covers " np " ordered pairs, config says " pairs)
            ref = ""; for (s in sizes) { if (ref == "") ref = sizes[s]; else if (sizes[s] != ref) bad("the pairs were swept over different sizes: " s) }
            for (k in ce) {
                split(k, kp, SUBSEP)
                if (kp[1] == "peer" && (("peer_off", kp[2], kp[3], kp[4], kp[5]) in ce) && ce[k] <= ce["peer_off", kp[2], kp[3], kp[4], kp[5]])
                    bad("P2P on (" ce[k] " GB/s) does not beat P2P off (" ce["peer_off", kp[2], kp[3], kp[4], kp[5]] " GB/s) for " kp[2] "->" kp[3] " " kp[4] " at " kp[5] " B")
            }
            exit failed
        }' "$1"
}

# lab05_check_latency FILE: far loads beyond L2 are slower than local ones;
# every queued small copy has a synchronized one; the ping-pongs are there,
# and the two host ones (GPU clock, host clock) agree. Every latency lies in a
# physical range.
lab05_check_latency() {
    rows_awk "$LAB05_AWK_LIB"'
        f("experiment") == "pointer_chase" && f("route") == "loopback" { local_us[f("mode"), f("dst")] = f("median_us") + 0 }
        # (within L2 a cache may serve far memory as fast as local: no order there)
        f("experiment") == "pointer_chase" && f("route") != "loopback" && f("mode") != "in_l2" { far[f("route") " " f("src") "->" f("dst"), f("mode")] = f("median_us") + 0; reader[f("route") " " f("src") "->" f("dst"), f("mode")] = f("dst") }
        f("experiment") == "memcpy_latency" { mc[f("variant"), f("route"), f("src"), f("dst")] = 1 }
        f("experiment") == "pingpong" && f("reps") > 0 { pp[f("variant")]++ }
        f("experiment") == "pingpong" && f("route") == "host" && f("reps") > 0 { host_pp[f("variant")] = f("median_us") + 0 }
        # Physics on both sides: no load or round trip beats a local L2 hit
        # (~0.1 us) by much, and none across any link takes milliseconds.
        function within(lo, hi) { if (f("median_us") + 0 < lo || f("median_us") + 0 > hi) bad(row() ": " f("median_us") " us is outside " lo " .. " hi " us") }
        f("experiment") == "pointer_chase" && f("reps") > 0 { within(f("route") == "loopback" ? 0.03 : 0.2, f("route") == "loopback" ? 2 : 10) }
        f("experiment") == "pingpong" && f("reps") > 0 { within(0.2, 20) }
        f("experiment") == "memcpy_latency" && f("reps") > 0 { within(0.5, 100) }
        f("experiment") == "sm_bandwidth" && f("route") == "peer" { p2p = 1 }
        f("experiment") == "ce_bandwidth" && f("route") == "host" { host = 1 }
        END {
            for (k in far) {
                split(k, kp, SUBSEP)
                if (!((kp[2], reader[k]) in local_us)) { bad("pointer chase " kp[1] " " kp[2] ": no local chase on GPU " reader[k]); continue }
                if (far[k] <= local_us[kp[2], reader[k]]) bad("pointer chase " kp[1] " " kp[2] ": a far load (" far[k] " us) is not slower than a local one (" local_us[kp[2], reader[k]] " us)")
            }
            for (k in mc) {
                split(k, kp, SUBSEP)
                if (kp[1] == "ce_queued" && !(("ce_synced", kp[2], kp[3], kp[4]) in mc)) bad("memcpy_latency " kp[2] " " kp[3] "->" kp[4] ": no ce_synced row")
            }
            if (p2p && (!pp["write_remote"] || !pp["poll_remote"])) bad("pingpong: both peer variants must be reported where P2P exists")
            if (host && (!pp["gpu_cpu"] || !pp["cpu_gpu"])) bad("pingpong: both host variants (gpu_cpu, cpu_gpu) must be reported where the host link was measured")
            # The same round trip over the same flags, timed by the GPU clock and by the
            # host clock: they agree closely. A ping clock that also counts the warm-up (whose
            # round 1 the host plays 5 ms late) adds 5 ms and 100 round trips to the timed
            # rounds: in the quick form the tests run (2000 rounds) more than 1.25x wherever a
            # round trip takes under about 12 us; over the 20000 rounds of a full run it may
            # stay within. The run itself also compares the two clocks over the same rounds of
            # every gpu_cpu run, which sees the 5 ms at any speed (a failed row).
            g = host_pp["gpu_cpu"]; c = host_pp["cpu_gpu"]
            if (g > 0 && c > 0 && (g > 1.25 * c || c > 1.25 * g)) bad("pingpong: the GPU-timed host ping-pong (" g " us) and the host-timed one (" c " us) differ by more than 1.25x")
            exit failed
        }' "$1"
}

# lab05_check_pitfalls FILE: each pitfall shows its effect, per route, in
# the direction physics allows.
lab05_check_pitfalls() {
    rows_awk "$LAB05_AWK_LIB"'
        BEGIN { wallclocks["host_block"]; wallclocks["gettimeofday_sync"] }
        f("experiment") == "cpu_timer" { ct[f("route"), f("variant")] = f("median_us") + 0; ctr[f("route")] = 1 }
        f("experiment") == "cpu_sync" { cs[f("route"), f("variant"), f("bytes")] = f("median_us") + 0 }
        f("experiment") == "default_stream" { ds[f("route"), f("variant"), f("mode")] = f("median_us") + 0; dg[f("route"), f("variant"), f("mode")] = f("gbps") + 0; dsr[f("route")] = 1 }
        f("experiment") == "streams" { st[f("route"), f("value")] = 1; str[f("route")] = 1 }
        f("experiment") == "warmup" { wu[f("route"), f("variant"), f("mode")] = 1; wur[f("route")] = 1 }
        END {
            for (r in ctr) {
                if (!((r, "event") in ct) || !((r, "host_no_sync") in ct) || !((r, "host_sync") in ct) || !((r, "clock_sync") in ct)) { bad("cpu_timer " r ": a variant is missing"); continue }
                if (ct[r, "host_no_sync"] >= ct[r, "event"]) bad("cpu_timer " r ": the host clock without a synchronize (" ct[r, "host_no_sync"] " us) shows no discrepancy with events (" ct[r, "event"] " us)")
                if (ct[r, "host_sync"] < 0.95 * ct[r, "event"]) bad("cpu_timer " r ": the synchronized host clock (" ct[r, "host_sync"] " us) is shorter than the copy (" ct[r, "event"] " us)")
                for (v in wallclocks) if ((r, v) in ct && ct[r, v] < 0.95 * ct[r, "event"]) bad("cpu_timer " r ": " v " (" ct[r, v] " us, a wall clock after the copy ended) is shorter than the copy (" ct[r, "event"] " us)")
            }
            for (k in cs) {
                split(k, kp, SUBSEP)
                if (kp[2] != "queued") continue
                if (!((kp[1], "sync_each", kp[3]) in cs)) bad("cpu_sync " kp[1] " " kp[3] " B: no sync_each row")
                else if (cs[kp[1], "sync_each", kp[3]] < 0.95 * cs[k]) bad("cpu_sync " kp[1] " " kp[3] " B: synchronizing after each copy (" cs[kp[1], "sync_each", kp[3]] " us) is faster than queueing (" cs[k] " us)")
            }
            for (r in dsr) {
                if (!((r, "legacy", "both_ways") in ds) || !((r, "nonblocking", "both_ways") in ds) || !((r, "legacy", "beside_busy_kernel") in ds) || !((r, "nonblocking", "beside_busy_kernel") in ds)) { bad("default_stream " r ": a variant is missing"); continue }
                if (r != "peer_off" && dg[r, "legacy", "both_ways"] >= 0.8 * dg[r, "nonblocking", "both_ways"]) bad("default_stream " r ": both ways in the legacy stream (" dg[r, "legacy", "both_ways"] " GB/s) are not serialized against non-blocking streams (" dg[r, "nonblocking", "both_ways"] " GB/s)")
                if (ds[r, "legacy", "beside_busy_kernel"] < 1800) bad("default_stream " r ": the legacy-stream copy (" ds[r, "legacy", "beside_busy_kernel"] " us) did not wait for the 2 ms kernel")
                if (ds[r, "nonblocking", "beside_busy_kernel"] >= ds[r, "legacy", "beside_busy_kernel"]) bad("default_stream " r ": the non-blocking copy is not faster beside the busy kernel")
            }
            for (r in str) if (!((r, "1") in st) || !((r, "2") in st)) bad("streams " r ": needs 1 and 2 streams at least")
            for (r in wur) if (!((r, "ce_event", "first") in wu) || !((r, "ce_event", "steady") in wu) || !((r, "ce_host", "first") in wu) || !((r, "ce_host", "steady") in wu)) bad("warmup " r ": a first or steady row is missing")
            exit failed
        }' "$1"
}

# lab05_check_link FILE: NVML state; a path and a peak row for every ordered
# pair of the run's GPUs; sane NVLink generations and host peaks.
lab05_check_link() {
    rows_awk "$LAB05_AWK_LIB"'
        f("experiment") == "config" && f("variant") == "gpus" { gpus = f("value") + 0 }
        f("experiment") != "link" { next }
        f("variant") == "nvml" { nvml = f("value"); if (nvml != "ok" && nvml != "unknown") bad("link nvml is " nvml) }
        f("variant") == "path" { path[f("src") "->" f("dst")] = f("value"); if (f("value") !~ /^(nvlink|pcie|unknown)$/) bad("link path " f("src") "->" f("dst") " is " f("value")) }
        f("variant") == "peak_gbps" { peak[f("src") "->" f("dst")] = 1; if (f("value") + 0 < 0) bad("link peak " f("src") "->" f("dst") " is negative") }
        f("variant") == "nvlink_gen" && (f("value") + 0 < 0 || f("value") + 0 > 6) { bad("NVLink generation " f("value")) }
        f("variant") == "host_peak_gbps" && (f("value") + 0 < 0 || f("value") + 0 > 512) { bad("host link peak " f("value") " GB/s") }
        f("variant") ~ /^datasheet_/ && f("verified") == "0" { bad("link " f("variant") ": " f("value") " does not match the datasheet arithmetic") }
        END {
            if (nvml == "") bad("no link nvml row")
            for (i = 0; i < gpus; i++) for (j = 0; j < gpus; j++) {
                if (i == j) continue
                if (!((i "->" j) in path)) bad("no link path row for " i "->" j)
                if (!((i "->" j) in peak)) bad("no link peak row for " i "->" j)
            }
            exit failed
        }' "$1"
}

# lab05_check_claims FILE: every claim of claims.tsv exactly once, with one
# of the three verdicts and a detail.
lab05_check_claims() {
    rows_awk -v want="$(lab_claim_ids 05 | tr '\n' ' ')" "$LAB05_AWK_LIB"'
        BEGIN { n = split(want, id, " "); for (i = 1; i <= n; i++) expect[id[i]] = 1 }
        f("experiment") != "claim" { next }
        {
            seen[f("variant")]++
            if (!(f("variant") in expect)) bad("unexpected claim " f("variant"))
            if (f("value") !~ /^(holds|does_not_hold|untested)$/) bad("claim " f("variant") " has verdict " f("value"))
            if (f("detail") == "") bad("claim " f("variant") " has no detail")
        }
        END { for (k in expect) if (seen[k] != 1) bad("claim " k " appears " seen[k] + 0 " times"); exit failed }' "$1"
}

# lab05_check_coverage FILE [KEYS]: every experiment of KEYS (default: the
# twelve every run has had since the first recording) has rows.
lab05_check_coverage() {
    rows_awk -v want="${2:-${LAB05_EXPERIMENTS% pageable}}" "$LAB05_AWK_LIB"'
        { seen[f("experiment")] = 1 }
        END { n = split(want, k, " "); for (i = 1; i <= n; i++) if (!(k[i] in seen)) bad("experiment " k[i] " has no rows"); exit failed }' "$1"
}

# lab05_check_run FILE: all of the above and the host tool's recomputed
# verdicts; every broken rule is printed.
lab05_check_run() {
    local file=$1 tool status=0
    [ -s "$file" ] || { echo "lab05: $file is missing or empty"; return 1; }
    if [ "$(head -n 1 "$file")" != "$(head -n 1 "$FIXTURES/rows-header.csv")" ]; then
        echo "lab05: line 1 is not the lab's result header: $(head -n 1 "$file")"
        return 1
    fi
    lab05_check_times "$file" || status=1
    lab05_check_sweeps "$file" || status=1
    lab05_check_latency "$file" || status=1
    lab05_check_pitfalls "$file" || status=1
    lab05_check_link "$file" || status=1
    lab05_check_claims "$file" || status=1
    lab05_check_coverage "$file" || status=1
    tool=$(host_tool 05) || return 1
    "$tool" check "$file" || status=1
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

