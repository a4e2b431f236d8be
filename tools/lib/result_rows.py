"""The course's result files, read row by row by column name: Python's one reader of them.

A result file (common/rows.c writes it; tests/fixtures/labNN-SUFFIX.csv are recorded ones, and
a host tool's `verdicts` prints one) starts with the header declared once in
tests/fixtures/rows-header.csv. Each row is a dict keyed by those names, every value text.
A file whose first line is not that header, or a row with another number of fields, is
refused (NotRows) with the file and line named. A host tool's `figures` (the figures each
claim's verdict rests on) is read here too, by the same reader (figures()).
"""

import csv
import io
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER_FILE = os.path.join(ROOT, "tests", "fixtures", "rows-header.csv")


class NotRows(Exception):
    """Text that is not a result file; the message names the file and line."""


def header():
    """The column names, from tests/fixtures/rows-header.csv."""
    with open(HEADER_FILE, encoding="utf-8") as f:
        return f.readline().rstrip("\r\n").split(",")


def table(text, name, names, what):
    """The rows of TEXT, a CSV table whose first line must be NAMES (WHAT names that header in
    errors; NAME says where the text came from)."""
    reader = csv.reader(io.StringIO(text))
    first = next(reader, None)
    if first != names:
        raise NotRows(f"{name}: line 1 is not {what}")
    rows = []
    for line, fields in enumerate(reader, 2):
        if len(fields) != len(names):
            raise NotRows(f"{name}: line {line}: {len(fields)} fields, the header has {len(names)}")
        rows.append(dict(zip(names, fields)))
    return rows


def parse(text, name):
    """The rows of TEXT (a result file's content; NAME says where it came from in errors)."""
    return table(text, name, header(), f"the result header ({HEADER_FILE})")


# What a host tool's `figures` prints (common/claims.h, LAB_FIGURES_HEADER): the figures each
# claim's verdict rests on, printed as its sentence prints them.
FIGURES_HEADER = ["claim", "figure", "value"]


def figures(text, name):
    """{claim id: {figure name: value}} of TEXT, a host tool's `figures` output (NAME in errors)."""
    out = {}
    for r in table(text, name, FIGURES_HEADER, "the figures header " + ",".join(FIGURES_HEADER)):
        out.setdefault(r["claim"], {})[r["figure"]] = r["value"]
    return out


def read(path):
    """The rows of the result file PATH; NotRows when it cannot be read or is not one."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise NotRows(f"{path}: cannot be read: {getattr(e, 'strerror', None) or e}") from None
    return parse(text, path)


def of(rows, experiment, variant=None):
    """The rows of EXPERIMENT (and VARIANT, unless None), in file order."""
    return [r for r in rows if r["experiment"] == experiment and
            (variant is None or r["variant"] == variant)]


def machine(rows):
    """(GPU names, one per GPU; date; CUDA version) from the machine rows ("" where none)."""
    gpus = [r["value"] for r in of(rows, "machine", "gpu")]
    date = next((r["value"] for r in of(rows, "machine", "date")), "")
    cuda = next((r["value"] for r in of(rows, "machine", "cuda")), "")
    return gpus, date, cuda


def gpus_label(rows):
    """"N× NAME" (count × name, names in the order of their first row), or "no GPU"."""
    counts = {}
    for name in machine(rows)[0]:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n}× {name}" for name, n in counts.items()) or "no GPU"

