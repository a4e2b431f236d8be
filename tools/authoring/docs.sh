#!/usr/bin/env bash
# docs.sh OUT: the course's API documentation and handouts as HTML in OUT/html (Doxygen):
# README.md, common/, labs/ and tools/machine/gpu-query.c; never solutions/. Warnings are errors
# (Doxyfile) and are printed. Doxygen before 1.9.7 (Debian 12 has 1.9.4) cannot resolve a
# Markdown link when the tree's path has a space (doxygen/doxygen#9861): there the inputs
# are copied to a folder without one first.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: tools/authoring/docs.sh OUT" >&2; exit 2; }
cd "$(dirname "$0")/../.."
mkdir -p "$1"
out=$(cd "$1" && pwd)
inputs=(README.md common labs tools/machine/gpu-query.c)
src=$PWD
if [[ $PWD == *' '* ]]; then
    src=$(mktemp -d "${TMPDIR:-/tmp}/p2p-docs.XXXXXX")
    trap 'rm -rf "$src"' EXIT
    [[ $src != *' '* ]] || { echo "docs: the temporary folder '$src' has a space too" >&2; exit 1; }
    cp -R --parents "${inputs[@]}" Doxyfile "$src"
fi
cd "$src"
DOCS_OUT=$out DOCS_INPUT="${inputs[*]}" doxygen Doxyfile || { cat "$out/warnings.log"; exit 1; }
