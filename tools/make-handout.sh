#!/usr/bin/env bash
# make-handout.sh: the student tree — the repository without solutions/, the
# planted-mistake patches, and any other solution text, with a README of its
# own — as a folder
# ($BUILD/handout/p2p-course/) and a tarball ($BUILD/handout/p2p-course.tar.gz).
# Only the course's own files are taken (tools/source-files.sh), so nothing
# from build/ or a local edit that was never committed slips in.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out="$build/handout"
name=p2p-course
rm -rf "$out"
mkdir -p "$out/$name"

# Left out: the solutions and everything that only works on them (the
# planted mistakes, the template for new labs, the maintainers' tools).
tools/source-files.sh |
    grep -zvE '^(solutions/|tests/mistakes/|tools/lab-template/|tools/handout/|tools/(make-handout|mistakes|new-lab)\.sh$|tests/fixtures/grade-)' |
    xargs -0 -I{} cp --parents {} "$out/$name/"
# The student tree has its own README: what to do, in order.
cp tools/handout/README.md "$out/$name/README.md"

# The solution text must not survive anywhere in the student tree.
if grep -rlE 'LAB_SKELETON' "$out/$name" --include='*.c' --include='*.cu' --include='*.h' >/dev/null; then
    echo "handout: solution guards found in the student tree" >&2
    exit 1
fi
tar -C "$out" -czf "$out/$name.tar.gz" "$name"
echo "handout: $out/$name/ and $out/$name.tar.gz ($(tools/source-files.sh | tr -cd '\0' | wc -c) course files, $(find "$out/$name" -type f | wc -l) in the handout)"
