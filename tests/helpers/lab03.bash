# Checks of lab 03's result rows (03-peer-kernels --csv), loaded by
# tests/lab03.bats. lab03_check_csv takes a CSV file, prints what is wrong
# ("lab03: ...") and returns non-zero when a rule of physics or of the lab
# is broken, or when a recorded verdict is not what the rows say (the
# lab's host tool recomputes the verdicts and judges the rules:
# labs/03-peer-kernels/harness/plausible.c). It runs on live output and
# on the recorded run in tests/fixtures/, and accepts partial runs (-t KEY).

# The ceiling in GB/s of array bytes over a link (plausible.c's LINK_CEILING),
# which bounds a transfer's fastest time in lab03.bats.
LAB03_LINK_CEILING=1500

# lab03_check_csv FILE: the header, the rules and the verdicts; prints each broken one.
lab03_check_csv() {
    checked_by_host_tool 03 "$1" "line 1 is not the result header: "
}
