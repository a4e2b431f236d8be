# Lab 01's run checker: what every run's rows must say, for however many
# GPUs the run had (live runs and the recorded one). Load after helpers/lab.

# lab01_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent (a run of some -t keys, or one recorded before it
# existed); what is there must be whole and right, and the claims' verdicts
# must be those the host tool recomputes.
lab01_check_run() {
    local file=$1 tool status=0
    awk -F, -v header="$(head -1 "$FIXTURES/rows-header.csv")" \
        -v want="$(grep -v "^#" "$REPO_ROOT/labs/01-peer-checks/claims.tsv" | tail -n +2 | grep -c .)" '
        function bad(msg) { print msg; failed = 1 }
        function ran(e) { return (e in rows) && !((e, "skipped") in skipped) }
        NR == 1 { if ($0 != header) bad("bad header: " $0); next }
        {
            rows[$1] = 1
            if ($2 == "skipped") { skipped[$1, "skipped"] = 1; if ($17 == "") bad("skipped " $1 " without a reason"); next }
            if ($15 == "0") bad("not verified: " $1 " " $2 " " $4 "->" $5 ": " $17)
            v[$1, $2, $4, $5] = $16
            if ($1 == "gpus" && $4 + 1 > gpus) gpus = $4 + 1
            if ($1 == "matrix" && $4 + 1 > n) n = $4 + 1
            if ($1 == "flags" && $3 == "loopback") self_flags++
            if ($1 == "claim") {
                claims++
                if ($16 !~ /^(holds|does_not_hold|untested)$/) bad("claim " $2 " has verdict " $16)
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
        function check_direction(i, j,   f) {
            f = v["flags", "enable_flags_1", i, j]
            if (ran("flags") && f !~ /^cuda/) bad("no flags row for " i "->" j)
            if (f == "cudaSuccess") bad("flags=1 accepted for " i "->" j)
            if (ran("enable_twice") && v["enable_twice", "enable_first", i, j] != "cudaSuccess") bad("enabling " i "->" j " failed: " v["enable_twice", "enable_first", i, j])
            if (ran("enable_twice") && v["enable_twice", "enable_again", i, j] != "cudaErrorPeerAccessAlreadyEnabled") bad("second enable " i "->" j ": " v["enable_twice", "enable_again", i, j])
            if (ran("disable_twice") && v["disable_twice", "disable_first", i, j] != "cudaSuccess") bad("disabling " i "->" j " failed: " v["disable_twice", "disable_first", i, j])
            if (ran("disable_twice") && v["disable_twice", "disable_again", i, j] != "cudaErrorPeerAccessNotEnabled") bad("second disable " i "->" j ": " v["disable_twice", "disable_again", i, j])
            if (ran("one_way") && i < j && v["one_way", "reverse_disable", j, i] !~ /^cuda/) bad("no one_way probe for the pair " i "," j)
        }' "$file" || status=1
    tool=$(host_tool 01) || return 1
    "$tool" check "$file" || status=1
    return "$status"
}
