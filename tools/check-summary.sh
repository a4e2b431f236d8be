#!/usr/bin/env bash
# check-summary.sh NN TAP: what `make check LAB=NN` exercised of lab NN.
#
# The lab's TODOs are those its harness headers declare ("TODO NN.k"); a
# test exercises the TODOs its name gives ("TODO NN.k", "TODOs NN.j and
# NN.k"). Prints which TODOs ran here, which this machine could not check
# and why (every test naming them was skipped: the first reason is given),
# and which no test names. Exits 1 when none of the lab's TODOs was
# exercised: a run that checked nothing is not a pass.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 NN TAP-FILE" >&2; exit 2; }
nn=$1 tap=$2
[ -f "$tap" ] || { echo "check-summary: no TAP file '$tap'" >&2; exit 2; }
todos=$(cat labs/"$nn"-*/harness/*.h 2>/dev/null | grep -oE "TODO $nn\.[0-9]+" | sort -uV | cut -d' ' -f2 || true)
[ -n "$todos" ] || { echo "check-summary: lab $nn declares no TODO in labs/$nn-*/harness/" >&2; exit 2; }

awk -v nn="$nn" -v todos="$todos" '
    /^(ok|not ok) [0-9]+ / {
        name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ # in [0-9]+ ?ms/, "", name)
        skipped = name ~ / # skip/
        reason = name; sub(/^.* # skip ?/, "", reason); sub(/ # skip.*$/, "", name)
        if (name !~ /TODO/) next
        rest = name
        while (match(rest, nn "\\.[0-9]+")) {
            id = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
            if (rest ~ /^[0-9]/) continue
            named[id] = 1
            if (!skipped) ran[id] = 1
            else if (!(id in why)) why[id] = reason
        }
    }
    END {
        n = split(todos, list, "\n")
        for (i = 1; i <= n; i++) {
            id = list[i]
            if (id in ran) { done = done " " id; exercised++ }
            else if (id in named) away = away sprintf("\n  TODO %s: %s", id, why[id])
            else unnamed = unnamed " " id
        }
        printf "check %s: TODOs exercised here:%s\n", nn, exercised ? done : " none"
        if (away != "") printf "check %s: not checkable on this machine (every test of theirs skipped):%s\n", nn, away
        if (unnamed != "") printf "check %s: no test names TODO%s\n", nn, unnamed
        if (!exercised) {
            printf "check %s: none of the lab'\''s %d TODOs was exercised here: nothing was checked\n", nn, n
            exit 1
        }
    }' "$tap"
