# The checker of lab 02's rows (02-memcpy-peer --csv, or a result file),
# loaded by tests/lab02.bats. Each check takes a CSV file of lab_row rows,
# prints what is wrong (one line per broken rule, prefixed "lab02:") and
# returns non-zero. They run on live output and on the recorded run in
# tests/fixtures/, and on one-line edits of it (tests/fixtures/lab02-broken.tsv).
#
# The expected status of every argument case is written here, apart from the
# program: a run whose rows disagree with this table fails, whatever the
# program's own verdict says.

LAB02_HEADER="experiment,variant,route,src,dst,mode,bytes,count,reps,median_us,min_us,max_us,gbps,peak_gbps,verified,value,detail"
LAB02_METHODS="memcpy_peer memcpy_peer_async memcpy_default host_staged"
# case:expected status; the float cases go through p2p_copy_floats, the
# others through p2p_copy and p2p_copy_async. * marks the cases that need a
# second GPU (skipped, with a row saying so, on one GPU).
LAB02_FLOAT_CASES="size_overflow:P2P_ERR_SIZE_OVERFLOW zero_count:P2P_ERR_ZERO_SIZE valid_count:P2P_OK"
LAB02_COPY_CASES="null_dst:P2P_ERR_NULL_DST null_src:P2P_ERR_NULL_SRC zero_bytes:P2P_ERR_ZERO_SIZE
dst_device_negative:P2P_ERR_BAD_DST_DEVICE dst_device_too_large:P2P_ERR_BAD_DST_DEVICE
src_device_negative:P2P_ERR_BAD_SRC_DEVICE src_device_too_large:P2P_ERR_BAD_SRC_DEVICE
dst_is_host_memory:P2P_ERR_DST_NOT_ON_DEVICE dst_is_pinned_host_memory:P2P_ERR_DST_NOT_ON_DEVICE
src_is_host_memory:P2P_ERR_SRC_NOT_ON_DEVICE *dst_on_other_gpu:P2P_ERR_DST_NOT_ON_DEVICE
*src_on_other_gpu:P2P_ERR_SRC_NOT_ON_DEVICE valid_copy:P2P_OK"
# No copy moves data faster than this (GB/s, bytes counted once): between two
# GPUs (NVLink 5 carries 900 GB/s each way) and over the host link (C2C 450);
# within one GPU a copy reads and writes each byte (HBM3e: 4.8 TB/s in all).
LAB02_CEILING_LINK=1000
LAB02_CEILING_LOCAL=5000
# Copies of this size and above are "large": peer access must pay off there.
LAB02_LARGE=16777216

# lab02_awk FILE PROGRAM: run an awk program over FILE's rows (rows_awk: f(name)
# the field of that column) with num(x) true for a decimal number, bad(msg)
# recording a broken rule (the check fails at the end), and gpus the number
# of machine gpu rows.
lab02_awk() {
    rows_awk -v link="$LAB02_CEILING_LINK" -v local_max="$LAB02_CEILING_LOCAL" \
        -v large="$LAB02_LARGE" -v methods="$LAB02_METHODS" \
        -v float_cases="$LAB02_FLOAT_CASES" -v copy_cases="$(tr '\n' ' ' <<<"$LAB02_COPY_CASES")" '
        function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
        function bad(msg) { print "lab02: " msg; failed = 1 }
        function leg() { return f("route") "/" f("src") "->" f("dst") }
        f("experiment") == "machine" && f("variant") == "gpu" { gpus++ }
        f("variant") == "skipped" { skipped[f("experiment") "/" f("route")] = f("detail"); skipped[f("experiment")] = 1; next }
        '"$2"'
        END { exit failed }' "$1"
}

lab02_check_header() {
    local first
    first=$(head -n 1 "$1")
    if [ "$first" != "$LAB02_HEADER" ]; then
        echo "lab02: the header is not the result-row header: $first"
        return 1
    fi
}

