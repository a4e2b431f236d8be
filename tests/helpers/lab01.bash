# Lab 01's run checker: what every run's rows must say, for however many
# GPUs the run had (live runs and the recorded one). Load after helpers/lab.

# lab01_check_run FILE: print each problem and fail when there is one. An
# experiment may be absent (a run of some -t keys, or one recorded before it
# existed); what is there must be whole and right, and the claims' verdicts
# must be those the host tool recomputes. The rules are the host tool's
# (labs/01-peer-checks/harness/plausible.c).
lab01_check_run() {
    checked_by_host_tool 01 "$1" "bad header: "
}
