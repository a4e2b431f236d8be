# Sanity checks for Lab 05's CSV (05-p2p-performance --csv, or DIR/lab05.csv
# from --out DIR), loaded by tests/lab05.bats. Each check takes a CSV file,
# prints what is wrong ("lab05: ...") and returns non-zero when a rule of
# physics or of the lab is broken. They run on live output, on the recorded
# 2xH200 run and on hand-broken copies in tests/fixtures/.

LAB05_HEADER="experiment,variant,src,dst,mode,peer,bytes,ops,samples,median_us,min_us,max_us,gbps,gbps_min,gbps_max,peak_gbps,pct_peak,gated,verified,value,detail"
LAB05_EXPERIMENTS="link warmup ce_bandwidth sm_bandwidth memcpy_latency pointer_chase pingpong cpu_timer cpu_sync default_stream streams preferl1"
LAB05_CLAIMS="nvlink_table_row_pcie3 nvlink_table_row_nvlink2 nvlink_table_row_nvlink3 nvlink_table_latency nvlink_order_of_magnitude small_transfers_latency_bound concurrent_streams_contend cpu_sync_cliff cpu_timers_mislead preferl1_doubles_bandwidth"

# lab05_awk FILE PROGRAM: run awk over the records of FILE with c["column"]
# giving each column's index, num(x) telling a decimal number, v(name) the
# value of a column, and bad(msg) recording a broken rule.
lab05_awk() {
    awk -F, '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab05: " msg > "/dev/stderr"; failed = 1 }
        function v(name) { return $(c[name]) }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        '"$2"'
        END { exit failed }' "$1"
}

lab05_check_header() {
    local first
    first=$(head -n 1 "$1")
    if [ "$first" != "$LAB05_HEADER" ]; then
        echo "lab05: the header is not the lab's schema: $first" >&2
        return 1
    fi
    awk -F, -v n="$(awk -F, 'NR == 1 { print NF }' "$1")" \
        'NF != n { print "lab05: line " NR " has " NF " fields, the header " n > "/dev/stderr"; bad = 1 }
         END { exit bad }' "$1"
}

# Times: numbers, positive, min <= median <= max; every timed row verified;
# GB/s positive, ordered, and for the sweeps equal to bytes / time.
lab05_check_times() {
    lab05_awk "$1" '
        v("samples") == "" { next }
        {
            what = v("experiment") " " v("variant") " " v("src") "->" v("dst") " " v("mode") " peer=" v("peer") " " v("bytes") " B"
            if (!num(v("median_us")) || !num(v("min_us")) || !num(v("max_us"))) { bad(what ": a time is not a number"); next }
            if (v("min_us") + 0 <= 0) bad(what ": a time is not positive")
            if (v("min_us") + 0 > v("median_us") + 0 || v("median_us") + 0 > v("max_us") + 0)
                bad(what ": min <= median <= max does not hold")
            if (v("samples") + 0 < 1) bad(what ": no samples")
            if (v("verified") != "1") bad(what ": not verified")
            if (v("gbps") == "") next
            if (!num(v("gbps")) || v("gbps") + 0 <= 0) bad(what ": GB/s is not positive")
            if (v("gbps_min") + 0 > v("gbps") + 0 || v("gbps") + 0 > v("gbps_max") + 0)
                bad(what ": gbps_min <= gbps <= gbps_max does not hold")
            if (v("experiment") ~ /^(ce|sm)_bandwidth$/) {
                dirs = v("mode") == "both_ways" ? 2 : 1
                want = v("bytes") * dirs / (v("median_us") * 1000)
                if (want <= 0 || v("gbps") / want > 1.01 || v("gbps") / want < 0.99)
                    bad(what ": " v("gbps") " GB/s is not bytes / time (" want ")")
            }
        }'
}

# Never above the link's peak (event time never below bytes / peak); where
# the peak is unknown, never above a generous ceiling. The host clock
# without a synchronize and clock() are the pitfalls that do break it.
lab05_check_peak() {
    lab05_awk "$1" '
        v("gbps") == "" || v("variant") == "host_no_sync" || v("variant") == "clock_sync" { next }
        {
            what = v("experiment") " " v("variant") " " v("src") "->" v("dst") " " v("mode") " peer=" v("peer") " " v("bytes") " B"
            top = v("gbps_max") + 0
            if (v("peak_gbps") != "") {
                if (top > 1.02 * v("peak_gbps")) bad(what ": " top " GB/s is above the peak " v("peak_gbps"))
                pct = 100 * v("gbps") / v("peak_gbps")
                if (v("pct_peak") == "" || pct - v("pct_peak") > 0.2 || v("pct_peak") - pct > 0.2)
                    bad(what ": pct_peak " v("pct_peak") " is not 100 * gbps / peak")
            } else {
                ceiling = v("mode") == "both_ways" ? 2000 : 1000
                if (top > ceiling) bad(what ": " top " GB/s is above any link (" ceiling ")")
            }
        }'
}

