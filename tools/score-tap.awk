# score-tap.awk: turn a Bats TAP stream into a scorecard.
#   awk -v rules="tests/points/lab01.tsv tests/points/lab02.tsv ..." -f tools/score-tap.awk tests.tap
# (summary.json is written from the JUnit file by tools/junit-summary.py)
# Test names start with the lab number ("01: ..."). Lines read:
#   "ok N NN: name"            passed
#   "ok N NN: name # skip why" skipped (no points)
#   "not ok N NN: name"        failed; the "# ..." lines after it give the hint:
#                              the unfinished TODO or the lab that does not
#                              build when there is one, else what the program
#                              said ("not ok CASE: got ..., expected ...") and
#                              the test's file:line, else that file:line.
# tools/junit-summary.py gives the same hints from the JUnit file.

    # A test's points are looked up by its id (its full name); a test the
    # table does not list earns none (tests/grading.bats keeps the table whole).
    function points(name) { return (name in pts) ? pts[name] : 0 }
    function finish_failure(   said, where) {
        said = (notok != "" ? notok : anysaid)
        where = (failline != "" ? failline : "the test's output in tests.tap")
        if (pending != "")
            hint[pending] = (hintline != "" ? hintline : said != "" ? said " (" where ")" : "see " where)
        pending = ""; hintline = ""; failline = ""; notok = ""; anysaid = ""
    }
    # A line as printed, less terminal colour codes and other control bytes.
    function plain(text) { gsub(/\033\[[0-9;]*[A-Za-z]/, "", text); gsub(/[\001-\010\013-\037]/, "", text); return text }
    BEGIN {
        nfiles = split(rules, files, " ")
        for (k = 1; k <= nfiles; k++)
            while ((getline line < files[k]) > 0) {
                if (line ~ /^#/ || line == "") continue
                split(line, f, "\t"); pts[f[1]] = f[2] + 0
            }
    }
    /^(ok|not ok) [0-9]+ / {
        finish_failure()
        failed = ($1 == "not")
        name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ # in [0-9]+ ?ms/, "", name)
        skipped = (name ~ / # skip/)
        reason = ""
        if (skipped) { reason = name; sub(/^.* # skip ?/, "", reason); sub(/ # skip.*$/, "", name) }
        lab = name; sub(/:.*$/, "", lab)
        n++; tlab[n] = lab; tname[n] = name
        tpts[n] = points(name)
        tstate[n] = failed ? "failed" : (skipped ? "skipped" : "passed")
        treason[n] = reason
        if (!(lab in seen)) { seen[lab] = 1; order[++nlabs] = lab }
        if (failed) pending = n
        next
    }
    /^# / && pending != "" {
        if ($0 ~ /^# *(unfinished: TODO|not built: )/) {
            h = $0; sub(/^# *(unfinished|not built): /, "", h); if (hintline == "") hintline = plain(h)
        }
        # Bats writes "(in test file F, line N)", or "#  in test file F, line N)"
        # after the helpers' lines when the check failed inside one.
        else if ($0 ~ /in test file / && failline == "") {
            failline = $0; sub(/^.*in test file /, "", failline); sub(/\)$/, "", failline); sub(/, line /, ":", failline)
        }
        # What the program said (tests/helpers/lab.bash: program_said).
        else if ($0 ~ /^# +\| /) {
            h = plain($0); sub(/^# +\| */, "", h)
            if (h ~ /^not ok / && notok == "") notok = h
            else if (anysaid == "" && h != "") anysaid = h
        }
        next
    }
    END {
        finish_failure()
        # A skipped test could not be checked on this machine: its points are
        # neither earned nor lost, and are listed apart.
        printf "%-6s %-14s %-12s %s\n", "lab", "tests passed", "points", "not checkable here"
        total = 0; max = 0; unchecked = 0
        for (k = 1; k <= nlabs; k++) {
            lab = order[k]; p = 0; t = 0; got = 0; possible = 0; away = 0
            for (i = 1; i <= n; i++) if (tlab[i] == lab) {
                t++
                if (tstate[i] == "skipped") { away += tpts[i]; continue }
                possible += tpts[i]
                if (tstate[i] == "passed") { p++; got += tpts[i] }
            }
            printf "%-6s %5d of %-5d %4d of %-4d %4d points\n", lab, p, t, got, possible, away
            total += got; max += possible; unchecked += away
        }
        printf "total  %18s %4d of %-4d %4d points\n", "", total, max, unchecked
        printed = 0
        for (i = 1; i <= n; i++) if (tstate[i] != "passed") {
            if (!printed) { print "\nNot passed:"; printed = 1 }
            printf "  [%s] %s (%d point%s)\n      %s\n", tstate[i], tname[i], tpts[i], tpts[i] == 1 ? "" : "s",
                tstate[i] == "skipped" ? "skipped: " treason[i] : hint[i]
        }
    }