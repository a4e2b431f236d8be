"""lab_tests: what the lab test files declare, and what a run of them says of each TODO.

Shared by tools/grading/junit-summary.py (make grade) and tools/grading/check-summary.py (make check).

- A test's tags are its Bats tags, read as Bats 1.8.2's preprocessor reads them: a line
  "# bats test_tags=a,b" gives the next @test its tags, "# bats file_tags=..." every later
  test of the file; a tag is made of letters, digits, "-", "_" and ":".
- A test's points are its tag "points:N"; a test without one carries 0 points.
- A test's name is the claim of which TODOs it checks: the ids of its own lab it gives after
  the word TODO ("02: TODO 02.3: ...", "04: TODOs 04.2, 04.3 and 04.4: ...").
- A test tagged "compile-only" reads the student's compiled code without running it: it can
  show a TODO wrong, never that it works.
- A TODO is *unfinished* while LAB_TODO("NN.k") is in the student's file or a test stopped at
  it; else it *fails here* when a test naming it failed; else it is *verified here* when every
  test naming it ran here and passed (one of them running its code); else it is *not verified
  here*: a test of it needs what this machine lacks (said with that need), or it was only
  compiled, or no test names it.
"""
import os
import re

# The patterns of /usr/libexec/bats-core/bats-preprocess (Bats 1.8.2).
TEST_LINE = re.compile(r"^[ \t]*@test[ \t]+(.*[^ \t])[ \t]+\{(.*)$")
COMMENT_COMMAND = re.compile(r"^[ \t]*#[ \t]*bats[ \t]+(.*)$")
TAG = r"[-_:0-9A-Za-z]+"
VALID_TAGS = re.compile(rf"^ *({TAG})?( *, *{TAG})* *$")
POINTS_TAG = re.compile(r"^points:([0-9]+)$")
COMPILE_ONLY = "compile-only"
NOT_DONE = re.compile(r"TODO ([0-9]+\.[0-9]+) is not done yet(?: \(([^)]*)\))?")

VERIFIED, FAILS, NOT_VERIFIED, UNFINISHED = "verified here", "fails here", "not verified here", "unfinished"


class TagError(ValueError):
    """A tag line or a points tag that Bats or the grade cannot read: FILE:LINE: why."""


def split_tags(text, where):
    """The tags of a "test_tags=" or "file_tags=" value, as Bats splits and trims them."""
    if not VALID_TAGS.match(text):
        raise TagError(f"{where}: '{text}' is no list of tags (letters, digits, '-', '_', ':'; "
                       "separated by commas)")
    tags = [tag.strip() for tag in text.split(",")] if text.strip() else []
    if "" in tags:
        raise TagError(f"{where}: '{text}' has an empty tag")
    return tags


def read_bats(path):
    """[(test name, its tags, its line number)] of one .bats file, in order."""
    tests, test_tags, file_tags, pending = [], [], [], None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n").replace("\r", "")
            where = f"{path}:{number}"
            found = TEST_LINE.match(line)
            if found:
                name = re.sub(r"^['\"]", "", found.group(1))
                name = re.sub(r"['\"]$", "", name)
                tests.append((name, sorted(set(file_tags + test_tags)), number))
                test_tags, pending = [], None
                continue
            command = COMMENT_COMMAND.match(line)
            if not command:
                continue
            key, _, value = command.group(1).partition("=")
            if key == "test_tags":
                test_tags, pending = split_tags(value, where), where
            elif key == "file_tags":
                file_tags = split_tags(value, where)
    if pending:
        raise TagError(f"{pending}: test_tags with no @test after them")
    return tests


def points_of(tags, where):
    """The points a test's tags declare: its one "points:N" tag, 0 without one."""
    points = [tag for tag in tags if tag.startswith("points")]
    if not points:
        return 0
    found = POINTS_TAG.match(points[0])
    if len(points) > 1 or not found:
        raise TagError(f"{where}: points must be one tag 'points:N' (N a whole number), "
                       f"not {', '.join(points)}")
    return int(found.group(1))


def lab_tests(tests_dir):
    """{(lab file name, test name): (points, tags)} of every tests/labNN.bats."""
    table = {}
    for name in sorted(os.listdir(tests_dir)):
        if not re.fullmatch(r"lab[0-9]{2}\.bats", name):
            continue
        path = os.path.join(tests_dir, name)
        for test, tags, number in read_bats(path):
            table[(name, test)] = (points_of(tags, f"{path}:{number}"), tags)
    return table


def todos_named(name, nn):
    """The TODOs of lab NN a test's name claims to check, in order."""
    if "TODO" not in name:
        return []
    found = re.findall(rf"(?<![0-9.]){re.escape(nn)}\.[0-9]+(?![0-9])", name)
    return list(dict.fromkeys(found))


def declared_todos(repo, nn):
    """The TODOs lab NN's harness headers declare ("TODO NN.k"), in order; [] when none."""
    ids = set()
    labs = os.path.join(repo, "labs")
    if not os.path.isdir(labs):
        return []
    for lab in sorted(os.listdir(labs)):
        harness = os.path.join(labs, lab, "harness")
        if not lab.startswith(nn + "-") or not os.path.isdir(harness):
            continue
        for header in sorted(os.listdir(harness)):
            if header.endswith(".h"):
                with open(os.path.join(harness, header), encoding="utf-8") as f:
                    ids.update(re.findall(rf"TODO ({re.escape(nn)}\.[0-9]+)\b", f.read()))
    return sorted(ids, key=lambda i: int(i.split(".")[1]))


