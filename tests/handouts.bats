#!/usr/bin/env bats
# The handouts (labs/*/README.md, README.zh-CN.md) and the READMEs: every
# recorded number generated from the fixture it cites, no hand-written line
# numbers, the build flags as the Makefile has them, and the Chinese
# handouts held to one glossary and to the chapter's own words.

load helpers/lab

handouts() {
    ls "$REPO_ROOT"/labs/[0-9][0-9]-*/README.md "$REPO_ROOT"/labs/[0-9][0-9]-*/README.zh-CN.md
}

numbers() {
    BUILD="$BUILD_DIR" "$1/tools/handout-numbers.py" "${@:2}"
}

# A copy of what the generator reads, to break on purpose.
copy_tree() {
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy/tests"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/Makefile" "$copy/"
    cp -r "$REPO_ROOT/tests/fixtures" "$copy/tests/"
    echo "$copy"
}

@test "handouts: every generated number is what its fixture gives (make handout-numbers)" {
    run numbers "$REPO_ROOT" --check
    assert_success
    refute_output
}

@test "handouts: each cites both recordings, 2x H200 NVLink and 1x H200 PCIe, with the hardware" {
    local h nn kind fx
    for h in $(handouts); do
        nn=$(basename "$(dirname "$h")" | cut -c1-2)
        for fx in "lab$nn-run.csv" "lab$nn-run-1xh200.csv"; do
            for kind in caption report verdicts; do
                grep -qF "<!-- numbers: $kind $fx -->" "$h" || fail "$h: no generated $kind of $fx"
            done
        done
        if [[ "$h" = *.zh-CN.md ]]; then
            grep -qF '记录于 **2× NVIDIA H200**（两块 GPU 之间为 NVLink' "$h" || fail "$h: the 2x H200 recording does not name its hardware"
            grep -qF '记录于 **1× NVIDIA H200**（经 PCIe Gen5' "$h" || fail "$h: the 1x H200 recording does not name its hardware"
        else
            grep -qF 'Recorded on **2× NVIDIA H200** (NVLink' "$h" || fail "$h: the 2x H200 recording does not name its hardware"
            grep -qF 'Recorded on **1× NVIDIA H200** (PCIe Gen5' "$h" || fail "$h: the 1x H200 recording does not name its hardware"
        fi
    done
}

@test "handouts: a generated number edited by hand fails the check" {
    local copy
    copy=$(copy_tree)
    # The first table cell with a decimal inside a generated report.
    python3 - "$copy/labs/02-memcpy-peer/README.md" <<'EOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
a = s.index("<!-- numbers: report lab02-run.csv -->")
m = re.compile(r"\| (\d+\.\d+) \|").search(s, a)
s = s[:m.start(1)] + "9" + s[m.start(1):]
open(p, "w").write(s)
EOF
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "labs/02-memcpy-peer/README.md: a generated part differs from its fixture"
    # Regenerating puts it right.
    run numbers "$copy"
    assert_success
    assert_output --partial "wrote labs/02-memcpy-peer/README.md"
    run numbers "$copy" --check
    assert_success
}

@test "handouts: a measured figure outside the generated parts must be in the lab's fixtures" {
    local copy
    copy=$(copy_tree)
    printf '\nThe link reached 123.456 GB/s.\n' >>"$copy/labs/03-peer-kernels/README.zh-CN.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "labs/03-peer-kernels/README.zh-CN.md: '123.456 GB/s' is in none of lab 03's fixtures"
}

@test "handouts: a generated part cites a fixture of its own lab that exists" {
    local copy
    copy=$(copy_tree)
    printf '\n<!-- numbers: report lab05-run.csv -->\n<!-- /numbers -->\n' >>"$copy/labs/01-peer-checks/README.md"
    run numbers "$copy" --check
    assert_failure
    assert_output --partial "'lab05-run.csv' is not one of its recorded runs"
}

@test "handouts: no hand-written line numbers in the handouts and READMEs" {
    run grep -nE '\.(c|cu|h|sh|py|bats|mk):[0-9]+' "$REPO_ROOT/README.md" "$REPO_ROOT/tools/handout/README.md" $(handouts)
    assert_failure
    refute_output
}

@test "handouts: each says how the student's code is built, with the Makefile's flags" {
    local h warn
    warn=$(sed -nE 's/^WARN_C := (.*)$/\1/p' "$REPO_ROOT/Makefile")
    [ -n "$warn" ]
    for h in $(handouts); do
        grep -qF "<!-- numbers: build-flags -->" "$h" || fail "$h: no generated build flags"
        grep -qF -- "-std=c11 $warn" "$h" || fail "$h: the C flags are not the Makefile's ($warn)"
        grep -qF 'struct cudaDeviceProp' "$h" || fail "$h: does not say that C needs 'struct cudaDeviceProp'"
    done
}
