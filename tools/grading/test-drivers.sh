#!/usr/bin/env bash
# test-drivers.sh BUILD VARIANT LAB: the make targets of lab LAB's (e.g. 04-peer-atomics) test
# drivers, one a line: tests/unit/labNN.c is BUILD/VARIANT/unit/LAB, and each
# tests/unit/labNN-KIND.c is BUILD/VARIANT/KIND/LAB (threads: built with ThreadSanitizer;
# stand-in: run against the stand-in runtime of tests/unit/stand_in.h).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 3 ] || { echo "usage: $0 BUILD VARIANT LAB" >&2; exit 2; }
nn=${3%%-*}
for driver in tests/unit/lab"$nn".c tests/unit/lab"$nn"-*.c; do
    [ -f "$driver" ] || continue
    kind=${driver#tests/unit/lab"$nn"}
    kind=${kind#-}
    kind=${kind%.c}
    echo "$1/$2/${kind:-unit}/$3"
done
