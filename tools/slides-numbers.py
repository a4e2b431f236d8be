#!/usr/bin/env python3
"""slides-numbers.py: where a deck's measured numbers come from.

  slides-numbers.py literals DECK.md
      prints every line of a deck source that writes by hand, outside its
      placeholders, the chapter's quotes and HTML comments, a measured
      number (a figure with a unit: GB/s, μs, us, ns, ms, %, ×), a version of
      the machine (CUDA 13.0, driver 580.159.04) or a source file's line
      (p2p_copy.c:22). A deck should print none: they come from placeholders
      (tools/slides-fill.py: num, machine, todo ...).

  slides-numbers.py sources FILLED.md FIXTURE.csv...
      prints every measured number of a filled deck (outside the chapter's
      quotes) that none of the given recorded runs holds, neither as a value
      rounded to the digits shown nor inside a text field (the sentences the
      host tools write are recomputed from those same rows, so their figures
      are checked against the tools' own output: pass it as a CSV too).
      The CUDA and driver versions it names are checked the same way.

  slides-numbers.py lines FILLED.md
      prints every file:line of a filled deck that is not a TODO message
      ("TODO NN.K is not done yet (FILE:LINE)") whose line holds
      LAB_TODO("NN.K") in this tree.

Exit status 1 when anything is printed, 2 on bad usage.
"""
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A unit after a number; "×" only as a ratio ("4.2×"), not "2× H200" or "2 × x".
UNIT = r"(?:\s*(?:GB/s|μs|us|ns|ms)(?![\w/])|%|×(?!\s*[A-Za-z(]))"
FIGURE = re.compile(r"(?<![\w.])(×?)([0-9]+(?:\.[0-9]+)?)(?:\s*(?:/|→|–|\.\.\.|…)\s*[0-9]+(?:\.[0-9]+)?)*(" + UNIT + r")?")
PLACEHOLDER = re.compile(r"\{\{.*?\}\}")
# The machine's software, named by version: it drifts from run to run like a figure.
VERSION = re.compile(r"\b(?:CUDA|driver)\s+([0-9]+(?:\.[0-9]+)*)\b")
# A place in a source file; the skeletons' lines move whenever a TODO's text does.
FILE_LINE = re.compile(r"[\w./-]*\.(?:c|cu|h|sh|py|bats|mk):[0-9]+")
TODO_AT = re.compile(r"TODO ([0-9]{2}\.[0-9]+) is not done yet \(([\w./-]+):([0-9]+)\)")


def prose(text):
    """The lines a reader sees as the deck's own words, with what the filler
    or the chapter supplies removed."""
    out = []
    front = 0
    for line in text.splitlines():
        if line.strip() == "---" and front < 2 and not out:
            front += 1
            continue
        if front == 1:
            continue
        if line.startswith(">"):
            continue          # the chapter's words
        line = re.sub(r"<!--.*?-->", "", line)
        line = PLACEHOLDER.sub(" ", line)
        out.append(line)
    return out


def figures(lines):
    """Each number that carries a unit, or stands in a chain that ends in one."""
    found = []
    for line in lines:
        line = re.sub(r"NVLink [0-9]+ ×[0-9]+", "NVLink", line)   # the hardware's name, not a ratio
        for m in FIGURE.finditer(line):
            chain = m.group(0)
            if not (m.group(1) or m.group(3)):
                continue
            found.extend(re.findall(r"[0-9]+(?:\.[0-9]+)?", chain))
        found.extend(VERSION.findall(line))
    return found


def known_values(paths):
    have = set()
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                for field in row:
                    try:
                        v = float(field)
                        for d in range(5):
                            have.add(f"{v:.{d}f}")
                    except ValueError:
                        pass
                    for tok in re.findall(r"[0-9]+(?:\.[0-9]+)*", field):
                        have.add(tok)
                    for tok in re.findall(r"[0-9]+(?:\.[0-9]+)?", field):
                        have.add(tok)
    return have


def main(argv):
    if len(argv) >= 3 and argv[1] == "literals":
        with open(argv[2], encoding="utf-8") as f:
            lines = prose(f.read())
        bad = []
        for n, line in enumerate(lines, 1):
            if figures([line]) or FILE_LINE.search(line):
                bad.append(line.strip())
        for b in bad:
            print(b)
        return 1 if bad else 0
    if len(argv) >= 4 and argv[1] == "sources":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        lines = [l for l in text.splitlines() if not l.startswith(">")]
        have = known_values(argv[3:])
        missing = sorted({x for x in figures(lines) if x not in have})
        for x in missing:
            print(x)
        return 1 if missing else 0
    if len(argv) == 3 and argv[1] == "lines":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        bad = [m.group(0) for m in FILE_LINE.finditer(text) if not todo_site_holds(text, m)]
        for b in bad:
            print(b)
        return 1 if bad else 0
    print(__doc__, file=sys.stderr)
    return 2


def todo_site_holds(text, place):
    """Whether the file:line PLACE stands in a TODO message whose line holds that TODO."""
    for m in TODO_AT.finditer(text):
        if m.start(2) == place.start() and m.end(3) == place.end():
            path = os.path.join(ROOT, m.group(2))
            try:
                with open(path, encoding="utf-8") as f:
                    lines = f.read().splitlines()
            except OSError:
                return False
            n = int(m.group(3))
            return 1 <= n <= len(lines) and f'LAB_TODO("{m.group(1)}")' in lines[n - 1]
    return False


if __name__ == "__main__":
    sys.exit(main(sys.argv))