# The sweeps: every ordered pair, the same sizes everywhere, bandwidth
# rising with size until it saturates, P2P on beating off at 16 MiB and up.
lab05_check_sweeps() {
    lab05_awk "$1" '
        v("experiment") == "config" && v("variant") == "pairs" { pairs = v("value") }
        v("experiment") != "ce_bandwidth" && v("experiment") != "sm_bandwidth" { next }
        {
            key = v("experiment") " " v("variant") " " v("src") "->" v("dst") " " v("mode") " peer=" v("peer")
            n[key]++; size[key, n[key]] = v("bytes") + 0; gb[key, n[key]] = v("gbps") + 0
            if (v("experiment") == "ce_bandwidth" && v("mode") == "one_way") {
                pair[v("src") "->" v("dst")] = 1
                sizes_of[v("src") "->" v("dst") " peer=" v("peer")] = sizes_of[v("src") "->" v("dst") " peer=" v("peer")] " " v("bytes")
            }
            if (v("experiment") == "ce_bandwidth" && v("bytes") >= 16777216)
                ce[v("src") "," v("dst") "," v("mode") "," v("bytes") "," v("peer")] = v("gbps") + 0
        }
        END {
            for (k in n) {
                if (n[k] < 3) bad(k ": only " n[k] " sizes")
                best = 0; last = 0; lastsize = 0
                for (i = 1; i <= n[k]; i++) {
                    if (size[k, i] <= lastsize) bad(k ": sizes are not ascending")
                    lastsize = size[k, i]
                    if (gb[k, i] > best) best = gb[k, i]
                }
                if (gb[k, n[k]] < 0.5 * best) bad(k ": bandwidth at the largest size collapses")
                if (gb[k, 1] >= gb[k, n[k]]) bad(k ": bandwidth does not rise with size")
                if (k ~ /peer=1$/)
                    for (i = 1; i <= n[k]; i++)
                        for (j = i + 1; j <= n[k]; j++)
                            if (gb[k, j] < 0.7 * gb[k, i])
                                bad(k ": " gb[k, j] " GB/s at " size[k, j] " B falls below 0.7 x " gb[k, i] " GB/s at " size[k, i] " B")
            }
            np = 0; for (p in pair) np++
            if (pairs != "" && np != pairs + 0) bad("ce_bandwidth covers " np " ordered pairs, config says " pairs)
            ref = ""
            for (s in sizes_of) { if (ref == "") ref = sizes_of[s]; else if (sizes_of[s] != ref) bad("the pairs were swept over different sizes: " s) }
            for (k in ce) {
                split(k, f, ",")
                if (f[5] != "1") continue
                off = f[1] "," f[2] "," f[3] "," f[4] ",0"
                if ((off in ce) && ce[k] <= ce[off])
                    bad("P2P on (" ce[k] " GB/s) does not beat P2P off (" ce[off] " GB/s) for " f[1] "->" f[2] " " f[3] " at " f[4] " B")
            }
        }'
}

# Latency: loads over the link are slower than local ones; a copy with a
# synchronize takes longer than one in a queue; the ping-pong is there.
lab05_check_latency() {
    lab05_awk "$1" '
        v("experiment") == "pointer_chase" && v("mode") == "local" { local_us[v("dst")] = v("median_us") + 0 }
        v("experiment") == "pointer_chase" && v("mode") == "peer" { peer_us[v("src") "->" v("dst")] = v("median_us") + 0; reader[v("src") "->" v("dst")] = v("dst") }
        v("experiment") == "memcpy_latency" { mc[v("variant") "," v("src") "->" v("dst") "," v("peer")] = v("median_us") + 0 }
        v("experiment") == "pingpong" { pp[v("variant")]++; if (v("median_us") + 0 <= 0) bad("pingpong " v("variant") ": no latency") }
        v("experiment") == "sm_bandwidth" && v("peer") == "1" { p2p = 1 }
        END {
            for (k in peer_us) {
                r = reader[k]
                if (!(r in local_us)) { bad("pointer chase " k " has no local chase on GPU " r); continue }
                if (peer_us[k] <= local_us[r]) bad("pointer chase " k ": a peer load (" peer_us[k] " us) is not slower than a local one (" local_us[r] " us)")
            }
            for (k in mc) {
                split(k, f, ",")
                if (f[1] != "ce_queued") continue
                s = "ce_synced," f[2] "," f[3]
                if (!(s in mc)) bad("memcpy_latency " f[2] " peer=" f[3] ": no ce_synced row")
            }
            if (p2p && (!pp["write_remote"] || !pp["poll_remote"])) bad("pingpong: both variants must be reported where P2P exists")
        }'
}

