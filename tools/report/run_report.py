#!/usr/bin/env python3
"""make run: run every lab's program on this machine and write the report from the result files
they write (never from printed text), in REPORT_DIR (default BUILD/report):

    report.md       the machine, each lab's section (drawn by the lab's host tool from its
                    rows), the plots, and the chapter's claims with this machine's verdicts
    data/NN-*.csv   each lab's rows (lab_row CSV: the results are data)
    claims.tsv      the ledger: claim, lab, section, verdict, the chapter's words and what they
                    say, measurement or reason
    recorded.tsv    for the labs that did not run here: each claim's verdict in each recording
                    of the course (recording, hardware, claim, lab, verdict, measurement),
                    recomputed from tests/fixtures by the lab's host tool
    NN-*.txt/.err   each lab's table and its stderr; *.png the plots

Labs are found in BUILD/ref/bin (BUILD/student/bin with RUN_BUILD=student, the default in a
student tree); a lab's claims in labs/NN-*/claims.tsv, its plots in labs/NN-*/harness/plots.gp
(gnuplot) where it has one. Beside a lab that did not run here stands what the course recorded
elsewhere: each recording tests/fixtures/labNN-SUFFIX.csv, named with the hardware that
tests/fixtures/machines.tsv gives its SUFFIX. With NVBANDWIDTH (nvbandwidth's binary),
nvbandwidth's host-link testcases run before the labs and after them (data/nvbandwidth-*.json);
their rows (data/nvbandwidth.csv) stand beside the labs' in each lab's report section that
knows them, as a recording's own runs (labNN-SUFFIX.nvbandwidth-*.json) stand beside it.

The new report replaces the old one only once complete: interrupted, the old one stays as it
was. Exit status 1 when a lab (or the drawing of its plots) failed, else 0; 130 interrupted.
Each option's default comes from the environment variable make run sets (in brackets).
"""

import argparse
import os
import shutil
import signal
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(1, os.path.join(os.path.dirname(HERE), "lib"))  # tools/lib/: the readers shared with other tools

import lab_runs  # noqa: E402
import ledger  # noqa: E402
import page  # noqa: E402
import result_rows  # noqa: E402


class Interrupted(Exception):
    pass


def interrupted(signum, frame):
    raise Interrupted()


def options(argv):
    parser = argparse.ArgumentParser(
        prog="run_report.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    env = os.environ.get
    parser.add_argument("--build", default=env("BUILD") or "build",
                        help="the build folder, relative to the repository [BUILD]")
    parser.add_argument("--report-dir", default=env("REPORT_DIR") or None,
                        help="where the report goes [REPORT_DIR; default BUILD/report]")
    student_tree = not os.path.isdir(os.path.join(ROOT, "solutions"))  # it has no reference
    parser.add_argument("--variant", choices=["ref", "student"],
                        default=env("RUN_BUILD") or ("student" if student_tree else "ref"),
                        help="whose programs run: the reference solutions or the student's "
                             "[RUN_BUILD]")
    parser.add_argument("--quick", action="store_true", default=env("REPORT_QUICK") == "1",
                        help="run the labs in their quick form [REPORT_QUICK=1]")
    parser.add_argument("--nvbandwidth", default=env("NVBANDWIDTH") or "", metavar="BINARY",
                        help="run nvbandwidth's host-link testcases too [NVBANDWIDTH]")
    args = parser.parse_args(argv)
    if args.variant not in ("ref", "student"):  # RUN_BUILD, which argparse does not check
        parser.error(f"RUN_BUILD is ref or student, not '{args.variant}'")
    args.report_dir = args.report_dir or os.path.join(args.build, "report")
    return args


def gpus_here(labs):
    """This machine's GPUs, as "N× NAME", from the first result file with rows ("no
    GPU" when none has any); "" when no lab ran."""
    if not labs:
        return ""
    return result_rows.gpus_label(next((lab.rows for lab in labs if lab.rows), []))


def write(run):
    """Run the labs and write the whole report into the work folder; its exit status."""
    lab_runs.nvbandwidth(run, "before")
    labs = [lab_runs.run_lab(run, program) for program in lab_runs.programs(run)]
    lab_runs.nvbandwidth(run, "after")
    beside_here = lab_runs.nvbandwidth_here(run)
    claims = ledger.claims(run, labs)
    recorded = ledger.recorded(run, labs)
    text = page.page(run, labs, gpus_here(labs), beside_here, claims, recorded)
    with open(os.path.join(run.work, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return 1 if run.failed else 0


def main(argv):
    args = options(argv)
    os.chdir(ROOT)
    run = lab_runs.Run(build=args.build, variant=args.variant, report_dir=args.report_dir,
                       work=f"{args.report_dir}.tmp.{os.getpid()}", quick=args.quick,
                       nvbandwidth=args.nvbandwidth)
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    try:
        shutil.rmtree(run.work, ignore_errors=True)
        os.makedirs(os.path.join(run.work, "data"))
        status = write(run)
        shutil.rmtree(run.report_dir, ignore_errors=True)
        os.rename(run.work, run.report_dir)
    except Interrupted:
        print(f"\nrun: interrupted; {run.report_dir} is left as it was", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the cleaning up is not interrupted
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        shutil.rmtree(run.work, ignore_errors=True)
    run.say(f"report: {run.report_dir}/report.md")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
