"""The claims' verdicts and headlines, and the tables of them: the kinds verdicts, claim,
verdictcell, scoreboard, untested, scoreboard-more and name of tools/lib/fill.py (whose docstring
lists every kind).

A verdict is the one the lab's host tool computes from a recording; a headline is its lab's
headlines.tsv template over the figures the judge named. The verdicts, figures, headlines and
claim names read so far are kept here.

labs/NN-name/headlines.tsv, tab-separated under its header "claim, headline": a template over
the figures the claim's judge names (lab_figure() in harness/verdicts.c; `build/host/NN-name
figures FILE` lists them). {name} shows a figure as the claim's sentence prints it; {pct(a,b)}
shows figure a as a share of figure b (a percentage, not two long counts). Lines of one claim are
tried in order and the first whose figures the claim all named is shown; a measured verdict with
no such line stops the filler, naming the claim and the figures it lacks. A figure of the
chapter's appears in a headline only after "not".
"""

import glob
import os
import re

import host_tools
from fill_recordings import MACHINES, NOT_RECORDED, ROOT, FillError, fixture_file, fixture_path, lab_nn, recorded

VERDICT_WORDS = {"holds": "holds", "does_not_hold": "does not hold",
                 "untested": "cannot be tested here"}

_verdict_cache = {}
_figure_cache = {}


def verdicts(nn, fix):
    """{claim id: (verdict, detail, section)} as the lab's host tool computes them."""
    key = (nn, fix)
    if key not in _verdict_cache:
        try:
            found = host_tools.verdicts(nn, fixture_path(fix))
        except host_tools.Failed as e:
            raise FillError(str(e))
        _verdict_cache[key] = {r["variant"]: (r["value"], r["detail"], r["mode"]) for r in found}
    return _verdict_cache[key]


def verdicts_part(doc, fix):
    """Every claim's verdict on FIX with its sentence, a line each."""
    fixture_path(fix, doc)
    table = verdicts(lab_nn(fix), fix)
    if not table:
        raise FillError(f"no claim in the verdicts of {fix}.csv")
    return "\n".join(f"{cid}: {v}: {detail}" for cid, (v, detail, _) in table.items())


def figures(nn, fix, cid):
    """{figure name: value} of claim CID on FIX: the figures its verdict rests on, as the lab's
    host tool prints them ($BUILD/host/NN-name figures FILE), each the number in its sentence."""
    key = (nn, fix)
    if key not in _figure_cache:
        try:
            _figure_cache[key] = host_tools.figures(nn, fixture_path(fix))
        except host_tools.Failed as e:
            raise FillError(str(e))
    return _figure_cache[key].get(cid, {})


def lab_tables(name):
    """(NN, path) of each lab's table NAME (labs/NN-name/NAME), in the labs' order."""
    labs = sorted(glob.glob(os.path.join(ROOT, "labs", "[0-9][0-9]-*", name)))
    return [(os.path.basename(os.path.dirname(p))[:2], p) for p in labs]


