"""Each lab's section of make run's report: the lab's own report section (its host tool's,
from its rows here) and its plots; for a lab that did not run here, every recording of it,
named with its hardware, drawn the same way from the recorded rows.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

import converted
import host_tools
import lab_runs
import nvbandwidth_rows
import machines
import result_rows


def plot(run, lab, rows_file, tag, machine):
    """The lab's plots (labs/NN-name/harness/plots.gp, gnuplot) of ROWS_FILE, titles naming
    MACHINE, as Markdown images; or why there are none. TAG tells the images apart."""
    script = os.path.join("labs", lab, "harness", "plots.gp")
    if not os.path.isfile(script):
        return ""
    if shutil.which("gnuplot") is None:
        return ("No plots: gnuplot is not installed (Debian/Ubuntu: sudo apt-get install "
                "gnuplot-nox; then make run again).\n\n")
    out = os.path.join(run.work, f"plots-{tag}")
    os.makedirs(out, exist_ok=True)
    title = machine.replace("'", "")
    with open(os.path.join(run.work, f"{lab}-{tag}.plots.log"), "wb") as log:
        given = f"csv='{rows_file}'; out='{out}'; machine='{title}'"
        drawn = subprocess.run(["gnuplot", "-e", given, script], stdout=log,
                               stderr=subprocess.STDOUT)
    if drawn.returncode != 0:
        run.failed = True
        return f"No plots: gnuplot failed (see {run.report_dir}/{lab}-{tag}.plots.log).\n\n"
    text = ""
    for image in sorted(glob.glob(os.path.join(glob.escape(out), "*.png"))):
        name = f"{lab}-{tag}-{os.path.basename(image)}"
        shutil.move(image, os.path.join(run.work, name))
        text += f"![{lab}: {os.path.basename(image)[:-len('.png')]}, {machine}]({name})\n"
    try:
        os.rmdir(out)
    except OSError:
        pass
    return text + "\n"


def routes(rows):
    """The routes ROWS have timed measurements for, in order: "host, loopback"."""
    seen = []
    for r in rows:
        if r["route"] and r["median_us"] and r["route"] not in seen:
            seen.append(r["route"])
    return ", ".join(seen)


def origin(fixture):
    """The paragraph saying that FIXTURE was converted from an earlier program's output, or ""."""
    try:
        text = converted.sentence(fixture)
    except SystemExit as e:  # converted.py's table cannot be read
        print(f"run_report: tools/lib/converted.py cannot say where {fixture} came from: {e}",
              file=sys.stderr)
        return ""
    return f"{text}\n\n" if text else ""


def report(lab, rows_file, beside, recording=False):
    """LAB's report section of ROWS_FILE from its host tool; where the tool fails, a line saying
    why (and the why on make run's stderr)."""
    try:
        return host_tools.report(lab, rows_file, beside, recording)
    except host_tools.Failed as e:
        print(f"make run: {e}", file=sys.stderr)
        return f"Not shown: {e}.\n"


def recording(run, lab, fixture, machine):
    """One recording of a lab that did not run here, under a heading naming its hardware."""
    tag = machine["suffix"]
    try:
        rows = result_rows.read(fixture)
    except result_rows.NotRows as e:
        return f"### Recorded in `{fixture}` (not here)\n\nNot shown: {e}.\n\n"
    beside, _ = lab_runs.beside_rows(nvbandwidth_rows.runs_beside(fixture),
                                     os.path.join(run.work, f"{lab}-{tag}.beside.csv"))
    section = report(lab, fixture, beside, recording=True)
    date = result_rows.machine(rows)[1]
    when = f", {date}" if date else ""  # a recording without a date row: no dangling comma
    text = (f"### Recorded on {machines.hardware(machine)}{when} (not here)\n\n"
            + origin(fixture)
            + f"From `{fixture}`, drawn by the lab's host tool:\n\n"
            + re.sub(r"^### ", "#### ", section, flags=re.M)  # under this recording's heading
            + "\n")
    if os.path.isfile(os.path.join("labs", lab, "harness", "plots.gp")):
        text += (f"This recording has rows for the routes {routes(rows)} only: the plots show "
                 f"those, and the series of any other route are left out.\n\n")
    return text + plot(run, lab, os.path.abspath(fixture), tag, machine["gpus"] + when)


def lab_section(run, lab, here, beside_here):
    """The section of LAB (a lab_runs.Lab); HERE names this machine's GPUs, BESIDE_HERE the
    rows of this machine's nvbandwidth runs."""
    tool = host_tools.found(lab.name)
    text = f"## {lab.name}\n\n"
    if lab.ok:
        text += f"Result: ok ({lab.seconds} s; rows: `data/{lab.name}.csv`).\n\n"
        if tool:
            rows_file = os.path.join(run.work, "data", f"{lab.name}.csv")
            text += report(lab.name, rows_file, beside_here) + "\n"
            text += plot(run, lab.name, rows_file, "here", here)
        return text
    if not lab.skipped:
        text += f"Result: {lab.outcome} ({lab.seconds} s).\n\n"
    if tool:
        for fixture, machine in machines.in_repo(lab.number):
            text += recording(run, lab.name, fixture, machine)
    return text
