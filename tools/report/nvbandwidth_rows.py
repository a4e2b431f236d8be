#!/usr/bin/env python3
"""nvbandwidth's JSON output (nvbandwidth -j) as result rows of the course.

    nvbandwidth_rows.py RUN.json [RUN.json ...] > nvbandwidth.csv
    nvbandwidth_rows.py --testcases     the testcases to run (tools/report/nvbandwidth.sh)
    nvbandwidth_rows.py --runs-beside RECORDING.csv
                                        the runs kept with a recording, one a line

Each run gives rows of the experiment "nvbandwidth": its version, driver and
GPUs (variant version, driver, gpu), then one row per figure of each passed
testcase, the variant being the testcase's name. The host-link testcases map
onto lab 05's own rows: host -> GPU is src -1, dst GPU; GPU -> host is src
GPU, dst -1; a bidirectional testcase is mode each_way, the others one_way;
bandwidth goes to gbps, the latency testcase's nanoseconds to median_us.
Lab 05's report section sets these rows beside the lab's own (the host tool's
"report FILE.csv NVBANDWIDTH.csv"), and tests/helpers/lab05.bash holds the
lab to them. A file that is not nvbandwidth's JSON, or that records an error,
is refused with exit 1.
"""

import glob
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import result_rows  # noqa: E402 (tools/lib/)

HEADER = result_rows.header()

# The testcases lab 05 has a counterpart of: (to the GPU?, mode, unit).
HOST_TESTCASES = {
    "host_to_device_memcpy_ce": (True, "one_way", "GB/s"),
    "device_to_host_memcpy_ce": (False, "one_way", "GB/s"),
    "host_to_device_bidirectional_memcpy_ce": (True, "each_way", "GB/s"),
    "device_to_host_bidirectional_memcpy_ce": (False, "each_way", "GB/s"),
    "host_to_device_memcpy_sm": (True, "one_way", "GB/s"),
    "device_to_host_memcpy_sm": (False, "one_way", "GB/s"),
    "host_device_latency_sm": (True, "latency", "ns"),
}


class Refused(Exception):
    pass


def row(variant, src=-1, dst=-1, mode="", value="", detail="", gbps="", median_us=""):
    return {"experiment": "nvbandwidth", "variant": variant, "route": "host" if mode else "",
            "src": src, "dst": dst, "mode": mode, "bytes": 0, "count": 0, "reps": 0,
            "median_us": median_us, "min_us": "", "max_us": "", "gbps": gbps, "peak_gbps": "",
            "verified": -1, "value": value, "detail": detail}


def figures(case):
    """The rows of one passed host-link testcase (one row of CPU, a column per GPU)."""
    to_gpu, mode, unit = HOST_TESTCASES[case["name"]]
    matrix = case.get("bandwidth_matrix")
    if not isinstance(matrix, list) or len(matrix) != 1 or not isinstance(matrix[0], list):
        raise Refused(f"testcase {case['name']}: expected one row (the CPU) in bandwidth_matrix")
    for gpu, cell in enumerate(matrix[0]):
        if cell == "N/A":
            continue
        try:
            number = float(cell)
        except (TypeError, ValueError):
            raise Refused(f"testcase {case['name']}: GPU {gpu}: not a number: {cell!r}")
        if not math.isfinite(number) or number <= 0:
            raise Refused(f"testcase {case['name']}: GPU {gpu}: not a positive figure: {cell!r}")
        src, dst = (-1, gpu) if to_gpu else (gpu, -1)
        if unit == "ns":
            yield row(case["name"], src, dst, mode, detail="ns", median_us=f"{number / 1000:.6g}")
        else:
            yield row(case["name"], src, dst, mode, detail="GB/s", gbps=number)


def rows_of(path):
    try:
        with open(path, encoding="utf-8") as f:
            run = json.load(f)["nvbandwidth"]
        cases = run["testcases"]
    except OSError as e:
        raise Refused(f"cannot read it: {e.strerror}")
    except (ValueError, KeyError, TypeError):
        raise Refused("not nvbandwidth's JSON output (nvbandwidth -j): no nvbandwidth.testcases")
    if not isinstance(run, dict) or not isinstance(cases, list) or \
            not all(isinstance(c, dict) for c in cases):
        raise Refused("not nvbandwidth's JSON output (nvbandwidth -j): testcases is no list of objects")
    if "error" in run:
        raise Refused(f"nvbandwidth recorded an error: {run['error']}")
    yield row("version", value=run.get("version", ""), detail=run.get("git_version", ""))
    yield row("driver", value=run.get("Driver Version", ""),
              detail=f"CUDA runtime {run.get('CUDA Runtime Version', '')}")
    for entry in run.get("GPU Device list", []):
        gpu, _, name = str(entry).partition(": ")
        yield row("gpu", src=int(gpu) if gpu.isdigit() else -1, value=name.split(" (")[0],
                  detail=name)
    for case in cases:
        if case.get("name") in HOST_TESTCASES and case.get("status") == "Passed":
            yield from figures(case)


def rows(paths):
    """The rows of the runs in PATHS, one dict per row; Refused names the file."""
    every = []
    for path in paths:
        try:
            some = list(rows_of(path))
            if not any(r["route"] for r in some):
                raise Refused("no figure of a passed host-link testcase (tools/report/nvbandwidth.sh "
                              "runs them; N/A cells are no figure)")
        except Refused as e:
            raise Refused(f"{path}: {e}") from None
        every += some
    return every


def csv_text(paths):
    """The rows of the runs in PATHS as the course's result CSV; Refused names the file."""
    # The rows' CSV has no quoting: a comma inside a field becomes a semicolon.
    lines = [",".join(HEADER)]
    lines += [",".join(str(r[k]).replace(",", ";") for k in HEADER) for r in rows(paths)]
    return "\n".join(lines) + "\n"


def runs_beside(recording):
    """The nvbandwidth runs kept with RECORDING (labNN-SUFFIX.csv): the files
    RECORDING.nvbandwidth-*.json beside it (before.json, after.json), sorted."""
    stem = recording[:-len(".csv")] if recording.endswith(".csv") else recording
    return sorted(glob.glob(glob.escape(stem) + ".nvbandwidth-*.json"))


def main(paths):
    if paths == ["--testcases"]:
        print(" ".join(HOST_TESTCASES))
        return 0
    if len(paths) == 2 and paths[0] == "--runs-beside":
        for run in runs_beside(paths[1]):
            print(run)
        return 0
    if not paths or any(p.startswith("-") for p in paths):
        print("usage: nvbandwidth_rows.py RUN.json [RUN.json ...] | --testcases | "
              "--runs-beside RECORDING.csv", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(csv_text(paths))
    except Refused as e:
        print(f"nvbandwidth_rows.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
