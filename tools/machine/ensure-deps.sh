#!/usr/bin/env bash
# ensure-deps.sh: make sure the tools the tests use are here. Missing Debian
# packages are installed with apt-get when running as root; otherwise the
# command to run is printed. The script exits 1 only when a required tool
# (Bats and its libraries, unifdef, python3, ThreadSanitizer's runtime) is
# still missing; without an optional one (gnuplot, graphviz, doxygen) the
# tests that need it skip and say why (without parallel or ccache they run slower).
# DEPS_SLIDES=1 (make deps, make slides) also wants what rendering the decks
# needs: a CJK font, Chromium and npm (the tests that render skip without).
# LAB_NO_INSTALL=1 only checks (for machines without a package registry).
set -euo pipefail

missing=()   # required
optional=()  # wanted, not required
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_bats_lib() { # NAME: found on BATS_LIB_PATH (default /usr/lib/bats)
    local dir
    IFS=: read -r -a dirs <<<"${BATS_LIB_PATH:-/usr/lib/bats:/usr/lib}"
    for dir in "${dirs[@]}"; do
        [ -f "$dir/$1/load.bash" ] && return 0
    done
    return 1
}

have_cmd bats || missing+=(bats)
for lib in bats-support bats-assert bats-file; do
    have_bats_lib "$lib" || missing+=("$lib")
done
have_cmd unifdef || missing+=(unifdef)
have_cmd python3 || missing+=(python3) # make grade's scorecard and summary.json, the handout tools
# ThreadSanitizer's runtime: lab 04's thread tests (tests/unit/lab04-threads.c) are built with
# gcc -fsanitize=thread. Debian's package is libtsan2 (gcc 12 and later).
tsan_links() {
    local out rc
    out=$(mktemp)
    printf 'int main(void) { return 0; }\n' | "${CC:-gcc}" -fsanitize=thread -x c - -o "$out" 2>/dev/null
    rc=$?
    rm -f "$out"
    return "$rc"
}
have_cmd "${CC:-gcc}" && ! tsan_links && missing+=(libtsan2)
have_cmd gnuplot || optional+=(gnuplot-nox)
have_cmd doxygen || optional+=(doxygen)
have_cmd dot || optional+=(graphviz)
# Speed only: GNU parallel runs the test files side by side (bats --jobs), ccache spares the
# scratch copies the tests build the compiles they share.
have_cmd parallel || optional+=(parallel)
have_cmd ccache || optional+=(ccache)
if [ "${DEPS_SLIDES:-0}" = 1 ]; then
    { have_cmd fc-list && fc-list :lang=zh family | grep -qi CJK; } || optional+=(fonts-noto-cjk)
    have_cmd chromium || have_cmd chromium-browser || optional+=(chromium)
    have_cmd npm || optional+=(npm)
fi

all=("${missing[@]}" "${optional[@]}")
[ ${#all[@]} -eq 0 ] && exit 0

echo "deps: missing Debian packages: ${all[*]}"
if [ "${LAB_NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" -eq 0 ] && have_cmd apt-get; then
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${all[@]}" >/dev/null; then
        echo "deps: installed ${all[*]}"
        exit 0
    fi
    echo "deps: apt-get could not install them" >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: the tests need: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "deps: without ${optional[*]} the tests that need them skip (sudo apt-get install ${optional[*]})"
