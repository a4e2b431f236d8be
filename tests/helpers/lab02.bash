# Sanity checks for Lab 02's CSV (02-memcpy-peer --csv), loaded by
# tests/lab02.bats. Each check takes a CSV file, prints what is wrong (one
# line per broken rule, prefixed "lab02:") and returns non-zero. They run on
# live output and on the run recorded in tests/fixtures/.

LAB02_HEADER="section,case,method,peer,src_gpu,dst_gpu,current_gpu,bytes,src_offset,dst_offset,reps,median_ms,min_ms,max_ms,gbps,verified,untouched,expected,got,waited,verdict"
LAB02_METHODS="memcpy_peer memcpy_peer_async memcpy_default host_staged"
LAB02_CLAIMS="current_device_required memcpypeer_beats_memcpy_default p2p_beats_host_staging peer_access_makes_copy_direct memcpy_default_adds_sync"
# The bad-argument cases and the calls that make them.
LAB02_BAD_FLOATS="size_overflow zero_count valid_count"
LAB02_BAD_COPY="null_dst null_src zero_bytes dst_device_negative dst_device_too_large src_device_negative src_device_too_large dst_is_host_memory dst_is_pinned_host_memory src_is_host_memory dst_on_other_gpu src_on_other_gpu valid_copy"
LAB02_BAD_HOST_ONLY="size_overflow zero_count null_dst null_src zero_bytes dst_device_negative dst_device_too_large"
# No copy between two GPUs moves data faster than this (GB/s). NVLink 4 with
# 18 links carries 450 GB/s each way; the ceiling leaves room for any link of
# today and still catches a time measured around nothing.
LAB02_CEILING_GBPS=1000
# Copies of this size and above are "large": peer access must pay off there.
LAB02_LARGE=16777216

# lab02_awk FILE PROGRAM: run an awk program over FILE's records with
# c["column"] the index of each column, num(x) true for a decimal number,
# and bad(msg) recording a broken rule (the check fails at the end).
lab02_awk() {
    awk -F, -v ceiling="$LAB02_CEILING_GBPS" -v large="$LAB02_LARGE" \
        -v methods="$LAB02_METHODS" -v claims="$LAB02_CLAIMS" \
        -v bad_floats="$LAB02_BAD_FLOATS" -v bad_copy="$LAB02_BAD_COPY" \
        -v host_only="$LAB02_BAD_HOST_ONLY" '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab02: " msg; failed = 1 }
        function f(name) { return $c[name] }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { section = $1 }
        section == "info" { info[f("case")] = f("got") }
        '"$2"'
        END { exit failed }' "$1"
}

lab02_check_header() {
    local first
    first=$(head -n 1 "$1")
    if [ "$first" != "$LAB02_HEADER" ]; then
        echo "lab02: the header is not the lab's schema: $first"
        return 1
    fi
}

lab02_check_info() {
    lab02_awk "$1" '
        END {
            if (!num(info["gpus"]) || info["gpus"] < 2) bad("info gpus is missing or below 2")
            if (info["p2p"] != "0" && info["p2p"] != "1") bad("info p2p is not 0 or 1")
            if (!num(info["max_size"]) || info["max_size"] < 1) bad("info max_size is missing")
            if (!num(info["gpu_a"]) || !num(info["gpu_b"]) || info["gpu_a"] == info["gpu_b"])
                bad("info gpu_a and gpu_b are not two GPUs")
        }'
}

# lab02_check_bad_args FILE [GPUS]: every case of every call is there; a case
# the machine can run returned what it must and wrote nothing (the valid copy:
# it succeeded and wrote); with GPUS given, exactly the cases needing more
# GPUs than that are skipped.
lab02_check_bad_args() {
    LAB02_GPUS=${2:-} lab02_awk "$1" '
        BEGIN { gpus = ENVIRON["LAB02_GPUS"] }
        section == "bad_args" {
            key = f("case") "/" f("method")
            if (key in seen) bad("bad_args " key " appears twice")
            seen[key] = 1
            v = f("verdict")
            if (v == "skipped") { skipped[f("case")] = 1; next }
            if (v != "pass") bad("bad_args " key ": verdict " v)
            if (f("got") != f("expected")) bad("bad_args " key ": expected " f("expected") ", got " f("got"))
            if (f("case") == "valid_copy" || f("case") == "valid_count") {
                if (f("got") != "P2P_OK") bad("bad_args " key ": the valid copy was refused")
                if (f("untouched") != "0") bad("bad_args " key ": the valid copy did not write")
                if (f("verified") != "1") bad("bad_args " key ": the valid copy wrote the wrong bytes")
            } else if (f("untouched") != "1") {
                bad("bad_args " key ": a rejected call wrote to the destination")
            }
        }
        END {
            n = split(bad_floats, fl, " ")
            for (i = 1; i <= n; i++)
                if (!((fl[i] "/p2p_copy_floats") in seen)) bad("bad_args " fl[i] " is missing")
            n = split(bad_copy, cp, " ")
            for (i = 1; i <= n; i++)
                for (m = 0; m < 2; m++) {
                    call = m ? "p2p_copy_async" : "p2p_copy"
                    if (!((cp[i] "/" call) in seen)) bad("bad_args " cp[i] "/" call " is missing")
                }
            n = split(host_only, ho, " ")
            for (i = 1; i <= n; i++)
                if (ho[i] in skipped) bad("bad_args " ho[i] " needs no GPU but was skipped")
            if (gpus != "") {
                if (gpus + 0 >= 2) for (k in skipped) bad("bad_args " k " was skipped with " gpus " GPUs")
                if (gpus + 0 == 0 && !("valid_copy" in skipped)) bad("bad_args valid_copy ran without a GPU")
                if (gpus + 0 == 1 && !("dst_on_other_gpu" in skipped)) bad("bad_args dst_on_other_gpu ran with one GPU")
                if (gpus + 0 == 1 && ("dst_is_host_memory" in skipped)) bad("bad_args dst_is_host_memory was skipped with one GPU")
            }
        }'
}

