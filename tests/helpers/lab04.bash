# Sanity checks for Lab 04's CSV (04-peer-atomics --csv), loaded by
# tests/lab04.bats. Each check takes a CSV file, prints what is wrong and
# returns non-zero when a rule of physics or of the lab is broken. They run
# on live output and on the recorded run in tests/fixtures/.

LAB04_HEADER="section,name,writers,target,scope,expected,count,exact,defined,peer_ops,atomics,reps,median_ms,min_ms,max_ms,per_s,ns_per_op,speedup,value"
LAB04_COUNTERS="local peer peer_system both_device both_system both_warp_aggregated both_block_aggregated both_local_then_copy"
LAB04_CLAIMS="remote_atomics_100x_slower avoid_cross_gpu_atomics pcie_atomics_need_hw_support"

# lab04_awk FILE PROGRAM: run an awk program over the records of FILE with
# c["column"] giving each column's index, num(x) telling a decimal number,
# and bad(msg) recording a broken rule (the program fails at the end).
lab04_awk() {
    awk -F, '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab04: " msg > "/dev/stderr"; failed = 1 }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        '"$2"'
        END { exit failed }' "$1"
}

lab04_check_header() {
    local first
    first=$(head -n 1 "$1")
    if [ "$first" != "$LAB04_HEADER" ]; then
        echo "lab04: the header is not the lab's schema: $first" >&2
        return 1
    fi
}

# Times of one record: finite, positive, min <= median <= max.
LAB04_AWK_TIMES='
    function times_ok(what) {
        if (!num($c["median_ms"]) || !num($c["min_ms"]) || !num($c["max_ms"])) {
            bad(what ": a time is not a number"); return 0 }
        if ($c["min_ms"] + 0 <= 0) { bad(what ": a time is not positive"); return 0 }
        if ($c["min_ms"] + 0 > $c["median_ms"] + 0 || $c["median_ms"] + 0 > $c["max_ms"] + 0) {
            bad(what ": min <= median <= max does not hold"); return 0 }
        if ($c["reps"] + 0 < 1) { bad(what ": no repetitions"); return 0 }
        return 1
    }'

