#!/usr/bin/env python3
"""The handouts' recorded numbers, generated from the fixtures they cite.

A handout (labs/NN-name/README.md or README.zh-CN.md) marks each generated
part with a pair of comments:

    <!-- numbers: KIND [FIXTURE] -->
    ... generated text, never edited by hand ...
    <!-- /numbers -->

KIND is
    caption FIXTURE   where and how FIXTURE was recorded (hardware, date, command)
    report FIXTURE    the lab's report section: build/host/NN-name report FIXTURE
    verdicts FIXTURE  the claims' verdicts: build/host/NN-name verdicts FIXTURE
    rows FIXTURE E,F  the rows of experiments E and F: call, GPUs, answer, detail
    build-flags       how the student's files are compiled (read from the Makefile)
    other-recordings  every recording of the lab whose machine has no part of its own in
                      the handout (a machine of tests/fixtures/machines.tsv that no
                      caption, report, verdicts or rows part above cites), in the table's
                      order: a heading naming the machine, then its caption, report and
                      verdicts; nothing when there is none. In README.md: the ledger of
                      each machine with recordings and no ledger part of its own
    ledger KIND       (README.md) how many of the chapter's claims every lab's
                      recording KIND (SUFFIX.csv, SUFFIX a machine of
                      tests/fixtures/machines.tsv) judges, and on what

FIXTURE is a file of tests/fixtures/ of the handout's own lab; one that does not exist yet
(a lab not recorded on that machine) gives a line saying so, and the ledger names the lab. The hardware
of each recording is named by its file name: labNN-SUFFIX.csv was recorded on the
machine of row SUFFIX of tests/fixtures/machines.tsv (tools/lib/machines.py), with the
command in labNN-SUFFIX.cmd.

    handout-numbers.py          rewrite every generated part
    handout-numbers.py --check  exit 1 when a generated part is stale, when
                                a measured figure outside them is in none of
                                the lab's fixtures nor in handout-figures.tsv,
                                or when a row of handout-figures.tsv names a
                                figure no handout of its lab states

BUILD (default build) is where the host tools are.
"""

import csv
import glob
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(TOOLS, "lib"), os.path.join(TOOLS, "report")]  # the shared readers
import converted as conversions  # noqa: E402
import host_tools  # noqa: E402
import machines  # noqa: E402
import nvbandwidth_rows  # noqa: E402
import result_rows  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
FIGURES = os.path.join(ROOT, "tools", "authoring", "handout-figures.tsv")

BLOCK = re.compile(r"(<!-- numbers: ([a-z-]+)(?: ([\w.-]+))?(?: ([\w,]+))? -->\n)(.*?)(<!-- /numbers -->)", re.S)


def kinds():
    """{"SUFFIX.csv": machine} of every machine of tests/fixtures/machines.tsv, in its order:
    the kinds of recording (labNN-SUFFIX.csv) a handout may cite."""
    try:
        return {f"{m['suffix']}.csv": m for m in machines.machines()}
    except machines.Unknown as e:
        fail(str(e))


# A measured figure: a number with a unit of time, rate or ratio (not a count
# of GPUs such as "2× NVIDIA <name>", not a product such as "2 × x").
FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)"
                    r"(?:\s?(?:GB/s|GiB/s|µs|μs|us|ns|ms|%|倍)(?!\w)|[×x](?![\w]|\s?(?:NVIDIA|H\d00|GPU)))")


def fail(msg):
    print(f"handout-numbers: {msg}", file=sys.stderr)
    sys.exit(1)


def lab_of(handout):
    return os.path.basename(os.path.dirname(handout))


def host_tool(lab, verb, fixture, beside=()):
    """What LAB's host tool prints for VERB on FIXTURE (tools/lib/host_tools.py), or fail."""
    try:
        return host_tools.run(lab, verb, fixture, beside)
    except host_tools.Failed as e:
        fail(str(e))


def converted(convert, runs):
    """convert(runs), a function of tools/report/nvbandwidth_rows.py, or fail with its reason."""
    try:
        return convert(runs)
    except nvbandwidth_rows.Refused as e:
        fail(f"nvbandwidth_rows: {e}")


def nvbandwidth_beside(fixture, scratch):
    """The rows of the nvbandwidth runs recorded with FIXTURE, as the one file make run's report
    sets beside it; none without such runs."""
    runs = nvbandwidth_rows.runs_beside(fixture)
    if not runs:
        return ()
    text = converted(nvbandwidth_rows.csv_text, runs)
    with open(scratch, "w", encoding="utf-8") as f:
        f.write(text)
    return (scratch,)


