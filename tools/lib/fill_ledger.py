"""What a handout says of the course as a whole: the kinds build-flags, ledger and
other-recordings of tools/lib/fill.py (whose docstring lists every kind). How the student's
files are compiled, how many claims each machine's recordings judge, and the recordings of a
document's lab that no placeholder of it cites.
"""

import os
import re

import converted as conversions
import machines
import result_rows
from fill_claims import verdicts
from fill_recordings import FIXTURES, MACHINES, ROOT, ROWS, FillError, fixture_file, rows


def make_variable(text, name):
    m = re.search(rf"^{name} :=((?:.*\\\n)*.*)$", text, re.M)
    if m is None:
        raise FillError(f"Makefile: no {name}")
    return " ".join(m.group(1).replace("\\\n", " ").split())


def build_flags(doc):
    """How the student's .c and .cu files are compiled, as the Makefile has it."""
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
    if doc.zh:
        return (f"- `.c` 文件：`{c}`\n- `.cu` 文件：`{cu}`\n"
                f"- 仅骨架代码额外放宽：`{relaxed}`（桩函数尚未使用的变量不算错误）")
    return (f"- `.c` files: `{c}`\n- `.cu` files: `{cu}`\n"
            f"- in your skeleton only, relaxed: `{relaxed}` (a stub's unused variables are no error)")


def ledger(doc, suffix):
    """How many of the chapter's claims the recordings labNN-SUFFIX judge, and on what."""
    if suffix not in ROWS:
        raise FillError(f"ledger: '{suffix}' is not one of {', '.join(ROWS)}")
    measured = total = 0
    recorded_labs = [os.path.basename(path)[3:5] for path, _ in machines.recordings(fixtures=FIXTURES, suffix=suffix)]
    for nn in recorded_labs:
        judged = verdicts(nn, f"lab{nn}-{suffix}")  # the lab's handout shows them too: computed once
        total += len(judged)
        measured += sum(v in ("holds", "does_not_hold") for v, _, _ in judged.values())
    gpus = result_rows.gpus_label(rows(f"lab{recorded_labs[0]}-{suffix}")) if recorded_labs else "no GPU"
    hw = f"{gpus} ({ROWS[suffix]['link_en']})"
    # The labs counted, by name: a lab not recorded yet is named nowhere outside its own folders.
    labs = ", ".join(recorded_labs[:-1]) + f" and {recorded_labs[-1]}" if len(recorded_labs) > 1 \
        else "".join(recorded_labs)
    return (f"- on {hw}: {measured} of the chapter's {total} claims get a measured verdict "
            f"(`tests/fixtures/labNN-{suffix}.csv` of lab{'s' if len(recorded_labs) > 1 else ''} {labs}, "
            f"verdicts recomputed by each lab's host tool)."
            f"{conversions.ledger(f'{suffix}.csv')}")


# A count of GPUs in a Chinese heading: 一块, 两块 ... 十块; past ten, the figure.
ZH_COUNTS = "一两三四五六七八九十"


def machine_heading(m, zh):
    """The heading of a machine's recording: its GPUs, then its link (machines.tsv's row)."""
    if zh:
        n = int(m["gpu_count"])
        count = ZH_COUNTS[n - 1] if 1 <= n <= len(ZH_COUNTS) else f"{n} "
        return f"### {count}块 {m['gpu']}（{m['link']}）"
    return f"### {m['gpus']} ({m['link']})"


def other_recordings(doc):
    """Every recording of DOC's lab whose machine no placeholder of DOC cites: under a heading
    naming the machine, its caption, report and verdicts. In a document of no lab, the ledger of
    each machine with recordings and no ledger placeholder of its own."""
    cited = {pos[0] for _, pos, _ in doc.placeholders() if pos}
    if not doc.lab:
        return "\n".join(ledger(doc, suffix) for suffix, _ in MACHINES if suffix not in cited and
                         machines.recordings(fixtures=FIXTURES, suffix=suffix))
    parts = []
    for suffix, _ in MACHINES:
        fix = f"lab{doc.nn}-{suffix}"
        if fix in cited or not os.path.isfile(fixture_file(fix)):
            continue
        parts.append("\n\n".join([machine_heading(ROWS[suffix], doc.zh), doc.part("machine", [fix, "caption"]),
                                  doc.part("report", [fix]), doc.part("verdicts", [fix])]))
    return "\n\n".join(parts)

