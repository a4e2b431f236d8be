#!/usr/bin/env python3
"""Checks of the Chinese handouts (labs/*/README.zh-CN.md), one line per fault.

    zh-handout-check.py [CHAPTER.txt]

- each links the glossary, labs/glossary.zh-CN.tsv, and uses none of its
  avoided spellings outside the chapter's words, code and program output;
- every heading, every table header cell and every shell comment has Chinese
  in it (code, names and numbers alone are left as they are);
- with CHAPTER.txt: every quote of the chapter (a > block, or 「…」) is in the
  chapter word for word (spaces aside; … marks an omission), and so is any
  longer Chinese text in quotation marks, which would otherwise read as one.
Exit 1 when anything is wrong.
"""

import csv
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GLOSSARY = os.path.join(ROOT, "labs", "glossary.zh-CN.tsv")
CJK = re.compile(r"[\u4e00-\u9fff]")
GENERATED = re.compile(r"<!-- fill: .*? -->\n.*?<!-- /fill -->", re.S)
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def squeeze(text):
    return re.sub(r"\s+", "", text)


def glossary():
    with open(GLOSSARY, newline="") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    head, body = rows[0], rows[1:]
    if head[:4] != ["english", "中文", "avoid", "note"]:
        sys.exit(f"{GLOSSARY}: the header is not english, 中文, avoid, note")
    return body


def prose(text):
    """The handout's own words: no code, no program output, no chapter quotes."""
    text = GENERATED.sub("", text)
    text = FENCE.sub("", text)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"「[^」]*」", "", text)
    return "\n".join(l for l in text.splitlines() if not l.startswith(">"))


def quotes(text):
    """Quotes of the chapter: > blocks (their Chinese part), 「…」, long "…"."""
    text = FENCE.sub("", GENERATED.sub("", text))
    found = []
    for block in re.findall(r"(?:^>.*\n?)+", text, re.M):
        for para in re.split(r"^>\s*$", block, flags=re.M):
            para = " ".join(l.lstrip("> ") for l in para.splitlines()).strip()
            if para:
                found.append(para.split(" — ")[0])
    outside = "\n".join(l for l in text.splitlines() if not l.startswith(">"))
    found += re.findall(r"「([^」]+)」", outside)
    for q in re.findall(r"“([^”\n]+)”|\"([^\"\n]+)\"", outside):
        q = q[0] or q[1]
        if len(CJK.findall(q)) >= 8:
            found.append(q)
    return found


def check(path, terms, chapter):
    rel = os.path.relpath(path, ROOT)
    with open(path) as f:
        text = f.read()
    bad = []
    if "glossary.zh-CN.tsv" not in text:
        bad.append(f"{rel}: does not link the glossary (labs/glossary.zh-CN.tsv)")
    own = squeeze(prose(text))
    for english, zh, avoid, _ in terms:
        for word in filter(None, avoid.split("|")):
            if squeeze(word) in own:
                bad.append(f"{rel}: '{word}' is not the glossary's word for '{english}' (use {zh})")
    body = FENCE.sub("", GENERATED.sub("", text))
    for line in body.splitlines():
        if line.startswith("#") and not CJK.search(line):
            bad.append(f"{rel}: heading not translated: {line}")
    lines = body.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("|") and re.match(r"^\|[\s:|-]+\|$", lines[i + 1]):
            for cell in line.strip("|").split("|"):
                cell = re.sub(r"`[^`]*`", "", cell).strip()
                if re.search(r"[A-Za-z]{3,}", cell) and not CJK.search(cell):
                    bad.append(f"{rel}: table header not translated: '{cell}'")
    for block in re.findall(r"^```(?:sh|bash|console)\n(.*?)^```", GENERATED.sub("", text), re.S | re.M):
        for line in block.splitlines():
            m = re.search(r"(?:^|\s)#\s*(.*)$", line)
            if m and not CJK.search(m.group(1)):
                bad.append(f"{rel}: shell comment not translated: {line.strip()}")
    if chapter is not None:
        for q in quotes(text):
            for part in q.split("…"):
                part = squeeze(part.replace("`", ""))
                if part and part not in chapter:
                    bad.append(f"{rel}: not the chapter's words: {part[:60]}")
    return bad


def main(argv):
    chapter = None
    if len(argv) > 1:
        with open(argv[1]) as f:
            chapter = squeeze(f.read())
    terms = glossary()
    bad = []
    for path in sorted(glob.glob(os.path.join(ROOT, "labs", "[0-9][0-9]-*", "README.zh-CN.md"))):
        bad += check(path, terms, chapter)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