def fixture_path(lab, name):
    """(path, kind) of the recording NAME (labNN-SUFFIX.csv) of LAB: its machine is the one
    machines.of() finds, as for every recording the decks and handouts cite."""
    nn = lab.split("-")[0]
    try:
        of_nn, m = machines.of(name)
    except machines.Unknown:
        of_nn, m = None, None
    ok = of_nn == nn and name.endswith(".csv") and os.path.basename(name) == name
    kind = f"{m['suffix']}.csv" if ok else None
    if kind is None:
        fail(f"{lab}: '{name}' is not one of its recorded runs ({', '.join(f'lab{nn}-{k}' for k in kinds())})")
    return os.path.join(FIXTURES, name), kind


class NotRecorded(Exception):
    """A lab's recording that does not exist yet: a normal state for a new lab."""


def recorded(lab, name):
    """fixture_path(), or NotRecorded where the recording is still to be made."""
    path, kind = fixture_path(lab, name)
    if not os.path.isfile(path):
        raise NotRecorded(name)
    return path, kind


def not_recorded(name, zh):
    """What a generated part says while its recording does not exist."""
    if zh:
        return (f"本实验在这台机器上尚无记录（`tests/fixtures/{name}` 还不存在）：记录之后，"
                f"`make handout-numbers` 会填写这一部分。\n")
    return (f"No recording of this lab yet (`tests/fixtures/{name}` does not exist): "
            f"`make handout-numbers` fills this part once it is recorded.\n")


def result_file(path):
    """The rows of the result file PATH."""
    try:
        return result_rows.read(path)
    except result_rows.NotRows as e:
        fail(str(e))


def machine(path):
    """The fixture's machine rows: GPU names (one per GPU), date, CUDA."""
    return result_rows.machine(result_file(path))


def claims_judged(lab, path):
    """The claim rows the lab's host tool judges from the recording PATH."""
    try:
        return host_tools.verdicts(lab, path)
    except host_tools.Failed as e:
        fail(str(e))


def command(path):
    """The command a recording was made with: the first line of its labNN-SUFFIX.cmd, less its comment."""
    cmd = machines.command(path)
    if not os.path.isfile(cmd):
        fail(f"{os.path.basename(path)}: no {os.path.basename(cmd)} beside it: the command that made it is not known")
    with open(cmd) as f:
        return f.readline().split("#")[0].strip()


def caption(lab, name, zh):
    path, kind = recorded(lab, name)
    gpus, date, cuda = machine(path)
    if not gpus:
        fail(f"{name}: no machine,gpu rows: the hardware cannot be named")
    names = sorted(set(gpus))
    hw = f"{len(gpus)}× {' + '.join(names)}"
    cmd = command(path)
    link = f"../../tests/fixtures/{name}"
    if zh:
        when = f"，{date}" if date else "（数据行未记录日期）"
        ver = f"，CUDA {cuda}" if cuda else ""
        return (f"记录于 **{hw}**（{kinds()[kind]['link_zh']}）{ver}{when}；命令 `{cmd}`；"
                f"数据行：[`tests/fixtures/{name}`]({link})。\n" + origin(name, zh))
    when = f", on {date}" if date else " (the rows carry no date)"
    ver = f", CUDA {cuda}" if cuda else ""
    return (f"Recorded on **{hw}** ({kinds()[kind]['link_en']}){ver}{when}, with `{cmd}`; "
            f"the rows: [`tests/fixtures/{name}`]({link}).\n" + origin(name, zh))


def origin(name, zh):
    """A paragraph saying that the recording was converted from an earlier program's output and
    which claims that leaves untested; "" for a recording of the lab's own program."""
    text = conversions.sentence(name, zh)
    return f"\n{text}\n" if text else ""


def report(lab, name, zh):
    path, _ = recorded(lab, name)
    with tempfile.TemporaryDirectory() as scratch:
        beside = nvbandwidth_beside(path, os.path.join(scratch, "nvbandwidth.csv"))
        text = host_tool(lab, "report", path, beside).rstrip("\n") + "\n"
    # Headings of the report section become bold lines: the handout's own
    # headings stay the only ones (and, in Chinese, all translated).
    text = re.sub(r"^#+ (.*)$", r"**\1**", text, flags=re.M)
    if zh:
        return "```text\n" + text + "```\n"
    return text


def verdicts(lab, name, zh):
    path, _ = recorded(lab, name)
    lines = [f"{r['variant']}: {r['value']}: {r['detail']}" for r in claims_judged(lab, path)]
    if not lines:
        fail(f"{lab}: no claim in the verdicts of {name}")
    return "```text\n" + "\n".join(lines) + "\n```\n"


def rows(lab, name, zh, experiments):
    path, _ = recorded(lab, name)
    want = experiments.split(",")
    picked = [r for r in result_file(path) if r["experiment"] in want]
    if not picked:
        fail(f"{lab}: {name} has no rows of {experiments}")
    lines = []
    for r in picked:
        gpus = r["src"] if r["src"] == r["dst"] else f"{r['src']} -> {r['dst']}"
        tail = f" ({r['detail']})" if r["detail"] else ""
        lines.append(f"{r['experiment']} {r['variant']}, GPU {gpus}: {r['value']}{tail}")
    return "```text\n" + "\n".join(lines) + "\n```\n"


