#!/usr/bin/env bash
# slides.sh [--png]: render every deck slides/NN-*.md to standalone HTML in
# $BUILD/slides/ with Marp's CLI (pinned in slides/package.json, installed
# from the npm registry into $BUILD/slides-tool/ on first use), the one
# theme slides/theme/course.css and the settings in slides/.marprc.yml (line
# breaks as in CommonMark). Each deck's placeholders are filled first
# from the recorded runs (tools/slides/slides-fill.py, which needs the labs' host
# tools: make tools). Where Chromium is installed: a PDF of each deck, and
# with --png a PNG of every page ($BUILD/slides/png/NN-name.NNN.png).
# Refuses without a font for Chinese: the chapter's quotes would be boxes.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
tool="$build/slides-tool"
out="$build/slides"
png=0
[ "${1:-}" = --png ] && png=1

if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh family 2>/dev/null | grep -i 'CJK')" ]; then
    echo "slides: no CJK font (Noto Sans CJK): every Chinese quote would render as empty boxes." >&2
    echo "slides: install one: sudo apt-get install fonts-noto-cjk (or make deps as root)" >&2
    exit 1
fi
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
mkdir -p "$out/md"
cp -r slides/img "$out/md/"
decks=(slides/[0-9][0-9]-*.md)
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ $png = 0 ] || [ -n "$browser" ] || { echo "slides: --png needs Chromium (sudo apt-get install chromium)" >&2; exit 1; }
for deck in "${decks[@]}"; do
    name=$(basename "$deck" .md)
    BUILD=$build tools/slides/slides-fill.py "$deck" "$out/md/$name.md"
done
run_marp() { # ARGS...: Marp over every filled deck, its log kept
    "$marp" --config-file slides/.marprc.yml --theme-set slides/theme --html --allow-local-files "$@" \
        >>"$out/marp.log" 2>&1 || {
        cat "$out/marp.log" >&2
        return 1
    }
}
for deck in "${decks[@]}"; do
    name=$(basename "$deck" .md)
    run_marp "$out/md/$name.md" -o "$out/$name.html"
    if [ -n "$browser" ]; then
        CHROME_PATH=$browser run_marp --pdf "$out/md/$name.md" -o "$out/$name.pdf" ||
            echo "slides: PDF of $name failed (the HTML is fine)" >&2
        if [ $png = 1 ]; then
            mkdir -p "$out/png"
            CHROME_PATH=$browser run_marp --images png "$out/md/$name.md" -o "$out/png/$name.png"
        fi
    fi
done
cp -r slides/img "$out/"
echo "slides: ${#decks[@]} decks in $out/"
