"""The chapter's claims in make run's report, as data:

    claims.tsv     each claim of each lab here (labs/NN-name/claims.tsv) with this run's verdict:
                   id, lab, section, verdict, chapter, meaning, measured (or why not)
    recorded.tsv   for the labs that did not run here, each claim's verdict in each recording
                   of the course, recomputed by the lab's host tool: recording, hardware, id,
                   lab, verdict, measured
"""

import csv
import os
import sys

import host_tools
import machines

CLAIMS = ["id", "lab", "section", "verdict", "chapter", "meaning", "measured"]
RECORDED = ["recording", "hardware", "id", "lab", "verdict", "measured"]


def catalogue(lab):
    """The claims a lab tests (labs/NN-name/claims.tsv: id, section, chapter, meaning), or []."""
    path = os.path.join("labs", lab, "claims.tsv")
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def write(path, columns, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(row[c] for c in columns) + "\n")


def judged(lab, claim):
    """(verdict, measured) of CLAIM in LAB's run here."""
    if lab.skipped:
        return "untested", f"lab {lab.number} did not run here"
    row = next((r for r in lab.rows if r["experiment"] == "claim" and r["variant"] == claim), None)
    if row is None:
        return "untested", f"not measured: {lab.name} {lab.outcome}"
    return row["value"], row["detail"]


def claims(run, labs):
    """The rows of claims.tsv (written into the work folder)."""
    rows = []
    for lab in labs:
        for claim in catalogue(lab.name):
            verdict, measured = judged(lab, claim["id"])
            rows.append({"id": claim["id"], "lab": lab.name, "section": claim["section"],
                         "verdict": verdict, "chapter": claim["chapter"],
                         "meaning": claim["meaning"], "measured": measured})
    write(os.path.join(run.work, "claims.tsv"), CLAIMS, rows)
    return rows


def recorded(run, labs):
    """The rows of recorded.tsv (written into the work folder): the verdicts of every recording
    of each lab that did not run here, as its host tool recomputes them."""
    rows = []
    for lab in labs:
        if lab.ok or host_tools.found(lab.name) is None:
            continue
        for fixture, machine in machines.in_repo(lab.number):
            try:
                claims = host_tools.verdicts(lab.name, fixture, recording=True)
            except host_tools.Failed as e:
                print(f"make run: {e}", file=sys.stderr)  # the ledger goes on without them
                continue
            for claim in claims:
                rows.append({"recording": fixture, "hardware": machines.hardware(machine),
                             "id": claim["variant"], "lab": lab.name,
                             "verdict": claim["value"], "measured": claim["detail"]})
    write(os.path.join(run.work, "recorded.tsv"), RECORDED, rows)
    return rows
