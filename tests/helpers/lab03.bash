# Checks of lab 03's result rows (03-peer-kernels --csv), loaded by
# tests/lab03.bats. lab03_check_csv takes a CSV file, prints what is wrong
# ("lab03: ...") and returns non-zero when a rule of physics or of the lab
# is broken, or when a recorded verdict is not what the rows say (the
# lab's host tool recomputes them). It runs on live output and on the
# recorded run in tests/fixtures/, and accepts partial runs (-t KEY).

# Generous ceilings in GB/s of array bytes. Over a link (peer or host):
# above NVLink 4 (450 GB/s one way), NVLink 5 (900) and NVLink-C2C.
# Loopback is local memory: the kernel reads and writes each byte once,
# and small arrays may sit in L2.
LAB03_LINK_CEILING=1500
LAB03_LOCAL_CEILING=20000

# lab03_check_csv FILE: every rule below; prints each broken one.
lab03_check_csv() {
    local file=$1 tool status=0
    if [ ! -s "$file" ]; then
        echo "lab03: $file is missing or empty"
        return 1
    fi
    if [ "$(head -n 1 "$file")" != "$(head -n 1 "$FIXTURES/rows-header.csv")" ]; then
        echo "lab03: line 1 is not the result header: $(head -n 1 "$file")"
        return 1
    fi
    tool=$(host_tool 03) || return 1
    "$tool" check "$file" 2>&1 | sed 's/^/lab03: /'
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    lab03_physics "$file" || status=1
    return "$status"
}

