#!/usr/bin/env python3
"""The recordings converted from an earlier program's printed output, said once where shown.

tests/fixtures/converted.tsv names each such recording and the claims it leaves "cannot be
tested here" only because the program that printed it had no experiment for them yet. The
sentence that says so lives here, for the handouts' captions and the README's ledger
(tools/lib/fill.py) and for make run's report (tools/report/run_report.py).

    converted.py FIXTURE.csv   the sentence for that recording (English); nothing when its
                               rows come from the lab's own program
"""

import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "tests", "fixtures", "converted.tsv")


def table():
    """{fixture name: [claim ids]} of every converted recording."""
    try:
        with open(TABLE, newline="", encoding="utf-8") as f:
            rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    except OSError as e:
        sys.exit(f"converted.py: {TABLE}: {e.strerror}")
    if not rows or rows[0][:2] != ["fixture", "claims"]:
        sys.exit(f"{TABLE}: the header is not 'fixture<TAB>claims'")
    return {r[0]: (r[1].split() if len(r) > 1 else []) for r in rows[1:]}


def ids(claims, sep=", "):
    return sep.join(f"`{c}`" for c in claims)


def sentence(name, zh=False):
    """What a reader of recording NAME (labNN-SUFFIX.csv) must know, or "" for a recording of the
    lab's own program."""
    claims = table().get(os.path.basename(name))
    if claims is None:
        return ""
    if zh:
        head = "这些结果行是从本实验程序早期版本的打印输出转换而来的，那时程序还不写结果行"
        if not claims:
            return f"{head}；本实验现在判定的每条论断，在其中都有所需的结果行。"
        listed = ids(claims, "、")
        return (f"{head}，有些实验也还不存在：在这份记录中，{listed} 的结论为 `untested` 只是因为"
                f"这个原因，直到本实验在两块 GPU 上重新记录为止。")
    head = ("These rows were converted from the printed output of an earlier version of the lab's "
            "program, before it wrote rows")
    if not claims:
        return f"{head}; every claim the lab judges today has its rows in them."
    verb = "reads" if len(claims) == 1 else "read"
    return (f"{head} and before some of its experiments existed: in this recording {ids(claims)} "
            f"{verb} *cannot be tested here* for that reason alone, until the lab is recorded "
            f"again on two GPUs.")


def ledger(kind):
    """The ledger's note for recordings of KIND (SUFFIX.csv): how many claims conversion leaves
    untested, and whose recordings; "" when none of KIND was converted."""
    converted = sorted(n for n in table() if n.endswith(f"-{kind}"))
    if not converted:
        return ""
    labs = [n[3:5] for n in converted]
    names = ", ".join(labs[:-1]) + f" and {labs[-1]}" if len(labs) > 1 else labs[0]
    count = sum(len(table()[n]) for n in converted)
    return (f" The recordings of labs {names} were converted from the printed output of earlier "
            f"versions of their programs: {count} claims read *cannot be tested here* on that "
            f"machine only because those programs had no experiment for them yet (each lab's "
            f"handout names them).")


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    text = sentence(argv[1])
    if text:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
