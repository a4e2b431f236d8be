#!/usr/bin/env bash
# make-handout.sh: the student tree — the repository without solutions/, the
# planted-mistake patches, and any other solution text, with a README of its
# own — as a folder
# ($BUILD/handout/p2p-course/) and a tarball ($BUILD/handout/p2p-course.tar.gz).
# It is made from the last commit (git archive HEAD), never from the working
# tree: a local edit, an untracked file or build output cannot slip in, and
# what was left out is named. (A copy without .git, such as a test machine's,
# has no commit to take: there every course file is taken, with a warning.)
# The student's files are generated afresh from
# solutions/ (tools/authoring/skeletons.sh, as `make skeletons` does), so a skeleton an
# instructor filled in to try `make grade` still ships as the skeleton.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
out="$build/handout"
name=p2p-course

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in_git=no
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    in_git=yes
    if ! git rev-parse --verify -q HEAD >/dev/null; then
        echo "handout: the repository has no commit yet: nothing to ship" >&2
        exit 1
    fi
    git archive --format=tar HEAD | tar -x -C "$work"
else
    echo "handout: warning: not a git checkout, so every file here outside build/ is taken; run make handout in the course's git repository to ship only committed files" >&2
    tools/authoring/source-files.sh | xargs -0 cp --parents -t "$work/"
fi

# The student's files come from the generator only: drop whatever the commit
# holds in their place and write them again from solutions/.
find "$work"/labs/[0-9][0-9]-*/student -type f \
    \( -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.cuh' -o -name '.checksums' \) -delete
if ! generated=$("$work/tools/authoring/skeletons.sh" generate 2>&1); then
    echo "handout: generating the student's files from solutions/ failed:" >&2
    echo "$generated" >&2
    exit 1
fi

rm -rf "$out"
mkdir -p "$out/$name"
dest=$(cd "$out/$name" && pwd -P)
# Left out: the solutions and everything that only works on them (the
# planted mistakes, the template for new labs, the maintainers' tools and
# their test files: a student's tests are tests/common.bats and each lab's).
(cd "$work" && find . -type f -printf '%P\0' | sort -z |
    grep -zvE '^(solutions/|tests/mistakes/|tools/authoring/lab-template/|tools/authoring/handout/|tools/authoring/(make-handout|new-lab)\.sh$|tools/grading/mistakes\.sh$|tests/fixtures/grade-)' |
    grep -zvP '^tests/(?!(common|lab[0-9]{2})\.bats$)[^/]+\.bats$') |
    (cd "$work" && xargs -0 cp --parents -t "$dest/")
# The student tree has its own README: what to do, in order.
cp "$work/tools/authoring/handout/README.md" "$out/$name/README.md"

# The solution text must not survive anywhere in the student tree.
if grep -rlE 'LAB_SKELETON' "$out/$name" --include='*.c' --include='*.cu' --include='*.h' >/dev/null; then
    echo "handout: solution guards found in the student tree" >&2
    exit 1
fi
tar -C "$out" -czf "$out/$name.tar.gz" "$name"

# Say what the working tree has that the handout does not: uncommitted
# changes to tracked files and files git does not track (ignored ones aside).
from="the files here"
if [ "$in_git" = yes ]; then
    from="commit $(git rev-parse --short HEAD)"
    left_out=$(git status --porcelain=v1 --untracked-files=all | cut -c4- | sort -u)
    if [ -n "$left_out" ]; then
        echo "handout: made from the last commit; left out, not committed: $(tr '\n' ' ' <<<"$left_out" | sed 's/ $//')" >&2
    fi
fi
echo "handout: $out/$name/ and $out/$name.tar.gz ($from, $(find "$out/$name" -type f | wc -l) files)"
