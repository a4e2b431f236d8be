"""The recordings the placeholders cite and the machines they were made on: the kinds machine,
recorded-on and unrecorded of tools/lib/fill.py (whose docstring lists every kind).

A recording is labNN-SUFFIX: tests/fixtures/labNN-SUFFIX.csv, made on the machine of row SUFFIX
of tests/fixtures/machines.tsv. Every module of the filler takes from here what they share, so
that each has one owner: FillError, where the course and its recordings are (ROOT, FIXTURES),
the machines (MACHINES, ROWS) and the rows read so far.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
LIB = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(LIB))
# The shared readers; tools/report/ for nvbandwidth_rows, which the other modules of the filler
# import after this one.
sys.path[:0] = [LIB, os.path.join(ROOT, "tools", "report")]
import converted as conversions  # noqa: E402
import host_tools  # noqa: E402 (the one way to call the labs' host tools and read what they print)
import machines  # noqa: E402 (the one reader of tests/fixtures/machines.tsv)
import result_rows  # noqa: E402 (the one reader of result files)

FIXTURES = os.environ.get("FIXTURES", os.path.join(ROOT, "tests", "fixtures"))


class FillError(Exception):
    """A placeholder that cannot be filled; the message says why."""


def read_machines():
    """The rows of tests/fixtures/machines.tsv, in its order: the one place the course names its
    machines."""
    try:
        return machines.machines()
    except machines.Unknown as e:
        raise SystemExit(f"fill: {e}")


def machine_label(m):
    """How a deck names the machine of row M: "GPUS, LINK"."""
    return f"{m['gpus']}, {m['link']}"


# Each machine's row by its suffix, and (suffix, "GPUS, LINK") in the table's order: the order a
# claim page shows them.
ROWS = {m["suffix"]: m for m in read_machines()}
MACHINES = [(suffix, machine_label(m)) for suffix, m in ROWS.items()]

# What a deck says for a machine a lab has no recording of (yet).
NOT_RECORDED = "no recording of this lab on that machine yet"


class NotRecorded(FillError):
    """A figure of a recording that does not exist yet (a new lab): a handout's part says so, a
    deck stops."""

    def __init__(self, fix, message):
        super().__init__(message)
        self.fix = fix



# ---- recordings ------------------------------------------------------------------------------

def fixture_file(fix, doc=None):
    """The path of the recording FIX (labNN-SUFFIX), whether it exists or not; in a lab's
    document (DOC) it must be a recording of that lab."""
    try:
        nn, _ = machines.of(fix + ".csv")  # the one lookup of a recording's machine by its name
        ok = os.path.basename(fix) == fix
    except machines.Unknown:
        nn, ok = None, False
    if not ok:
        raise FillError(f"'{fix}' is not a recorded run (labNN-SUFFIX, SUFFIX one of tests/fixtures/machines.tsv: "
                        f"{', '.join(s for s, _ in MACHINES)})")
    if doc is not None and doc.lab and nn != doc.nn:
        raise FillError(f"{doc.lab}: '{fix}' is not one of its recorded runs "
                        f"({', '.join(f'lab{doc.nn}-{s}' for s, _ in MACHINES)})")
    return os.path.join(FIXTURES, fix + ".csv")


def recorded(fix):
    """Whether the lab of FIX has a recording on FIX's machine."""
    return os.path.isfile(fixture_file(fix))


def fixture_path(fix, doc=None):
    """The path of the recording FIX, which must exist: its numbers are asked for."""
    path = fixture_file(fix, doc)
    if not os.path.isfile(path):
        raise NotRecorded(fix, f"{path} is missing: {NOT_RECORDED} ({hardware(fix)}); "
                               f"a figure of it cannot be shown")
    return path


def lab_nn(fix):
    """The lab number NN of the recording FIX (labNN-SUFFIX)."""
    return fix[3:5]


_rows_cache = {}


def rows(fix, doc=None):
    """The rows of the recording FIX (result_rows, by column name)."""
    path = fixture_path(fix, doc)
    if path not in _rows_cache:
        try:
            _rows_cache[path] = result_rows.read(path)
        except result_rows.NotRows as e:
            raise FillError(str(e))
    return _rows_cache[path]


def suffix_of(fix):
    return fix.split("-", 1)[1]


def link(fix):
    """The link of the machine FIX was recorded on, e.g. "PCIe Gen5 ×16"."""
    fixture_file(fix)
    return ROWS[suffix_of(fix)]["link"]


def hardware(fix):
    """"GPUS, LINK" of the machine FIX was recorded on."""
    m = ROWS.get(suffix_of(fix))
    if m is None:
        raise FillError(f"no hardware known for {fix}")
    return machine_label(m)