lab04_check_counters() {
    lab04_awk "$1" "$LAB04_AWK_TIMES"'
        $1 == "config" && $2 == "blocks" { blocks = $c["value"] }
        $1 == "config" && $2 == "threads_per_block" { threads = $c["value"] }
        $1 == "config" && $2 == "iters" { iters = $c["value"] }
        $1 != "counter" { next }
        {
            name = $2; seen[name]++
            what = "counter " name
            expected = $c["expected"]; count = $c["count"]
            if (!num(expected) || expected + 0 <= 0) bad(what ": expected is not a positive count")
            two = ($c["writers"] ~ /\+/)
            if (two) both_expected[name] = expected; else one_expected[name] = expected
            if ($c["defined"] != 0 && $c["defined"] != 1) bad(what ": defined is not 0 or 1")
            if ($c["exact"] != 0 && $c["exact"] != 1) bad(what ": exact is not 0 or 1")
            if (name == "both_device" && $c["defined"] != 0)
                bad(what ": device scope across two GPUs is a data race, yet it is called defined")
            if (name != "both_device" && $c["defined"] != 1)
                bad(what ": a variant the memory model guarantees is not marked defined")
            if ($c["defined"] == 1 && ($c["exact"] != 1 || count != expected))
                bad(what ": count " count " is not the expected " expected)
            if ($c["exact"] == 1 && count != expected)
                bad(what ": marked exact but count " count " != expected " expected)
            if ((name == "local" || name == "both_local_then_copy") && $c["peer_ops"] != 0)
                bad(what ": atomics crossed the link in a variant that keeps them local")
            if ((name == "peer" || name == "peer_system") && $c["peer_ops"] != expected)
                bad(what ": every increment should cross the link")
            atomics = $c["atomics"]
            if (!num(atomics) || atomics + 0 < 1) bad(what ": atomics is not a positive count")
            if ($c["peer_ops"] + 0 > atomics + 0) bad(what ": more atomics crossed the link than were issued")
            if (name ~ /^(local|peer|peer_system|both_device|both_system)$/ && atomics != expected)
                bad(what ": one atomic per increment, yet " atomics " atomics for " expected " increments")
            if (name == "both_warp_aggregated" && atomics * 32 != expected)
                bad(what ": a full warp adds 32 increments with one atomic, yet " atomics " atomics for " expected)
            if (name ~ /^both_(block_aggregated|local_then_copy)$/) block_atomics[name] = atomics
            if (times_ok(what)) {
                if (!num($c["per_s"]) || $c["per_s"] + 0 <= 0) bad(what ": per_s is not positive")
                rate = expected / ($c["median_ms"] / 1000)
                if ($c["per_s"] + 0 < rate * 0.99 || $c["per_s"] + 0 > rate * 1.01)
                    bad(what ": per_s does not match expected / median time")
                # Atomics on one address: no GPU does a trillion a second.
                if (atomics / ($c["median_ms"] / 1000) > 1e12)
                    bad(what ": " atomics / ($c["median_ms"] / 1000) " atomics/s on one address is beyond any GPU")
            }
        }
        END {
            n = split("'"$LAB04_COUNTERS"'", names, " ")
            for (k = 1; k <= n; k++)
                if (seen[names[k]] != 1) bad("counter " names[k] ": expected one row, found " seen[names[k]] + 0)
            single = one_expected["local"]
            for (v in one_expected) if (one_expected[v] != single) bad("counter " v ": single-GPU variants differ in expected")
            for (v in both_expected) if (both_expected[v] != 2 * single) bad("counter " v ": a two-GPU variant should expect twice " single)
            if (blocks != "" && threads != "" && iters != "" && single != blocks * threads * iters)
                bad("counter local: expected " single " != blocks x threads x iters")
            for (v in block_atomics)
                if (blocks != "" && block_atomics[v] != 2 * blocks) bad("counter " v ": one atomic per block, yet " block_atomics[v] " for 2 x " blocks " blocks")
        }'
}

lab04_check_histogram() {
    lab04_awk "$1" "$LAB04_AWK_TIMES"'
        $1 != "histogram" { next }
        {
            name = $2; seen[name]++; what = "histogram " name
            if ($c["exact"] != 1) bad(what ": not bit-exact against the host histogram")
            if ($c["count"] != $c["expected"]) bad(what ": the bins sum to " $c["count"] ", not " $c["expected"])
            if (times_ok(what)) {
                ms[name] = $c["median_ms"]
                # Every byte is read once from HBM: two GPUs cannot read
                # faster than 50 TB/s together (H200: 4.8 TB/s each).
                if ($c["expected"] / ($c["median_ms"] / 1000) > 5e13)
                    bad(what ": " $c["expected"] " bytes in " $c["median_ms"] " ms is faster than any memory")
            }
            peer[name] = $c["peer_ops"]
        }
        END {
            if (seen["naive"] != 1 || seen["privatized"] != 1) { bad("histogram: naive and privatized must appear once each"); exit 1 }
            if (peer["naive"] + 0 <= 0) bad("histogram naive: no atomic crossed the link")
            if (peer["privatized"] != 0) bad("histogram privatized: atomics crossed the link")
            if (("naive" in ms) && ("privatized" in ms) && ms["privatized"] + 0 >= ms["naive"] + 0)
                bad("histogram: privatized (" ms["privatized"] " ms) is not faster than naive (" ms["naive"] " ms)")
        }'
}

