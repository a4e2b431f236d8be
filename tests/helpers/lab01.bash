# Lab 01's run checker: what every run's rows must say, for however many
# GPUs the run had (live runs and the recorded one). Load after helpers/lab.

# lab01_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent (a run of some -t keys, or one recorded before it
# existed); what is there must be whole and right, and the claims' verdicts
# must be those the host tool recomputes.
lab01_check_run() {
    checked_rows_and_verdicts 01 "$1" lab01_check_rows "bad header: "
}

# lab01_check_rows FILE: the rules of lab01_check_run on the rows of a file whose
# header is the result header.
lab01_check_rows() {
    rows_awk -v want="$(lab_claim_ids 01 | grep -c .)" '
        function bad(msg) { print msg; failed = 1 }
        function ran(e) { return (e in rows) && !((e, "skipped") in skipped) }
        {
            rows[f("experiment")] = 1
            if (f("variant") == "skipped") { skipped[f("experiment"), "skipped"] = 1; if (f("detail") == "") bad("skipped " f("experiment") " without a reason"); next }
            if (f("verified") == "0") bad("not verified: " f("experiment") " " f("variant") " " f("src") "->" f("dst") ": " f("detail"))
            v[f("experiment"), f("variant"), f("src"), f("dst")] = f("value")
            if (f("experiment") == "gpus" && f("src") + 1 > gpus) gpus = f("src") + 1
            if (f("experiment") == "matrix" && f("src") + 1 > n) n = f("src") + 1
            if (f("experiment") == "flags" && f("route") == "loopback") self_flags++
            if (f("experiment") == "claim") {
                claims++
                if (f("value") !~ /^(holds|does_not_hold|untested)$/) bad("claim " f("variant") " has verdict " f("value"))
            }
        }
        END {
            split("name compute_capability unified_addressing pci_bus_id", field, " ")
            for (i = 0; i < gpus; i++) {
                for (k = 1; k <= 4; k++) if (v["gpus", field[k], i, -1] == "") bad("GPU " i " has no " field[k])
                if (v["gpus", "compute_capability", i, -1] !~ /^[0-9]+\.[0-9]+$/) bad("GPU " i " compute capability is " v["gpus", "compute_capability", i, -1])
            }
            if (ran("gpus") && ran("matrix") && gpus != n) bad("the matrix has " n " GPUs, gpus lists " gpus)
            split("performance_rank access_supported native_atomic_supported cuda_array_access_supported", attr, " ")
            for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
                if (!(("matrix", "can_access_peer", i, j) in v)) { bad("no matrix row for " i "->" j); continue }
                can = v["matrix", "can_access_peer", i, j]
                if (can != "0" && can != "1") bad("can_access_peer " i "->" j " is " can)
                if (i == j) {
                    if (can != "0") bad("GPU " i " is listed as its own peer")
                    if (self_flags && v["flags", "enable_flags_1", i, i] !~ /^cuda/) bad("no flags row for GPU " i " itself")
                    if (ran("self_access") && v["self_access", "disable_again", i, i] !~ /^cuda/) bad("no self_access rows for GPU " i)
                    continue
                }
                for (k = 1; ran("attributes") && k <= 4; k++)
                    if (v["attributes", attr[k], i, j] !~ /^-?[0-9]+$/) bad("no " attr[k] " for " i "->" j)
                if (ran("attributes") && v["attributes", "access_supported", i, j] != can) bad("access_supported and can_access_peer disagree for " i "->" j)
                if (can != "1") continue
                check_direction(i, j)
            }
            if (claims != want) bad("expected " want " claims (claims.tsv), found " claims + 0)
            exit failed
        }
        function check_direction(i, j,   flags) {
            flags = v["flags", "enable_flags_1", i, j]
            if (ran("flags") && flags !~ /^cuda/) bad("no flags row for " i "->" j)
            if (flags == "cudaSuccess") bad("flags=1 accepted for " i "->" j)
            if (ran("enable_twice") && v["enable_twice", "enable_first", i, j] != "cudaSuccess") bad("enabling " i "->" j " failed: " v["enable_twice", "enable_first", i, j])
            if (ran("enable_twice") && v["enable_twice", "enable_again", i, j] != "cudaErrorPeerAccessAlreadyEnabled") bad("second enable " i "->" j ": " v["enable_twice", "enable_again", i, j])
            if (ran("disable_twice") && v["disable_twice", "disable_first", i, j] != "cudaSuccess") bad("disabling " i "->" j " failed: " v["disable_twice", "disable_first", i, j])
            if (ran("disable_twice") && v["disable_twice", "disable_again", i, j] != "cudaErrorPeerAccessNotEnabled") bad("second disable " i "->" j ": " v["disable_twice", "disable_again", i, j])
            if (ran("one_way") && i < j && v["one_way", "reverse_disable", j, i] !~ /^cuda/) bad("no one_way probe for the pair " i "," j)
        }' "$1"
}