def ledger(lab, kind, zh):
    if kind not in kinds():
        fail(f"ledger: '{kind}' is not one of {', '.join(kinds())}")
    measured = total = 0
    gpus, recorded_labs = [], []
    for d in sorted(os.listdir(os.path.join(ROOT, "labs"))):
        if not re.match(r"\d\d-", d):
            continue
        path = os.path.join(FIXTURES, f"lab{d[:2]}-{kind}")
        if not os.path.isfile(path):
            continue
        recorded_labs.append(d[:2])
        gpus = gpus or machine(path)[0]
        for r in claims_judged(d, path):
            total += 1
            measured += r["value"] in ("holds", "does_not_hold")
    hw = f"{len(gpus)}× {' + '.join(sorted(set(gpus)))} ({kinds()[kind]['link_en']})"
    # The labs counted, by name: a lab not recorded yet is named nowhere outside its own folders.
    labs = ", ".join(recorded_labs[:-1]) + f" and {recorded_labs[-1]}" if len(recorded_labs) > 1 \
        else "".join(recorded_labs)
    return (f"- on {hw}: {measured} of the chapter's {total} claims get a measured verdict "
            f"(`tests/fixtures/labNN-{kind}` of lab{'s' if len(recorded_labs) > 1 else ''} {labs}, "
            f"verdicts recomputed by each lab's host tool)."
            f"{conversions.ledger(kind)}\n")


def make_variable(text, name):
    m = re.search(rf"^{name} :=((?:.*\\\n)*.*)$", text, re.M)
    if m is None:
        fail(f"Makefile: no {name}")
    return " ".join(m.group(1).replace("\\\n", " ").split())


def build_flags(lab, name, zh):
    with open(os.path.join(ROOT, "Makefile")) as f:
        mk = f.read()
    warn = make_variable(mk, "WARN_C")
    std_c = re.search(r"-std=c\d+", make_variable(mk, "CFLAGS_ALL")).group(0)
    nv = make_variable(mk, "NVCCFLAGS_ALL")
    std_cu = re.search(r"-std=c\+\+\d+", nv).group(0)
    nvwarn = " ".join(re.findall(r"-Werror all-warnings|-Xcompiler \S+", nv))
    relaxed = make_variable(mk, "STUDENT_CFLAGS")
    c = f"gcc {std_c} {warn}"
    cu = f"nvcc {std_cu} {nvwarn}"
    if zh:
        return (f"- `.c` 文件：`{c}`\n- `.cu` 文件：`{cu}`\n"
                f"- 仅骨架代码额外放宽：`{relaxed}`（桩函数尚未使用的变量不算错误）\n")
    return (f"- `.c` files: `{c}`\n- `.cu` files: `{cu}`\n"
            f"- in your skeleton only, relaxed: `{relaxed}` (a stub's unused variables are no error)\n")


# A count of GPUs in a Chinese heading: 一块, 两块 ... 十块; past ten, the figure.
ZH_COUNTS = "一两三四五六七八九十"


def machine_heading(m, zh):
    """The heading of a machine's recording: its GPUs, then its link (machines.tsv's row)."""
    if zh:
        n = int(m["gpu_count"])
        count = ZH_COUNTS[n - 1] if 1 <= n <= len(ZH_COUNTS) else f"{n} "
        return f"### {count}块 {m['gpu']}（{m['link']}）\n"
    return f"### {m['gpus']} ({m['link']})\n"


def cited(text):
    """The recordings (labNN-SUFFIX.csv) the parts of TEXT cite by name."""
    return {m.group(3) for m in BLOCK.finditer(text) if m.group(3)}


def other_recordings(lab, text, zh):
    """Every recording of LAB whose machine no part of the handout TEXT cites: under a heading
    naming the machine, what a machine's own parts give (caption, report, verdicts)."""
    nn = lab.split("-")[0]
    own = cited(text)
    parts = []
    for kind, m in kinds().items():
        name = f"lab{nn}-{kind}"
        if name in own or not os.path.isfile(os.path.join(FIXTURES, name)):
            continue
        parts.append("\n".join([machine_heading(m, zh), caption(lab, name, zh),
                                 report(lab, name, zh), verdicts(lab, name, zh)]))
    return "\n".join(parts)


def other_ledgers(text, zh):
    """The ledger of every machine with recordings that no ledger part of README.md's TEXT
    names, in the table's order."""
    own = cited(text)
    return "".join(ledger(None, kind, zh) for kind in kinds() if kind not in own and
                   glob.glob(os.path.join(glob.escape(FIXTURES), f"lab[0-9][0-9]-{kind}")))