# The pitfalls: each must show its effect, in the direction physics allows.
lab05_check_pitfalls() {
    lab05_awk "$1" '
        v("experiment") == "cpu_timer" { ct[v("variant")] = v("median_us") + 0; nct++ }
        v("experiment") == "cpu_sync" { cs[v("variant") "," v("bytes")] = v("median_us") + 0 }
        v("experiment") == "default_stream" { ds[v("variant") "," v("mode")] = v("median_us") + 0; dg[v("variant") "," v("mode")] = v("gbps") + 0; dpeer = v("peer"); nds++ }
        v("experiment") == "streams" { st[v("value")] = v("gbps") + 0; nst++ }
        v("experiment") == "warmup" { wu[v("variant") "," v("mode")] = 1; nwu++ }
        END {
            if (nct) {
                if (!("event" in ct) || !("host_no_sync" in ct) || !("host_sync" in ct) || !("clock_sync" in ct)) bad("cpu_timer: a variant is missing")
                else {
                    if (ct["host_no_sync"] >= ct["event"]) bad("cpu_timer: the host clock without a synchronize (" ct["host_no_sync"] " us) shows no discrepancy with events (" ct["event"] " us)")
                    if (ct["host_sync"] < 0.95 * ct["event"]) bad("cpu_timer: the synchronized host clock (" ct["host_sync"] " us) is shorter than the copy (" ct["event"] " us)")
                }
            }
            for (k in cs) {
                split(k, f, ",")
                if (f[1] != "queued") continue
                e = "sync_each," f[2]
                if (!(e in cs)) bad("cpu_sync " f[2] " B: no sync_each row")
                else if (cs[e] < 0.95 * cs[k]) bad("cpu_sync " f[2] " B: synchronizing after each copy (" cs[e] " us) is faster than queueing (" cs[k] " us)")
            }
            if (nds) {
                if (!("legacy,both_ways" in ds) || !("nonblocking,both_ways" in ds) || !("legacy,beside_busy_kernel" in ds) || !("nonblocking,beside_busy_kernel" in ds)) bad("default_stream: a variant is missing")
                else {
                    if (dpeer == "1" && dg["legacy,both_ways"] >= 0.8 * dg["nonblocking,both_ways"]) bad("default_stream: both ways in the legacy stream (" dg["legacy,both_ways"] " GB/s) are not serialized against non-blocking streams (" dg["nonblocking,both_ways"] " GB/s)")
                    if (ds["legacy,beside_busy_kernel"] < 1800) bad("default_stream: the legacy-stream copy (" ds["legacy,beside_busy_kernel"] " us) did not wait for the 2 ms kernel")
                    if (ds["nonblocking,beside_busy_kernel"] >= ds["legacy,beside_busy_kernel"]) bad("default_stream: the non-blocking copy is not faster beside the busy kernel")
                }
            }
            if (nst && !(("1" in st) && ("2" in st))) bad("streams: needs 1 and 2 streams at least")
            if (nwu && !(("ce_event,first" in wu) && ("ce_event,steady" in wu) && ("ce_host,first" in wu) && ("ce_host,steady" in wu))) bad("warmup: a first or steady row is missing")
        }'
}

# The link rows: NVML state, a path and a peak row for every ordered pair.
lab05_check_link() {
    lab05_awk "$1" '
        v("experiment") == "config" && v("variant") == "gpus" { gpus = v("value") + 0 }
        v("experiment") != "link" { next }
        v("variant") == "nvml" { nvml = v("value"); if (nvml != "ok" && nvml != "unknown") bad("link nvml is " nvml) }
        v("variant") == "path" {
            path[v("src") "->" v("dst")] = v("value")
            if (v("value") !~ /^(nvlink|pcie|unknown)$/) bad("link path " v("src") "->" v("dst") " is " v("value"))
        }
        v("variant") == "peak_gbps" { peak[v("src") "->" v("dst")] = 1; if (v("value") + 0 < 0) bad("negative peak") }
        v("variant") == "nvlink_gen" && (v("value") + 0 < 0 || v("value") + 0 > 6) { bad("NVLink generation " v("value")) }
        END {
            if (nvml == "") bad("no link,nvml row")
            for (i = 0; i < gpus; i++) for (j = 0; j < gpus; j++) {
                if (i == j) continue
                if (!((i "->" j) in path)) bad("no link path row for " i "->" j)
                if (!((i "->" j) in peak)) bad("no link peak row for " i "->" j)
            }
        }'
}

