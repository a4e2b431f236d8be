"""make run's runs on this machine: each lab's program, and nvbandwidth before and after them.

A lab's outcome is its program's exit status (0 ok, 77 skipped with its reason, any other
FAILED) and its result file: a run that leaves none, or one that is not a result file, FAILED.
What a program prints on stderr is kept in NN-name.err and shown as it comes, indented.
"""

import glob
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

import nvbandwidth_rows
import result_rows


@dataclass
class Run:
    """One make run: where it reads and writes, and what it has found so far."""
    build: str            # the build folder (bin/, host/)
    variant: str          # ref or student: whose programs run
    report_dir: str       # where the finished report goes
    work: str             # where it is written meanwhile
    quick: bool           # the labs' --quick
    nvbandwidth: str      # nvbandwidth's binary, or ""
    started: float = field(default_factory=time.time)
    failed: bool = False  # a lab, or a plot of one, failed: exit 1
    notes: list = field(default_factory=list)  # nvbandwidth's troubles, said at the top

    def say(self, text):
        print(f"[{int(time.time() - self.started):3d}s] {text}", flush=True)

    def finished(self, text):
        """TEXT with the paths of the work folder as those of the finished report."""
        return text.replace(self.work, self.report_dir)


@dataclass
class Lab:
    """One lab's run here."""
    name: str              # 01-peer-checks
    outcome: str = "ok"    # ok, skipped, FAILED (...)
    reason: str = ""       # why it was skipped, or where to look when it failed
    seconds: int = 0
    rows: list = field(default_factory=list)  # its result rows

    @property
    def number(self):
        return self.name.split("-")[0]

    @property
    def ok(self):
        return self.outcome == "ok"

    @property
    def skipped(self):
        return self.outcome == "skipped"


def programs(run):
    """The labs' programs of the build, in order: BUILD/VARIANT/bin/NN-name."""
    pattern = os.path.join(glob.escape(run.build), run.variant, "bin", "[0-9][0-9]-*")
    found = sorted(glob.glob(pattern))
    return [p for p in found if os.path.isfile(p) and os.access(p, os.X_OK)]


def tee(stream, kept):
    """Copy the lines of STREAM into the file KEPT and, indented, onto stderr, as they come."""
    with open(kept, "wb") as out:
        for line in iter(stream.readline, b""):
            out.write(line)
            sys.stderr.buffer.write(b"        " + line)
            sys.stderr.buffer.flush()


def skip_reason(printed):
    """What follows "skipped: " on the first line of PRINTED (a lab's stdout) that has it."""
    with open(printed, encoding="utf-8", errors="replace") as f:
        line = next((line for line in f if "skipped: " in line), "")
    return line.rstrip("\n").rsplit("skipped: ", 1)[-1] if line else ""


def exit_status(code):
    """The exit status as a shell says it (killed by signal N: 128 + N)."""
    return 128 - code if code < 0 else code


def run_lab(run, program):
    """Run one lab's program into the work folder; its Lab, outcome and rows."""
    lab = Lab(os.path.basename(program))
    args = [program, "--out", os.path.join(run.work, "data"), "--progress"] + \
        (["--quick"] if run.quick else [])
    run.say(f"{lab.name} ...")
    t0 = time.time()
    printed = os.path.join(run.work, f"{lab.name}.txt")
    with open(printed, "wb") as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE)
        try:
            tee(child.stderr, os.path.join(run.work, f"{lab.name}.err"))
            status = exit_status(child.wait())
        finally:
            if child.poll() is None:  # interrupted: the lab goes with the report
                child.kill()
                child.wait()
    lab.seconds = int(time.time() - t0)
    if status == 77:
        lab.outcome, lab.reason = "skipped", skip_reason(printed)
    elif status != 0:
        lab.outcome = f"FAILED (exit {status})"
        lab.reason = f"see {run.report_dir}/{lab.name}.txt and {lab.name}.err"
    result = os.path.join(run.work, "data", f"{lab.name}.csv")
    if not os.path.isfile(result) or os.path.getsize(result) == 0:
        lab.outcome = "FAILED (no result file)"
    else:
        try:
            lab.rows = result_rows.read(result)
        except result_rows.NotRows as e:
            lab.outcome, lab.reason = "FAILED (not a result file)", run.finished(str(e))
    run.failed |= not (lab.ok or lab.skipped)
    said = f": {lab.reason}" if lab.reason else ""
    run.say(f"{lab.name}: {lab.outcome}{said} ({lab.seconds}s)")
    return lab


def note(run, what, why):
    """A line for the top of the report: WHAT and the first line of WHY."""
    run.notes.append(f"{what}: {run.finished(why.splitlines()[0] if why else '')}")


def nvbandwidth(run, tag):
    """nvbandwidth on this machine now (TAG: before or after the labs), when it is given. A
    failed run is said at the top of the report and fails no lab: on a machine the labs
    cannot run on, nvbandwidth cannot either."""
    if not run.nvbandwidth:
        return
    run.say(f"nvbandwidth ({tag} the labs) ...")
    out = os.path.join(run.work, "data", f"nvbandwidth-{tag}.json")
    done = subprocess.run([os.path.join("tools", "report", "nvbandwidth.sh"), run.nvbandwidth, out],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace")
    if done.returncode != 0:
        why = done.stdout.rstrip("\n")
        print(why, file=sys.stderr)
        note(run, f"its run {tag} the labs failed", why)


def beside_rows(runs, csv_path):
    """The rows of the nvbandwidth RUNS (their JSONs) written to CSV_PATH: [CSV_PATH], or []
    when there is no run or, said on stderr and returned second, they cannot be read."""
    if not runs:
        return [], ""
    try:
        text = nvbandwidth_rows.csv_text(runs)
    except nvbandwidth_rows.Refused as e:
        why = f"nvbandwidth_rows.py: {e}"
        print(why, file=sys.stderr)
        return [], why
    with open(csv_path, "w", encoding="utf-8") as f:
        f.write(text)
    return [csv_path], ""


def nvbandwidth_here(run):
    """The rows of this machine's nvbandwidth runs (data/nvbandwidth.csv), to set beside the
    labs' own: [that file], or [] (a run that cannot be read is said at the top)."""
    runs = sorted(glob.glob(os.path.join(glob.escape(run.work), "data", "nvbandwidth-*.json")))
    beside, why = beside_rows(runs, os.path.join(run.work, "data", "nvbandwidth.csv"))
    if why:
        note(run, "its output cannot be read", why)
    return beside