lab04_check_latency() {
    lab04_awk "$1" "$LAB04_AWK_TIMES"'
        $1 != "latency" { next }
        {
            name = $2; seen[name]++; what = "latency " name
            if ($c["exact"] != 1) bad(what ": the chain did not end where the host says")
            if ($c["count"] != $c["expected"]) bad(what ": " $c["count"] " visits for " $c["expected"] " steps")
            if (!times_ok(what)) next
            ns[name] = $c["ns_per_op"]
            want = $c["median_ms"] * 1e6 / $c["expected"]
            if (!num(ns[name]) || ns[name] + 0 < want * 0.99 || ns[name] + 0 > want * 1.01)
                bad(what ": ns_per_op does not match median time / steps")
            # An atomic that waits for its answer takes at least a trip to
            # L2 (tens of ns) and far less than a millisecond.
            if (ns[name] + 0 < 10 || ns[name] + 0 > 1e6) bad(what ": " ns[name] " ns per atomic is not physical")
        }
        END {
            if (seen["local"] != 1 || seen["peer"] != 1 || seen["peer_system"] != 1) { bad("latency: local, peer and peer_system must appear once each"); exit 1 }
            if (ns["peer"] + 0 <= ns["local"] + 0) bad("latency: a remote atomic (" ns["peer"] " ns) cannot beat a local one (" ns["local"] " ns)")
            if (ns["peer_system"] + 0 <= ns["local"] + 0) bad("latency: a remote system-scope atomic cannot beat a local one")
        }'
}

lab04_check_link() {
    lab04_awk "$1" '
        $1 == "config" && $2 == "gpu_a" { a = $c["value"] }
        $1 == "config" && $2 == "gpu_b" { b = $c["value"] }
        $1 == "link" && $2 == "native_atomics" { native[$c["writers"] "," $c["target"]] = $c["value"] }
        END {
            if (a == "" || b == "") { bad("link: the pair is not named in the config rows"); exit 1 }
            if (native[b "," a] != 1) bad("link: the lab ran although GPU " b " -> " a " has no native atomics")
        }'
}

lab04_check_claims() {
    lab04_awk "$1" '
        $1 == "summary" { s[$2] = $c["value"] }
        $1 == "link" && $2 == "directions_without_native_atomics" { without = $c["value"] }
        $1 == "claim" {
            if ($c["value"] !~ /^(holds|does_not_hold|not_testable)$/) bad("claim " $2 ": verdict " $c["value"] " is not valid")
            v[$2] = $c["value"]
        }
        END {
            n = split("'"$LAB04_CLAIMS"'", ids, " ")
            for (k = 1; k <= n; k++) if (!(ids[k] in v)) bad("claim " ids[k] ": missing")
            if ("remote_atomics_100x_slower" in v) {
                want = s["latency_ratio"] + 0 >= 100 ? "holds" : "does_not_hold"
                if (v["remote_atomics_100x_slower"] != want) bad("claim remote_atomics_100x_slower: " v["remote_atomics_100x_slower"] " with a latency ratio of " s["latency_ratio"])
            }
            if ("avoid_cross_gpu_atomics" in v) {
                want = (s["histogram_speedup"] + 0 > 1 && s["local_then_copy_speedup"] + 0 > 1) ? "holds" : "does_not_hold"
                if (v["avoid_cross_gpu_atomics"] != want) bad("claim avoid_cross_gpu_atomics: " v["avoid_cross_gpu_atomics"] " with speedups " s["histogram_speedup"] " and " s["local_then_copy_speedup"])
            }
            if ("pcie_atomics_need_hw_support" in v) {
                want = without + 0 > 0 ? "holds" : "not_testable"
                if (v["pcie_atomics_need_hw_support"] != want) bad("claim pcie_atomics_need_hw_support: " v["pcie_atomics_need_hw_support"] " with " without + 0 " directions lacking native atomics")
            }
        }'
}

# lab04_check_csv FILE: every check above; all of them report before failing.
lab04_check_csv() {
    local file=$1 rc=0
    [ -s "$file" ] || { echo "lab04: $file is missing or empty" >&2; return 1; }
    lab04_check_header "$file" || return 1
    lab04_check_counters "$file" || rc=1
    lab04_check_histogram "$file" || rc=1
    lab04_check_latency "$file" || rc=1
    lab04_check_link "$file" || rc=1
    lab04_check_claims "$file" || rc=1
    return "$rc"
}
