# Lab 06's test helpers: its rows' checker, and the rank processes a launcher starts.

# lab06_check_rows FILE: every measurement row of FILE (a run's CSV) verified where it was
# checked, with times that make sense (min <= median <= max, all positive), an all-reduce's bus
# bandwidth its algorithm bandwidth x 2(n-1)/n, and the recorded verdicts the recomputed ones:
# the lab's host tool's check (labs/06-ipc-allreduce/harness/plausible.c), each broken rule
# printed on a line; a file whose line 1 is not the result header fails at once.
lab06_check_rows() {
    checked_by_host_tool 06 "$1" "line 1 is not the lab's result header: " ||
        fail "the rows of $1 do not pass lab 06's checker"
}

# lab06_wait_for_rank LAUNCHER_PID KEY RANK: print the pid of the launcher's child that is rank
# RANK of experiment KEY once it runs (up to 20 s); fail otherwise, at once when the launcher
# has exited (a skeleton's ranks stop at a TODO, and the launcher with them).
lab06_wait_for_rank() {
    local i pid
    for i in $(seq 200); do
        for pid in $(pgrep -P "$1" 2>/dev/null); do
            if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qE "^LAB06_RANK=$2:$3:"; then
                echo "$pid"
                return 0
            fi
        done
        lab06_running "$1" || return 1
        sleep 0.1
    done
    return 1
}

# lab06_launcher_failed PID LOG WHY: wait for the launcher PID, which must fail (else the test
# fails: "the launcher exited 0 WHY"), then read its LOG into $output, as fail_if_todo and the
# assertions after it read it.
lab06_launcher_failed() {
    if wait "$1"; then
        fail "the launcher exited 0 $3"
        return 1
    fi
    run cat "$2"
    fail_if_todo
}

# lab06_running PID: PID runs (a process that has exited but is not yet reaped does not).
lab06_running() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $state != Z* ]]
}

# lab06_no_rank_left LAUNCHER_PID: no process of the launcher's is left, anywhere.
lab06_no_rank_left() {
    local left
    left=$(pgrep -P "$1" 2>/dev/null || true)
    [ -z "$left" ] || fail "processes left of launcher $1: $left"
    left=$(grep -l "LAB06_RANK=" /proc/[0-9]*/environ 2>/dev/null || true)
    [ -z "$left" ] || fail "rank processes still running: $left"
}

# lab06_whole_or_none DIR: DIR holds no temporary result file, and its result file, if any, is
# whole: the header first, every row with as many fields as the header.
lab06_whole_or_none() {
    local tmp file="$1/06-ipc-allreduce.csv"
    tmp=$(find "$1" -name '*.tmp.*')
    [ -z "$tmp" ] || fail "a temporary result file was left: $tmp"
    [ -f "$file" ] || return 0
    [ "$(head -n 1 "$file")" = "$(head -n 1 "$FIXTURES/rows-header.csv")" ] || fail "$file does not start with the header"
    awk -F, 'FNR == 1 { fields = NF } NF != fields { print FILENAME ":" FNR ": " NF " fields"; bad = 1 } END { exit bad }' "$file" ||
        fail "$file is not whole"
}
