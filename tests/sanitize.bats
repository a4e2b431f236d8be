#!/usr/bin/env bats
# make sanitize: each lab's sanitize.conf is valid, and what it leaves out of a
# tool is left out on purpose and nothing more.

setup() {
    load helpers/lab
}

# conf_lines LAB: the lab's sanitize.conf without comments and blank lines.
conf_lines() {
    grep -v -E '^[[:space:]]*(#|$)' "$1/sanitize.conf"
}

@test "every sanitize.conf line names a known key, and the options it gives the program are the program's" {
    local conf lab line key value opt n=0
    for conf in "$REPO_ROOT"/labs/*/sanitize.conf; do
        lab=$(basename "$(dirname "$conf")")
        program=$(lab_program "${lab%%-*}")
        help=$("$program" --help)
        while IFS= read -r line; do
            key=${line%%:*}
            value=${line#*:}
            [[ "$key" =~ ^(args|args\ (memcheck|racecheck|initcheck|synccheck)|memcheck|racecheck|initcheck|synccheck)$ ]] ||
                fail "$conf: unknown key '$key'"
            n=$((n + 1))
            [[ "$key" = args* ]] || continue
            for opt in $value; do
                [[ "$opt" = --* ]] || continue
                grep -q -- "${opt%%=*}" <<<"$help" || fail "$conf: $opt is not an option of $lab"
            done
        done < <(conf_lines "$(dirname "$conf")")
    done
    [ "$n" -gt 0 ]
}

@test "sanitize without a GPU says so and exits 1" {
    [ "$(gpu_count)" = 0 ] || skip "this machine has a GPU"
    run env BUILD="$BUILD_DIR" "$REPO_ROOT/tools/machine/sanitize.sh"
    assert_failure 1
    assert_output --partial "this machine has none"
}

@test "lab 04 --no-host-atomics leaves out every atomic on host memory, and says so" {
    lab_run_gpu 04 --csv --quick --no-host-atomics -t counter,histogram,latency,cpu-gpu
    assert_success
    local host_rows
    host_rows=$(csv_get <(echo "$output") experiment route=host | grep -v '^$' || true)
    [ -z "$host_rows" ] || fail "rows on the host route: $host_rows"
    [ -n "$(csv_get <(echo "$output") experiment route=loopback experiment=counter)" ]
    [ -n "$(csv_get <(echo "$output") experiment route=loopback experiment=latency)" ]
    assert_equal "$(csv_get <(echo "$output") detail experiment=cpu-gpu variant=skipped)" \
        "--no-host-atomics: no atomics on mapped host memory"
}
