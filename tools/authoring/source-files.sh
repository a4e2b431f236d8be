#!/usr/bin/env bash
# source-files.sh: the course's own files, NUL-separated, relative to the
# repository root: what git tracks plus new files it does not ignore; in a
# copy of the tree without .git (an unpacked tarball, a GPU machine's copy),
# every file outside build/, handout/, .git/ and .deps/ (tools carried to a
# machine without a package registry).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    # A file deleted but not yet committed is still in the index: skip it.
    git ls-files -z --cached --others --exclude-standard --deduplicate |
        while IFS= read -r -d '' file; do
            [ -f "$file" ] && printf '%s\0' "$file"
        done
else
    find . -mindepth 1 \( -path ./build -o -path ./handout -o -path ./.git -o -path ./.deps \) -prune \
        -o -type f -printf '%P\0'
fi
