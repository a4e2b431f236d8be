# Lab 04's run checker: what every run's rows must say, live or recorded, for
# however many GPUs the run had. Load after helpers/lab.

# lab04_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent or skipped (a run of some -t keys, one GPU, or a
# run recorded before it existed); what is there must be whole, exact and
# physical, and the claims' verdicts must be those the host tool recomputes.
lab04_check_run() {
    local file=$1 tool status=0
    [ -s "$file" ] || { echo "lab04: $file is missing or empty"; return 1; }
    awk -F, -v header="$(head -1 "$FIXTURES/rows-header.csv")" \
        -v claims="$(grep -v '^#' "$REPO_ROOT/labs/04-peer-atomics/claims.tsv" | tail -n +2 | cut -f1 | tr '\n' ' ')" '
        function bad(msg) { print "lab04: " msg; failed = 1 }
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function d(key,   m) {   # the number after key= in the detail
            if (!match($17, "(^| )" key "=-?[0-9.e+]+")) return ""
            m = substr($17, RSTART, RLENGTH); sub(/^ /, "", m); return substr(m, length(key) + 2)
        }
        function times_ok(what) {
            if (!num($10) || !num($11) || !num($12)) { bad(what ": a time is not a number"); return 0 }
            if ($11 + 0 <= 0) { bad(what ": a time is not positive"); return 0 }
            if ($11 + 0 > $10 + 0 || $10 + 0 > $12 + 0) { bad(what ": min <= median <= max does not hold"); return 0 }
            if ($9 + 0 < 1) { bad(what ": no timed runs"); return 0 }
            return 1
        }
        NR == 1 { if ($0 != header) { bad("the header is not the lab'"'"'s result header: " $0); exit 1 } next }
        $2 == "skipped" { skipped[$1] = 1; if ($17 == "") bad("skipped " $1 " without a reason"); next }
        { what = $1 " " $2 " " $3 ($6 != "" ? " " $6 : ""); seen[$1, $2, $3, $6]++; ran[$1, $3] = 1 }
        $1 == "counter" || $1 == "counter-peer" { counter(); next }
        $1 == "histogram" || $1 == "histogram-peer" { histogram(); next }
        $1 == "latency" || $1 == "latency-peer" { latency(); next }
        $1 == "cpu-gpu" { mixed(); next }
        $1 == "link" { link[$2, $4, $5] = $16; next }
        $1 == "claim" { verdict[$2] = $16; if ($16 !~ /^(holds|does_not_hold|untested)$/) bad("claim " $2 ": verdict " $16 " is not one of holds, does_not_hold, untested"); next }
        function counter(   race, writers, per, atomics, across, want) {
            race = ($2 == "device" && $6 == "both")
            if (race && $15 != "-1") bad(what ": device scope from two GPUs is a data race, yet it is called correct (verified " $15 ")")
            if (race && $17 !~ /data race/) bad(what ": the race is not named in the detail")
            if (!race && $15 != "1") bad(what ": counted " $16 ", expected " $8 " (verified " $15 ")")
            if (!race && $16 != $8) bad(what ": counted " $16 ", expected " $8)
            writers = $6 == "both" ? 2 : 1
            if (d("blocks") == "" || d("threads") == "" || d("iters") == "") { bad(what ": no launch shape in the detail"); return }
            if ($8 != d("blocks") * d("threads") * d("iters") * writers) bad(what ": expected " $8 " != blocks x threads x iters x " writers " writer(s)")
            per = d("blocks") * d("threads") * d("iters")
            if ($2 == "warp_aggregated") per = d("blocks") * int((d("threads") + 31) / 32) * d("iters")
            if ($2 == "block_aggregated" || $2 == "local_then_copy") per = d("blocks")
            atomics = d("atomics") + 0; across = d("across") + 0
            if ($1 == "counter-peer") { peer_src = $4; peer_dst = $5 }
            if (atomics != per * writers) bad(what ": " atomics " atomics, but " ($2 == "warp_aggregated" ? "one atomic per warp (partial warps too) and iteration" : $2 ~ /block|copy/ ? "one atomic per block" : "one atomic per increment") " makes " per * writers)
            want = ($3 == "loopback" || $2 == "local_then_copy") ? 0 : per
            if (across != want) bad(what ": " across " atomics crossed the link, expected " want ($2 == "local_then_copy" || $3 == "loopback" ? " (a variant that keeps them local)" : ""))
            if (times_ok(what) && atomics / ($10 / 1e6) > 1e12) bad(what ": " atomics / ($10 / 1e6) " atomics/s on one address is beyond any GPU")
            # One address: its atomics queue at one L2 slice, about one per clock (1.4e9/s measured on the recorded GPUs).
            if (times_ok(what) && ($2 == "device" || $2 == "system") && atomics / ($10 / 1e6) > 2e10)
                bad(what ": " atomics / ($10 / 1e6) " atomics/s on one address: the time cannot cover the whole run")
            if (times_ok(what)) us[$1, $2, $3, $6] = $10
        }
        function histogram(   want) {
            if ($15 != "1") bad(what ": not bit-exact against the host histogram (verified " $15 ")")
            if ($16 != $8 || $7 != $8) bad(what ": the bins sum to " $16 " for " $7 " bytes")
            want = ($2 == "privatized" || $3 == "loopback") ? 0 : $3 == "host" ? $7 : -1
            if ((want >= 0 && d("across") + 0 != want) || (want < 0 && d("across") + 0 <= 0))
                bad(what ": " d("across") " atomics crossed the link, expected " (want < 0 ? "some" : want))
            if (!times_ok(what)) return
            if ($7 / ($10 / 1e6) > 5e13) bad(what ": " $7 " bytes in " $10 " us is faster than any memory")
            if (!num($13) || $13 < 0.99 * $7 / $10 / 1e3 || $13 > 1.01 * $7 / $10 / 1e3) bad(what ": gbps " $13 " is not bytes / median time")
            hist[$1, $2, $3] = $10
        }
        function latency(   ns) {
            if ($15 != "1") bad(what ": the walk did not end where the host says (verified " $15 ")")
            if ($16 != $8) bad(what ": " $16 " visits for " $8 " steps")
            if (!times_ok(what)) return
            ns = $10 * 1e3 / $8
            if (d("ns_per_atomic") < 0.99 * ns - 0.1 || d("ns_per_atomic") > 1.01 * ns + 0.1) bad(what ": ns_per_atomic " d("ns_per_atomic") " is not median time / steps")
            if (ns < 10 || ns > 1e6) bad(what ": " ns " ns per atomic is not physical")
            lat[$2, $3] = ns
        }
        function mixed() {
            if (d("cpu") + 0 <= 0 || d("overlapped_runs") + 0 <= 0) bad(what ": the CPU never added while the GPU ran")
            if ($8 != d("gpu") + d("cpu")) bad(what ": " $8 " increments, not gpu " d("gpu") " + cpu " d("cpu"))
            if ($8 - $16 != d("lost") + 0) bad(what ": lost " d("lost") " is not " $8 " - " $16)
            if ($2 == "system" && d("host_native_atomics") == 1 && ($15 != "1" || $16 != $8)) bad(what ": counted " $16 " of " $8 " though the link has native host atomics")
            if (!($2 == "system" && d("host_native_atomics") == 1) && $15 != "-1") bad(what ": the count is called correct without the documentation promising it")
            mixed_seen[$2] = 1
        }
        # expect: a route an experiment measured has each of these variants once
        function expect(e, variants, route, mode,   v, n, i) {
            if (!((e, route) in ran)) return
            n = split(variants, v, " ")
            for (i = 1; i <= n; i++)
                if (seen[e, v[i], route, mode] != 1) bad(e " " v[i] " " route (mode != "" ? " " mode : "") ": expected one row, found " seen[e, v[i], route, mode] + 0)
        }
        END {
            if (failed && NR == 1) exit 1
            # (the local baselines are what every run has had since the first one recorded)
            expect("counter", "device", "loopback", "one")
            expect("counter", "device system warp_aggregated block_aggregated", "host", "one")
            expect("counter-peer", "device system", "peer", "one")
            expect("counter-peer", "device system warp_aggregated block_aggregated local_then_copy", "peer", "both")
            expect("histogram", "naive privatized", "loopback", "one")
            expect("histogram", "naive privatized", "host", "one")
            expect("histogram-peer", "naive privatized", "peer", "both")
            expect("latency", "device", "loopback", "")
            expect("latency", "device system", "host", "")
            expect("latency-peer", "device system", "peer", "")
            for (k in hist) { split(k, p, SUBSEP); if (p[2] == "privatized" && (p[1], "naive", p[3]) in hist && hist[k] + 0 >= hist[p[1], "naive", p[3]] + 0) bad(p[1] " privatized " p[3] ": " hist[k] " us is not faster than naive (" hist[p[1], "naive", p[3]] " us)") }
            for (k in lat) { split(k, p, SUBSEP); if (p[2] != "loopback" && (p[1], "loopback") in lat && lat[k] <= lat[p[1], "loopback"]) bad("latency " p[1] " " p[2] ": a far atomic (" lat[k] " ns) cannot beat a local one (" lat[p[1], "loopback"] " ns)") }
            if (("native_atomics", peer_src, peer_dst) in link && link["native_atomics", peer_src, peer_dst] != "1")
                bad("link: the peer experiments ran although GPU " peer_src " -> " peer_dst " has no native atomics")
            if (("cpu-gpu", "host") in ran && !(mixed_seen["system"] && mixed_seen["device"])) bad("cpu-gpu: expected a system and a device row")
            n = split(claims, id, " ")
            for (k = 1; k <= n; k++) if (!(id[k] in verdict)) bad("claim " id[k] ": missing")
            exit failed
        }' "$file" || status=1
    tool=$(host_tool 04) || return 1
    "$tool" check "$file" || status=1
    return "$status"
}