KINDS = {"caption": caption, "report": report, "verdicts": verdicts, "rows": rows,
         "build-flags": build_flags, "ledger": ledger}


def render(handout, text):
    lab = lab_of(handout)
    zh = handout.endswith(".zh-CN.md")

    def one(m):
        kind, name, extra = m.group(2), m.group(3), m.group(4)
        if kind not in KINDS and kind != "other-recordings":
            fail(f"{handout}: unknown kind '{kind}'")
        if kind in ("build-flags", "other-recordings") and name is not None:
            fail(f"{handout}: '{kind}' takes no fixture")
        if kind == "other-recordings":
            others = other_ledgers(text, zh) if handout == README else other_recordings(lab, text, zh)
            return m.group(1) + others + m.group(6)
        if (kind == "ledger") != (handout == README):
            fail(f"{handout}: 'ledger' belongs to README.md alone")
        if kind == "ledger":
            return m.group(1) + ledger(None, name, zh) + m.group(6)
        if kind != "build-flags" and name is None:
            fail(f"{handout}: '{kind}' needs a fixture")
        if (kind == "rows") != (extra is not None):
            fail(f"{handout}: 'rows FIXTURE EXPERIMENTS' is the only kind with a list")
        args = (lab, name, zh) + ((extra,) if extra else ())
        try:
            return m.group(1) + KINDS[kind](*args) + m.group(6)
        except NotRecorded:
            return m.group(1) + not_recorded(name, zh) + m.group(6)

    return BLOCK.sub(one, text)


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


def stray_figures(handout, text):
    """Figures outside the generated parts that no source of the lab holds."""
    lab = lab_of(handout)
    nn = lab.split("-")[0]
    sources, runs = "", []
    for kind in kinds():
        path = os.path.join(FIXTURES, f"lab{nn}-{kind}")
        if os.path.isfile(path):
            with open(path) as f:
                sources += f.read()
            runs += nvbandwidth_rows.runs_beside(path)
    rounded = rounded_figures(runs)
    known = known_figures(lab)
    outside = BLOCK.sub("", text)
    bad = []
    for n, line in enumerate(outside.splitlines(), 1):
        # The chapter's own words and table are quoted, not measured.
        if line.startswith(">") or "<!-- chapter -->" in line:
            continue
        for m in FIGURE.finditer(line):
            num = m.group(1)
            if num in known:
                continue
            if num not in rounded and \
                    re.search(rf"(?<![\d.]){re.escape(num)}(?![\d])", sources) is None:
                bad.append(f"{os.path.relpath(handout, ROOT)}: '{m.group(0)}' is in none of lab {nn}'s "
                           f"fixtures (write it inside a generated part, or name its source in "
                           f"tools/authoring/handout-figures.tsv)")
    return bad


def unstated_figures(texts):
    """Rows of handout-figures.tsv whose figure no handout of their lab states outside the
    generated parts any more (TEXTS: {handout path: text}): a stale row would let a figure
    through that nothing sources."""
    stated = {}
    for handout, text in texts.items():
        if handout == README:
            continue
        found = {m.group(1) for m in FIGURE.finditer(BLOCK.sub("", text))}
        stated.setdefault(lab_of(handout), set()).update(found)
        stated.setdefault("*", set()).update(found)
    bad = []
    with open(FIGURES, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            if row and not row[0].startswith("#") and len(row) >= 3 and \
                    row[1] not in stated.get(row[0], set()):
                bad.append(f"tools/authoring/handout-figures.tsv: {row[0]} {row[1]} ({row[2]}) is stated by "
                           f"no handout of its lab: drop the row, or say where it is used")
    return bad


README = os.path.join(ROOT, "README.md")


def handouts():
    if os.path.isfile(README):
        yield README
    labs = os.path.join(ROOT, "labs")
    for d in sorted(os.listdir(labs)):
        for f in ("README.md", "README.zh-CN.md"):
            p = os.path.join(labs, d, f)
            if re.match(r"\d\d-", d) and os.path.isfile(p):
                yield p


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    problems, texts = [], {}
    for h in handouts():
        with open(h) as f:
            text = f.read()
        fresh = render(h, text)
        texts[h] = fresh
        if check:
            if fresh != text:
                problems.append(f"{os.path.relpath(h, ROOT)}: a generated part differs from its "
                                f"fixture (run make handout-numbers)")
            if h != README:
                problems += stray_figures(h, fresh)
        elif fresh != text:
            with open(h, "w") as f:
                f.write(fresh)
            print(f"  wrote {os.path.relpath(h, ROOT)}")
    if check:
        problems += unstated_figures(texts)
    for p in problems:
        print(f"handout-numbers: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
