#!/usr/bin/env bash
# new-lab.sh NN name: start lab NN from tools/authoring/lab-template/ — its handouts,
# harness, claims, the master of the student's file, its deck (slides/NN-name.md), a
# unit-test driver, a test file and its planted mistakes (tests/mistakes/labNN-*.patch) — then
# generate its skeleton. Nothing outside the new lab's own folders and test
# files is touched: the Makefile, the report, grading, the sanitizer and
# mistakes runs find labs by their folders.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 2 ] || ! [[ $1 =~ ^[0-9][0-9]$ ]] || ! [[ $2 =~ ^[a-z][a-z0-9-]*$ ]]; then
    echo "usage: $0 NN name   (NN two digits, name lowercase words joined by '-')" >&2
    exit 2
fi
nn=$1
lab="$1-$2"
if compgen -G "labs/$nn-*" >/dev/null || [ -e "tests/lab$nn.bats" ]; then
    echo "new-lab: lab $nn exists already" >&2
    exit 1
fi
(cd tools/authoring/lab-template && find . -type f | sed 's|^\./||') | while IFS= read -r rel; do
    dest=${rel//@LAB@/$lab}
    dest=${dest//@NN@/$nn}
    mkdir -p "$(dirname "$dest")"
    sed -e "s/@LAB@/$lab/g" -e "s/@NN@/$nn/g" "tools/authoring/lab-template/$rel" >"$dest"
done
tools/authoring/skeletons.sh generate >/dev/null
echo "new-lab: labs/$lab/ (handouts, harness, claims.tsv, student/), solutions/$lab/, slides/$lab.md, tests/lab$nn.bats, tests/unit/lab$nn.c, tests/mistakes/lab$nn-*.patch"
