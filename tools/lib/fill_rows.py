"""A recording's rows, numbers and report: the kinds rows, num and report of tools/lib/fill.py
(whose docstring lists every kind). num() is also the row query of slides/diagrams/topology.py.
"""

import os
import re
import tempfile

from fill_recordings import FillError, fixture_file, fixture_path, host_tool, lab_nn, rows
import nvbandwidth_rows  # tools/report/, on the path since fill_recordings
import result_rows

def converted(convert, runs):
    """convert(runs), a function of tools/report/nvbandwidth_rows.py, or FillError with its reason."""
    try:
        return convert(runs)
    except nvbandwidth_rows.Refused as e:
        raise FillError(f"nvbandwidth_rows: {e}")


def report(doc, fix, pattern=None):
    """The lab's report of FIX, as make run's report writes it (with the nvbandwidth runs
    recorded beside it); with PATTERN, the block that starts at its first matching line."""
    path = fixture_path(fix, doc)
    with tempfile.TemporaryDirectory() as scratch:
        beside = ()
        runs = nvbandwidth_rows.runs_beside(path)
        if runs:
            beside = (os.path.join(scratch, "nvbandwidth.csv"),)
            with open(beside[0], "w", encoding="utf-8") as f:
                f.write(converted(nvbandwidth_rows.csv_text, runs))
        text = host_tool(lab_nn(fix), "report", fix, doc, beside).rstrip("\n")
    # Headings of the report become bold lines: the document's own headings stay the only ones
    # (and, in a Chinese handout, all translated).
    lines = re.sub(r"^#+ (.*)$", r"**\1**", text, flags=re.M).split("\n")
    if pattern is None:
        return "\n".join(lines)
    rx = re.compile(pattern)
    start = next((i for i, line in enumerate(lines) if rx.search(line)), None)
    if start is None:
        raise FillError(f"report of {fix}.csv: no line matches /{pattern}/")
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    return "\n".join(block)


def matching_rows(fix, pattern, doc):
    """The rows of FIX whose line (as written in the file) matches PATTERN, read by column name."""
    rx = re.compile(pattern)
    path = fixture_path(fix, doc)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    picked = [line for line in lines[1:] if rx.search(line)]
    if not picked:
        raise FillError(f"{fix}.csv: no row matches /{pattern}/")
    try:
        return result_rows.parse("\n".join(lines[:1] + picked) + "\n", path)
    except result_rows.NotRows as e:
        raise FillError(str(e))


def rows_part(doc, fix, pattern, cols=None):
    """The rows of FIX matching PATTERN: readable lines, or the columns COLS as CSV."""
    picked = matching_rows(fix, pattern, doc)
    if cols:
        names = cols.split(",")
        missing = [c for c in names if c not in picked[0]]
        if missing:
            raise FillError(f"{fix}.csv has no column {', '.join(missing)}")
        return "\n".join(",".join(r[c] for c in names) for r in picked)
    out = []
    for r in picked:
        gpus = r["src"] if r["src"] == r["dst"] else f"{r['src']} -> {r['dst']}"
        tail = f" ({r['detail']})" if r["detail"] else ""
        out.append(f"{r['experiment']} {r['variant']}, GPU {gpus}: {r['value']}{tail}")
    return "\n".join(out)


def num(fix, col, filters, fmt="%.1f", scale=1.0):
    """Column COL of the one row of FIX matching FILTERS ({column: value}), formatted."""
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


def num_part(doc, fix, col, /, **options):
    """num() of a placeholder: its options are the filters, less fmt= and scale=."""
    fixture_file(fix, doc)
    fmt, scale = options.pop("fmt", "%.1f"), options.pop("scale", "1")
    try:
        factor = float(scale)
    except ValueError:
        raise FillError(f"scale={scale} is not a number")
    return num(fix, col, options, fmt, factor)