# Every size of the sweep, both directions, both calls, each peer state run.
lab02_check_sweep() {
    lab02_awk "$1" '
        section == "sweep" {
            key = f("peer") "/" f("src_gpu") "->" f("dst_gpu") "/" f("method")
            rows[key]++
            if (f("verified") != "1") bad("sweep " key " " f("bytes") " B: not verified")
            if (f("untouched") != "1") bad("sweep " key " " f("bytes") " B: a guard byte was written")
            b = f("bytes") + 0
            if (b == 1) one[key] = 1
            if (b == info["max_size"] + 0) top[key] = 1
            if (b > 1 && b % 2 == 1) odd[key] = 1
            if (f("src_offset") + 0 > 0 || f("dst_offset") + 0 > 0) unaligned[key] = 1
        }
        END {
            a = info["gpu_a"]; b = info["gpu_b"]
            for (p = 0; p <= info["p2p"]; p++)
                for (d = 0; d < 2; d++)
                    for (m = 0; m < 2; m++) {
                        key = (p ? "on" : "off") "/" (d ? b "->" a : a "->" b) "/" (m ? "p2p_copy_async" : "p2p_copy")
                        if (!(key in rows)) { bad("sweep " key " is missing"); continue }
                        if (!(key in one)) bad("sweep " key " has no 1-byte copy")
                        if (!(key in top)) bad("sweep " key " does not reach max_size " info["max_size"])
                        if (info["max_size"] > 3 && !(key in odd)) bad("sweep " key " has no odd size")
                        if (info["max_size"] > 1 && !(key in unaligned)) bad("sweep " key " has no unaligned copy")
                    }
        }'
}

lab02_check_stream_order() {
    lab02_awk "$1" '
        section == "stream_order" {
            key = f("peer") "/" f("src_gpu") "->" f("dst_gpu")
            seen[key] = 1
            if (f("verified") != "1") bad("stream_order " key ": p2p_copy_async did not follow its stream")
        }
        END {
            a = info["gpu_a"]; b = info["gpu_b"]
            for (p = 0; p <= info["p2p"]; p++) {
                if (!(((p ? "on" : "off") "/" a "->" b) in seen)) bad("stream_order " (p ? "on" : "off") " " a "->" b " is missing")
                if (!(((p ? "on" : "off") "/" b "->" a) in seen)) bad("stream_order " (p ? "on" : "off") " " b "->" a " is missing")
            }
        }'
}

# Times finite and positive, min <= median <= max, GB/s consistent with
# bytes / median and below the ceiling; every method at every size both ways;
# with P2P, peer access on beats off, and P2P beats host staging, when large.
lab02_check_timing() {
    lab02_awk "$1" '
        section == "timing" {
            key = f("method") "/" f("peer") "/" f("src_gpu") "->" f("dst_gpu") "/" f("bytes")
            what = "timing " key
            if (key in gbps) bad(what " appears twice")
            if (f("verified") != "1") bad(what ": not verified")
            if (!num(f("median_ms")) || !num(f("min_ms")) || !num(f("max_ms")) || !num(f("gbps"))) {
                bad(what ": a time or a bandwidth is not a number"); next }
            if (f("reps") + 0 < 1) bad(what ": no repetitions")
            if (f("min_ms") + 0 <= 0) bad(what ": a time is not positive")
            if (f("min_ms") + 0 > f("median_ms") + 0 || f("median_ms") + 0 > f("max_ms") + 0)
                bad(what ": min <= median <= max does not hold")
            g = f("gbps") + 0
            if (g <= 0) bad(what ": bandwidth is not positive")
            if (g > ceiling) bad(what ": " g " GB/s is above the " ceiling " GB/s ceiling")
            want = f("bytes") / 1e6 / f("median_ms")
            if (want > 0 && (g / want > 1.01 || g / want < 0.99)) bad(what ": gbps " g " is not bytes / median time")
            gbps[key] = g
            if (!(f("bytes") in sizes)) n_sizes++
            sizes[f("bytes")] = 1
        }
        END {
            a = info["gpu_a"]; b = info["gpu_b"]
            n = split(methods, m, " ")
            for (s in sizes)
                for (p = 0; p <= info["p2p"]; p++)
                    for (d = 0; d < 2; d++)
                        for (i = 1; i <= n; i++) {
                            dir = d ? b "->" a : a "->" b
                            key = m[i] "/" (p ? "on" : "off") "/" dir "/" s
                            if (!(key in gbps)) bad("timing " key " is missing")
                        }
            if (n_sizes == 0) bad("no timing rows")
            if (info["p2p"] != "1") exit failed
            for (s in sizes) {
                if (s + 0 < large) continue
                for (d = 0; d < 2; d++) {
                    dir = d ? b "->" a : a "->" b
                    for (i = 1; i <= 3; i++) {
                        on = gbps[m[i] "/on/" dir "/" s]; off = gbps[m[i] "/off/" dir "/" s]
                        if (on + 0 <= off + 0) bad("timing " m[i] " " dir " " s " B: peer access on (" on " GB/s) does not beat off (" off " GB/s)")
                    }
                    p2p = gbps["memcpy_peer/on/" dir "/" s]; staged = gbps["host_staged/on/" dir "/" s]
                    if (p2p + 0 <= staged + 0) bad("timing " dir " " s " B: P2P (" p2p " GB/s) does not beat host staging (" staged " GB/s)")
                }
            }
        }'
}

