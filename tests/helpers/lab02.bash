# The checker of lab 02's rows (02-memcpy-peer --csv, or a result file),
# loaded by tests/lab02.bats. Each check takes a CSV file of lab_row rows,
# prints what is wrong (one line per broken rule, prefixed "lab02:") and
# returns non-zero. They run on live output and on the recorded run in
# tests/fixtures/, and on one-line edits of it (tests/fixtures/lab02-broken.tsv).
#
# The rules the rows obey (each argument case with its status, complete
# sweeps, stream order, sane timings, the device switch, the current device,
# ordering, the claims once each) are the lab's host tool's (its check, from
# labs/02-memcpy-peer/harness/plausible.c), with the recomputed verdicts.

LAB02_METHODS="memcpy_peer memcpy_peer_async memcpy_default host_staged"

# lab02_check_rows FILE: the rules every run's rows obey, whole or partial
# (-t), and the recomputed verdicts: the lab's host tool's check.
lab02_check_rows() {
    checked_by_host_tool 02 "$1" "the header is not the result-row header: "
}

# lab02_check_whole FILE: a whole run (no -t) has rows of each experiment the
# rules above cover by leg and case, or a row saying why it skipped it: what a
# run was asked to do, its rows alone cannot tell.
lab02_check_whole() {
    rows_awk '
        { seen[f("experiment")] = 1 }
        END {
            n = split("args sweep stream_order timing", key, " ")
            for (i = 1; i <= n; i++) if (!(key[i] in seen)) { print "lab02: no " key[i] " rows"; failed = 1 }
            exit failed
        }' "$1"
}

# lab02_check_csv FILE: every rule on a whole run.
lab02_check_csv() {
    lab02_check_rows "$1" || return 1
    lab02_check_whole "$1"
}
