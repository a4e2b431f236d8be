"""The course's recordings and the machines they were made on.

tests/fixtures/machines.tsv names each machine the course has recordings of, one row each
(suffix, gpus, link, link_en, link_zh); a recording tests/fixtures/labNN-SUFFIX.csv was made
on the machine of its SUFFIX. No tool names a machine or a suffix itself: a recording from a
new machine is its files and one row of that table.
"""

import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join("tests", "fixtures")
TABLE = os.path.join(ROOT, FIXTURES, "machines.tsv")
COLUMNS = ["suffix", "gpus", "link", "link_en", "link_zh"]


class BadTable(Exception):
    """machines.tsv cannot be read or lacks its columns."""


def machines():
    """Each machine's row as a dict of COLUMNS, in the table's order."""
    try:
        with open(TABLE, newline="", encoding="utf-8") as f:
            lines = [line for line in f if line.strip() and not line.startswith("#")]
    except OSError as e:
        raise BadTable(f"{TABLE}: {e.strerror}") from None
    reader = csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    if reader.fieldnames is None or any(c not in reader.fieldnames for c in COLUMNS):
        raise BadTable(f"{TABLE}: the header is not {' '.join(COLUMNS)}")
    return list(reader)


def hardware(m):
    """How the report names a machine: "2× NVIDIA H200 (NVLink 4 ×18 between the two GPUs)"."""
    return f"{m['gpus']} ({m['link_en']})" if m["link_en"] else m["gpus"]


def of_lab(number):
    """The recordings of lab NUMBER ("05") that exist, as (path relative to the repository,
    machine row), in the table's order."""
    found = []
    for m in machines():
        path = os.path.join(FIXTURES, f"lab{number}-{m['suffix']}.csv")
        if os.path.isfile(os.path.join(ROOT, path)):
            found.append((path, m))
    return found