# Every claim exactly once, with one of the three verdicts and a detail.
lab05_check_claims() {
    lab05_awk "$1" '
        BEGIN { split("'"$LAB05_CLAIMS"'", want, " "); for (k in want) expect[want[k]] = 1 }
        v("experiment") != "claim" { next }
        {
            seen[v("variant")]++
            if (!(v("variant") in expect)) bad("unexpected claim " v("variant"))
            if (v("value") !~ /^(holds|does_not_hold|not_testable)$/) bad("claim " v("variant") " has verdict " v("value"))
            if (v("detail") == "") bad("claim " v("variant") " has no detail")
        }
        END { for (k in expect) if (seen[k] != 1) bad("claim " k " appears " seen[k] + 0 " times") }'
}

# Every experiment of the registry has rows (a full run).
lab05_check_coverage() {
    lab05_awk "$1" '
        BEGIN { split("'"$LAB05_EXPERIMENTS"'", want, " ") }
        { seen[v("experiment")] = 1 }
        END { for (k in want) if (!(want[k] in seen)) bad("experiment " want[k] " has no rows") }'
}

# All of the above; every broken rule is printed.
lab05_check_csv() {
    local rc=0
    lab05_check_header "$1" || return 1
    lab05_check_times "$1" || rc=1
    lab05_check_peak "$1" || rc=1
    lab05_check_sweeps "$1" || rc=1
    lab05_check_latency "$1" || rc=1
    lab05_check_pitfalls "$1" || rc=1
    lab05_check_link "$1" || rc=1
    lab05_check_claims "$1" || rc=1
    lab05_check_coverage "$1" || rc=1
    return $rc
}

# lab05_nvlink4x18 FILE: true when the one-pair experiments' GPUs are
# linked by 18 NVLink 4 links according to NVML (the issue's bars apply).
lab05_nvlink4x18() {
    lab05_awk "$1" '
        v("experiment") == "config" && v("variant") == "pair_a" { a = v("value") }
        v("experiment") == "config" && v("variant") == "pair_b" { b = v("value") }
        v("experiment") == "link" && v("variant") == "nvlink_gen" { gen[v("src")] = v("value") }
        v("experiment") == "link" && v("variant") == "nvlinks" { links[v("src") "->" v("dst")] = v("value") }
        END { if (!(gen[a] == 4 && gen[b] == 4 && links[a "->" b] == 18)) failed = 1 }' 2>/dev/null
}

# The issue's bars for 2xH200 (18 NVLink 4 links), on the one-pair GPUs at
# 256 MiB: copy engine >= 383 GB/s one way and >= 760 both ways; SM pull
# and push >= 360; a one-way ping-pong latency reported.
lab05_check_bars() {
    lab05_awk "$1" '
        v("experiment") == "config" && v("variant") == "pair_a" { a = v("value") }
        v("experiment") == "config" && v("variant") == "pair_b" { b = v("value") }
        v("bytes") == 268435456 && v("peer") == "1" { g[v("experiment") "," v("variant") "," v("src") "," v("dst") "," v("mode")] = v("gbps") }
        v("experiment") == "pingpong" && v("variant") == "write_remote" { pp = v("median_us") }
        END {
            lo = a < b ? a : b; hi = a < b ? b : a
            x = g["ce_bandwidth,ce," a "," b ",one_way"]; if (x + 0 < 383) bad("copy engine one way at 256 MiB: " x " GB/s < 383")
            x = g["ce_bandwidth,ce," lo "," hi ",both_ways"]; if (x + 0 < 760) bad("copy engine both ways at 256 MiB: " x " GB/s < 760")
            x = g["sm_bandwidth,sm_pull," a "," b ",one_way"]; if (x + 0 < 360) bad("SM pull at 256 MiB: " x " GB/s < 360")
            x = g["sm_bandwidth,sm_push," a "," b ",one_way"]; if (x + 0 < 360) bad("SM push at 256 MiB: " x " GB/s < 360")
            if (pp + 0 <= 0) bad("no one-way ping-pong latency")
        }'
}
