#!/usr/bin/env python3
"""slides-fill.py DECK.md [OUT.md]: a lecture deck with its placeholders filled in.

usage: slides-fill.py DECK.md [OUT.md]   the deck filled, into OUT.md (default: stdout)

A placeholder is {{KIND ARGS}}; the kinds, shared with the handouts, are tools/lib/fill.py's.
Any placeholder that cannot be filled is an error naming the deck's line: the deck is not
written and the exit status is 1. BUILD (default build) is where the host tools are, FIXTURES
(default tests/fixtures) the recordings.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import fill  # noqa: E402 (the one filler of handouts and decks)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    try:
        out, errors = fill.deck(argv[1])
    except OSError as e:
        print(f"slides-fill: {e}", file=sys.stderr)
        return 1
    for e in errors:
        print(f"slides-fill: {e}", file=sys.stderr)
    if errors:
        return 1
    if len(argv) == 3:
        with open(argv[2], "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
