"""The labs' host tools ($BUILD/host/NN-name), run on a result file: the one way the decks'
and the handouts' fillers call them and read what they print.

A host tool recomputes a lab's verdicts, the figures they rest on and its report section from
a result file, with no GPU (common/host_tool_main.c; `--help` lists its commands). verdicts()
and figures() read its CSV through result_rows, the one reader of rows. Every failure, a tool
not built, a command that fails or prints what is not its table, is Failed with the reason.
BUILD (default build, relative to the repository's root) is where the tools are.
"""

import glob
import os
import subprocess

import result_rows

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Failed(Exception):
    """A host tool that is not built, or a run of one that failed; the message says which."""


def build_dir():
    """The build folder the host tools are in ($BUILD, default build)."""
    return os.path.join(ROOT, os.environ.get("BUILD", "build"))


def path(lab):
    """The host tool of LAB: "NN-name", or "NN" for the one lab of that number."""
    host = os.path.join(build_dir(), "host")
    found = sorted(glob.glob(os.path.join(host, lab if "-" in lab else f"{lab}-*")))
    if not found or not os.access(found[0], os.X_OK):
        raise Failed(f"no host tool {host}/{lab if '-' in lab else lab + '-*'} (build it: make tools)")
    return found[0]


def found(lab):
    """LAB's host tool, or None where the build has none (make run's report goes on without)."""
    try:
        return path(lab)
    except Failed:
        return None


def run(lab, command, result_file, beside=(), recording=False):
    """What LAB's host tool prints for COMMAND (verdicts, figures, report) on RESULT_FILE, the
    files BESIDE set beside it (report only). RECORDING: the rows are a recording, made on a
    machine other than this one (--recording: the tool calls it "that machine")."""
    tool = path(lab)
    flags = ["--recording"] if recording else []
    out = subprocess.run([tool, *flags, command, result_file, *beside], capture_output=True,
                         text=True, errors="replace")
    if out.returncode != 0:
        raise Failed(f"{tool} {command} {result_file} failed: {out.stderr.strip()}")
    return out.stdout


def verdicts(lab, result_file, recording=False):
    """The claim rows LAB's host tool judges from RESULT_FILE, in its order."""
    try:
        return result_rows.of(result_rows.parse(run(lab, "verdicts", result_file, recording=recording),
                                                f"{path(lab)} verdicts {result_file}"), "claim")
    except result_rows.NotRows as e:
        raise Failed(str(e)) from None


def figures(lab, result_file):
    """{claim id: {figure name: value}}: the figures each verdict on RESULT_FILE rests on, each
    as the claim's sentence prints it."""
    try:
        return result_rows.figures(run(lab, "figures", result_file),
                                   f"{path(lab)} figures {result_file}")
    except result_rows.NotRows as e:
        raise Failed(str(e)) from None


def report(lab, result_file, beside=(), recording=False):
    """LAB's report section (Markdown) of RESULT_FILE, with the rows of BESIDE set beside."""
    return run(lab, "report", result_file, beside, recording)
