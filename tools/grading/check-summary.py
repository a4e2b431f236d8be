#!/usr/bin/env python3
"""check-summary.py NN TAP [STUDENT_ROOT]: what `make check LAB=NN` verified of lab NN.

Reads the TAP log of lab NN's tests and prints each TODO its harness headers declare in
one of four states (tools/grading/lab_tests.py says how each is decided): verified here, fails
here, not verified here (with what this machine lacks, e.g. "needs 1 GPU"), unfinished
(LAB_TODO still in the student's file under STUDENT_ROOT/NN-*/student/, or reached by a
test). Exits 1 when no test of the lab's TODOs ran here (nothing was checked), 2 on bad
usage.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
import lab_tests  # noqa: E402 (tools/grading/, beside this script)

RESULT = re.compile(r"^(not )?ok [0-9]+ (.*)$")


def read_tap(path):
    """[{"name", "state", "reason", "text"}] of a Bats TAP log (the "# ..." lines after a
    result are its output)."""
    results = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            found = RESULT.match(line)
            if found:
                name = re.sub(r" # in [0-9]+ ?ms", "", found.group(2))
                reason = ""
                skip = re.search(r" # skip ?(.*)$", name)
                if skip:
                    name, reason = name[:skip.start()], skip.group(1)
                state = "failed" if found.group(1) else "skipped" if skip else "passed"
                results.append({"name": name, "state": state, "reason": reason, "text": ""})
            elif line.startswith("#") and results:
                results[-1]["text"] += line[1:].strip() + "\n"
    return results


def main(argv):
    if len(argv) not in (3, 4) or not re.fullmatch(r"[0-9]{2}", argv[1]):
        sys.stderr.write(__doc__)
        return 2
    nn, tap = argv[1], argv[2]
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.isfile(tap):
        sys.stderr.write(f"check-summary: no TAP file '{tap}'\n")
        return 2
    todos = lab_tests.declared_todos(repo, nn)
    if not todos:
        sys.stderr.write(f"check-summary: lab {nn} declares no TODO in labs/{nn}-*/harness/\n")
        return 2
    bats = os.path.join(repo, "tests", f"lab{nn}.bats")
    compile_only = {name for name, tags, _ in lab_tests.read_bats(bats) if lab_tests.COMPILE_ONLY in tags} \
        if os.path.isfile(bats) else set()
    results = read_tap(tap)
    root = argv[3] if len(argv) == 4 else None
    shown = os.path.relpath(root, repo) if root and os.path.abspath(root).startswith(repo + os.sep) else root
    states = lab_tests.todo_states(nn, todos, results, compile_only,
                                   lab_tests.unfinished_in_sources(root, nn, shown))
    for entry in states:
        print(f"check {nn}: {lab_tests.state_line(entry)}")
    counts = {state: sum(e["state"] == state for e in states)
              for state in (lab_tests.VERIFIED, lab_tests.FAILS, lab_tests.NOT_VERIFIED, lab_tests.UNFINISHED)}
    print(f"check {nn}: of the lab's {len(todos)} TODOs: " +
          ", ".join(f"{n} {state}" for state, n in counts.items() if n))
    if not lab_tests.checked_any(nn, results, compile_only):
        print(f"check {nn}: no test of the lab's {len(todos)} TODOs ran here: nothing was checked")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except lab_tests.TagError as error:
        sys.stderr.write(f"check-summary: {error}\n")
        sys.exit(1)
