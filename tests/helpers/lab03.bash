# Sanity checks for Lab 03's CSV (03-peer-kernels --csv), loaded by
# tests/lab03.bats. They take a CSV file, print what is wrong ("lab03: ...")
# and return non-zero when a rule of physics or of the lab is broken. They
# run on live output and on the recorded run in tests/fixtures/, and accept
# partial runs (--fault-only, --no-fault-demo) as long as the verdicts
# match what was run.

LAB03_HEADER="section,variant,bytes,stride,reps,median_ms,min_ms,max_ms,gbps,verified,value"

# Generous ceilings in GB/s of array bytes. Over the link: above NVLink 4
# (450 GB/s one way) and NVLink 5 (900). Local: the kernel reads and writes
# each byte once, and small arrays may sit in L2.
LAB03_LINK_CEILING=1500
LAB03_LOCAL_CEILING=20000

# lab03_check_csv FILE: every rule below; prints each broken one.
lab03_check_csv() {
    local file=$1
    if [ ! -s "$file" ]; then
        echo "lab03: $file is missing or empty"
        return 1
    fi
    local first
    first=$(head -n 1 "$file")
    if [ "$first" != "$LAB03_HEADER" ]; then
        echo "lab03: the header is not the lab's schema: $first"
        return 1
    fi
    awk -F, -v link_ceiling="$LAB03_LINK_CEILING" -v local_ceiling="$LAB03_LOCAL_CEILING" '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab03: " msg; failed = 1 }
        function abs(x) { return x < 0 ? -x : x }
        # Checks common to every timed row; "what" names it in messages.
        function timed_row(what, ceiling,    expected) {
            if ($10 != "1") bad(what ": not verified (verified=" $10 ")")
            if (!num($6) || !num($7) || !num($8) || !num($9)) { bad(what ": a time or rate is not a number"); return }
            if ($7 + 0 <= 0) bad(what ": a time is not positive")
            if ($7 + 0 > $6 + 0 || $6 + 0 > $8 + 0) bad(what ": min <= median <= max does not hold")
            if ($5 + 0 < 1) bad(what ": no repetitions")
            if ("reps" in config && $5 != config["reps"]) bad(what ": " $5 " repetitions, the config says " config["reps"])
            if ($6 + 0 > 0) {
                expected = $3 / 1e9 / ($6 / 1e3)
                if (abs($9 - expected) > 0.02 * expected + 0.01)
                    bad(what ": " $9 " GB/s does not match " $3 " bytes in " $6 " ms")
            }
            if ($9 + 0 > ceiling) bad(what ": " $9 " GB/s is above the physical ceiling of " ceiling " GB/s")
        }
        NR == 1 { next }
        $1 == "config" { config[$2] = $11; next }
        $1 == "transfer" {
            what = "transfer " $2 " at " $3 " bytes"
            timed_row(what, $2 == "local" ? local_ceiling : link_ceiling)
            count[$2, $3]++; median[$2, $3] = $6; gbps[$2, $3] = $9; present[$3] = 1
            transfers++
            next
        }
        $1 == "fastest" { fastest[$3] = $2; nfastest[$3]++; next }
        $1 == "stride" {
            what = "stride " $4 " (" $2 " memory)"
            timed_row(what, $2 == "local" ? local_ceiling : link_ceiling)
            scount[$2, $4]++; sgbps[$2, $4] = $9
            strides++
            next
        }
        $1 == "fault" { fault[$2] = $11; next }
        $1 == "claim" {
            nclaim[$2]++; claim[$2] = $11
            if ($11 !~ /^(holds|does_not_hold|not_testable)$/) bad("claim " $2 " has verdict " $11)
            next
        }
        { bad("unknown section " $1) }
        END {
            split("gpu_a gpu_b reps min_bytes max_bytes stride_bytes", keys, " ")
            for (i = 1; i in keys; i++) if (!(keys[i] in config)) bad("config " keys[i] " is missing")
            if (config["gpu_a"] == config["gpu_b"]) bad("gpu_a and gpu_b are the same GPU")
            nvar = split("local pull push copy_only copy_then_compute", variants, " ")

            # The sweep: min, 4 x min ... up to max, and max itself.
            access_ok = 0; judged = ""
            if (transfers > 0 && !(config["min_bytes"] + 0 > 0 && config["max_bytes"] + 0 >= config["min_bytes"] + 0)) {
                bad("config min_bytes and max_bytes do not describe a sweep")
                transfers = -transfers
            }
            if (transfers > 0) {
                n = 0
                for (s = config["min_bytes"] + 0; s <= config["max_bytes"] + 0; s *= 4) size[++n] = s
                if (size[n] != config["max_bytes"] + 0) size[++n] = config["max_bytes"] + 0
                for (k = 1; k <= n; k++) want_size[sprintf("%.0f", size[k])] = 1
                for (b in present) if (!(b in want_size)) bad("transfer rows for " b " bytes, a size the sweep does not have")
                access_ok = 1
                for (k = 1; k <= n; k++) {
                    b = sprintf("%.0f", size[k])
                    for (v = 1; v <= nvar; v++)
                        if (count[variants[v], b] != 1) { bad("transfer " variants[v] " at " b " bytes: expected one row, found " count[variants[v], b] + 0); access_ok = 0 }
                    best = ""
                    split("pull push copy_then_compute", ways, " ")
                    for (i = 1; i <= 3; i++)
                        if (count[ways[i], b] == 1 && (best == "" || median[ways[i], b] + 0 < median[best, b] + 0))
                            best = ways[i]
                    if (nfastest[b] != 1) bad("fastest at " b " bytes: expected one row, found " nfastest[b] + 0)
                    else if (fastest[b] != best) bad("fastest at " b " bytes says " fastest[b] " but the medians say " best)
                }
                lo = sprintf("%.0f", size[1]); hi = sprintf("%.0f", size[n])
                if (hi + 0 >= 64 * lo)
                    for (v = 1; v <= nvar; v++)
                        if (gbps[variants[v], hi] + 0 <= gbps[variants[v], lo] + 0)
                            bad("transfer " variants[v] ": bandwidth does not rise with size (" gbps[variants[v], lo] " GB/s at " lo " bytes, " gbps[variants[v], hi] " at " hi ")")
                if (hi + 0 >= 16 * 1048576 && median["copy_then_compute", hi] + 0 < 0.9 * median["copy_only", hi])
                    bad("copy_then_compute at " hi " bytes (" median["copy_then_compute", hi] " ms) is faster than its own copy (" median["copy_only", hi] " ms)")
                if (hi + 0 >= 16 * 1048576)
                    judged = median["copy_then_compute", hi] + 0 < median["pull", hi] + 0 ? "holds" : "does_not_hold"
                else
                    judged = "not_testable"
            }

            if (strides > 0) {
                for (st = 1; st <= 64; st *= 2)
                    for (w = 1; w <= 2; w++) {
                        where = w == 1 ? "peer" : "local"
                        if (scount[where, st] != 1) bad("stride " st " (" where " memory): expected one row, found " scount[where, st] + 0)
                    }
                if (sgbps["peer", 1] + 0 <= 2 * sgbps["peer", 32])
                    bad("coalesced peer reads (stride 1, " sgbps["peer", 1] " GB/s) are not clearly faster than stride 32 (" sgbps["peer", 32] " GB/s)")
            }

            # (test membership first: reading fault["outcome"] would create it)
            if ("outcome" in fault) {
                outcome = fault["outcome"]
                if (outcome !~ /^(fault|silent_success|wrong_data|hang|crash|not_run)$/) bad("fault outcome " outcome " is not one of the known outcomes")
                if (outcome != "not_run")
                    for (f in fault) if ((f == "launch" || f == "sync" || f == "after_a" || f == "after_b") && fault[f] !~ /^(-|cudaSuccess|cudaError[A-Za-z]+)$/)
                        bad("fault " f " is " fault[f] ", not a CUDA error name")
                if (outcome == "fault" && fault["launch"] == "cudaSuccess" && fault["sync"] == "cudaSuccess")
                    bad("fault outcome is fault, yet launch and synchronize both succeeded")
                if (outcome == "silent_success" && (fault["sync"] != "cudaSuccess" || fault["data"] != "correct"))
                    bad("fault outcome is silent_success, yet synchronize said " fault["sync"] " and the data was " fault["data"])
                if (outcome == "hang" && fault["signal"] != "9") bad("fault outcome is hang, yet the child was not killed")
                if (outcome == "not_run" && fault["reason"] == "") bad("fault outcome is not_run without a reason")
            }

            nids = split("peer_kernel_access_works pull_vs_copy_then_compute access_without_enable_fails", ids, " ")
            for (i = 1; i <= nids; i++) if (nclaim[ids[i]] != 1) bad("claim " ids[i] ": expected one row, found " nclaim[ids[i]] + 0)
            for (c in nclaim) { known = 0; for (i = 1; i <= nids; i++) known += c == ids[i]; if (!known) bad("claim " c " is not one of this lab") }

            want = transfers == 0 ? "not_testable" : access_ok ? "holds" : "does_not_hold"
            if (transfers >= 0 && nclaim["peer_kernel_access_works"] == 1 && claim["peer_kernel_access_works"] != want) bad("claim peer_kernel_access_works: " claim["peer_kernel_access_works"] " where the rows say " want)
            want = transfers == 0 ? "not_testable" : judged
            if (transfers >= 0 && nclaim["pull_vs_copy_then_compute"] == 1 && claim["pull_vs_copy_then_compute"] != want) bad("claim pull_vs_copy_then_compute: " claim["pull_vs_copy_then_compute"] " where the medians say " want)
            want = outcome == "fault" ? "holds" : (outcome == "silent_success" || outcome == "wrong_data") ? "does_not_hold" : "not_testable"
            if (nclaim["access_without_enable_fails"] == 1 && claim["access_without_enable_fails"] != want) bad("claim access_without_enable_fails: " claim["access_without_enable_fails"] " where the outcome " outcome " says " want)
            exit failed
        }' "$file"
}
