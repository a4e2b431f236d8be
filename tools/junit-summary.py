#!/usr/bin/env python3
"""junit-summary.py JUNIT.xml POINTS OUT.json: the grade, as a scorecard and as JSON.

Reads the JUnit report Bats writes (a real XML parser) and the points table
POINTS, a table or a folder of them (tests/points/labNN.tsv: a test's id,
its full name, and its points; a test no table lists earns none). Prints the
scorecard: per lab the tests passed of all and the points earned of those
this machine could check, the points it could not check (a skipped test's are
neither earned nor lost), then each test not passed with its points and its
hint. Then writes the same with a real JSON serialiser: per lab the points
earned, the points possible on this machine and the points it could not
check, and per test its state, points and hint (the unfinished TODO or the
failed check; the skip reason).
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET


def read_points(path):
    """{test id: points} from the table(s), one "id<TAB>points" a line."""
    if os.path.isdir(path):
        points = {}
        for name in sorted(os.listdir(path)):
            if name.endswith(".tsv"):
                points.update(read_points(os.path.join(path, name)))
        return points
    points = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, value = line.rsplit("\t", 1)
            points[name] = int(value)
    return points


CONTROL = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\x00-\x08\x0b-\x1f]")


def failed_command_said(lines):
    """The first line a failed checker printed: bats-assert's assert_success
    block, from "-- command failed --" to a bare "--", says "output : LINE",
    or "output (N lines):" and the lines indented by two."""
    for i, line in enumerate(lines):
        if line.strip() != "-- command failed --":
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "--"), len(lines))
        block = lines[i + 1:end]
        one = [m.group(1) for m in (re.match(r"output : (.*\S)", t) for t in block) if m]
        said = one or [text.strip() for text in block
                       if text.startswith("  ") and text.strip() not in ("", "--")]
        if said:
            return said[:1]
    return []


def hint_of(text):
    """A failed test's hint: the unfinished TODO or the lab that does not
    build; else what the program said ("not ok CASE: ...", else its first
    line; tests/helpers/lab.bash program_said), else the first line of a
    failed checker, and the failed check's file:line; else that place."""
    lines = [CONTROL.sub("", line) for line in (text or "").splitlines()]
    for line in lines:
        found = re.match(r"\s*(?:unfinished: (TODO .*)|not built: (.*))", line)
        if found:
            return (found.group(1) or found.group(2)).strip()
    where = ""
    for line in lines:
        found = re.search(r"in test file (.*), line (\d+)", line)
        if found:
            where = f"{found.group(1)}:{found.group(2)}"
            break
    said = [line.split("| ", 1)[1].strip() for line in lines if re.match(r"^ *\| ", line)]
    said = [line for line in said if line]
    said = [line for line in said if line.startswith("not ok ")] or said
    said = said or failed_command_said(lines)
    place = where or "the test's output in tests.tap"
    return f"{said[0]} ({place})" if said else "see " + place


def scorecard(labs, table, out):
    """The scorecard of LABS (as in the JSON); TABLE: {test id: its points}."""
    out.write(f"{'lab':<6} {'tests passed':<14} {'points':<12} not checkable here\n")
    for lab in labs:
        tests = lab["tests"]
        passed = sum(t["state"] == "passed" for t in tests)
        out.write(f"{lab['lab']:<6} {passed:5d} of {len(tests):<5d} {lab['points']:4d} of "
                  f"{lab['max_points']:<4d} {lab['not_checkable_here']:4d} points\n")
    total = {k: sum(lab[k] for lab in labs) for k in ("points", "max_points", "not_checkable_here")}
    out.write(f"total  {'':>18} {total['points']:4d} of {total['max_points']:<4d} "
              f"{total['not_checkable_here']:4d} points\n")
    missed = [t for lab in labs for t in lab["tests"] if t["state"] != "passed"]
    if missed:
        out.write("\nNot passed:\n")
    for t in missed:
        n = table.get(t["name"], 0)
        said = ("skipped: " if t["state"] == "skipped" else "") + t["hint"]
        out.write(f"  [{t['state']}] {t['name']} ({n} point{'' if n == 1 else 's'})\n      {said}\n")


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    table = read_points(argv[2])
    labs = {}
    for case in ET.parse(argv[1]).getroot().iter("testcase"):
        name = case.get("name", "")
        lab = name.split(":", 1)[0]
        points = table.get(name, 0)
        failure, skipped = case.find("failure"), case.find("skipped")
        if failure is not None:
            state, hint = "failed", hint_of(failure.text)
        elif skipped is not None:
            state, hint = "skipped", (skipped.text or skipped.get("message") or "").strip()
        else:
            state, hint = "passed", ""
        entry = labs.setdefault(lab, {"lab": lab, "points": 0, "max_points": 0,
                                      "not_checkable_here": 0, "tests": []})
        if state == "skipped":
            entry["not_checkable_here"] += points
        else:
            entry["max_points"] += points
        if state == "passed":
            entry["points"] += points
        entry["tests"].append({"name": name, "state": state,
                               "points": points if state == "passed" else 0, "hint": hint})
    summary = {
        "points": sum(l["points"] for l in labs.values()),
        "max_points": sum(l["max_points"] for l in labs.values()),
        "not_checkable_here": sum(l["not_checkable_here"] for l in labs.values()),
        "labs": list(labs.values()),
    }
    scorecard(summary["labs"], table, sys.stdout)
    sys.stdout.flush()
    with open(argv[3], "w", encoding="utf-8") as out:
        json.dump(summary, out, indent=2, ensure_ascii=False)
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