# The chapter's experiment: data checked with each GPU current.
lab02_check_current_device() {
    lab02_awk "$1" '
        section == "current_device" {
            key = f("peer") "/" f("src_gpu") "->" f("dst_gpu") "/" f("case")
            seen[key] = 1
            if (f("verified") != "1") bad("current_device " key ": the data did not arrive every time")
            if (!num(f("median_ms")) || f("min_ms") + 0 <= 0) bad("current_device " key ": no positive time")
            if (f("gbps") + 0 > ceiling) bad("current_device " key ": above the ceiling")
            cur = f("current_gpu")
            if (f("case") == "current_src" && cur != f("src_gpu")) bad("current_device " key ": the current GPU is not the source")
            if (f("case") == "current_dst" && cur != f("dst_gpu")) bad("current_device " key ": the current GPU is not the destination")
        }
        END {
            a = info["gpu_a"]; b = info["gpu_b"]
            split("current_src current_dst", want, " ")
            if (info["third_gpu"] + 0 >= 0) want[3] = "current_other"
            for (p = 0; p <= info["p2p"]; p++)
                for (d = 0; d < 2; d++)
                    for (i in want) {
                        key = (p ? "on" : "off") "/" (d ? b "->" a : a "->" b) "/" want[i]
                        if (!(key in seen)) bad("current_device " key " is missing")
                    }
        }'
}

# The ordering experiment: data verified; a copy in a non-blocking stream does
# not wait for work pending in a legacy default stream.
lab02_check_ordering() {
    lab02_awk "$1" '
        section == "ordering" {
            key = f("peer") "/" f("case") "/" f("method")
            n_rows++
            if (f("verified") != "1") bad("ordering " key ": not verified")
            if (f("waited") != "0" && f("waited") != "1") bad("ordering " key ": waited is not 0 or 1")
            if (f("method") == "memcpy_peer_async" && f("peer") == "on" && f("waited") == "1")
                bad("ordering " key ": cudaMemcpyPeerAsync in a non-blocking stream waited for the legacy stream")
        }
        END { if (n_rows < 6) bad("ordering has " n_rows + 0 " rows, expected at least 6") }'
}

# Every claim once, with a valid verdict; the verdict on the current device
# agrees with the current-device rows.
lab02_check_claims() {
    lab02_awk "$1" '
        section == "current_device" && f("verified") != "1" { lost = 1 }
        section == "current_device" { cd_rows++ }
        section == "claim" {
            id = f("case"); v = f("verdict")
            count[id]++
            verdict[id] = v
            if (v !~ /^(holds|does_not_hold|not_testable)$/) bad("claim " id " has verdict " v)
        }
        END {
            n = split(claims, k, " ")
            for (i = 1; i <= n; i++)
                if (count[k[i]] != 1) bad("claim " k[i] " appears " count[k[i]] + 0 " times")
            for (id in count) {
                known = 0
                for (i = 1; i <= n; i++) if (k[i] == id) known = 1
                if (!known) bad("claim " id " is not one of the lab'"'"'s claims")
            }
            if (cd_rows > 0 && !lost && verdict["current_device_required"] != "does_not_hold")
                bad("claim current_device_required: the data always arrived, yet the verdict is " verdict["current_device_required"])
        }'
}

# lab02_check_csv FILE: the whole schema of a full run.
lab02_check_csv() {
    local file=$1 status=0
    lab02_check_header "$file" || return 1
    lab02_check_info "$file" || status=1
    lab02_check_bad_args "$file" "$(awk -F, '$1 == "info" && $2 == "gpus" { print $19 }' "$file")" || status=1
    lab02_check_sweep "$file" || status=1
    lab02_check_stream_order "$file" || status=1
    lab02_check_timing "$file" || status=1
    lab02_check_current_device "$file" || status=1
    lab02_check_ordering "$file" || status=1
    lab02_check_claims "$file" || status=1
    return "$status"
}
