#!/usr/bin/env python3
"""junit-summary.py [options] REPORT.xml TESTS_DIR OUT_DIR: the grade, for people and for graders.

Reads the JUnit report Bats wrote (a real XML parser; control characters a program printed
and bytes that are not UTF-8 are dropped first, as XML 1.0 allows none) and the points each
test declares beside itself in TESTS_DIR/labNN.bats (a Bats tag "points:N"; a test without
one carries 0: tools/grading/lab_tests.py). Writes to OUT_DIR:

- junit.xml: the report, each <testcase> with <properties>: "points" (what the test is
  worth), "checkable_here" (false for a skipped test) and, when checkable, "points_earned";
  each <testsuite> with the lab's totals: "points_earned", "points_possible_here" and
  "points_not_checkable_here";
- results.json: Gradescope's autograder results (score, and per test name, score,
  max_score, status, output): a test this machine could not check has max_score 0 and no
  status (it is neither passed nor failed), its output saying "not checkable on this
  machine: <reason>", its points counted out of the total;
- summary.json: per lab the points earned, possible here and not checkable here, each
  TODO's state, and per test its state, points and hint.

Prints the scorecard first: per lab the points earned of those this machine can check, the
points it cannot check and why; each TODO's state; what a test without points is; then each
test not passed with its points and its hint (the unfinished TODO or the failed check; the
skip reason). --student-root DIR (the graded labs/, NN-*/student/ in it) names each
LAB_TODO still in the student's files as unfinished; --strip PREFIX removes PREFIX from every
text and attribute (the grader's copy of a submission, named as the student knows it).
Exits 1 when an input cannot be read or an output cannot be written, 2 on bad usage.
"""
import argparse
import io
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
import lab_tests  # noqa: E402 (tools/grading/, beside this script)


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


# Characters XML 1.0 forbids (all controls but tab, newline and carriage return), raw or as
# a character reference.
XML_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
XML_FORBIDDEN_REF = re.compile(r"&#0*([0-8]|1[124-9]|2[0-9]|3[01]);|&#[xX]0*([0-8]|[bBcCeEfF]|1[0-9a-fA-F]);")
FRAME_NOTE = ("a test without points shows that the lab's frame works (usage, exit codes, checks "
              "of the recorded runs), not the student's work: it earns nothing")


def read_report(path, strips):
    """The Bats JUnit report as an element tree, cleaned, each PREFIX of STRIPS removed."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="ignore")
    root = ET.fromstring(XML_FORBIDDEN_REF.sub("", XML_FORBIDDEN.sub("", text)))
    for element in root.iter():
        for prefix in (p for p in strips if p):
            element.text = element.text.replace(prefix, "") if element.text else element.text
            for key, value in element.attrib.items():
                element.set(key, value.replace(prefix, ""))
    return root


def lab_of(suite, case):
    """The lab number of a test case: from its file (lab01.bats), else its name (01: ...)."""
    found = re.fullmatch(r"lab([0-9]{2})\.bats", case.get("classname") or suite.get("name") or "")
    return found.group(1) if found else case.get("name", "").split(":", 1)[0]


def result_of(suite, case, table):
    """One test case as the grade sees it."""
    name = case.get("name", "")
    lab = lab_of(suite, case)
    points, _ = table.get((f"lab{lab}.bats", name), (0, []))
    failure, skipped = case.find("failure"), case.find("skipped")
    if failure is not None:
        state, hint, text = "failed", hint_of(failure.text), failure.text or ""
    elif skipped is not None:
        state, text = "skipped", ""
        hint = (skipped.text or skipped.get("message") or "").strip() or "no reason given"
    else:
        state, hint, text = "passed", "", ""
    return {"lab": lab, "name": name, "state": state, "points": points,
            "earned": points if state == "passed" else 0, "hint": hint,
            "reason": hint if state == "skipped" else "", "text": text}


def set_properties(element, values):
    """ELEMENT's <properties> (its first child) with VALUES set, other properties kept."""
    props = element.find("properties")
    if props is None:
        props = ET.Element("properties")
        element.insert(0, props)
    for name, value in values.items():
        for old in [p for p in props.findall("property") if p.get("name") == name]:
            props.remove(old)
        ET.SubElement(props, "property", {"name": name, "value": str(value)})


