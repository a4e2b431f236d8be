#!/usr/bin/env bash
# source-files.sh: the course's own files, NUL-separated, relative to the
# repository root: what git tracks, or, in a copy of the tree without .git
# (an unpacked tarball, a GPU machine's copy), every file outside build/,
# handout/, .git/ and .deps/ (the tools carried to a machine without them).
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z
else
    find . -mindepth 1 \( -path ./build -o -path ./handout -o -path ./.git -o -path ./.deps \) -prune \
        -o -type f -printf '%P\0'
fi
