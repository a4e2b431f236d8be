"""The message the skeleton stops with at a TODO: the kind todo of tools/lib/fill.py (whose
docstring lists every kind), common/todo.c's format with the file and line of the TODO's first
LAB_TODO("NN.K").
"""

import glob
import os
import re

from fill_recordings import ROOT, FillError

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


def todo(doc, tid):
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