def lab_totals(results):
    """A lab's points: earned, possible on this machine, not checkable here."""
    return {"points": sum(r["earned"] for r in results),
            "max_points": sum(r["points"] for r in results if r["state"] != "skipped"),
            "not_checkable_here": sum(r["points"] for r in results if r["state"] == "skipped")}


def annotate(root, table):
    """Each test case's points as properties, each suite's totals; the results, per lab."""
    labs = {}
    for suite in root.iter("testsuite"):
        mine = []
        for case in suite.findall("testcase"):
            result = result_of(suite, case, table)
            values = {"points": result["points"], "checkable_here": str(result["state"] != "skipped").lower()}
            if result["state"] != "skipped":
                values["points_earned"] = result["earned"]
            set_properties(case, values)
            mine.append(result)
            labs.setdefault(result["lab"], []).append(result)
        totals = lab_totals(mine)
        set_properties(suite, {"points_earned": totals["points"], "points_possible_here": totals["max_points"],
                               "points_not_checkable_here": totals["not_checkable_here"]})
    return labs


def why_not_checkable(results):
    """The points of a lab's skipped tests, by what they need: "needs 2 GPUs (6)"."""
    needs = {}
    for r in results:
        if r["state"] == "skipped" and r["points"]:
            need = lab_tests.need_of(r["reason"])
            needs[need] = needs.get(need, 0) + r["points"]
    order = sorted(needs, key=lambda need: (lab_tests.gpus_needed(need) or 99, need))
    return ", ".join(f"{need} ({needs[need]})" for need in order)


def scorecard(labs, out):
    """The scorecard of LABS (as in summary.json)."""
    out.write("Points: per lab, earned of those this machine can check; a test it cannot check "
              "(skipped) is neither earned nor lost.\n")
    out.write(f"{'lab':<6} {'points':<14} not checkable here\n")
    for lab in labs:
        why = why_not_checkable(lab["tests"])
        out.write(f"{lab['lab']:<6} {lab['points']:4d} of {lab['max_points']:<6d} "
                  f"{lab['not_checkable_here']:4d} points{': ' + why if why else ''}\n")
    total = {k: sum(lab[k] for lab in labs) for k in ("points", "max_points", "not_checkable_here")}
    out.write(f"{'total':<6} {total['points']:4d} of {total['max_points']:<6d} "
              f"{total['not_checkable_here']:4d} points\n")
    if any(lab["todos"] for lab in labs):
        out.write("\nTODOs (verified here: every test naming it ran here and passed; summary.json says why each):\n")
    for lab in (lab for lab in labs if lab["todos"]):
        # Indented: a line that starts with the lab's number is its points row alone.
        out.write(f"  {lab['lab']}  {lab_tests.states_in_short(lab['todos'])}\n")
    frame = [t for lab in labs for t in lab["tests"] if t["points"] == 0 and t["state"] != "skipped"]
    out.write(f"\nTests without points: {sum(t['state'] == 'passed' for t in frame)} of {len(frame)} "
              f"passed here; {FRAME_NOTE}.\n")
    missed = [t for lab in labs for t in lab["tests"] if t["state"] != "passed"]
    if missed:
        out.write("\nNot passed:\n")
    for t in missed:
        said = ("skipped: " if t["state"] == "skipped" else "") + t["hint"]
        out.write(f"  [{t['state']}] {t['name']} ({lab_tests.plural(t['points'], 'point')})\n      {said}\n")


def gradescope_test(result, number):
    """One test in Gradescope's results format."""
    todos = [f"TODO {t}" for t in lab_tests.todos_named(result["name"], result["lab"])]
    test = {"name": result["name"], "number": number, "score": result["earned"],
            "max_score": result["points"], "visibility": "visible", "tags": [f"lab {result['lab']}"] + todos,
            "extra_data": {"points": result["points"], "checkable_here": result["state"] != "skipped"}}
    if result["state"] == "skipped":
        test["max_score"] = 0
        test["tags"].append("not checkable here")
        test["output"] = (f"not checkable on this machine: {result['reason']} "
                          f"({lab_tests.plural(result['points'], 'point')}, counted out of the total: "
                          "neither earned nor lost)")
    elif result["state"] == "failed":
        test["status"] = "failed"
        test["output"] = f"failed: {result['hint']}\n\n{result['text'].strip()}"
    else:
        test["status"] = "passed"
        test["output"] = "passed" + ("" if result["points"] else f" ({FRAME_NOTE})")
    return test


