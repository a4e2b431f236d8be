#!/usr/bin/env python3
"""slides-numbers.py: where a deck's measured numbers come from.

  slides-numbers.py literals DECK.md
      prints every line of a deck source that writes by hand, outside its
      placeholders, the chapter's quotes and HTML comments, a measured
      number (a figure with a unit: GB/s, μs, us, ns, ms, %, ×), a version of
      the machine (CUDA 13.0, driver 580.159.04) or a source file's line
      (p2p_copy.c:22). A deck should print none: they come from placeholders
      (tools/slides/slides-fill.py: num, machine, todo ...).

  slides-numbers.py sources FILLED.md [FIXTURE.csv...]
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

  slides-numbers.py code DECK.md
      prints every line of a code page that its source does not hold: a
      fenced block right after a comment <!-- code: PATH --> must be lines of
      PATH (relative to the repository), in the file's order, each as the
      file writes it (trailing blanks aside); a line "/* ... */" or "// ..."
      stands for lines left out. Also prints a code marker without its block
      or whose file does not exist.

Speaker notes (HTML comments) are prose too: a number in them comes from a
placeholder like any other. A percentage the filler computed
(<span class="pct" data-of="A/B">N%</span>) counts when A and B are in the
runs and N is A/B as a percentage.

Exit status 1 when anything is printed, 2 on bad usage.
"""
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A unit after a number; "×" only as a ratio ("4.2×"), not "2× GPU" or "2 × x".
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
        line = re.sub(r"<!--|-->", " ", line)   # a speaker note is read like the page
        line = PLACEHOLDER.sub(" ", line)
        out.append(line)
    return out


def figures(lines):
    """Each number that carries a unit, or stands in a chain that ends in one."""
    found = []
    for line in lines:
        line = re.sub(r"(NVLink [0-9]+|PCIe Gen[0-9]+) ×[0-9]+", "LINK", line)   # a link's name, not a ratio
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
    # No FIXTURE at all is a lab with no recording yet: then no measured number may be shown.
    if len(argv) >= 3 and argv[1] == "sources":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        have = known_values(argv[3:])
        text, wrong = shares(text, have)
        lines = [l for l in text.splitlines() if not l.startswith(">")]
        missing = sorted({x for x in figures(lines) if x not in have} | set(wrong))
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
    if len(argv) == 3 and argv[1] == "code":
        bad = code_pages(argv[2])
        for b in bad:
            print(b)
        return 1 if bad else 0
    print(__doc__, file=sys.stderr)
    return 2


PCT = re.compile(r'<span class="pct" data-of="([0-9.]+)/([0-9.]+)">([0-9]+)%</span>')


def shares(text, have):
    """TEXT without its computed percentages, and those that are not their parts' share."""
    wrong = []
    for m in PCT.finditer(text):
        part, whole, shown = m.group(1), m.group(2), m.group(3)
        if part not in have or whole not in have or f"{100.0 * float(part) / float(whole):.0f}" != shown:
            wrong.append(m.group(0))
    return PCT.sub(" ", text), wrong


CODE_MARK = re.compile(r"^<!-- code: (\S+) -->$")
ELIDED = {"/* ... */", "// ..."}


def code_pages(deck):
    """The lines of DECK's code pages that their source files do not hold, in order."""
    with open(deck, encoding="utf-8") as f:
        lines = f.read().splitlines()
    bad = []
    for n, line in enumerate(lines):
        m = CODE_MARK.match(line)
        if not m:
            continue
        block = fenced_block(lines, n + 1)
        if block is None:
            bad.append(f"{deck}:{n + 1}: <!-- code: {m.group(1)} --> is not followed by a fenced code block")
            continue
        try:
            with open(os.path.join(ROOT, m.group(1)), encoding="utf-8") as f:
                source = [l.rstrip() for l in f.read().splitlines()]
        except OSError:
            bad.append(f"{deck}:{n + 1}: {m.group(1)} does not exist")
            continue
        bad += [f"{m.group(1)} does not hold, in this order: {l}" for l in unmatched(block, source)]
    return bad


def fenced_block(lines, start):
    """The lines of the fenced block that starts at lines[start] (blank lines before it allowed)."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start >= len(lines) or not lines[start].startswith("```"):
        return None
    end = start + 1
    while end < len(lines) and not lines[end].startswith("```"):
        end += 1
    return [l.rstrip() for l in lines[start + 1:end]]


def unmatched(block, source):
    """Block lines not found in SOURCE: consecutive, except across an elision line."""
    out, at, free = [], 0, True
    for line in block:
        if line.strip() in ELIDED:
            free = True
            continue
        if free:
            hit = next((i for i in range(at, len(source)) if source[i] == line), None)
        else:
            hit = at if at < len(source) and source[at] == line else None
        if hit is None:
            out.append(line.strip())
            free = True
            continue
        at, free = hit + 1, False
    return out


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