# Every case of every call once, with the status of the table above; a
# refused call wrote nothing, a valid one exactly its bytes.
lab02_check_args() {
    lab02_awk "$1" '
        BEGIN {
            n = split(float_cases, fc, " ")
            for (i = 1; i <= n; i++) { split(fc[i], kv, ":"); want[kv[1] "/p2p_copy_floats"] = kv[2] }
            n = split(copy_cases, cc, " ")
            for (i = 1; i <= n; i++) {
                split(cc[i], kv, ":"); name = kv[1]; two = sub(/^\*/, "", name)
                want[name "/p2p_copy"] = kv[2]; want[name "/p2p_copy_async"] = kv[2]
                if (two) { needs_two[name "/p2p_copy"] = 1; needs_two[name "/p2p_copy_async"] = 1 }
            }
        }
        f("experiment") == "args" {
            key = f("variant") "/" f("mode")
            if (!(key in want)) { bad("args " key " is not a case of the lab"); next }
            if (key in seen) bad("args " key " appears twice")
            seen[key] = 1
            if (f("value") != want[key]) bad("args " key ": expected " want[key] ", got " f("value"))
            if (f("verified") != "1") bad("args " key ": not verified (" f("detail") ")")
            if (want[key] == "P2P_OK" && f("detail") !~ /exactly the copy/)
                bad("args " key ": the valid copy did not write exactly its bytes")
            if (want[key] != "P2P_OK" && f("detail") !~ /nothing written/)
                bad("args " key ": a refused call wrote to a destination")
        }
        END {
            for (key in want)
                if (!(key in seen) && !((key in needs_two) && ("args/peer" in skipped)))
                    bad("args " key " is missing")
        }'
}

# Every size from 1 byte to the largest, aligned and not, both calls, each
# leg of each route; verified, and the source GPU still current afterwards.
lab02_check_sweep() {
    lab02_awk "$1" '
        f("experiment") == "sweep" {
            key = leg() "/" f("variant"); legs[leg()] = f("route"); rows[key]++
            b = f("bytes") + 0
            if (f("verified") != "1") bad("sweep " key " " b " B: not verified")
            if (f("value") != f("src")) bad("sweep " key " " b " B: the wrapper changed the current device to " f("value"))
            if (b == 1) one[key] = 1
            if (b > top) top = b
            top_of[key] = b > top_of[key] ? b : top_of[key]
            if (b > 1 && b % 2 == 1) odd[key] = 1
            if (f("mode") == "unaligned") unaligned[key] = 1
        }
        END {
            if (length(legs) == 0 && !("sweep" in skipped)) bad("no sweep rows")
            for (l in legs) {
                split(l, p, "[/>-]+")
                if (legs[l] != "loopback" && !((p[1] "/" p[3] "->" p[2]) in legs)) bad("sweep " p[1] "/" p[3] "->" p[2] " is missing")
                for (m = 0; m < 2; m++) {
                    key = l "/" (m ? "p2p_copy_async" : "p2p_copy")
                    if (!(key in rows)) { bad("sweep " key " is missing"); continue }
                    if (!(key in one)) bad("sweep " key " has no 1-byte copy")
                    if (top_of[key] != top) bad("sweep " key " does not reach the largest size " top)
                    if (top > 3 && !(key in odd)) bad("sweep " key " has no odd size")
                    if (top > 1 && !(key in unaligned)) bad("sweep " key " has no unaligned copy")
                }
            }
        }'
}

# p2p_copy_async (and, where it was run, p2p_copy_staged) in stream order on
# every leg the sweep copied.
lab02_check_stream_order() {
    lab02_awk "$1" '
        f("experiment") == "sweep" { legs[leg()] = 1 }
        f("experiment") == "stream_order" {
            key = leg() "/" f("variant") "/" f("mode"); seen[key] = 1
            if (f("variant") == "p2p_copy_staged") staged[leg()] = 1
            if (f("verified") != "1") bad("stream_order " key ": the copy did not follow its stream")
        }
        END {
            for (l in legs) {
                if (!((l "/p2p_copy_async/delay_then_upload") in seen)) bad("stream_order " l " is missing")
                if (!(l in staged)) continue
                if (!((l "/p2p_copy_staged/upload_in_timed_order") in seen)) bad("stream_order " l " staged fork check is missing")
                if (!((l "/p2p_copy_staged/source_stream_held") in seen)) bad("stream_order " l " staged wait check is missing")
            }
        }'
}

