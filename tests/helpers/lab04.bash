# Lab 04's run checker: what every run's rows must say, live or recorded, for
# however many GPUs the run had. Load after helpers/lab.

# lab04_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent or skipped (a run of some -t keys, one GPU, or a
# run recorded before it existed); what is there must be whole, exact and
# physical, and the claims' verdicts must be those the host tool recomputes.
# The rules are the host tool's (labs/04-peer-atomics/harness/plausible.c).
lab04_check_run() {
    [ -s "$1" ] || { echo "lab04: $1 is missing or empty"; return 1; }
    checked_by_host_tool 04 "$1" "the header is not the lab's result header: "
}