def host_tool(nn, command, fix, doc=None, beside=()):
    """What lab NN's host tool prints for COMMAND (verdicts, figures, report) on recording FIX."""
    try:
        return host_tools.run(nn, command, fixture_path(fix, doc), beside)
    except host_tools.Failed as e:
        raise FillError(str(e))


# ---- machine ---------------------------------------------------------------------------------

# A machine row whose detail says where its value was copied from, e.g.
# "(from the handout)", was typed into the fixture, not recorded: left out.
COPIED = re.compile(r"\(from [^)]*\)")


def versions(fix):
    """'(CUDA 13.0, driver 580.159.04; FIX.csv)' from FIX's machine,cuda row:
    the runtime is the row's value, the driver version the detail's "driver N"
    (a run that knows only what CUDA the driver supports names no driver).
    A lab not recorded on that machine: '(no recording of this lab on that machine yet; FIX.csv)'."""
    if not recorded(fix):
        return f"({NOT_RECORDED}; {fix}.csv)"
    cuda = result_rows.of(rows(fix), "machine", "cuda")
    if len(cuda) > 1:
        raise FillError(f"{fix}.csv has {len(cuda)} machine,cuda rows (need at most one)")
    if not cuda:
        return f"({fix}.csv records no CUDA or driver version)"
    value, detail = cuda[0]["value"], cuda[0]["detail"]
    copied = COPIED.search(detail)
    if copied:
        return f"({fix}.csv: CUDA and driver versions not recorded but copied {copied.group(0)[1:-1]})"
    parts = [f"CUDA {value}"] if value else []
    driver = re.search(r"\bdriver ([0-9]+(?:\.[0-9]+)+)", detail)
    if driver:
        parts.append(f"driver {driver.group(1)}")
    if not parts:
        return f"({fix}.csv records no CUDA or driver version)"
    return f"({', '.join(parts)}; {fix}.csv)"


def command(path):
    """The command a recording was made with: the first line of its labNN-SUFFIX.cmd, less its comment."""
    cmd = machines.command(path)
    if not os.path.isfile(cmd):
        raise FillError(f"{os.path.basename(path)}: no {os.path.basename(cmd)} beside it: "
                        f"the command that made it is not known")
    with open(cmd) as f:
        return f.readline().split("#")[0].strip()


def caption(doc, fix):
    """Where, on what, when and with what command FIX was recorded, in DOC's language."""
    path = fixture_path(fix, doc)
    gpus, date, cuda = result_rows.machine(rows(fix))
    if not gpus:
        raise FillError(f"{fix}.csv: no machine,gpu rows: the hardware cannot be named")
    hw = result_rows.gpus_label(rows(fix))
    cmd = command(path)
    m = ROWS[suffix_of(fix)]
    name = f"{fix}.csv"
    link_to = f"../../tests/fixtures/{name}"
    if doc.zh:
        when = f"，{date}" if date else "（数据行未记录日期）"
        ver = f"，CUDA {cuda}" if cuda else ""
        text = (f"记录于 **{hw}**（{m['link_zh']}）{ver}{when}；命令 `{cmd}`；"
                f"数据行：[`tests/fixtures/{name}`]({link_to})。")
    else:
        when = f", on {date}" if date else " (the rows carry no date)"
        ver = f", CUDA {cuda}" if cuda else ""
        text = (f"Recorded on **{hw}** ({m['link_en']}){ver}{when}, with `{cmd}`; "
                f"the rows: [`tests/fixtures/{name}`]({link_to}).")
    # A recording converted from an earlier program's output: which claims that leaves untested.
    origin = conversions.sentence(name, doc.zh)
    return text + (f"\n\n{origin}" if origin else "")


def machine(doc, fix, what):
    """FIX's machine: WHAT is hw (GPUs and link), versions (CUDA, driver) or caption (a sentence)."""
    if what == "hw":
        fixture_file(fix, doc)
        return hardware(fix)
    if what == "versions":
        fixture_file(fix, doc)
        return versions(fix)
    if what == "caption":
        return caption(doc, fix)
    raise FillError(f"'{what}' is not hw, versions or caption")


def recorded_on(doc, nn):
    """The title page's machines of lab NN: every machine of machines.tsv, in its order, with
    its versions or the words for a machine the lab has no recording of (a new machine's row
    adds its line to every deck)."""
    if not re.fullmatch(r"[0-9]{2}", nn):
        raise FillError(f"'{nn}' is not a lab number (NN)")
    return "Recorded on " + ";\n".join(f"**{hardware(f'lab{nn}-{suffix}')}** {versions(f'lab{nn}-{suffix}')}"
                                       for suffix, _ in MACHINES)


def unrecorded(doc, fix):
    """The words for a machine a lab has no recording of; refused once the recording exists."""
    if os.path.isfile(fixture_file(fix, doc)):
        raise FillError(f"{fixture_file(fix)} exists now: show its numbers instead of {{{{unrecorded {fix}}}}}")
    return NOT_RECORDED

