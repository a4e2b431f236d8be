#!/usr/bin/env python3
"""slides-numbers.py: where a deck's measured numbers come from.

  slides-numbers.py literals DECK.md
      prints every measured number a deck source writes by hand: a figure
      with a unit (GB/s, μs, us, ns, ms, %, ×) outside its placeholders, the
      chapter's quotes and HTML comments. A deck should print none: its
      numbers come from placeholders (tools/slides-fill.py).

  slides-numbers.py sources FILLED.md FIXTURE.csv...
      prints every measured number of a filled deck (outside the chapter's
      quotes) that none of the given recorded runs holds, neither as a value
      rounded to the digits shown nor inside a text field (the sentences the
      host tools write are recomputed from those same rows, so their figures
      are checked against the tools' own output: pass it as a CSV too).

Exit status 1 when anything is printed, 2 on bad usage.
"""
import csv
import re
import sys

# A unit after a number; "×" only as a ratio ("4.2×"), not "2× H200" or "2 × x".
UNIT = r"(?:\s*(?:GB/s|μs|us|ns|ms)(?![\w/])|%|×(?!\s*[A-Za-z(]))"
FIGURE = re.compile(r"(?<![\w.])(×?)([0-9]+(?:\.[0-9]+)?)(?:\s*(?:/|→|–|\.\.\.|…)\s*[0-9]+(?:\.[0-9]+)?)*(" + UNIT + r")?")
PLACEHOLDER = re.compile(r"\{\{.*?\}\}")


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
                    for tok in re.findall(r"[0-9]+(?:\.[0-9]+)?", field):
                        have.add(tok)
    return have


def main(argv):
    if len(argv) >= 3 and argv[1] == "literals":
        with open(argv[2], encoding="utf-8") as f:
            lines = prose(f.read())
        bad = []
        for n, line in enumerate(lines, 1):
            if figures([line]):
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
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
