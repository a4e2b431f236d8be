"""report.md, the page of make run's report: the machine and what ran on it, each lab's
section, and the chapter's claims with this machine's verdicts (or, for a lab that could not
run here, what each recording of the course says, named with its hardware). A reason for not
running shared by several labs is said once, at the top.
"""

import datetime
import re
import shutil
import socket
import subprocess

import machines
import sections

# A verdict in the ledger; "untested" is said of this machine ("here") or of a recording ("there").
VERDICT_WORDS = {"holds": "**holds**", "does_not_hold": "**does not hold**"}


def cell(text):
    """TEXT in a Markdown table cell, where a bare | would end it."""
    return text.replace("|", "\\|")


def verbatim(text):
    text = text.rstrip("\n")
    return f"```text\n{text}\n```\n\n" if text else ""


def output(args):
    """What ARGS prints on stdout and stderr together."""
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace").stdout


def machine_section():
    """## Machine: nvidia-smi's GPUs and topology, and nvcc's release."""
    if shutil.which("nvidia-smi"):
        said = output(["nvidia-smi", "--query-gpu=index,name,driver_version,compute_cap,"
                       "memory.total,pci.bus_id", "--format=csv"]).rstrip("\n") + "\n\n"
        topology = output(["nvidia-smi", "topo", "-m"])
        said += re.sub(r"\x1b\[[0-9;]*m", "", topology).rstrip("\n") + "\n"  # no colours
    else:
        said = "nvidia-smi: not found (no NVIDIA driver)\n"
    nvcc = shutil.which("nvcc") and re.findall(r"release [0-9.]*", output(["nvcc", "--version"]))
    release = "\n".join(nvcc or []) or "not found"
    said += f"\nnvcc: {release}.\n"
    return "## Machine\n\n" + verbatim(said)


def not_run(labs):
    """One sentence per reason for not running, naming its labs (all of them: "No lab")."""
    by_reason = {}
    for lab in labs:
        if lab.skipped:
            by_reason.setdefault(lab.reason or "no reason given", []).append(lab.number)
    text = ""
    for reason, numbers in by_reason.items():
        if len(numbers) == len(labs):
            text += f"**No lab can run on this machine**: {reason}.\n\n"
        elif len(numbers) == 1:
            text += f"**Lab {numbers[0]} cannot run on this machine**: {reason}.\n\n"
        else:
            text += f"**Labs {', '.join(numbers)} cannot run on this machine**: {reason}.\n\n"
    return text


def results_table(labs):
    text = "| lab | result | time |\n| --- | --- | --- |\n"
    for lab in labs:
        if lab.skipped:
            result = "skipped (said above)"
        else:
            result = cell(lab.outcome + (f": {lab.reason}" if lab.reason else ""))
        text += f"| {lab.name} | {result} | {lab.seconds} s |\n"
    return text + "\n"


def counts(claims, recorded):
    """The verdicts here in one sentence; the recordings' verdicts, a line per hardware."""
    n = {v: sum(c["verdict"] == v for c in claims) for v in ("holds", "does_not_hold", "untested")}
    says = "has each claim, with the recordings' verdicts" if recorded else "says why"
    text = (f"The chapter's claims on this machine: {n['holds']} hold, {n['does_not_hold']} do "
            f"not hold, {n['untested']} cannot be tested here ([the ledger]"
            f"(#the-chapters-claims-on-this-machine) {says}).\n\n")
    if not recorded:
        return text
    text += (f"Not measured here: what the course recorded elsewhere for the "
             f"{len({r['id'] for r in recorded})} claims of the labs that did not run here "
             f"(verdicts recomputed from tests/fixtures by each lab's host tool):\n\n")
    by_hardware = {}
    for r in recorded:
        by_hardware.setdefault(r["hardware"], []).append(r["verdict"])
    for hardware, verdicts in by_hardware.items():
        text += (f"- on {hardware}: {verdicts.count('holds')} hold, "
                 f"{verdicts.count('does_not_hold')} do not hold, "
                 f"{verdicts.count('untested')} cannot be tested there\n")
    return text + "\n"


def recorded_cell(recorded, claim):
    """What each recording says of CLAIM, one line each."""
    return "<br>".join(f"recorded on {r['hardware']}: "
                       f"{VERDICT_WORDS.get(r['verdict'], 'cannot be tested there')} — "
                       f"{r['measured']}"
                       for r in recorded if r["id"] == claim)


def ledger_row(claim, lab, recorded):
    detail = claim["measured"]
    if not lab.ok:
        elsewhere = recorded_cell(recorded, claim["id"])
        if not elsewhere and not machines.in_repo(lab.number):  # a new lab says so instead
            elsewhere = "no recording of this lab yet"
        if elsewhere and lab.skipped:  # why it did not run is said at the top
            detail = elsewhere
        elif elsewhere:
            detail = f"{detail}<br>{elsewhere}"
    verdict = VERDICT_WORDS.get(claim["verdict"], "cannot be tested here")
    return (f"| {claim['section']} | {cell(claim['chapter'])}<br>*{cell(claim['meaning'])}* "
            f"(`{claim['id']}`) | {verdict} | {cell(detail)} |\n")


def ledger(labs, claims, recorded):
    """## The chapter's claims on this machine: a row per claim."""
    text = ("## The chapter's claims on this machine\n\n"
            "Each claim of chapter 4 that a lab tests, in the chapter's words, with this run's "
            "verdict and\nthe measurement; *cannot be tested here* says what this machine lacks.\n")
    last = "measured on this machine"
    if recorded:
        text += ("For a lab that did not run here (the top says why), the last column gives "
                 "instead what each\nof the course's recordings says, named with its hardware: "
                 "not a measurement of this machine.\n")
        last = "measured on this machine, or what the course recorded"
    text += f"\n| § | the chapter says | verdict | {last} |\n| --- | --- | --- | --- |\n"
    by_name = {lab.name: lab for lab in labs}
    for claim in claims:
        text += ledger_row(claim, by_name[claim["lab"]], recorded)
    return text + "\n"


def page(run, labs, here, beside_here, claims, recorded):
    """The whole of report.md."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"# P2P course report\n\nWritten by `make run` on {when} on {socket.gethostname()} "
            f"({here}).\n\n" + not_run(labs))
    for note in run.notes:
        text += f"**nvbandwidth** (`{run.nvbandwidth}`): {cell(note.removesuffix('.'))}.\n\n"
    text += results_table(labs) + counts(claims, recorded) + machine_section()
    for lab in labs:
        text += sections.lab_section(run, lab, here, beside_here)
    return text + ledger(labs, claims, recorded)
