#!/usr/bin/env python3
"""slides-fill.py DECK.md [OUT.md]: a lecture deck with its figures filled in.

A deck in slides/ is Markdown with placeholders; every measured number and
every verdict on a slide comes from one of them, so a deck cannot drift from
the recorded runs it cites (tests/fixtures/labNN-SUFFIX.csv, each made on the
machine of its SUFFIX in tests/fixtures/machines.tsv). A placeholder stands
alone between double braces:

  {{hw FIX}}                  the hardware FIX (labNN-SUFFIX) was recorded on
  {{recorded-on NN}}          "Recorded on" every machine of machines.tsv, each with
                              the {{hw}} and {{machine}} of lab NN's recording there
  {{name NN ID}}              claim ID's name in plain English, quoted
                              (labs/NN-name/claim-names.tsv)
  {{machine FIX}}             the CUDA and driver versions FIX's machine rows
                              record, with the file's name; what it lacks is left out
                              (a lab not recorded on FIX's machine: says so)
  {{scoreboard-more}}         deck 00's scoreboard pages of the recorded labs that no
                              scoreboard or untested placeholder of the deck names
                              (a lab added later): a page each, or nothing
  {{unrecorded FIX}}          "no recording of this lab on that machine yet", where
                              FIX does not exist; an error once it does (show its
                              numbers then)
  {{todo NN.K}}               the message the skeleton stops with at TODO NN.K: the
                              format of common/todo.c, the file and line of its
                              first LAB_TODO("NN.K") in labs/NN-*/student/
  {{claim NN ID}}             the verdict of claim ID on both machines: badge and
                              headline number, the host tool's sentences as the
                              page's speaker notes (a claim no recording can test
                              belongs in {{untested NN}} instead)
  {{untested NN ...}}         one table of the claims of those labs that no
                              recording can test, with the reason
  {{verdictcell NN ID SUFFIX}} one badge and headline (SUFFIX: a machine of machines.tsv)
  {{scoreboard NN[:A-B] ...}} a table of the claims of those labs that some
                              recording tests (A-B: only its claims A to B,
                              counted from 1, for a long lab)
  {{num FIX COL key=val ... [fmt=%.1f] [scale=X]}}
                              column COL of the one row of FIX that matches
  {{rows FIX REGEX [keep=N] [cols=a,b]}}
                              the rows of FIX matching REGEX, middle columns
                              cut after the first N (default 5), or only cols
  {{report NN FIX REGEX}}     the block (up to a blank line) of the lab's report
                              of FIX that starts at the first line matching REGEX

Verdicts are the ones the labs' host tools compute from the rows
($BUILD/host/NN-name verdicts FILE), never the deck's text. A verdict's headline is
its lab's headlines.tsv template filled with the figures the judge named
($BUILD/host/NN-name figures FILE), never a number read out of its sentence; a
headline naming a figure the claim did not name is an error. A lab that has no
recording on one of the machines yet (a new lab) gets, on that machine, "no
recording of this lab on that machine yet" from {{machine}}, {{claim}},
{{verdictcell}}, {{scoreboard}} and {{untested}}; a number from that
recording ({{num}}, {{rows}}, {{report}}) is an error, never invented. Any
placeholder that cannot be filled (a missing claim, no row, two rows) is an
error: the deck is not written and the exit status is 1.
"""
import csv
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.environ.get("FIXTURES", os.path.join(ROOT, "tests", "fixtures"))

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
sys.path.insert(0, os.path.join(ROOT, "tools", "lib"))
import machines  # noqa: E402 (the one reader of tests/fixtures/machines.tsv)
import host_tools  # noqa: E402 (the one way to call the labs' host tools and read what they print)


def read_machines():
    """[(suffix, gpus, link)] of tests/fixtures/machines.tsv, in its order: the one place the
    course names its machines."""
    try:
        return [(m["suffix"], m["gpus"], m["link"]) for m in machines.machines()]
    except machines.Unknown as e:
        raise SystemExit(f"slides-fill: {e}")


