# Checks on Lab 01's CSV (section,gpu,peer,field,value), shared by the live
# run and the recorded one. Each prints what is wrong and returns 1.

# lab01_check_csv FILE: the whole schema, for however many GPUs it lists.
lab01_check_csv() {
    local file=$1
    awk -F, '
        NR == 1 { if ($0 != "section,gpu,peer,field,value") { print "bad header: " $0; bad = 1 } next }
        $1 == "summary" && $4 == "gpus" { n = $5 }
        $1 == "gpu" { gpu[$2 "," $4] = $5 }
        $1 == "access" && $4 == "can_access_peer" {
            access[$2 "," $3] = $5
            if ($5 != "0" && $5 != "1") { print "can_access_peer " $2 "->" $3 " is " $5; bad = 1 }
        }
        $1 == "attribute" { attr[$2 "," $3 "," $4] = $5 }
        $1 == "enable" { enable[$2 "," $3 "," $4] = $5 }
        $1 == "claim" {
            claims++
            if ($5 !~ /^(holds|does_not_hold|not_testable)$/) { print "claim " $4 " has verdict " $5; bad = 1 }
        }
        END {
            if (n < 1) { print "no summary,gpus row"; exit 1 }
            for (i = 0; i < n; i++) {
                split("name compute_capability unified_addressing pci_bus_id", f, " ")
                for (k in f) if (gpu[i "," f[k]] == "") { print "GPU " i " has no " f[k]; bad = 1 }
                for (j = 0; j < n; j++) {
                    if (!((i "," j) in access)) { print "no access row for " i "->" j; bad = 1 }
                    if (i == j) {
                        if (access[i "," j] != "0") { print "GPU " i " is listed as its own peer"; bad = 1 }
                        continue
                    }
                    if (attr[i "," j ",access_supported"] != access[i "," j]) {
                        print "access_supported and can_access_peer disagree for " i "->" j; bad = 1
                    }
                    if (access[i "," j] == "1") {
                        if (enable[i "," j ",first"] != "cudaSuccess") { print "enabling " i "->" j " failed"; bad = 1 }
                        if (enable[i "," j ",again"] != "cudaErrorPeerAccessAlreadyEnabled") { print "second enable " i "->" j ": " enable[i "," j ",again"]; bad = 1 }
                        if (enable[i "," j ",flags_1"] == "cudaSuccess") { print "flags=1 accepted for " i "->" j; bad = 1 }
                    }
                }
            }
            if (claims != 4) { print "expected 4 claims, found " claims + 0; bad = 1 }
            exit bad
        }' "$file"
}