def unfinished_in_sources(student_root, nn, shown_root=None):
    """{TODO id: "file:line"} of each LAB_TODO("NN.k") still in lab NN's student files under
    STUDENT_ROOT (its NN-*/student/); the file is named from SHOWN_ROOT when given."""
    found = {}
    if not student_root or not os.path.isdir(student_root):
        return found
    for lab in sorted(os.listdir(student_root)):
        folder = os.path.join(student_root, lab, "student")
        if not lab.startswith(nn + "-") or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".cu", ".h", ".cuh")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    for todo in re.findall(r'LAB_TODO\(\s*"([0-9]+\.[0-9]+)"', line):
                        shown = os.path.join(shown_root or student_root, lab, "student", name)
                        found.setdefault(todo, f"{shown}:{number}")
    return found


def gpus_needed(reason):
    """The GPUs a skip reason says a test needs ("needs 2 GPU(s)", "needs a GPU"), else None."""
    found = re.search(r"\bneeds? (a|one|[0-9]+) GPU", reason or "")
    if not found:
        return None
    return 1 if found.group(1) in ("a", "one") else int(found.group(1))


def need_of(reason):
    """What a skipped test needs, in a few words: "needs 2 GPUs", else its reason."""
    gpus = gpus_needed(reason)
    if gpus is not None:
        return f"needs {gpus} GPU{'' if gpus == 1 else 's'}"
    return (reason or "no reason given").strip()


def needs_of(reasons):
    """What a group of skipped tests needs: the most GPUs any needs, then every other need."""
    gpus = [n for n in (gpus_needed(r) for r in reasons) if n is not None]
    needs = [need_of(r) for r in reasons if gpus_needed(r) is None]
    if gpus:
        needs.insert(0, need_of(f"needs {max(gpus)} GPU"))
    return "; ".join(dict.fromkeys(needs))


def reached_todos(results):
    """{TODO id: the program's words} for each unfinished TODO a test stopped at."""
    reached = {}
    for result in results:
        for found in NOT_DONE.finditer((result.get("text") or "") + "\n" + (result.get("reason") or "")):
            reached.setdefault(found.group(1), found.group(0))
    return reached


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def todo_state(todo, tests, compile_only, unfinished):
    """(state, why, need) of one TODO from the results of the tests naming it; NEED, for a TODO
    not verified here, says in a few words what is missing."""
    if todo in unfinished:
        return UNFINISHED, unfinished[todo], ""
    if not tests:
        return NOT_VERIFIED, "no test names it", "no test names it"
    failed = [t for t in tests if t["state"] == "failed"]
    skipped = [t for t in tests if t["state"] == "skipped"]
    passed = [t for t in tests if t["state"] == "passed"]
    if failed:
        return FAILS, f"{len(failed)} of its {plural(len(tests), 'test')} failed", ""
    if skipped:
        need = needs_of([t.get("reason") for t in skipped])
        return NOT_VERIFIED, f"{need}; {len(passed)} of its {plural(len(tests), 'test')} ran here and passed", need
    if all(t["name"] in compile_only for t in tests):
        return NOT_VERIFIED, "only compiled here: no test of it ran its code", "only compiled here"
    return VERIFIED, ("its test ran here and passed" if len(tests) == 1
                      else f"its {len(tests)} tests ran here and passed"), ""


def todo_states(nn, todos, results, compile_only=(), in_sources=None):
    """[{"todo", "state", "why"}] of lab NN's TODOS. RESULTS: [{"name", "state" (passed,
    failed or skipped), "reason" (a skip's), "text" (a failure's output)}]; COMPILE_ONLY: the
    names of the tests tagged so; IN_SOURCES: {TODO id: "file:line"} of LAB_TODOs still in the
    student's files."""
    unfinished = {todo: f'LAB_TODO("{todo}") is still in {where}'
                  for todo, where in (in_sources or {}).items()}
    for todo, said in reached_todos(results).items():
        unfinished.setdefault(todo, f"a test stopped at it: {said}")
    states = []
    for todo in todos:
        tests = [r for r in results if todo in todos_named(r["name"], nn)]
        state, why, need = todo_state(todo, tests, set(compile_only), unfinished)
        states.append({"todo": todo, "state": state, "why": why, "need": need})
    return states


def state_line(entry):
    """One TODO's state as make check and the scorecard say it."""
    return f"TODO {entry['todo']}: {entry['state']} ({entry['why']})"


def states_in_short(states):
    """A lab's TODOs in one line, by state: "verified here: 02.1; not verified here: 02.2,
    02.6 (needs 1 GPU), 02.4 (needs 2 GPUs); unfinished: 02.7"."""
    parts = []
    for state in (VERIFIED, FAILS, NOT_VERIFIED, UNFINISHED):
        mine = [e for e in states if e["state"] == state]
        if not mine:
            continue
        groups = {}
        for e in mine:
            groups.setdefault(e["need"], []).append(e["todo"])
        parts.append(f"{state}: " + ", ".join(", ".join(ids) + (f" ({need})" if need else "")
                                               for need, ids in groups.items()))
    return "; ".join(parts)


def checked_any(nn, results, compile_only=()):
    """True when a test naming one of lab NN's TODOs ran its code here (passed or failed)."""
    return any(r["state"] != "skipped" and r["name"] not in compile_only and todos_named(r["name"], nn)
               for r in results)
