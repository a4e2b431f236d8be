"""The handouts, filled in place, and their check (tools/authoring/handout-numbers.py): which
documents are handouts, and under --check, a part that is stale, a measured figure outside the
parts that no source of the lab holds, or a row of tools/authoring/handout-figures.tsv that no
handout states. The kinds are tools/lib/fill.py's.
"""

import csv
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
from fill import HANDOUT_PART, Doc  # noqa: E402
from fill_recordings import FIXTURES, ROOT  # noqa: E402
from fill_rows import converted  # noqa: E402
import machines  # noqa: E402
import nvbandwidth_rows  # noqa: E402 (tools/report/, on the path since fill_recordings)

FIGURES = os.path.join(ROOT, "tools", "authoring", "handout-figures.tsv")
README = os.path.join(ROOT, "README.md")


def handouts():
    """The handouts to fill: the top README.md, then each lab's, in both languages."""
    if os.path.isfile(README):
        yield README
    labs = os.path.join(ROOT, "labs")
    for d in sorted(os.listdir(labs)):
        for f in ("README.md", "README.zh-CN.md"):
            p = os.path.join(labs, d, f)
            if re.match(r"\d\d-", d) and os.path.isfile(p):
                yield p


# A measured figure: a number with a unit of time, rate or ratio (not a count
# of GPUs such as "2× NVIDIA <name>", not a product such as "2 × x").
MEASURED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)"
                      r"(?:\s?(?:GB/s|GiB/s|µs|μs|us|ns|ms|%|倍)(?!\w)|[×x](?![\w]|\s?(?:NVIDIA|H\d00|GPU)))")


def known_figures(lab):
    """Figures a handout may state that are not measurements of ours."""
    known = set()
    with open(FIGURES, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if row and not row[0].startswith("#") and len(row) >= 3 and row[0] in (lab, "*"):
                known.add(row[1])
    return known


def rounded_figures(runs):
    """The figures of nvbandwidth runs (RUNS, their JSONs), as written and rounded to 0-3
    decimals (a handout says 48.4 GB/s of nvbandwidth's 48.3842). Only these few: rounded, the
    hundreds of numbers of a lab's own rows would let almost any figure through, so those are
    quoted as written."""
    figures = set()
    for r in converted(nvbandwidth_rows.rows, runs):
        for cell in (str(r["median_us"]), str(r["gbps"])):
            if re.fullmatch(r"\d+(?:\.\d+)?", cell):
                figures.add(cell)
                figures.update(f"{float(cell):.{d}f}" for d in range(4))
    return figures


def stray_figures(doc):
    """Figures outside the generated parts of a lab's handout DOC that no source of the lab holds."""
    sources, runs = "", []
    for path, _ in machines.recordings(doc.nn, FIXTURES):
        with open(path) as f:
            sources += f.read()
        runs += nvbandwidth_rows.runs_beside(path)
    rounded = rounded_figures(runs)
    known = known_figures(doc.lab)
    bad = []
    for line in HANDOUT_PART.sub("", doc.text).splitlines():
        # The chapter's own words and table are quoted, not measured.
        if line.startswith(">") or "<!-- chapter -->" in line:
            continue
        for m in MEASURED.finditer(line):
            num = m.group(1)
            if num in known or num in rounded or \
                    re.search(rf"(?<![\d.]){re.escape(num)}(?![\d])", sources) is not None:
                continue
            bad.append(f"{doc.where()}: '{m.group(0)}' is in none of lab {doc.nn}'s "
                       f"fixtures (write it inside a generated part, or name its source in "
                       f"tools/authoring/handout-figures.tsv)")
    return bad


def unstated_figures(docs):
    """Rows of handout-figures.tsv whose figure no handout of their lab states outside the
    generated parts any more (DOCS: the lab's handouts): a stale row would let a figure
    through that nothing sources."""
    stated = {}
    for doc in docs:
        found = {m.group(1) for m in MEASURED.finditer(HANDOUT_PART.sub("", doc.text))}
        stated.setdefault(doc.lab, set()).update(found)
        stated.setdefault("*", set()).update(found)
    bad = []
    with open(FIGURES, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if row and not row[0].startswith("#") and len(row) >= 3 and \
                    row[1] not in stated.get(row[0], set()):
                bad.append(f"tools/authoring/handout-figures.tsv: {row[0]} {row[1]} ({row[2]}) is stated by "
                           f"no handout of its lab: drop the row, or say where it is used")
    return bad


def fill_handouts(check):
    """Fill every handout: (problems, [(path, new text)] to write). CHECK: a part that differs
    from what it would be, a measured figure outside the parts in none of the lab's sources,
    and a row of handout-figures.tsv no handout states, are problems; nothing is written."""
    problems, writes, filled = [], [], []
    for path in handouts():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fresh, errors = Doc(path, text, handout=True).fill()
        problems += errors
        doc = Doc(path, fresh, handout=True)
        if doc.lab:
            filled.append(doc)
        if check and fresh != text:
            problems.append(f"{doc.where()}: a generated part differs from its fixture (run make handout-numbers)")
        elif fresh != text:
            writes.append((path, fresh))
    if check:
        problems += [p for doc in filled for p in stray_figures(doc)] + unstated_figures(filled)
    return problems, writes
