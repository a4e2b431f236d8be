#!/usr/bin/env bash
# slides.sh: render every deck slides/*.md to standalone HTML in
# $BUILD/slides/ with Marp's CLI (pinned in slides/package.json, installed
# from the npm registry into $BUILD/slides-tool/ on first use), copy the
# images the decks use beside them, and, where Chromium is installed, a PDF
# of each deck too.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
tool="$build/slides-tool"
out="$build/slides"

if ! command -v npm >/dev/null 2>&1; then
    echo "slides: npm is missing (Debian: sudo apt-get install npm)" >&2
    exit 1
fi
if [ ! -x "$tool/node_modules/.bin/marp" ] || ! cmp -s slides/package-lock.json "$tool/package-lock.json"; then
    mkdir -p "$tool"
    cp slides/package.json slides/package-lock.json "$tool/"
    (cd "$tool" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
marp="$tool/node_modules/.bin/marp"

rm -rf "$out"
mkdir -p "$out"
[ -d slides/img ] && cp -r slides/img "$out/"
decks=(slides/[0-9][0-9]-*.md)
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
for deck in "${decks[@]}"; do
    name=$(basename "$deck" .md)
    "$marp" --html --allow-local-files "$deck" -o "$out/$name.html" >/dev/null 2>>"$out/marp.log" || {
        cat "$out/marp.log" >&2
        exit 1
    }
    if [ -n "$browser" ]; then
        CHROME_PATH=$browser "$marp" --pdf --allow-local-files "$deck" -o "$out/$name.pdf" \
            >/dev/null 2>>"$out/marp.log" || echo "slides: PDF of $name failed (the HTML is fine); see $out/marp.log" >&2
    fi
done
echo "slides: ${#decks[@]} decks in $out/"
