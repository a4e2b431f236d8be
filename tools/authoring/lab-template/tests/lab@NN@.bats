#!/usr/bin/env bats
# Lab @NN@: the template lab. A test's points for `make grade` are its Bats tag
# "points:N" on the line above it; a test without one carries 0 (it shows the
# program's frame works, not the student's work). A test of a TODO carries 1 or more.

setup_file() {
    load helpers/lab
    capture run @NN@ --csv --quick
}

setup() {
    load helpers/lab
}

@test "@NN@: --list names the copy experiment" {
    lab_run @NN@ --list
    assert_success
    assert_output --partial "copy"
}

# bats test_tags=points:1
@test "@NN@: TODO @NN@.1 byte counts (unit test, any machine)" {
    unit_run @NN@ @NN@.1
    assert_success
}

# bats test_tags=points:1
@test "@NN@: the copy is verified and its time is positive" {
    captured run
    assert_success
    run csv_get "$CAPTURED_CSV" verified experiment=copy
    assert_output 1
    run csv_get "$CAPTURED_CSV" median_us experiment=copy
    assert_float "$output" '>' 0
}