# lab03_physics FILE: the rows' own rules (no verdicts).
lab03_physics() {
    rows_awk -v link="$LAB03_LINK_CEILING" -v local_="$LAB03_LOCAL_CEILING" '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab03: " msg; failed = 1 }
        function abs(x) { return x < 0 ? -x : x }
        # Checks of every timed row; "what" names it in messages.
        function timed(what,    ceiling, want) {
            ceiling = f("route") == "loopback" ? local_ : link
            if (f("verified") != "1") bad(what ": not verified (verified=" f("verified") ")")
            if (!num(f("median_us")) || !num(f("min_us")) || !num(f("max_us")) || !num(f("gbps"))) { bad(what ": a time or rate is not a number"); return }
            if (f("min_us") + 0 <= 0) bad(what ": a time is not positive")
            if (f("min_us") + 0 > f("median_us") + 0 || f("median_us") + 0 > f("max_us") + 0) bad(what ": min <= median <= max does not hold")
            if (reps == "") reps = f("reps")
            else if (f("reps") != reps) bad(what ": " f("reps") " repetitions, other rows have " reps)
            want = f("bytes") / 1e3 / f("median_us")
            if (abs(f("gbps") - want) > 0.02 * want + 0.01) bad(what ": " f("gbps") " GB/s does not match " f("bytes") " bytes in " f("median_us") " us")
            if (f("gbps") + 0 > ceiling) bad(what ": " f("gbps") " GB/s is above the physical ceiling of " ceiling " GB/s")
        }
        f("route") !~ /^(peer|peer_off|host|loopback|)$/ { bad(f("experiment") " " f("variant") ": unknown route " f("route")); next }
        f("experiment") == "machine" || f("experiment") == "claim" || f("variant") == "skipped" { next }
        f("experiment") == "transfer" {
            timed("transfer " f("variant") " on " f("route") " at " f("bytes") " bytes")
            n[f("route"), f("variant"), f("bytes")]++; med[f("route"), f("variant"), f("bytes")] = f("median_us"); rate[f("route"), f("variant"), f("bytes")] = f("gbps")
            variant[f("route"), f("variant")] = 1; size[f("route"), f("bytes")] = 1; routes[f("route")] = 1
            next
        }
        f("experiment") == "stride" {
            timed("stride " f("variant") " on " f("route"))
            sn[f("route"), f("variant")]++; srate[f("route"), f("variant")] = f("gbps"); sroutes[f("route")] = 1
            next
        }
        f("experiment") == "bounds" { if (f("verified") != "1") bad("bounds " f("variant") " on " f("route") " (" f("count") " floats, " f("mode") "): not verified"); next }
        f("experiment") == "fault" { fault[f("mode"), f("variant")] = f("value"); fmode[f("mode")] = 1; next }
        { bad("unknown experiment " f("experiment")) }
        END {
            split("pull push copy_only copy_then_compute", vs, " ")
            for (r in routes) {
                # The sizes of a route: a x4 sweep, sorted; every variant at each.
                k = 0
                for (key in size) { split(key, p, SUBSEP); if (p[1] == r) s[++k] = p[2] + 0 }
                for (i = 2; i <= k; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
                for (i = 2; i < k; i++) if (s[i] != 4 * s[i - 1]) bad("transfer sizes on " r " are not a x4 sweep (" s[i - 1] " then " s[i] ")")
                for (v = 1; v <= 4; v++) {
                    if (!((r, vs[v]) in variant)) continue
                    for (i = 1; i <= k; i++) {
                        b = sprintf("%.0f", s[i])
                        if (n[r, vs[v], b] != 1) bad("transfer " vs[v] " on " r " at " b " bytes: expected one row, found " n[r, vs[v], b] + 0)
                    }
                    lo = sprintf("%.0f", s[1]); hi = sprintf("%.0f", s[k])
                    if (hi + 0 >= 64 * lo && rate[r, vs[v], hi] + 0 <= rate[r, vs[v], lo] + 0)
                        bad("transfer " vs[v] " on " r ": bandwidth does not rise with size (" rate[r, vs[v], lo] " GB/s at " lo " bytes, " rate[r, vs[v], hi] " at " hi ")")
                }
                if (hi + 0 >= 16777216 && ((r, "copy_only") in variant) && med[r, "copy_then_compute", hi] + 0 < 0.9 * med[r, "copy_only", hi])
                    bad("copy_then_compute on " r " at " hi " bytes (" med[r, "copy_then_compute", hi] " us) is faster than its own copy (" med[r, "copy_only", hi] " us)")
                delete s
            }
            for (r in sroutes) {
                for (st = 1; st <= 64; st *= 2) if (sn[r, "stride_" st] != 1) bad("stride_" st " on " r ": expected one row, found " sn[r, "stride_" st] + 0)
                # Peer reads cost a sector each; over PCIe the L2 may keep host lines.
                factor = r == "peer" ? 2 : 1
                if (r != "loopback" && srate[r, "stride_1"] + 0 <= factor * srate[r, "stride_32"])
                    bad("coalesced reads over " r " (stride 1, " srate[r, "stride_1"] " GB/s) are not clearly faster than stride 32 (" srate[r, "stride_32"] " GB/s)")
            }
            # Each child (mode) on its own; test membership first: reading would create it.
            for (m in fmode) {
                if (!((m, "outcome") in fault)) { bad("fault " m ": no outcome"); continue }
                o = fault[m, "outcome"]
                if (o !~ /^(fault|silent_success|wrong_data|hang|crash|not_run)$/) bad("fault outcome " o " is not one of the known outcomes")
                for (k in fault) { split(k, mk, SUBSEP); if (mk[1] == m && mk[2] ~ /^(launch|sync|waited|after_a|after_b|reverse_enabled)$/ && fault[k] !~ /^(-|cudaSuccess|cudaError[A-Za-z]+)$/) bad("fault " mk[2] " is " fault[k] ", not a CUDA error name") }
                if (o == "fault" && fault[m, "launch"] == "cudaSuccess" && fault[m, "sync"] == "cudaSuccess") bad("fault outcome is fault, yet launch and synchronize both succeeded")
                if (o == "silent_success" && (fault[m, "sync"] != "cudaSuccess" || fault[m, "data"] != "correct")) bad("fault outcome is silent_success, yet synchronize said " fault[m, "sync"] " and the data was " fault[m, "data"])
                if (o == "hang" && fault[m, "signal"] != "9") bad("fault outcome is hang, yet the child was not killed")
                if (o == "not_run" && !((m, "reason") in fault)) bad("fault outcome is not_run without a reason")
                if (m == "one_way" && fault[m, "reverse_enabled"] != "cudaSuccess") bad("fault one_way: enabling access the other way returned " fault[m, "reverse_enabled"])
            }
            exit failed
        }' "$1"
}