# Times finite and positive, min <= median <= max, GB/s = bytes / median,
# below the ceiling of the route and from 64 MiB above its floor, rising
# from the smallest size to the largest; every way at every size on every
# leg; with both peer routes, peer access on beats off and a peer copy beats
# staging when large.
lab02_check_timing() {
    lab02_awk "$1" '
        f("experiment") == "timing" {
            key = f("variant") "/" leg() (f("mode") != "" ? "/" f("mode") : "")
            what = "timing " key "/" f("bytes")
            if ((key "/" f("bytes")) in gbps) bad(what " appears twice")
            if (f("verified") != "1") bad(what ": not verified")
            if (!num(f("median_us")) || !num(f("min_us")) || !num(f("max_us")) || !num(f("gbps"))) {
                bad(what ": a time or a bandwidth is not a number"); next }
            if (f("reps") + 0 < 1) bad(what ": no samples")
            if (f("min_us") + 0 <= 0) bad(what ": a time is not positive")
            if (f("min_us") + 0 > f("median_us") + 0 || f("median_us") + 0 > f("max_us") + 0)
                bad(what ": min <= median <= max does not hold")
            g = f("gbps") + 0; limit = f("route") == "loopback" ? local_max : link
            if (g <= 0) bad(what ": bandwidth is not positive")
            if (g > limit) bad(what ": " g " GB/s is above the " limit " GB/s ceiling")
            # Floors no working link misses from 64 MiB (PCIe Gen3 pageable copies
            # reach several GB/s, the memory of a GPU hundreds, a copy staged
            # through the host what the host link gives): timing the wrong
            # thing (allocations, a unit slip) falls below them.
            floor = f("route") == "loopback" && f("variant") != "host_staged" ? 50 : 1
            if (f("bytes") + 0 >= 67108864 && g < floor) bad(what ": " g " GB/s is below the " floor " GB/s floor")
            expect = f("bytes") / 1e3 / f("median_us")
            if (expect > 0 && (g / expect > 1.01 || g / expect < 0.99)) bad(what ": gbps " g " is not bytes / median time")
            gbps[key "/" f("bytes")] = g; keys[key] = 1; sizes[f("route") "/" f("bytes")] = 1
            if (f("route") != "host") legs[leg()] = f("route")
            else host[f("bytes")]++
            b = f("bytes") + 0
            if (!(key in lo) || b < lo[key]) { lo[key] = b; lo_g[key] = g }
            if (b > hi[key]) { hi[key] = b; hi_g[key] = g }
        }
        END {
            if (length(keys) == 0 && !("timing" in skipped)) bad("no timing rows")
            n = split(methods, m, " ")
            for (l in legs)
                for (s in sizes) {
                    split(s, rs, "/"); if (rs[1] != legs[l]) continue
                    for (i = 1; i <= n; i++)
                        if (!((m[i] "/" l "/" rs[2]) in gbps)) bad("timing " m[i] "/" l "/" rs[2] " is missing")
                }
            for (b in host)
                if (host[b] != 4) bad("timing host " b " B: " host[b] " of the 4 pinned and pageable copies")
            for (k in keys)
                if (hi[k] > lo[k] && hi_g[k] <= lo_g[k])
                    bad("timing " k ": " hi_g[k] " GB/s at " hi[k] " B is not above " lo_g[k] " GB/s at " lo[k] " B")
            for (k in gbps) {
                if (k !~ /\/peer\// || split(k, q, "/") != 4 || q[4] + 0 < large) continue
                off = gbps[q[1] "/peer_off/" q[3] "/" q[4]]
                if (q[1] != "host_staged" && off != "" && gbps[k] <= off + 0)
                    bad("timing " q[1] " " q[3] " " q[4] " B: peer access on (" gbps[k] " GB/s) does not beat off (" off " GB/s)")
                staged = gbps["host_staged/peer/" q[3] "/" q[4]]
                if (q[1] == "memcpy_peer" && staged != "" && gbps[k] <= staged + 0)
                    bad("timing " q[3] " " q[4] " B: P2P (" gbps[k] " GB/s) does not beat host staging (" staged " GB/s)")
            }
        }'
}

# The device-switch timing (host clock, calls with the destination current):
# verified, positive and ordered times, bytes / median, below the ceiling;
# both ways at every size on every leg. A recording made before the
# experiment existed has no such rows; a live run's test asks for them.
lab02_check_switch() {
    lab02_awk "$1" '
        f("experiment") == "switch" {
            key = f("variant") "/" leg(); what = "switch " key "/" f("bytes")
            if ((key "/" f("bytes")) in seen) bad(what " appears twice")
            seen[key "/" f("bytes")] = 1; legs[leg()] = 1; sizes[f("bytes")] = 1
            if (f("variant") != "memcpy_peer" && f("variant") != "set_device_memcpy") bad(what ": not a way of the experiment")
            if (f("mode") != "host_clock") bad(what ": mode " f("mode") ", not host_clock")
            if (f("verified") != "1") bad(what ": not verified")
            if (f("count") + 0 < 1) bad(what ": no calls per sample")
            if (!num(f("median_us")) || f("min_us") + 0 <= 0) { bad(what ": no positive time"); next }
            if (f("min_us") + 0 > f("median_us") + 0 || f("median_us") + 0 > f("max_us") + 0)
                bad(what ": min <= median <= max does not hold")
            limit = f("route") == "loopback" ? local_max : link
            if (f("gbps") + 0 > limit) bad(what ": " f("gbps") " GB/s is above the " limit " GB/s ceiling")
            expect = f("bytes") / 1e3 / f("median_us")
            if (expect > 0 && (f("gbps") / expect > 1.01 || f("gbps") / expect < 0.99)) bad(what ": gbps is not bytes / median time")
        }
        END {
            for (l in legs) for (b in sizes) for (w = 1; w <= 2; w++) {
                way = w == 1 ? "memcpy_peer" : "set_device_memcpy"
                if (!((way "/" l "/" b) in seen)) bad("switch " way "/" l "/" b " is missing")
            }
        }'
}

# The chapter's experiment: the data checked with each GPU current.
lab02_check_current_device() {
    lab02_awk "$1" '
        f("experiment") == "current_device" {
            key = leg() "/" f("variant"); seen[key] = 1; legs[leg()] = 1
            if (f("verified") != "1") bad("current_device " key ": the data did not arrive every time")
            if (!num(f("median_us")) || f("min_us") + 0 <= 0) bad("current_device " key ": no positive time")
            if (f("gbps") + 0 > link) bad("current_device " key ": above the ceiling")
            if (f("variant") == "current_src" && f("value") != f("src")) bad("current_device " key ": the current GPU is not the source")
            if (f("variant") == "current_dst" && f("value") != f("dst")) bad("current_device " key ": the current GPU is not the destination")
        }
        END {
            for (l in legs) {
                if (!((l "/current_src") in seen)) bad("current_device " l "/current_src is missing")
                if (!((l "/current_dst") in seen)) bad("current_device " l "/current_dst is missing")
                if (gpus > 2 && !((l "/current_other") in seen)) bad("current_device " l "/current_other is missing")
            }
        }'
}

# Which pending work each copy waited for: verified; an async copy in a
# non-blocking stream never waits for a legacy default stream.
lab02_check_ordering() {
    lab02_awk "$1" '
        f("experiment") == "ordering" {
            key = f("route") "/" f("mode") "/" f("variant"); n_rows++
            if (f("verified") != "1") bad("ordering " key ": not verified")
            if (f("value") != "waited" && f("value") != "no_wait") bad("ordering " key ": " f("value"))
            if (f("variant") == "memcpy_peer_async" && f("route") == "peer" && f("value") == "waited")
                bad("ordering " key ": cudaMemcpyPeerAsync in a non-blocking stream waited for the legacy stream")
        }
        END { if (n_rows > 0 && n_rows < 6) bad("ordering has " n_rows " rows, expected at least 6") }'
}

# Every claim of labs/02-memcpy-peer/claims.tsv once with a verdict; the
# verdicts are those the lab's host tool recomputes from the rows.
lab02_check_claims() {
    local ids tool
    ids=$(lab_claim_ids 02 | tr '\n' ' ')
    LAB02_IDS=$ids lab02_awk "$1" '
        f("experiment") == "claim" {
            count[f("variant")]++
            if (f("value") !~ /^(holds|does_not_hold|untested)$/) bad("claim " f("variant") " has verdict " f("value"))
        }
        END {
            n = split(ENVIRON["LAB02_IDS"], k, " ")
            for (i = 1; i <= n; i++) { known[k[i]] = 1; if (count[k[i]] != 1) bad("claim " k[i] " appears " count[k[i]] + 0 " times") }
            for (id in count) if (!(id in known)) bad("claim " id " is not one of the lab'"'"'s claims")
        }' || return 1
    tool=$(host_tool 02) || return 1
    "$tool" check "$1" 2>&1 | sed 's/^/lab02: /'
    return "${PIPESTATUS[0]}"
}

# lab02_check_csv FILE: every rule on a whole run.
lab02_check_csv() {
    local file=$1 status=0 check
    lab02_check_header "$file" || return 1
    for check in args sweep stream_order timing switch current_device ordering claims; do
        "lab02_check_$check" "$file" || status=1
    done
    return "$status"
}