# The recorded machines (suffix, "GPUS, LINK"), in the order a
# claim page shows them, and each one's link ("NVLink 4 ×18").
MACHINES = [(suffix, f"{gpus}, {link}") for suffix, gpus, link in read_machines()]
LINKS = {suffix: link for suffix, _, link in read_machines()}
VERDICT_WORDS = {"holds": "holds", "does_not_hold": "does not hold",
                 "untested": "cannot be tested here"}


class FillError(Exception):
    pass


_csv_cache = {}
_verdict_cache = {}


# What a deck says for a machine a lab has no recording of (yet).
NOT_RECORDED = "no recording of this lab on that machine yet"


def fixture_file(fix):
    """The path of the recording FIX (labNN-SUFFIX), whether it exists or not."""
    try:
        machines.of(fix + ".csv")  # the one lookup of a recording's machine by its name
        ok = os.path.basename(fix) == fix
    except machines.Unknown:
        ok = False
    if not ok:
        raise FillError(f"'{fix}' is not a recorded run (labNN-SUFFIX, SUFFIX one of tests/fixtures/machines.tsv: "
                        f"{', '.join(s for s, _ in MACHINES)})")
    return os.path.join(FIXTURES, fix + ".csv")


def recorded(fix):
    """Whether the lab of FIX has a recording on FIX's machine."""
    return os.path.isfile(fixture_file(fix))


def fixture_path(fix):
    """The path of the recording FIX, which must exist: its numbers are asked for."""
    path = fixture_file(fix)
    if not os.path.isfile(path):
        raise FillError(f"{path} is missing: {NOT_RECORDED} ({hardware(fix)}); "
                        f"a figure of it cannot be shown")
    return path


def rows(fix):
    if fix not in _csv_cache:
        with open(fixture_path(fix), newline="", encoding="utf-8") as f:
            _csv_cache[fix] = list(csv.DictReader(f))
    return _csv_cache[fix]


def link(fix):
    """The link of the machine FIX was recorded on, e.g. "PCIe Gen5 ×16"."""
    fixture_file(fix)
    return LINKS[fix.split("-", 1)[1]]


def hardware(fix):
    for suffix, name in MACHINES:
        if fix.split("-", 1)[1] == suffix:
            return name
    raise FillError(f"no hardware known for {fix}")


# A machine row whose detail says where its value was copied from, e.g.
# "(from the handout)", was typed into the fixture, not recorded: left out.
COPIED = re.compile(r"\(from [^)]*\)")


def machine(fix):
    """'(CUDA 13.0, driver 580.159.04; FIX.csv)' from FIX's machine,cuda row:
    the runtime is the row's value, the driver version the detail's "driver N"
    (a run that knows only what CUDA the driver supports names no driver).
    A lab not recorded on that machine: '(no recording of this lab on that machine yet; FIX.csv)'."""
    if not recorded(fix):
        return f"({NOT_RECORDED}; {fix}.csv)"
    cuda = [r for r in rows(fix) if r["experiment"] == "machine" and r["variant"] == "cuda"]
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


TODO_C = os.path.join(ROOT, "common", "todo.c")


def todo_format():
    """The format and the argument names of the fprintf in common/todo.c."""
    with open(TODO_C, encoding="utf-8") as f:
        m = re.search(r'fprintf\(stderr,\s*"((?:[^"\\]|\\.)*)"\s*,(.*?)\);', f.read(), re.S)
    if not m:
        raise FillError(f"{os.path.relpath(TODO_C, ROOT)}: no fprintf(stderr, \"...\", ...) to take the message from")
    fmt = m.group(1)
    if fmt.endswith("\\n"):
        fmt = fmt[:-2]
    if "\\" in fmt or re.search(r"%[^sd%]", fmt):
        raise FillError(f"{os.path.relpath(TODO_C, ROOT)}: the message has escapes or conversions other than %s and %d")
    return fmt, [a.strip() for a in m.group(2).split(",")]