def table_rows(path, header, numbered=False):
    """The rows of a tab-separated table under its HEADER line (a list of column names):
    comments (#) and blank lines left out; a row of another width is an error. NUMBERED: each
    row with "path:line" last."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if line.startswith("#") or not line.strip() or parts == header:
                continue
            if len(parts) != len(header):
                raise FillError(f"{path}:{n}: want {', '.join(header)} (tabs)")
            out.append(parts + [f"{os.path.relpath(path, ROOT)}:{n}"] if numbered else parts)
    return out


# In a headline: {name} shows the figure NAME; {pct(A,B)} shows figure A as a share of figure B
# (a count of a count), the span keeping both so that tools/slides/slides-numbers.py can check it.
FIGURE_REF = re.compile(r"\{(?:pct\(([a-z0-9_]+),([a-z0-9_]+)\)|([a-z0-9_]+))\}")


def named_figures(template):
    """The figure names TEMPLATE shows, in order."""
    return [n for m in FIGURE_REF.finditer(template) for n in m.groups() if n]


def share(part, whole):
    """PART as a percentage of WHOLE (two figures' text), with both kept in the span."""
    try:
        p, w = float(part), float(whole)
    except ValueError:
        p, w = 0.0, 0.0
    if w <= 0:
        raise FillError(f"pct({part},{whole}): not a share of a positive whole")
    return f'<span class="pct" data-of="{part}/{whole}">{100.0 * p / w:.0f}%</span>'


def render(template, figs, where):
    """TEMPLATE with its figures put in, escaped for HTML; a brace that is not a figure's is an
    error naming WHERE (the headlines.tsv line)."""
    rest = FIGURE_REF.sub("", template)
    if "{" in rest or "}" in rest:
        raise FillError(f"{where}: '{template}': a brace that is not {{figure}} or {{pct(a,b)}}")
    out, pos = [], 0
    for m in FIGURE_REF.finditer(template):
        out.append(esc(template[pos:m.start()]))
        out.append(esc(figs[m.group(3)]) if m.group(3) else share(figs[m.group(1)], figs[m.group(2)]))
        pos = m.end()
    return "".join(out) + esc(template[pos:])


_headlines = None


def headline(cid, figs, fix):
    """The headline of claim CID from its figures FIGS on FIX: the first of its lab's
    headlines.tsv lines (claim, headline template) whose figures it all named."""
    global _headlines
    if _headlines is None:
        _headlines = [(c, fmt, where) for _, path in lab_tables("headlines.tsv")
                      for c, fmt, where in table_rows(path, ["claim", "headline"], numbered=True)]
    lines = [(fmt, where) for c, fmt, where in _headlines if c == cid]
    if not lines:
        raise FillError(f"claim {cid}: no line of its lab's headlines.tsv (labs/NN-name/) gives its headline")
    for fmt, where in lines:
        if all(n in figs for n in named_figures(fmt)):
            return render(fmt, figs, where)
    lacking = "; ".join(f"{where}: {', '.join(n for n in named_figures(fmt) if n not in figs)}"
                        for fmt, where in lines)
    raise FillError(f"claim {cid}: its headline names a figure the claim did not emit on {fix}.csv "
                    f"({lacking}; it emitted: {', '.join(figs) or 'none'})")


def badge(verdict):
    if verdict not in VERDICT_WORDS:
        raise FillError(f"unknown verdict '{verdict}'")
    return f'<span class="badge {verdict}">{VERDICT_WORDS[verdict]}</span>'


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def note(text):
    """TEXT as a speaker note (an HTML comment, which Marp shows in the presenter view)."""
    return "<!--\n" + text.replace("--", "–") + "\n-->"


def recorded_machines(nn):
    """The suffixes of the machines lab NN has a recording of, in machines.tsv's order."""
    found = [suffix for suffix, _ in MACHINES if recorded(f"lab{nn}-{suffix}")]
    if not found:
        raise FillError(f"lab {nn} has no recording on any machine of tests/fixtures/machines.tsv "
                        f"(tests/fixtures/lab{nn}-SUFFIX.csv)")
    return found


def claim_verdicts(nn, cid):
    """[(suffix, machine, verdict, detail)] of claim CID on every machine of machines.tsv;
    verdict and detail None on a machine lab NN has no recording of."""
    recorded_machines(nn)
    out = []
    for suffix, name in MACHINES:
        fix = f"lab{nn}-{suffix}"
        if not recorded(fix):
            out.append((suffix, name, None, None))
            continue
        table = verdicts(nn, fix)
        if cid not in table:
            raise FillError(f"claim {cid}: the host tool of lab {nn} gives no verdict for it on {fix}.csv")
        out.append((suffix, name, table[cid][0], table[cid][1]))
    return out


def untested_everywhere(nn, cid):
    """No recording of lab NN tests claim CID (machines without a recording left out)."""
    return all(v in (None, "untested") for _, _, v, _ in claim_verdicts(nn, cid))


def machine_note(nn, suffix, name, detail):
    """One machine's line of a claim's speaker notes."""
    fix = f"lab{nn}-{suffix}"
    if detail is None:
        return f"{name}: {NOT_RECORDED} ({fix}.csv does not exist)"
    return f"{name} ({fix}.csv): {detail}"


def claim(doc, nn, cid):
    found = claim_verdicts(nn, cid)
    if untested_everywhere(nn, cid):
        raise FillError(f"claim {cid}: no recording can test it; it belongs in {{{{untested {nn}}}}}, "
                        f"not on a page of its own")
    lines = ['<div class="verdicts">']
    notes = []
    for suffix, name, v, detail in found:
        fix = f"lab{nn}-{suffix}"
        notes.append(machine_note(nn, suffix, name, detail))
        if v is None:
            lines.append(f'<div class="verdict" data-claim="{cid}" data-run="{fix}"><span class="hw">{name}</span> '
                         f'<span class="na">{NOT_RECORDED}</span></div>')
            continue
        head = headline(cid, figures(nn, fix, cid), fix) if v != "untested" else ""
        lines.append(f'<div class="verdict" data-claim="{cid}" data-run="{fix}"><span class="hw">{name}</span> '
                     f'{badge(v)} <span class="big">{head}</span></div>')
    lines.append("</div>")
    lines.append("")
    lines.append(note("\n\n".join(notes)))
    return "\n".join(lines)


def verdict_cell(doc, fix, cid):
    fixture_file(fix, doc)
    nn = lab_nn(fix)
    if not recorded(fix):
        recorded_machines(nn)
        return f'<span class="na" title="{NOT_RECORDED}">no recording yet</span>'
    table = verdicts(nn, fix)
    if cid not in table:
        raise FillError(f"claim {cid} of lab {nn} has no verdict on {fix}.csv")
    v, _, _ = table[cid]
    if v == "untested":
        return '<span class="na" title="cannot be tested on this machine">–</span>'
    return f"{badge(v)} {headline(cid, figures(nn, fix, cid), fix)}".strip()


_names = None


def claim_name(nn, cid):
    """Claim CID's name in plain English: its lab's labs/NN-name/claim-names.tsv (claim, name)."""
    global _names
    if _names is None:
        _names = {(lab, c): name for lab, path in lab_tables("claim-names.tsv")
                  for c, name in table_rows(path, ["claim", "name"])}
    if (nn, cid) not in _names:
        raise FillError(f"claim {cid} of lab {nn} has no name in labs/{nn}-*/claim-names.tsv")
    return _names[(nn, cid)]


def lab_claims(spec):
    """[(nn, claim id, section)] of a lab spec NN or NN:A-B (claims A to B, from 1)."""
    nn, _, span = spec.partition(":")
    first = verdicts(nn, f"lab{nn}-{recorded_machines(nn)[0]}")
    lo, _, hi = span.partition("-")
    if span and not (lo.isdigit() and hi.isdigit() and 1 <= int(lo) <= int(hi)):
        raise FillError(f"{spec}: the span must be A-B with 1 <= A <= B")
    items = list(first.items())
    if span:
        items = items[int(lo) - 1:int(hi)]
    return [(nn, cid, section) for cid, (_, _, section) in items]


def scoreboard(doc, *labs):
    out = ["| lab | claim | § | " + " | ".join(name for _, name in MACHINES) + " |",
           "| --- | --- | --- | " + " | ".join("---" for _ in MACHINES) + " |"]
    for nn, cid, section in [c for spec in labs for c in lab_claims(spec)]:
        if untested_everywhere(nn, cid):
            continue
        cells = [verdict_cell(doc, f"lab{nn}-{suffix}", cid) for suffix, _ in MACHINES]
        out.append(f'| {nn} | <span data-claim="{cid}">{esc(claim_name(nn, cid))}</span> | {section} | '
                   + " | ".join(cells) + " |")
    return "\n".join(out)


def first_clause(reason):
    """The reason a claim cannot be tested, up to its first sentence's end."""
    return re.split(r"\. ", reason, maxsplit=1)[0].rstrip(".")


def untested(doc, *labs):
    """One table of the claims no recording can test; every machine's reason in the notes."""
    out = ["| lab | claim | § | why no recording tests it |", "| --- | --- | --- | --- |"]
    notes = []
    for nn, cid, section in [c for spec in labs for c in lab_claims(spec)]:
        if not untested_everywhere(nn, cid):
            continue
        found = claim_verdicts(nn, cid)
        reason = next(d for _, _, v, d in found if v is not None)
        out.append(f'| {nn} | <span data-claim="{cid}">{esc(claim_name(nn, cid))}</span> | {section} | '
                   f"{esc(first_clause(reason))} |")
        notes.append(f"{claim_name(nn, cid)}: " + " / ".join(machine_note(nn, sfx, hw, d) for sfx, hw, _, d in found))
    if not notes:
        raise FillError(f"untested {' '.join(labs)}: every claim of these labs is tested by some recording")
    return "\n".join(out) + "\n\n" + note("\n\n".join(notes))


def scoreboard_more(doc):
    """The pages for the recorded labs that no scoreboard or untested placeholder of DOC names
    (a lab added since the deck was written): a page each, or nothing."""
    named = {spec.partition(":")[0] for kind, pos, _ in doc.placeholders()
             if kind in ("scoreboard", "untested") for spec in pos}
    labs = sorted(os.path.basename(d)[:2] for d in glob.glob(os.path.join(ROOT, "labs", "[0-9][0-9]-*")))
    pages = []
    for nn in labs:
        if nn in named or not any(recorded(f"lab{nn}-{suffix}") for suffix, _ in MACHINES):
            continue
        ids = [cid for _, cid, _ in lab_claims(nn)]
        untested_ids = [c for c in ids if untested_everywhere(nn, c)]
        parts = [scoreboard(doc, nn)] if len(untested_ids) < len(ids) else []
        if untested_ids:
            parts.append(untested(doc, nn))
        pages.append("\n".join(["---", "", "<!-- _class: table -->", "", f"## Scoreboard: lab {nn}", ""] +
                               [p + "\n" for p in parts] +
                               ["– : that machine cannot test the claim; no recording yet: this lab has no "
                                "recording on that machine yet", "",
                                note(f"Lab {nn}'s claims, judged by its host tool on its recordings: the "
                                     "pages above do not name this lab, so this page is made for it.")]))
    return "\n\n".join(pages)


def name_part(doc, nn, cid):
    return f'"{esc(claim_name(nn, cid))}"'