def gradescope(grade, card):
    """The grade in Gradescope's autograder results format, the scorecard CARD as its output."""
    tests = [gradescope_test(t, f"{int(lab['lab']) if lab['lab'].isdigit() else lab['lab']}.{i}")
             for lab in grade["labs"] for i, t in enumerate(lab["tests"], 1)]
    return {"score": grade["points"], "output": card, "stdout_visibility": "hidden",
            "extra_data": {k: grade[k] for k in ("points", "max_points", "not_checkable_here")},
            "tests": tests}


def grade_of(labs, table, repo, student_root):
    """Per lab its totals, its TODOs' states and its tests' results, and the totals."""
    compile_only = {name for (_, name), (_, tags) in table.items() if lab_tests.COMPILE_ONLY in tags}
    entries = []
    for lab, results in labs.items():
        todos = lab_tests.todo_states(lab, lab_tests.declared_todos(repo, lab), results, compile_only,
                                      lab_tests.unfinished_in_sources(student_root, lab, "labs"))
        entries.append({"lab": lab, **lab_totals(results), "todos": todos, "tests": results})
    return {**{k: sum(e[k] for e in entries) for k in ("points", "max_points", "not_checkable_here")},
            "labs": entries}


def summary_json(grade):
    """summary.json: the grade, each test with its state, points earned and worth, and hint."""
    labs = [{**{k: lab[k] for k in ("lab", "points", "max_points", "not_checkable_here", "todos")},
             "tests": [{"name": t["name"], "state": t["state"], "points": t["earned"],
                        "max_points": t["points"], "hint": t["hint"]} for t in lab["tests"]]}
            for lab in grade["labs"]]
    return {**{k: grade[k] for k in ("points", "max_points", "not_checkable_here")}, "labs": labs}


def write(path, write_content):
    """Write PATH through a file beside it, so that a failed write leaves no half file."""
    part = path + ".part"
    with open(part, "w", encoding="utf-8") as out:
        write_content(out)
    os.replace(part, path)


def write_json(path, content):
    """Write CONTENT to PATH with a real JSON serialiser."""
    def dump(out):
        json.dump(content, out, indent=2, ensure_ascii=False)
        out.write("\n")
    write(path, dump)


def main(argv):
    parser = argparse.ArgumentParser(prog="junit-summary.py", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--student-root", help="the graded labs/: LAB_TODOs left in NN-*/student/ are unfinished")
    parser.add_argument("--strip", action="append", default=[], help="remove this prefix from every text")
    parser.add_argument("report")
    parser.add_argument("tests_dir")
    parser.add_argument("out_dir")
    args = parser.parse_args(argv[1:])
    try:
        table = lab_tests.lab_tests(args.tests_dir)
        root = read_report(args.report, args.strip)
    except (OSError, ET.ParseError, lab_tests.TagError) as error:
        sys.stderr.write(f"junit-summary: {error}\n")
        return 1
    labs = annotate(root, table)
    grade = grade_of(labs, table, os.path.dirname(os.path.abspath(args.tests_dir)), args.student_root)
    card = io.StringIO()
    scorecard(grade["labs"], card)
    try:
        ET.indent(root)
        write(os.path.join(args.out_dir, "junit.xml"),
              lambda out: ET.ElementTree(root).write(out, encoding="unicode", xml_declaration=True))
        sys.stdout.write(card.getvalue())
        sys.stdout.flush()
        write_json(os.path.join(args.out_dir, "summary.json"), summary_json(grade))
        write_json(os.path.join(args.out_dir, "results.json"), gradescope(grade, card.getvalue()))
    except OSError as error:
        sys.stderr.write(f"junit-summary: cannot write: {error}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
