"""The labs' host tools (BUILD/host/NN-name, common/host_tool_main.c), called for make run's
report: a lab's verdicts and its report section, recomputed from a result file with no GPU.
A recording is said to be one with --recording: the tool then calls the machine that made it
"that machine", this report's machine being another.
"""

import os
import subprocess

import result_rows


def path(run, lab):
    """The lab's host tool, or None where the build has none."""
    tool = os.path.join(run.build, "host", lab)
    return tool if os.path.isfile(tool) and os.access(tool, os.X_OK) else None


def recording_flag(recording):
    return ["--recording"] if recording else []


def verdicts(tool, rows_file, errors, recording=False):
    """The claim rows the tool judges from ROWS_FILE; what it says on stderr goes to the file
    ERRORS (appended). None when it fails."""
    with open(errors, "ab") as err:
        done = subprocess.run([tool, *recording_flag(recording), "verdicts", rows_file],
                              stdout=subprocess.PIPE, stderr=err, text=True, errors="replace")
    if done.returncode != 0:
        return None
    try:
        return result_rows.of(result_rows.parse(done.stdout, f"{tool} verdicts {rows_file}"),
                              "claim")
    except result_rows.NotRows as e:
        with open(errors, "a", encoding="utf-8") as err:
            print(e, file=err)
        return None


def report(tool, rows_file, beside=(), recording=False):
    """The lab's report section (Markdown) of ROWS_FILE, with the rows of BESIDE set beside;
    what the tool says on stderr goes to make run's stderr."""
    done = subprocess.run([tool, *recording_flag(recording), "report", rows_file, *beside],
                          stdout=subprocess.PIPE, text=True, errors="replace")
    return done.stdout
