"""The one filler of the handouts and the decks: placeholders become what the recordings give.

A handout (labs/NN-name/README.md, README.zh-CN.md, the top README.md) and a lecture deck
(slides/NN-name.md) write no measured number, verdict or version by hand: each comes from a
placeholder, "KIND ARGS", read by one parser and filled by one table of kinds (KINDS below).
Only the wrapper differs by kind of document:

  handout   <!-- fill: KIND ARGS -->            filled in place (fill_handouts.py); the comment pair
            ... generated text ...              stays, the text between is rewritten
            <!-- /fill -->
  deck      {{KIND ARGS}}                       filled into a copy (deck()): Marp shows HTML
                                                comments as speaker notes, so braces there

ARGS are words; 'quoted words' stay whole (a REGEX), an unquoted key=value is an option. FIX
names a recording, labNN-SUFFIX (tests/fixtures/labNN-SUFFIX.csv, made on the machine of row
SUFFIX of tests/fixtures/machines.tsv, with the command of labNN-SUFFIX.cmd); in a lab's
handout it must be of that lab. NN is a lab's number.

  machine FIX hw          the hardware FIX was recorded on: GPUs and link (machines.tsv's row)
  machine FIX versions    the CUDA and driver versions FIX's machine,cuda row records, with the
                          file's name; what it lacks is left out (no recording yet: says so)
  machine FIX caption     where, when and with what command FIX was recorded, in a sentence
                          (and, for a recording converted from an earlier program, which claims
                          that leaves untested)
  recorded-on NN          "Recorded on" every machine of machines.tsv, each with its hw and
                          versions of lab NN's recording there
  report FIX [REGEX]      the lab's report of FIX ($BUILD/host/NN-name report FILE, with the
                          nvbandwidth runs recorded beside it), its headings as bold lines; with
                          REGEX only the block (up to a blank line) that starts at the first
                          line matching it
  rows FIX REGEX [cols=a,b]
                          the rows of FIX whose line matches REGEX: "EXPERIMENT VARIANT, GPU
                          SRC -> DST: VALUE (DETAIL)" each, or with cols= those columns, as CSV
  num FIX COL key=val ... [fmt=%.1f] [scale=X]
                          column COL of the one row of FIX that matches every key=val
  verdicts FIX            the claims' verdicts ($BUILD/host/NN-name verdicts FILE): "claim:
                          verdict: sentence" each
  claim NN ID             the verdict of claim ID on every machine: badge and headline, the host
                          tool's sentences as speaker notes (a claim no recording can test
                          belongs in untested instead)
  verdictcell FIX ID      one badge and headline of claim ID on FIX
  scoreboard NN[:A-B] ... a table of the claims of those labs that some recording tests (A-B:
                          only claims A to B, counted from 1, for a long lab)
  untested NN ...         one table of the claims of those labs that no recording can test
  scoreboard-more         a page for each recorded lab that no scoreboard or untested
                          placeholder of the document names (a lab added later), or nothing
  name NN ID              claim ID's name in plain English, quoted (labs/NN-name/claim-names.tsv)
  unrecorded FIX          the words for a machine lab NN has no recording of; an error once
                          FIX exists (show its numbers then)
  todo NN.K               the message the skeleton stops with at TODO NN.K: common/todo.c's
                          format, the file and line of its first LAB_TODO("NN.K")
  build-flags             how the student's files are compiled (the Makefile's flags)
  ledger SUFFIX           how many of the chapter's claims the recordings labNN-SUFFIX judge,
                          and on what
  other-recordings        every recording of the document's lab whose machine no placeholder of
                          the document cites: a heading naming the machine, then its caption,
                          report and verdicts; in a document of no lab (README.md), the ledger
                          of every machine with recordings and no ledger part; nothing if none

In a handout every part is whole lines: rows and verdicts are shown as a ```text block, and so
is the (English) report in a Chinese handout. A part of a recording not made yet (a new lab)
says so in the handout's language; in a deck a number of a missing recording is an error, while
machine, claim, verdictcell, scoreboard and untested say "no recording of this lab on that
machine yet". Verdicts and headlines are the ones the labs' host tools compute from the rows,
never the document's text: a headline is its lab's headlines.tsv template over the figures the
judge named ($BUILD/host/NN-name figures FILE). Any placeholder that cannot be filled (an
unknown kind, a missing fixture, a claim with no headline figure) is an error naming the file,
line and placeholder; nothing is written then.

BUILD (default build) is where the host tools are; FIXTURES (default tests/fixtures) the
recordings.

This module is the vocabulary, its parser and the two kinds of document; each kind is filled by
a module of its own beside it (tools/lib/): fill_recordings.py (machine, recorded-on,
unrecorded; the recordings and machines every module shares), fill_rows.py (report, rows, num),
fill_claims.py (verdicts, claim, verdictcell, scoreboard, untested, scoreboard-more, name),
fill_todo.py (todo), fill_ledger.py (build-flags, ledger, other-recordings); fill_handouts.py
finds the handouts, fills them and checks them (tools/authoring/handout-numbers.py).
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/: the tree stays clean
from fill_recordings import ROOT, FillError, NotRecorded, machine, recorded_on, unrecorded  # noqa: E402
from fill_rows import num_part, report, rows_part  # noqa: E402
from fill_claims import (claim, name_part, scoreboard, scoreboard_more, untested,  # noqa: E402
                         verdict_cell, verdicts_part)
from fill_todo import todo  # noqa: E402
from fill_ledger import build_flags, ledger, other_recordings  # noqa: E402


# ---- the vocabulary ----------------------------------------------------------------------------

class Kind:
    """A kind of placeholder: its handler (DOC, then the words), how many words it takes
    (LEAST to MOST, None: no bound), the options it takes (a set; None: any, as a num's
    filters), and TEXT: what it gives is plain lines, shown as a text block in a handout."""

    def __init__(self, handler, least, most, options=frozenset(), text=False):
        self.handler, self.least, self.most = handler, least, most
        self.options, self.text = options, text


KINDS = {
    "machine": Kind(machine, 2, 2),
    "recorded-on": Kind(recorded_on, 1, 1),
    "report": Kind(report, 1, 2),
    "rows": Kind(rows_part, 2, 2, {"cols"}, text=True),
    "num": Kind(num_part, 2, 2, None),
    "verdicts": Kind(verdicts_part, 1, 1, text=True),
    "claim": Kind(claim, 2, 2),
    "verdictcell": Kind(verdict_cell, 2, 2),
    "scoreboard": Kind(scoreboard, 1, None),
    "untested": Kind(untested, 1, None),
    "scoreboard-more": Kind(scoreboard_more, 0, 0),
    "name": Kind(name_part, 2, 2),
    "unrecorded": Kind(unrecorded, 1, 1),
    "todo": Kind(todo, 1, 1),
    "build-flags": Kind(build_flags, 0, 0),
    "ledger": Kind(ledger, 1, 1),
    "other-recordings": Kind(other_recordings, 0, 0),
}


def parse(body):
    """(KIND, words, options) of a placeholder's BODY, "KIND ARGS": words split on spaces,
    'quoted words' kept whole, an unquoted key=value an option."""
    tokens = re.findall(r"'[^']*'|\S+", body)
    if not tokens:
        raise FillError("an empty placeholder")
    words, options = [], {}
    for t in tokens[1:]:
        key, eq, value = t.partition("=")
        if t.startswith("'"):
            words.append(t[1:-1])
        elif eq and re.fullmatch(r"[a-z_]+", key):
            options[key] = value
        else:
            words.append(t)
    return tokens[0], words, options


def expand(doc, kind, words, options):
    """What the placeholder KIND WORDS OPTIONS gives in DOC."""
    k = KINDS.get(kind)
    if k is None:
        raise FillError(f"unknown kind '{kind}' (one of {', '.join(KINDS)})")
    if len(words) < k.least or (k.most is not None and len(words) > k.most):
        most = "or more" if k.most is None else f"to {k.most}"
        raise FillError(f"'{kind}' takes {k.least}{'' if k.most == k.least else ' ' + most} words, not {len(words)}")
    bad = [o for o in options if k.options is not None and o not in k.options]
    if bad:
        raise FillError(f"'{kind}' takes no option {', '.join(bad)}")
    return k.handler(doc, *words, **options)


# ---- documents -------------------------------------------------------------------------------

class Doc:
    """A document to fill: PATH, its TEXT, and whether it is a HANDOUT (filled in place) or a
    deck. A lab's handout (labs/NN-name/) cites that lab's recordings only."""

    def __init__(self, path, text, handout):
        self.path, self.text, self.handout = path, text, handout
        self.zh = path.endswith(".zh-CN.md")
        folder = os.path.dirname(os.path.abspath(path))
        in_labs = os.path.basename(os.path.dirname(folder)) == "labs"
        self.lab = os.path.basename(folder) if handout and in_labs and re.match(r"\d\d-", os.path.basename(folder)) else None
        self.nn = self.lab[:2] if self.lab else None
        self.pattern = HANDOUT_PART if handout else DECK_PLACEHOLDER

    def placeholders(self):
        """(KIND, words, options) of every placeholder of the document; one that does not parse
        is left out (filling it says why)."""
        for m in self.pattern.finditer(self.text):
            try:
                yield parse(m.group("body"))
            except FillError:
                continue

    def part(self, kind, words, options=None):
        """What a placeholder gives, as this kind of document shows it: in a handout, plain text
        as a text block (so is the English report in a Chinese handout); a
        part of a recording not made yet says so."""
        try:
            text = expand(self, kind, words, options or {})
        except NotRecorded as e:
            if not self.handout:
                raise
            return not_recorded(e.fix, self.zh)
        if self.handout and (KINDS[kind].text or (kind == "report" and self.zh)):
            text = "```text\n" + text + "\n```"
        return text

    def fill(self):
        """(the filled text, errors): each error "PATH:LINE: PLACEHOLDER: why"."""
        errors = []

        def one(m):
            try:
                new = self.part(*parse(m.group("body")))
            except FillError as e:
                line = self.text.count("\n", 0, m.start()) + 1
                errors.append(f"{self.where()}:{line}: {m.group('head').strip()}: {e}")
                return m.group(0)
            if not self.handout:
                return new
            return m.group("head") + (new + "\n" if new else "") + m.group("tail")

        return self.pattern.sub(one, self.text), errors

    def where(self):
        return os.path.relpath(self.path, ROOT) if self.handout else self.path


# A handout's part: the comment naming it, the generated text, the closing comment.
HANDOUT_PART = re.compile(r"(?P<head><!-- fill: (?P<body>[^\n]*?) -->\n)(?P<text>.*?)(?P<tail><!-- /fill -->)", re.S)
# A deck's placeholder, on one line.
DECK_PLACEHOLDER = re.compile(r"(?P<head>\{\{(?P<body>[^\n]*?)\}\})(?P<tail>)")


def not_recorded(fix, zh):
    """What a handout's part says while its recording does not exist."""
    if zh:
        return (f"本实验在这台机器上尚无记录（`tests/fixtures/{fix}.csv` 还不存在）：记录之后，"
                f"`make handout-numbers` 会填写这一部分。")
    return (f"No recording of this lab yet (`tests/fixtures/{fix}.csv` does not exist): "
            f"`make handout-numbers` fills this part once it is recorded.")


def deck(path):
    """(the deck at PATH filled, errors)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out, errors = Doc(path, text, handout=False).fill()
    return out if out.endswith("\n") else out + "\n", errors

