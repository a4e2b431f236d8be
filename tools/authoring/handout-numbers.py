#!/usr/bin/env python3
"""handout-numbers.py [--check]: the handouts' generated parts, filled in place.

usage: handout-numbers.py           rewrite every generated part of the handouts (the top
                                    README.md, labs/NN-name/README.md and README.zh-CN.md)
       handout-numbers.py --check   exit 1 when a generated part is stale, when a measured
                                    figure outside them is in none of the lab's fixtures nor in
                                    tools/authoring/handout-figures.tsv, or when a row of
                                    handout-figures.tsv names a figure no handout of its lab states

A generated part is <!-- fill: KIND ARGS --> ... <!-- /fill -->; the kinds, shared with the
decks, are tools/lib/fill.py's. Nothing is written when a part cannot be filled.
BUILD (default build) is where the host tools are.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import fill_handouts  # noqa: E402 (the one filler of handouts and decks: its handouts' part)


def main(argv):
    if argv[1:] not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    problems, writes = fill_handouts.fill_handouts(check=argv[1:] == ["--check"])
    for p in problems:
        print(f"handout-numbers: {p}", file=sys.stderr)
    if problems:
        return 1
    for path, text in writes:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"  wrote {os.path.relpath(path, fill_handouts.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