def todo(tid):
    nn = tid.partition(".")[0]
    if not re.fullmatch(r"[0-9]{2}\.[0-9]+", tid):
        raise FillError(f"'{tid}' is not a TODO id (NN.K)")
    mark = f'LAB_TODO("{tid}")'
    for path in sorted(glob.glob(os.path.join(ROOT, "labs", f"{nn}-*", "student", "*"))):
        if not path.endswith((".c", ".cu", ".h")):
            continue
        with open(path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                if mark in line:
                    fmt, names = todo_format()
                    values = {"id": tid, "file": os.path.relpath(path, ROOT), "line": line_no}
                    if any(n not in values for n in names):
                        raise FillError(f"{os.path.relpath(TODO_C, ROOT)}: the message takes {', '.join(names)}; "
                                        f"only id, file and line are known")
                    return fmt % tuple(values[n] for n in names)
    raise FillError(f"no {mark} in labs/{nn}-*/student/")


def host_tool_run(nn, command, fix):
    """What lab NN's host tool prints for COMMAND (verdicts, figures, report) on recording FIX."""
    try:
        return host_tools.run(nn, command, fixture_path(fix))
    except host_tools.Failed as e:
        raise FillError(str(e))


def verdicts(nn, fix):
    """{claim id: (verdict, detail, section)} as the lab's host tool computes them."""
    key = (nn, fix)
    if key not in _verdict_cache:
        try:
            found = host_tools.verdicts(nn, fixture_path(fix))
        except host_tools.Failed as e:
            raise FillError(str(e))
        _verdict_cache[key] = {r["variant"]: (r["value"], r["detail"], r["mode"]) for r in found}
    return _verdict_cache[key]


_figure_cache = {}


def figures(nn, fix, cid):
    """{figure name: value} of claim CID on FIX: the figures its verdict rests on, as the lab's
    host tool prints them ($BUILD/host/NN-name figures FILE), each the number in its sentence."""
    key = (nn, fix)
    if key not in _figure_cache:
        try:
            _figure_cache[key] = host_tools.figures(nn, fixture_path(fix))
        except host_tools.Failed as e:
            raise FillError(str(e))
    return _figure_cache[key].get(cid, {})


# The headline of a verdict: each lab's labs/NN-name/headlines.tsv writes it as a template over
# the figures its claim names (claim, headline).
_headlines = None


def lab_tables(name):
    """(NN, path) of each lab's table NAME (labs/NN-name/NAME), in the labs' order."""
    labs = sorted(glob.glob(os.path.join(ROOT, "labs", "[0-9][0-9]-*", name)))
    return [(os.path.basename(os.path.dirname(p))[:2], p) for p in labs]


def table_rows(path, header, numbered=False):
    """The rows of a tab-separated table under its HEADER line (a list of column names):
    comments (#) and blank lines left out; a row of another width is an error. NUMBERED: each
    row with "path:line" last."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if line.startswith("#") or not line.strip() or parts == header:
                continue
            if len(parts) != len(header):
                raise FillError(f"{path}:{n}: want {', '.join(header)} (tabs)")
            out.append(parts + [f"{os.path.relpath(path, ROOT)}:{n}"] if numbered else parts)
    return out


# In a headline: {name} shows the figure NAME; {pct(A,B)} shows figure A as a share of figure B
# (a count of a count), the span keeping both so that tools/slides/slides-numbers.py can check it.
FIGURE = re.compile(r"\{(?:pct\(([a-z0-9_]+),([a-z0-9_]+)\)|([a-z0-9_]+))\}")


def named_figures(template):
    """The figure names TEMPLATE shows, in order."""
    return [n for m in FIGURE.finditer(template) for n in m.groups() if n]


def share(part, whole):
    """PART as a percentage of WHOLE (two figures' text), with both kept in the span."""
    try:
        p, w = float(part), float(whole)
    except ValueError:
        p, w = 0.0, 0.0
    if w <= 0:
        raise FillError(f"pct({part},{whole}): not a share of a positive whole")
    return f'<span class="pct" data-of="{part}/{whole}">{100.0 * p / w:.0f}%</span>'


def render(template, figs, where):
    """TEMPLATE with its figures put in, escaped for HTML; a brace that is not a figure's is an
    error naming WHERE (the headlines.tsv line)."""
    rest = FIGURE.sub("", template)
    if "{" in rest or "}" in rest:
        raise FillError(f"{where}: '{template}': a brace that is not {{figure}} or {{pct(a,b)}}")
    out, pos = [], 0
    for m in FIGURE.finditer(template):
        out.append(esc(template[pos:m.start()]))
        out.append(esc(figs[m.group(3)]) if m.group(3) else share(figs[m.group(1)], figs[m.group(2)]))
        pos = m.end()
    return "".join(out) + esc(template[pos:])


def headline(cid, figs, fix):
    """The headline of claim CID from its figures FIGS on FIX: the first of its headlines.tsv lines
    whose figures it all named."""
    global _headlines
    if _headlines is None:
        _headlines = [(c, fmt, where) for _, path in lab_tables("headlines.tsv")
                      for c, fmt, where in table_rows(path, ["claim", "headline"], numbered=True)]
    lines = [(fmt, where) for c, fmt, where in _headlines if c == cid]
    if not lines:
        raise FillError(f"claim {cid}: no line of its lab's headlines.tsv (labs/NN-name/) gives its headline")
    for fmt, where in lines:
        if all(n in figs for n in named_figures(fmt)):
            return render(fmt, figs, where)
    lacking = "; ".join(f"{where}: {', '.join(n for n in named_figures(fmt) if n not in figs)}"
                        for fmt, where in lines)
    raise FillError(f"claim {cid}: its headline names a figure the claim did not emit on {fix}.csv "
                    f"({lacking}; it emitted: {', '.join(figs) or 'none'})")


def badge(verdict):
    if verdict not in VERDICT_WORDS:
        raise FillError(f"unknown verdict '{verdict}'")
    return f'<span class="badge {verdict}">{VERDICT_WORDS[verdict]}</span>'


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def note(text):
    """TEXT as a speaker note (an HTML comment, which Marp shows in the presenter view)."""
    return "<!--\n" + text.replace("--", "–") + "\n-->"


def recorded_machines(nn):
    """The suffixes of the machines lab NN has a recording of, in machines.tsv's order."""
    found = [suffix for suffix, _ in MACHINES if recorded(f"lab{nn}-{suffix}")]
    if not found:
        raise FillError(f"lab {nn} has no recording on any machine of tests/fixtures/machines.tsv "
                        f"(tests/fixtures/lab{nn}-SUFFIX.csv)")
    return found


def claim_verdicts(nn, cid):
    """[(suffix, machine, verdict, detail)] of claim CID on every machine of machines.tsv;
    verdict and detail None on a machine lab NN has no recording of."""
    recorded_machines(nn)
    out = []
    for suffix, name in MACHINES:
        fix = f"lab{nn}-{suffix}"
        if not recorded(fix):
            out.append((suffix, name, None, None))
            continue
        table = verdicts(nn, fix)
        if cid not in table:
            raise FillError(f"claim {cid}: the host tool of lab {nn} gives no verdict for it on {fix}.csv")
        out.append((suffix, name, table[cid][0], table[cid][1]))
    return out


def untested_everywhere(nn, cid):
    """No recording of lab NN tests claim CID (machines without a recording left out)."""
    return all(v in (None, "untested") for _, _, v, _ in claim_verdicts(nn, cid))


def machine_note(nn, suffix, name, detail):
    """One machine's line of a claim's speaker notes."""
    fix = f"lab{nn}-{suffix}"
    if detail is None:
        return f"{name}: {NOT_RECORDED} ({fix}.csv does not exist)"
    return f"{name} ({fix}.csv): {detail}"


def claim(nn, cid):
    found = claim_verdicts(nn, cid)
    if untested_everywhere(nn, cid):
        raise FillError(f"claim {cid}: no recording can test it; it belongs in {{{{untested {nn}}}}}, not on a page of its own")
    lines = ['<div class="verdicts">']
    notes = []
    for suffix, name, v, detail in found:
        fix = f"lab{nn}-{suffix}"
        notes.append(machine_note(nn, suffix, name, detail))
        if v is None:
            lines.append(f'<div class="verdict" data-claim="{cid}" data-run="{fix}"><span class="hw">{name}</span> '
                         f'<span class="na">{NOT_RECORDED}</span></div>')
            continue
        head = headline(cid, figures(nn, fix, cid), fix) if v != "untested" else ""
        lines.append(f'<div class="verdict" data-claim="{cid}" data-run="{fix}"><span class="hw">{name}</span> {badge(v)} '
                     f'<span class="big">{head}</span></div>')
    lines.append("</div>")
    lines.append("")
    lines.append(note("\n\n".join(notes)))
    return "\n".join(lines)


def verdict_cell(nn, cid, suffix):
    fix = f"lab{nn}-{suffix}"
    if not recorded(fix):
        recorded_machines(nn)
        return f'<span class="na" title="{NOT_RECORDED}">no recording yet</span>'
    table = verdicts(nn, fix)
    if cid not in table:
        raise FillError(f"claim {cid} of lab {nn} has no verdict on lab{nn}-{suffix}.csv")
    v, detail, _ = table[cid]
    if v == "untested":
        return '<span class="na" title="cannot be tested on this machine">–</span>'
    return f"{badge(v)} {headline(cid, figures(nn, fix, cid), fix)}".strip()


# The claims' names in plain English: each lab's labs/NN-name/claim-names.tsv (claim, name).
_names = None


def claim_name(nn, cid):
    global _names
    if _names is None:
        _names = {(lab, c): name for lab, path in lab_tables("claim-names.tsv")
                  for c, name in table_rows(path, ["claim", "name"])}
    if (nn, cid) not in _names:
        raise FillError(f"claim {cid} of lab {nn} has no name in labs/{nn}-*/claim-names.tsv")
    return _names[(nn, cid)]


def lab_claims(spec):
    """[(nn, claim id, section)] of a lab spec NN or NN:A-B (claims A to B, from 1)."""
    nn, _, span = spec.partition(":")
    first = verdicts(nn, f"lab{nn}-{recorded_machines(nn)[0]}")
    lo, _, hi = span.partition("-")
    if span and not (lo.isdigit() and hi.isdigit() and 1 <= int(lo) <= int(hi)):
        raise FillError(f"{spec}: the span must be A-B with 1 <= A <= B")
    items = list(first.items())
    if span:
        items = items[int(lo) - 1:int(hi)]
    return [(nn, cid, section) for cid, (_, _, section) in items]


def scoreboard(labs):
    out = ["| lab | claim | § | " + " | ".join(name for _, name in MACHINES) + " |",
           "| --- | --- | --- | " + " | ".join("---" for _ in MACHINES) + " |"]
    for nn, cid, section in [c for spec in labs for c in lab_claims(spec)]:
        if untested_everywhere(nn, cid):
            continue
        cells = [verdict_cell(nn, cid, suffix) for suffix, _ in MACHINES]
        out.append(f'| {nn} | <span data-claim="{cid}">{esc(claim_name(nn, cid))}</span> | {section} | ' + " | ".join(cells) + " |")
    return "\n".join(out)


def first_clause(reason):
    """The reason a claim cannot be tested, up to its first sentence's end."""
    return re.split(r"\. ", reason, maxsplit=1)[0].rstrip(".")


def untested(labs):
    """One table of the claims no recording can test; every machine's reason in the notes."""
    out = ["| lab | claim | § | why no recording tests it |", "| --- | --- | --- | --- |"]
    notes = []
    for nn, cid, section in [c for spec in labs for c in lab_claims(spec)]:
        if not untested_everywhere(nn, cid):
            continue
        found = claim_verdicts(nn, cid)
        reason = next(d for _, _, v, d in found if v is not None)
        out.append(f'| {nn} | <span data-claim="{cid}">{esc(claim_name(nn, cid))}</span> | {section} | '
                   f"{esc(first_clause(reason))} |")
        notes.append(f"{claim_name(nn, cid)}: " + " / ".join(machine_note(nn, sfx, hw, d) for sfx, hw, _, d in found))
    if not notes:
        raise FillError(f"untested {' '.join(labs)}: every claim of these labs is tested by some recording")
    return "\n".join(out) + "\n\n" + note("\n\n".join(notes))


def recorded_on(nn):
    """The title page's machines of lab NN: every machine of machines.tsv, in its order, with
    its versions or the words for a machine the lab has no recording of (a new machine's row
    adds its line to every deck)."""
    return ";\n".join(f"**{hardware(f'lab{nn}-{suffix}')}** {machine(f'lab{nn}-{suffix}')}"
                       for suffix, _ in MACHINES)


def unrecorded(fix):
    """The words for a machine a lab has no recording of; refused once the recording exists."""
    if recorded(fix):
        raise FillError(f"{fixture_file(fix)} exists now: show its numbers instead of {{{{unrecorded {fix}}}}}")
    return NOT_RECORDED


def num(fix, col, filters, fmt="%.1f", scale=1.0):
    table = rows(fix)
    if table and col not in table[0]:
        raise FillError(f"{fix}.csv has no column '{col}'")
    hit = [r for r in table if all(r.get(k) == v for k, v in filters.items())]
    where = " ".join(f"{k}={v}" for k, v in filters.items())
    if len(hit) != 1:
        raise FillError(f"{fix}.csv: {len(hit)} rows match {where} (need exactly one)")
    try:
        value = float(hit[0][col]) * scale
    except ValueError:
        raise FillError(f"{fix}.csv: {where}: {col} is '{hit[0][col]}', not a number")
    return fmt % value


def cut_rows(fix, pattern, keep=5, cols=None):
    rx = re.compile(pattern)
    with open(fixture_path(fix), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split(",")
        got = [line.rstrip("\n") for line in f if rx.search(line)]
    if not got:
        raise FillError(f"{fix}.csv: no row matches /{pattern}/")
    pick = None
    if cols:
        names = cols.split(",")
        missing = [c for c in names if c not in header]
        if missing:
            raise FillError(f"{fix}.csv has no column {', '.join(missing)}")
        pick = [header.index(c) for c in names]
    out = []
    for line in got:
        fields = next(csv.reader([line]))
        if pick:
            fields = [fields[i] for i in pick]
        elif len(fields) > keep + 2:
            fields = fields[:keep] + ["..."] + fields[-2:]
        out.append(",".join(fields))
    return "\n".join(out)


def report(nn, fix, pattern):
    rx = re.compile(pattern)
    lines = host_tool_run(nn, "report", fix).splitlines()
    start = next((i for i, line in enumerate(lines) if rx.search(line)), None)
    if start is None:
        raise FillError(f"report of {fix}.csv: no line matches /{pattern}/")
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    return "\n".join(block)


def split_args(text):
    """Words, where key=value pairs and 'quoted words' stay whole."""
    return [a.strip("'") for a in re.findall(r"'[^']*'|\S+", text)]


def fill_one(body):
    args = split_args(body)
    if not args:
        raise FillError("an empty placeholder")
    name, args = args[0], args[1:]
    opts = {}
    pos = []
    for a in args:
        k, eq, v = a.partition("=")
        (opts.__setitem__(k, v) if eq and re.fullmatch(r"[a-z_]+", k) else pos.append(a))
    if name == "hw" and len(pos) == 1:
        fixture_file(pos[0])
        return hardware(pos[0])
    if name == "recorded-on" and len(pos) == 1 and re.fullmatch(r"[0-9]{2}", pos[0]):
        return "Recorded on " + recorded_on(pos[0])
    if name == "unrecorded" and len(pos) == 1:
        return unrecorded(pos[0])
    if name == "name" and len(pos) == 2:
        return f'"{esc(claim_name(pos[0], pos[1]))}"'
    if name == "untested" and pos:
        return untested(pos)
    if name == "machine" and len(pos) == 1:
        return machine(pos[0])
    if name == "todo" and len(pos) == 1:
        return todo(pos[0])
    if name == "claim" and len(pos) == 2:
        return claim(pos[0], pos[1])
    if name == "verdictcell" and len(pos) == 3:
        return verdict_cell(pos[0], pos[1], pos[2])
    if name == "scoreboard" and pos:
        return scoreboard(pos)
    if name == "num" and len(pos) == 2:
        fmt = opts.pop("fmt", "%.1f")
        scale = float(opts.pop("scale", "1"))
        return num(pos[0], pos[1], opts, fmt, scale)
    if name == "rows" and len(pos) == 2:
        return cut_rows(pos[0], pos[1], int(opts.get("keep", "5")), opts.get("cols"))
    if name == "report" and len(pos) == 3:
        return report(pos[0], pos[1], pos[2])
    raise FillError(f"unknown placeholder or wrong arguments: {{{{{body}}}}}")


PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")
NAMED_LABS = re.compile(r"\{\{(?:scoreboard|untested) ([^}]*)\}\}")


def scoreboard_more(text):
    """Deck 00's pages for the recorded labs its scoreboard and untested placeholders do not
    name (a lab added since the deck was written): a page each, or nothing."""
    named = {spec.partition(":")[0] for m in NAMED_LABS.finditer(text) for spec in m.group(1).split()}
    labs = sorted(os.path.basename(d)[:2] for d in glob.glob(os.path.join(ROOT, "labs", "[0-9][0-9]-*")))
    pages = []
    for nn in labs:
        if nn in named or not any(recorded(f"lab{nn}-{suffix}") for suffix, _ in MACHINES):
            continue
        ids = [cid for _, cid, _ in lab_claims(nn)]
        untested_ids = [c for c in ids if untested_everywhere(nn, c)]
        parts = [scoreboard([nn])] if len(untested_ids) < len(ids) else []
        if untested_ids:
            parts.append(untested([nn]))
        pages.append("\n".join(["---", "", "<!-- _class: table -->", "", f"## Scoreboard: lab {nn}", ""] +
                               [p + "\n" for p in parts] +
                               ["– : that machine cannot test the claim; no recording yet: this lab has no "
                                "recording on that machine yet", "",
                                note(f"Lab {nn}'s claims, judged by its host tool on its recordings: the "
                                     "pages above do not name this lab, so this page is made for it.")]))
    return "\n\n".join(pages)


def fill(text, deck):
    errors = []

    def one(m):
        try:
            if m.group(1).strip() == "scoreboard-more":
                return scoreboard_more(text)
            return fill_one(m.group(1).strip())
        except FillError as e:
            errors.append(str(e))
            return m.group(0)

    out = []
    for n, line in enumerate(text.splitlines(), 1):
        before = len(errors)
        out.append(PLACEHOLDER.sub(one, line))
        for e in errors[before:]:
            errors[errors.index(e)] = f"{deck}:{n}: {e}"
    return "\n".join(out) + "\n", errors


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    deck = argv[1]
    try:
        with open(deck, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"slides-fill: {e}", file=sys.stderr)
        return 1
    out, errors = fill(text, deck)
    if errors:
        for e in errors:
            print(f"slides-fill: {e}", file=sys.stderr)
        return 1
    if len(argv) == 3:
        with open(argv[2], "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
