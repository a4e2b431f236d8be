#!/usr/bin/env bash
# skeletons.sh generate|check
#
# The reference solutions in solutions/NN-name/ are the master text. Each
# exercise step is written there as
#
#     #ifndef LAB_SKELETON
#         ... the solution ...
#     #else
#         LAB_TODO("NN.k");
#     #endif
#
# and the skeleton in labs/NN-name/student/ is what unifdef makes of it with
# LAB_SKELETON defined: the solution lines are gone, the TODO stays. Only the
# student's files are generated; a lab's harness/ is written by hand.
#
# generate  writes labs/ from solutions/. A labs/ file that differs from what
#           was last generated (its checksum is not the one recorded in its
#           lab's labs/NN-name/student/.checksums) was edited by hand, most likely by a
#           student: it is never overwritten; the new text goes beside it as
#           FILE.new and the command exits 1.
# check     exits 1 when labs/ differs from what generate would write. A
#           file a student edited (its checksum is not the recorded one) is
#           their work, not drift: it is named and left out of the
#           comparison, unless SKELETONS_STRICT=1 (CI, on a fresh clone,
#           where nobody's work is in labs/).
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=${1:-}
# The checksums of what was last generated: each lab keeps its own in
# labs/NN-name/student/.checksums (so adding a lab touches only its folders).
manifest_of() { echo "labs/${1%%/student/*}/student/.checksums"; }
case "$mode" in generate|check) ;; *) echo "usage: $0 generate|check" >&2; exit 2 ;; esac

if [ ! -d solutions ]; then
    echo "skeletons: no solutions/ folder here (a student tree); nothing to generate"
    exit 0
fi
if ! command -v unifdef >/dev/null 2>&1; then
    echo "skeletons: unifdef is missing; install it with: sudo apt-get install unifdef" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Generate every skeleton into $tmp, mirroring the labs/ paths.
# skeleton_rel PATH-UNDER-solutions/: where its skeleton goes, under labs/.
skeleton_rel() { echo "${1%%/*}/student/${1#*/}"; }

while IFS= read -r master; do
    rel=$(skeleton_rel "${master#solutions/}")
    mkdir -p "$tmp/$(dirname "$rel")"
    # unifdef exits 0 (unchanged) or 1 (changed); 2 is a real error.
    status=0
    unifdef -DLAB_SKELETON "$master" >"$tmp/$rel" || status=$?
    if [ "$status" -ge 2 ]; then
        echo "skeletons: unifdef failed on $master" >&2
        exit 1
    fi
done < <(find solutions -type f \( -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.cuh' \) | sort)

(cd "$tmp" && find . -type f | sed 's|^\./||' | sort) >"$tmp.list"
trap 'rm -rf "$tmp" "$tmp.list"' EXIT

recorded_sum() { # path -> checksum recorded at the last generate, or nothing
    local manifest
    manifest=$(manifest_of "$1")
    [ -f "$manifest" ] && awk -v p="$1" '$2 == p { print $1 }' "$manifest" || true
}

if [ "$mode" = check ]; then
    bad=0
    edited=0
    while IFS= read -r rel; do
        if [ "${SKELETONS_STRICT:-}" != 1 ] && [ -f "labs/$rel" ] &&
            ! cmp -s "$tmp/$rel" "labs/$rel" &&
            [ "$(sha256sum "labs/$rel" | cut -d' ' -f1)" != "$(recorded_sum "$rel")" ]; then
            echo "skeletons: labs/$rel was edited (a student's work): not compared"
            edited=$((edited + 1))
            continue
        fi
        if ! cmp -s "$tmp/$rel" "labs/$rel"; then
            echo "skeletons: labs/$rel differs from what its master in solutions/ generates" >&2
            bad=1
        fi
        want=$(cd "$tmp" && sha256sum "$rel" | cut -d' ' -f1)
        if [ "$(recorded_sum "$rel")" != "$want" ]; then
            echo "skeletons: $(manifest_of "$rel") has no up-to-date checksum for $rel" >&2
            bad=1
        fi
    done <"$tmp.list"
    # A skeleton source with no master is left over from a removed file.
    while IFS= read -r stray; do
        rel=${stray#labs/}
        if ! grep -qxF "$rel" "$tmp.list"; then
            echo "skeletons: labs/$rel has no master in solutions/" >&2
            bad=1
        fi
    done < <(find labs -type f \( -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.cuh' \) \
                  -not -path 'labs/*/harness/*' | sort)
    note=""
    [ "$edited" -eq 0 ] || note=" (but for $edited edited file(s))"
    [ "$bad" -eq 0 ] && echo "skeletons: labs/ matches solutions/$note"
    exit "$bad"
fi

kept=0
new_manifest=$(mktemp)
while IFS= read -r rel; do
    target=labs/$rel
    fresh=$(cd "$tmp" && sha256sum "$rel" | cut -d' ' -f1)
    if [ -f "$target" ] && ! cmp -s "$tmp/$rel" "$target"; then
        current=$(sha256sum "$target" | cut -d' ' -f1)
        if [ "$current" != "$(recorded_sum "$rel")" ]; then
            cp "$tmp/$rel" "$target.new"
            echo "skeletons: kept your edited $target; the regenerated skeleton is $target.new" >&2
            kept=1
            # Keep the old checksum so the file still counts as edited next time.
            old=$(recorded_sum "$rel")
            [ -n "$old" ] && echo "$(manifest_of "$rel") $old  $rel" >>"$new_manifest"
            continue
        fi
    fi
    if ! cmp -s "$tmp/$rel" "$target" 2>/dev/null; then
        mkdir -p "$(dirname "$target")"
        cp "$tmp/$rel" "$target"
        echo "skeletons: wrote $target"
    fi
    echo "$(manifest_of "$rel") $fresh  $rel" >>"$new_manifest"
done <"$tmp.list"
# Write each manifest whole; one left with no file is removed.
for manifest in labs/*/student/.checksums; do
    [ -f "$manifest" ] || continue
    grep -q "^$manifest " "$new_manifest" || rm -f "$manifest"
done
cut -d' ' -f1 "$new_manifest" | sort -u | while IFS= read -r manifest; do
    grep "^$manifest " "$new_manifest" | cut -d' ' -f2- >"$manifest"
    chmod 644 "$manifest"
done
rm -f "$new_manifest"
exit "$kept"
