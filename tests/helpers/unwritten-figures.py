#!/usr/bin/env python3
"""unwritten-figures.py FIXTURES: figures of lab 05's recording with nvbandwidth's runs beside it
(the first in the order of tests/fixtures/machines.tsv) for the rounding test of
tests/handouts.bats, chosen from the data so that a new recording needs no new test.

Prints one line: NVB R2 R1 OFF DIGIT LAB LAB1
  NVB    an nvbandwidth bandwidth as its converter writes it (tools/report/nvbandwidth_rows.py)
  R2 R1  NVB rounded to 2 and 1 decimals; none of the three is written in a CSV fixture
  OFF    R1 one decimal up, DIGIT NVB one last digit up: neither is written in a CSV fixture,
         nor is any nvbandwidth figure (bandwidth or latency) rounded to 0-3 decimals, nor is
         a figure tools/authoring/handout-figures.tsv lists
  LAB    a lab each-way GB/s figure as written, LAB1 its rounding to 1 decimal, written nowhere
Exits 1 when the recording offers none.
"""
import csv
import os
import re
import sys

tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path[:0] = [os.path.join(tools, "lib"), os.path.join(tools, "report")]
import machines  # noqa: E402
import nvbandwidth_rows  # noqa: E402

fixtures = sys.argv[1]
recordings = [path for path, _ in machines.recordings("05", fixtures)]
recording = next((p for p in recordings if nvbandwidth_rows.runs_beside(p)), None)
if recording is None:
    sys.exit("unwritten-figures: no recording of lab 05 has nvbandwidth's runs beside it")
runs = nvbandwidth_rows.runs_beside(recording)
text = "".join(open(f, encoding="utf-8").read() for f in recordings)


def written(figure):
    return re.search(r"(^|[^0-9.])" + re.escape(figure) + r"([^0-9]|$)", text, re.M) is not None


def nvbandwidth_figures(column):
    return [str(r[column]) for r in nvbandwidth_rows.rows(runs) if r[column] != ""]


def listed_figures():
    with open(os.path.join(tools, "authoring", "handout-figures.tsv"), encoding="utf-8") as f:
        return {row[1] for row in csv.reader(f, delimiter="\t")
                if len(row) >= 3 and not row[0].startswith("#")}


def one_digit_up(figure):
    return figure[:-1] + str((int(figure[-1]) + 1) % 10)


figures = nvbandwidth_figures("gbps")
every = figures + nvbandwidth_figures("median_us")
rounded = {f"{float(f):.{d}f}" for f in every for d in range(4)} | set(every) | listed_figures()
choice = None
for nvb in figures:
    if "." not in nvb or len(nvb.split(".")[1]) < 3 or nvb.endswith("9"):
        continue
    r2, r1 = f"{float(nvb):.2f}", f"{float(nvb):.1f}"
    off, digit = f"{float(r1) + 0.1:.1f}", one_digit_up(nvb)
    if any(written(x) for x in (nvb, r2, r1, off, digit)) or off in rounded or digit in rounded:
        continue
    choice = [nvb, r2, r1, off, digit]
    break
with open(recording, encoding="utf-8") as f:
    for r in csv.DictReader(f):
        lab, lab1 = r["gbps"], f"{float(r['gbps'] or 0):.1f}"
        if choice and r["experiment"] == "ce_bandwidth" and r["mode"] == "each_way" and \
                float(lab or 0) >= 10 and len(lab.split(".")[-1]) >= 3 and \
                not written(lab1) and lab1 not in rounded:
            print(*choice, lab, lab1)
            sys.exit(0)
sys.exit(1)
