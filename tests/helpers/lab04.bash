# Lab 04's run checker: what every run's rows must say, live or recorded, for
# however many GPUs the run had. Load after helpers/lab.

# lab04_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent or skipped (a run of some -t keys, one GPU, or a
# run recorded before it existed); what is there must be whole, exact and
# physical, and the claims' verdicts must be those the host tool recomputes.
lab04_check_run() {
    [ -s "$1" ] || { echo "lab04: $1 is missing or empty"; return 1; }
    checked_rows_and_verdicts 04 "$1" lab04_check_rows "lab04: the header is not the lab's result header: "
}

# lab04_check_rows FILE: the rules of lab04_check_run on the rows of a file whose
# header is the result header.
lab04_check_rows() {
    rows_awk -v claims="$(lab_claim_ids 04 | tr '\n' ' ')" '
        function bad(msg) { print "lab04: " msg; failed = 1 }
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function d(key,   m) {   # the number after key= in the detail
            if (!match(f("detail"), "(^| )" key "=-?[0-9.e+]+")) return ""
            m = substr(f("detail"), RSTART, RLENGTH); sub(/^ /, "", m); return substr(m, length(key) + 2)
        }
        function times_ok(what) {
            if (!num(f("median_us")) || !num(f("min_us")) || !num(f("max_us"))) { bad(what ": a time is not a number"); return 0 }
            if (f("min_us") + 0 <= 0) { bad(what ": a time is not positive"); return 0 }
            if (f("min_us") + 0 > f("median_us") + 0 || f("median_us") + 0 > f("max_us") + 0) { bad(what ": min <= median <= max does not hold"); return 0 }
            if (f("reps") + 0 < 1) { bad(what ": no timed runs"); return 0 }
            return 1
        }
        f("variant") == "skipped" { skipped[f("experiment")] = 1; if (f("detail") == "") bad("skipped " f("experiment") " without a reason"); next }
        { what = f("experiment") " " f("variant") " " f("route") (f("mode") != "" ? " " f("mode") : ""); seen[f("experiment"), f("variant"), f("route"), f("mode")]++; ran[f("experiment"), f("route")] = 1 }
        f("experiment") == "counter" || f("experiment") == "counter-peer" { counter(); next }
        f("experiment") == "histogram" || f("experiment") == "histogram-peer" { histogram(); next }
        f("experiment") == "latency" || f("experiment") == "latency-peer" { latency(); next }
        f("experiment") == "cpu-gpu" { mixed(); next }
        f("experiment") == "link" { link[f("variant"), f("src"), f("dst")] = f("value"); next }
        f("experiment") == "claim" { verdict[f("variant")] = f("value"); if (f("value") !~ /^(holds|does_not_hold|untested)$/) bad("claim " f("variant") ": verdict " f("value") " is not one of holds, does_not_hold, untested"); next }
        function counter(   race, writers, per, atomics, across, want) {
            race = (f("variant") == "device" && f("mode") == "both")
            if (race && f("verified") != "-1") bad(what ": device scope from two GPUs is a data race, yet it is called correct (verified " f("verified") ")")
            if (race && f("detail") !~ /data race/) bad(what ": the race is not named in the detail")
            if (!race && f("verified") != "1") bad(what ": counted " f("value") ", expected " f("count") " (verified " f("verified") ")")
            if (!race && f("value") != f("count")) bad(what ": counted " f("value") ", expected " f("count"))
            writers = f("mode") == "both" ? 2 : 1
            if (d("blocks") == "" || d("threads") == "" || d("iters") == "") { bad(what ": no launch shape in the detail"); return }
            if (f("count") != d("blocks") * d("threads") * d("iters") * writers) bad(what ": expected " f("count") " != blocks x threads x iters x " writers " writer(s)")
            per = d("blocks") * d("threads") * d("iters")
            if (f("variant") == "warp_aggregated") per = d("blocks") * int((d("threads") + 31) / 32) * d("iters")
            if (f("variant") == "block_aggregated" || f("variant") == "local_then_copy") per = d("blocks")
            atomics = d("atomics") + 0; across = d("across") + 0
            if (f("experiment") == "counter-peer") { peer_src = f("src"); peer_dst = f("dst") }
            if (atomics != per * writers) bad(what ": " atomics " atomics, but " (f("variant") == "warp_aggregated" ? "one atomic per warp (partial warps too) and iteration" : f("variant") ~ /block|copy/ ? "one atomic per block" : "one atomic per increment") " makes " per * writers)
            want = (f("route") == "loopback" || f("variant") == "local_then_copy") ? 0 : per
            if (across != want) bad(what ": " across " atomics crossed the link, expected " want (f("variant") == "local_then_copy" || f("route") == "loopback" ? " (a variant that keeps them local)" : ""))
            if (times_ok(what) && atomics / (f("median_us") / 1e6) > 1e12) bad(what ": " atomics / (f("median_us") / 1e6) " atomics/s on one address is beyond any GPU")
            # One address: its atomics queue at one L2 slice, about one per clock (1.4e9/s measured on the recorded GPUs).
            if (times_ok(what) && (f("variant") == "device" || f("variant") == "system") && atomics / (f("median_us") / 1e6) > 2e10)
                bad(what ": " atomics / (f("median_us") / 1e6) " atomics/s on one address: the time cannot cover the whole run")
            if (times_ok(what)) us[f("experiment"), f("variant"), f("route"), f("mode")] = f("median_us")
        }
        function histogram(   want) {
            if (f("verified") != "1") bad(what ": not bit-exact against the host histogram (verified " f("verified") ")")
            if (f("value") != f("count") || f("bytes") != f("count")) bad(what ": the bins sum to " f("value") " for " f("bytes") " bytes")
            want = (f("variant") == "privatized" || f("route") == "loopback") ? 0 : f("route") == "host" ? f("bytes") : -1
            if ((want >= 0 && d("across") + 0 != want) || (want < 0 && d("across") + 0 <= 0))
                bad(what ": " d("across") " atomics crossed the link, expected " (want < 0 ? "some" : want))
            if (!times_ok(what)) return
            if (f("bytes") / (f("median_us") / 1e6) > 5e13) bad(what ": " f("bytes") " bytes in " f("median_us") " us is faster than any memory")
            if (!num(f("gbps")) || f("gbps") < 0.99 * f("bytes") / f("median_us") / 1e3 || f("gbps") > 1.01 * f("bytes") / f("median_us") / 1e3) bad(what ": gbps " f("gbps") " is not bytes / median time")
            hist[f("experiment"), f("variant"), f("route")] = f("median_us")
        }
        function latency(   ns) {
            if (f("verified") != "1") bad(what ": the walk did not end where the host says (verified " f("verified") ")")
            if (f("value") != f("count")) bad(what ": " f("value") " visits for " f("count") " steps")
            if (!times_ok(what)) return
            ns = f("median_us") * 1e3 / f("count")
            if (d("ns_per_atomic") < 0.99 * ns - 0.1 || d("ns_per_atomic") > 1.01 * ns + 0.1) bad(what ": ns_per_atomic " d("ns_per_atomic") " is not median time / steps")
            if (ns < 10 || ns > 1e6) bad(what ": " ns " ns per atomic is not physical")
            lat[f("variant"), f("route")] = ns
        }
        function mixed() {
            if (d("cpu") + 0 <= 0 || d("overlapped_runs") + 0 <= 0) bad(what ": the CPU never added while the GPU ran")
            if (f("count") != d("gpu") + d("cpu")) bad(what ": " f("count") " increments, not gpu " d("gpu") " + cpu " d("cpu"))
            if (f("count") - f("value") != d("lost") + 0) bad(what ": lost " d("lost") " is not " f("count") " - " f("value"))
            if (f("variant") == "system" && d("host_native_atomics") == 1 && (f("verified") != "1" || f("value") != f("count"))) bad(what ": counted " f("value") " of " f("count") " though the link has native host atomics")
            if (!(f("variant") == "system" && d("host_native_atomics") == 1) && f("verified") != "-1") bad(what ": the count is called correct without the documentation promising it")
            mixed_seen[f("variant")] = 1
        }
        # expect: a route an experiment measured has each of these variants once
        function expect(e, variants, route, mode,   v, n, i) {
            if (!((e, route) in ran)) return
            n = split(variants, v, " ")
            for (i = 1; i <= n; i++)
                if (seen[e, v[i], route, mode] != 1) bad(e " " v[i] " " route (mode != "" ? " " mode : "") ": expected one row, found " seen[e, v[i], route, mode] + 0)
        }
        END {
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
        }' "$1"
}
