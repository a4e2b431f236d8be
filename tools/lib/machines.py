#!/usr/bin/env python3
"""The machines the course has recordings of, and their recordings: tests/fixtures/machines.tsv.

One row a machine, its columns read by name. A recording is tests/fixtures/labNN-SUFFIX.csv,
made on the machine of row SUFFIX, with the command that made it in labNN-SUFFIX.cmd. Every
tool asks this module which recordings there are and what their machines are; none names a
machine or a suffix. (tests/helpers/machines.bash answers the same for the tests.)

    machines.py suffixes [COL=VALUE ...]          the suffixes of the machines whose columns
                                                  have these values, in the table's order
    machines.py recordings [NN] [COL=VALUE ...] [--with=COL,...]
                                                  the recordings (paths) of lab NN, or of every
                                                  lab, of those machines, each with its
                                                  machine's columns COL after tabs (--with);
                                                  FIXTURES=DIR looks for them in DIR
    machines.py of FILE                           "NN<TAB>SUFFIX" of a recording (labNN-SUFFIX.csv)

Exit 2 for bad usage, 1 for a table that cannot be read or a machine or column it lacks.
"""

import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
TABLE = os.path.join(FIXTURES, "machines.tsv")
COLUMNS = ("suffix", "gpus", "link", "link_en", "link_zh", "gpu_count", "gpu", "label", "link_kind")


class Unknown(Exception):
    """A machine, a column or a file the table does not know, or a table that cannot be read."""


_rows = None


def machines():
    """Every machine, a dict of its columns, in the table's order."""
    global _rows
    if _rows is None:
        try:
            with open(TABLE, encoding="utf-8") as f:
                lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
        except OSError as e:
            raise Unknown(f"{TABLE}: {e.strerror}") from None
        if not lines:
            raise Unknown(f"{TABLE}: no header")
        head = lines[0].split("\t")
        missing = [c for c in COLUMNS if c not in head]
        if missing:
            raise Unknown(f"{TABLE}: no column {', '.join(missing)}")
        rows = []
        for n, line in enumerate(lines[1:], 2):
            cells = line.split("\t")
            if len(cells) != len(head):
                raise Unknown(f"{TABLE}: row {n} has {len(cells)} cells, the header {len(head)}")
            rows.append(dict(zip(head, cells)))
        _rows = rows
    return _rows


def matches(machine, filters):
    return all(machine.get(k) == v for k, v in filters.items())


def check_columns(filters):
    head = machines()[0].keys() if machines() else COLUMNS
    for k in filters:
        if k not in head:
            raise Unknown(f"{TABLE} has no column '{k}'")


def suffixes(**filters):
    """The suffixes of the machines whose columns have these values, in the table's order."""
    check_columns(filters)
    return [m["suffix"] for m in machines() if matches(m, filters)]


def recordings(nn=None, fixtures=None, **filters):
    """[(path, machine)]: the recordings of lab NN (every lab without NN) made on machines
    whose columns have these values, lab by lab, each lab's in the table's order."""
    fixtures = fixtures or FIXTURES
    check_columns(filters)
    labs = [nn] if nn else sorted({m.group(1) for p in glob.glob(os.path.join(fixtures, "lab[0-9][0-9]-*.csv"))
                                   if (m := re.match(r"lab(\d\d)-", os.path.basename(p)))})
    found = []
    for lab in labs:
        for m in machines():
            path = os.path.join(fixtures, f"lab{lab}-{m['suffix']}.csv")
            if matches(m, filters) and os.path.isfile(path):
                found.append((path, m))
    return found


def in_repo(nn=None, **filters):
    """recordings(), each path relative to the repository's root (as a report names it)."""
    return [(os.path.relpath(path, ROOT), m) for path, m in recordings(nn, **filters)]


def hardware(m):
    """How a report names a machine: its GPUs, then its link ("gpus (link_en)")."""
    return f"{m['gpus']} ({m['link_en']})" if m["link_en"] else m["gpus"]


def of(name):
    """(NN, machine) of a recording's file name (labNN-SUFFIX.csv, or .cmd, or a path); Unknown
    for a name that is not one of a machine of the table."""
    base = os.path.basename(name)
    for m in sorted(machines(), key=lambda m: -len(m["suffix"])):
        hit = re.fullmatch(rf"lab(\d\d)-{re.escape(m['suffix'])}\.(csv|cmd)", base)
        if hit:
            return hit.group(1), m
    raise Unknown(f"'{base}' is not a recording (labNN-SUFFIX.csv, SUFFIX one of {', '.join(suffixes())})")


def command(path):
    """The file holding the command a recording (labNN-SUFFIX.csv) was made with."""
    return path[:-len(".csv")] + ".cmd" if path.endswith(".csv") else path + ".cmd"


def filters_of(args):
    out = {}
    for a in args:
        if "=" not in a:
            raise ValueError(a)
        k, v = a.split("=", 1)
        out[k] = v
    return out


def main(argv):
    args = argv[1:]
    try:
        if args and args[0] == "suffixes":
            for suffix in suffixes(**filters_of(args[1:])):
                print(suffix)
            return 0
        if len(args) == 2 and args[0] == "of":
            nn, m = of(args[1])
            print(f"{nn}\t{m['suffix']}")
            return 0
        if args and args[0] == "recordings":
            rest = args[1:]
            nn = rest.pop(0) if rest and re.fullmatch(r"\d\d", rest[0]) else None
            cols = [c for a in rest if a.startswith("--with=") for c in a[len("--with="):].split(",")]
            rest = [a for a in rest if not a.startswith("--with=")]
            check_columns(dict.fromkeys(cols))
            fixtures = os.environ.get("FIXTURES") or None
            for path, m in recordings(nn, fixtures, **filters_of(rest)):
                print("\t".join([path] + [m[c] for c in cols]))
            return 0
    except ValueError:
        pass
    except Unknown as e:
        print(f"machines.py: {e}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
