# Helpers every test file loads: `load helpers/lab`.
#
# Which build the lab tests run against comes from LAB_BUILD: "ref" (the
# reference solutions, `make test`) or "student" (labs/, `make check`).

bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

REPO_ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
BUILD_DIR="${BUILD:-build}"
[[ "$BUILD_DIR" = /* ]] || BUILD_DIR="$REPO_ROOT/$BUILD_DIR"
# A student tree (no solutions/) has only the student's build.
if [ -d "$REPO_ROOT/solutions" ]; then LAB_BUILD="${LAB_BUILD:-ref}"; else LAB_BUILD="${LAB_BUILD:-student}"; fi
FIXTURES="$REPO_ROOT/tests/fixtures"
# The machines and their recordings (tests/fixtures/machines.tsv): recordings, recording ...
source "$(dirname "${BASH_SOURCE[0]}")/machines.bash"

# source_copy DIR: the course's own files (tools/authoring/source-files.sh) copied into DIR.
source_copy() {
    mkdir -p "$1"
    (cd "$REPO_ROOT" && tools/authoring/source-files.sh | xargs -0 cp --parents -t "$1")
}

# scratch_repo DIR: source_copy DIR, committed there as a git repository of its own (git status
# then shows what a step changed).
scratch_repo() {
    source_copy "$1"
    git -C "$1" init -q && git -C "$1" add -A &&
        git -C "$1" -c user.name=course -c user.email=course@localhost commit -qm course
}

# svg_words FILE: the text of an SVG's labels, a line each (Graphviz writes a - as &#45;).
svg_words() {
    grep -oE '<text[^>]*>[^<]*</text>' "$1" | sed -E 's/<[^>]*>//g; s/&#45;/-/g'
}

# built DIR NN: the path of lab NN's executable in DIR (bin, unit, host ...).
built() {
    local match
    for match in "$1/$2"-*; do
        [ -x "$match" ] && [ -f "$match" ] && { echo "$match"; return 0; }
    done
    echo "lab $2: nothing built in $1 (build it with 'make')" >&2
    return 1
}

# lab_unbuilt NN: true when `make grade` could not build lab NN (it lists
# such labs in $GRADE_UNBUILT: number, the compiler's first error); prints
# the hint "not built: lab NN does not build: FILE:LINE: error ...".
lab_unbuilt() {
    local why
    [ -n "${GRADE_UNBUILT:-}" ] && [ -f "$GRADE_UNBUILT" ] || return 1
    why=$(awk -F'\t' -v nn="$1" '$1 == nn { print $2; exit }' "$GRADE_UNBUILT")
    [ -n "$why" ] || return 1
    echo "not built: lab $1 does not build: $why"
}

# lab_program NN: the path of lab NN's program in the chosen build.
lab_program() {
    lab_unbuilt "$1" >&2 && return 1
    built "$BUILD_DIR/$LAB_BUILD/bin" "$1"
}

# unbuilt_gate NN: for a lab that did not build, end the test as the
# student's program would have on this machine: skipped where the machine
# lacks what the test needs (the reference build, when there is one, says
# so by exiting 77; without one, a machine with no GPU can run no lab),
# else failed with the compiler's error. A GPU test must not turn into a
# failure, and the maximum must not grow, because a binary is missing.
# ARGS... are the program's arguments; UNBUILT_ENV, a file of exports
# (capture's), is read for that run.
unbuilt_gate() {
    local nn=$1 why standin
    why=$(lab_unbuilt "$nn") || return 0
    shift
    if standin=$(built "$BUILD_DIR/ref/bin" "$nn" 2>/dev/null); then
        status=0
        output=$(
            [ -f "${UNBUILT_ENV:-}" ] && . "$UNBUILT_ENV"
            "$standin" "$@" 2>&1
        ) || status=$?
        skip_if_77
    elif [ "$(gpu_count)" = 0 ] || [ -z "$(gpu_count)" ]; then
        skip "needs a GPU, this machine has 0 (and lab $nn does not build)"
    fi
    fail "$why"
}

# gpu_count: how many GPUs this machine has (0 without a driver).
gpu_count() {
    "$BUILD_DIR/tools/gpu-query" count 2>/dev/null
}

# require_gpus N: skip the test, with the reason, when fewer than N GPUs exist.
require_gpus() {
    local have
    have=$(gpu_count)
    [ "${have:-0}" -ge "$1" ] || skip "needs $1 GPU(s), this machine has ${have:-0}"
}

# need_cjk_font: skip unless fontconfig knows a CJK font (make slides refuses
# to render the chapter's Chinese quotes without one).
need_cjk_font() {
    fc-list :lang=zh family 2>/dev/null | grep -qi CJK ||
        skip "no CJK font (Debian: sudo apt-get install fonts-noto-cjk)"
}

# require_p2p_pair: skip unless some pair of GPUs has peer access both ways;
# sets P2P_A and P2P_B to that pair.
require_p2p_pair() {
    require_gpus 2
    local pair
    pair=$("$BUILD_DIR/tools/gpu-query" pair) || skip "no P2P: $pair"
    read -r P2P_A P2P_B <<<"$pair"
}

# fail_if_todo: when the program stopped at an unfinished exercise step, fail
# with the TODO's own message (id and file:line), the hint a student needs.
# With LAB_TODO_SKIP=1 (the student tree's `make test`) the test is skipped
# instead, saying which TODO is not done yet: unfinished work is not a broken
# tree. `make check` and `make grade` fail it.
fail_if_todo() {
    local todo
    todo=$(grep -m1 -E '^TODO [0-9]+\.[0-9]+ is not done yet' <<<"$output" || true)
    [ -z "$todo" ] && return 0
    [ "${LAB_TODO_SKIP:-}" = 1 ] && skip "not done yet: $todo"
    fail "unfinished: $todo"
}

# stop_and_fail PID LOG WHY: a program started in the background (PID, its output in LOG) never
# got where the test waits for it: stop it, then fail with WHY and what it said, or, where it
# stopped at an unfinished TODO, do what fail_if_todo does.
stop_and_fail() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    output=$(cat "$2")
    fail_if_todo
    fail "$3: $output"
}

# todo_message ID FILE LINE: the line a program prints when it reaches the unfinished TODO ID
# at FILE:LINE (common/todo.c), for a test that finds an unfinished step without running it.
# tests/common.bats holds it to a skeleton's own line.
todo_message() {
    printf "TODO %s is not done yet (%s:%s): see TODO %s under The TODOs in the lab's handout\n" \
        "$1" "$2" "$3" "$1"
}

# skip_if_77: map the program's "skipped" exit to a Bats skip, with its reason.
skip_if_77() {
    if [ "$status" -eq 77 ]; then
        skip "$(grep -m1 ': skipped: ' <<<"$output" || grep -m1 'skipped' <<<"$output" || echo "program exit 77")"
    fi
}

# program_said STATUS TEXT: when STATUS is a failure (not 0, not 77), print
# the program's own error lines of TEXT ("not ok ...", "error", "expected",
# "failed" ...; else its last lines). A test's output is shown only when the
# test fails, so a failed check shows the student what the program said
# (e.g. "not ok check_size_overflow: got P2P_ERR_ZERO_SIZE, expected ..."),
# not only "expected 0, actual 1". A program killed by a signal (status
# 128+N) is said so, with the signal's name, first.
program_said() {
    local status=$1 text=$2 said how
    [ "$status" -eq 0 ] || [ "$status" -eq 77 ] && return 0
    said=$(grep -m8 -iE '^not ok|error|expected|failed|refused|mismatch|wrong|not verified|^SUMMARY: ' <<<"$text" || true)
    [ -n "$said" ] || said=$(tail -n 5 <<<"$text")
    how="exited $status"
    if signal_said "$status" >/dev/null; then
        how="was killed by $(signal_said "$status")"
        said="crashed: killed by $(signal_said "$status")"$'\n'"$said"
    fi
    printf 'the program %s and said:\n%s\n' "$how" "$(sed 's/^/  | /' <<<"$said")"
}

# signal_said STATUS: for a shell status 128+N of a program a signal killed,
# the signal's name and what it usually means, e.g. "SIGSEGV (signal 11:
# invalid memory access, e.g. a NULL or freed pointer)"; fails for any
# other status.
signal_said() {
    local n=$(($1 - 128)) name what
    [ "$n" -ge 1 ] && [ "$n" -le 64 ] || return 1
    name=$(kill -l "$n" 2>/dev/null) || return 1
    case $name in
    SEGV) what="invalid memory access, e.g. a NULL or freed pointer" ;;
    BUS) what="misaligned or unmapped memory access" ;;
    FPE) what="arithmetic fault, e.g. an integer division by zero" ;;
    ILL) what="illegal instruction" ;;
    ABRT) what="abort, e.g. a failed assert" ;;
    KILL) what="killed, e.g. out of memory or a time limit" ;;
    *) what="signal" ;;
    esac
    echo "SIG$name (signal $n: $what)"
}

# lab_run NN ARGS...: run lab NN's program (stdout and stderr together).
lab_run() {
    local program why
    why=$(lab_unbuilt "$1") && fail "$why"
    program=$(lab_program "$1") || fail "lab $1 is not built"
    shift
    run "$program" "$@"
    program_said "$status" "$output"
    fail_if_todo
}

# lab_run_gpu NN ARGS...: lab_run, then skip when the program says the
# machine lacks what it needs (exit 77).
lab_run_gpu() {
    unbuilt_gate "$@"
    lab_run "$@"
    skip_if_77
}

# capture NAME NN ARGS...: in setup_file, declare a run of lab NN's program
# that many tests read. It runs once, when a test first asks for it
# (captured NAME), so a filtered run (bats --filter, make mistakes) pays
# only for the runs its tests use. CUDA_VISIBLE_DEVICES, when set for the
# call, is kept for the run.
capture() {
    local name=$1 lab=$2 program base="$BATS_FILE_TMPDIR/$1"
    shift 2
    rm -f "$base.env" "$base.status" "$base.unbuilt"
    if lab_unbuilt "$lab" >/dev/null; then
        : >"$base.unbuilt" # the arguments, for unbuilt_gate when a test asks
        [ $# -eq 0 ] || printf '%q ' "$@" >"$base.unbuilt"
        echo "$lab" >"$base.lab"
        return 0
    fi
    program=$(lab_program "$lab") || return 0
    printf '%q ' "$program" "$@" >"$base.cmd"
    if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
        printf 'export CUDA_VISIBLE_DEVICES=%q\n' "$CUDA_VISIBLE_DEVICES" >"$base.env"
    fi
}

# run_capture NAME: run what capture NAME declared; keep its stdout, stderr
# and status under $BATS_FILE_TMPDIR.
run_capture() {
    local base="$BATS_FILE_TMPDIR/$1" rc=0
    (
        [ -f "$base.env" ] && . "$base.env"
        eval "$(cat "$base.cmd")"
    ) >"$base.out" 2>"$base.err" || rc=$?
    echo "$rc" >"$base.status"
}

# captured NAME: load what capture NAME kept into $output (stdout), $stderr
# and $status, running it first if no test has yet; skip on 77, fail on an
# unfinished TODO or a missing program.
captured() {
    local base="$BATS_FILE_TMPDIR/$1"
    if [ -f "$base.unbuilt" ]; then
        eval "set -- $(cat "$base.unbuilt")"
        UNBUILT_ENV="$base.env" unbuilt_gate "$(cat "$base.lab")" "$@"
    fi
    [ -f "$base.status" ] || { [ -f "$base.cmd" ] && run_capture "$1"; }
    [ -f "$base.status" ] || fail "the program was not run (is it built?)"
    output=$(cat "$base.out")
    stderr=$(cat "$base.err")
    status=$(cat "$base.status")
    CAPTURED_CSV="$base.out"
    mapfile -t lines <<<"$output" # as `run` leaves them, for assert_line
    program_said "$status" "$stderr"$'\n'"$(grep -m8 '^not ok' "$base.out" || true)"
    skip_if_77
    local saved=$output
    output="$stderr"
    fail_if_todo
    output=$saved
}

# float_ok A OP B: numeric comparison of decimals (awk), e.g. float_ok "$x" '>' 0
float_ok() {
    awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
        if (a !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ || b !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) exit 2
        if (op == ">")  exit !(a + 0 >  b + 0)
        if (op == ">=") exit !(a + 0 >= b + 0)
        if (op == "<")  exit !(a + 0 <  b + 0)
        if (op == "<=") exit !(a + 0 <= b + 0)
        exit 2 }'
}

# assert_float A OP B: float_ok with a message naming the values.
assert_float() {
    float_ok "$@" || fail "expected $1 $2 $3"
}

# rows_awk [-v VAR=VALUE...] PROGRAM [FILE...]: run the awk PROGRAM over result
# files (or stdin): CSV whose line 1 is a header of column names, such as
# tests/fixtures/rows-header.csv (-F SEP, among the -v, for another table with a
# header line, e.g. a TSV). The one way tests and checkers read result rows: by
# column name, never by number. PROGRAM sees every line but the
# headers; in it f(name) is the row's field of that column, set(name, value)
# changes it (print joins the fields with commas again), and file counts the
# files (1 while the first is read). A name that is not in the header stops
# awk with status 2, saying so on stderr: a typo never reads an empty column.
rows_awk() { rows_run "" "$@"; }

# rows_edit [-v VAR=VALUE...] PROGRAM FILE...: FILE again, header and every
# row, each row printed after PROGRAM (as rows_awk runs it) has run on it:
# set(name, value) in PROGRAM edits it, e.g. a time made slower for a test.
rows_edit() { rows_run "{ print }" "$@"; }

# rows_run LAST [-v VAR=VALUE | -F SEP...] PROGRAM [FILE...]: rows_awk, with the awk
# rule LAST after PROGRAM; with a LAST, the headers are printed too. A PROGRAM that
# reads a field by number ($N) is refused (status 2).
rows_run() {
    local last=$1 vars=() by_number='[$][1-9][0-9]*'
    shift
    while [ "${1:-}" = -v ] || [ "${1:-}" = -F ]; do
        vars+=("$1" "$2")
        shift 2
    done
    if [[ $1 =~ $by_number ]]; then
        echo "rows_awk: ${BASH_REMATCH[0]} reads a column by number: read it by name, f(\"name\")" >&2
        return 2
    fi
    awk -F, -v OFS=, -v rows_echo="${last:+1}" "${vars[@]}" '
        function rows_col(name) {
            if (!(name in rows_c)) {
                printf "%s: no column \"%s\" in its header\n", FILENAME, name > "/dev/stderr"
                rows_unknown = 1
                exit 2
            }
            return rows_c[name]
        }
        function f(name) { return $(rows_col(name)) }
        function set(name, value) { $(rows_col(name)) = value }
        FNR == 1 { file++; split("", rows_c); for (rows_i = 1; rows_i <= NF; rows_i++) rows_c[$rows_i] = rows_i; if (rows_echo) print; next }
        END { if (rows_unknown) exit 2 }
        '"$1"$'\n'"$last" "${@:2}"
}

# tsv_column FILE NAME: the column NAME of the course's table FILE, a line a row (tab-separated;
# lines of # and blank lines are comments, the first other line its header). A header without
# NAME is an error (status 2).
tsv_column() {
    awk -F'\t' -v name="$2" '
        /^#/ || !NF { next }
        !named++ {
            for (i = 1; i <= NF; i++) if ($i == name) col = i
            if (!col) { print FILENAME ": no column \"" name "\" in its header" > "/dev/stderr"; exit 2 }
            next
        }
        { print $col }' "$1"
}

# lab_claim_ids NN: the ids of lab NN's claims, one a line: the column "id" of labs/NN-*/claims.tsv.
lab_claim_ids() {
    tsv_column "$(echo "$REPO_ROOT"/labs/"$1"-*/claims.tsv)" id
}

# csv_get FILE COLUMN [COL=VALUE...]: the COLUMN values of the rows whose
# other columns match, one per line. Fields hold no quoted commas here.
csv_get() {
    local file=$1 column=$2
    shift 2
    rows_awk -v want="$column" -v filters="$*" '
        BEGIN { n = split(filters, fl, " "); for (k = 1; k <= n; k++) { split(fl[k], kv, "="); name[k] = kv[1]; value[k] = kv[2] } }
        FNR == 2 { f(want); for (k = 1; k <= n; k++) f(name[k]) } # every name asked for, even where no row matches
        {
            for (k = 1; k <= n; k++) if (f(name[k]) != value[k]) next
            print f(want)
        }' "$file"
}

# host_tool NN: the path of lab NN's host tool (verdicts and report from a
# result file, no GPU needed).
host_tool() {
    built "$BUILD_DIR/host" "$1"
}

# broken_fixture NN CASE: lab NN's recorded run on a pair of GPUs (the first
# machine of tests/fixtures/machines.tsv with gpu_count 2 that recorded lab NN)
# with the one-line edit CASE of tests/fixtures/labNN-broken.tsv applied;
# prints the edited file's path. A line of that table is: case <TAB> sed
# expression <TAB> what the checker must say about it (an extended regular
# expression). The edit must change the file: an edit that no longer matches
# the recorded run fails the test.
broken_fixture() {
    local lab=$1 name=$2 table="$FIXTURES/lab$1-broken.tsv" edit out fx
    edit=$(awk -F'\t' -v n="$name" '$1 == n { print $2; exit }' "$table")
    [ -n "$edit" ] || { echo "no case '$name' in $table" >&2; return 1; }
    fx=$(recording "$lab" gpu_count=2) || return 1
    out="$BATS_TEST_TMPDIR/lab$lab-$name.csv"
    sed -E "$edit" "$fx" >"$out"
    if cmp -s "$out" "$fx"; then
        echo "case '$name': the edit '$edit' changes nothing in $(basename "$fx")" >&2
        return 1
    fi
    echo "$out"
}

# broken_cases NN: the case names of lab NN's broken-fixture table.
broken_cases() {
    awk -F'\t' '!/^#/ && NF >= 3 { print $1 }' "$FIXTURES/lab$1-broken.tsv"
}

# broken_expect NN CASE: what the checker must say about that case.
broken_expect() {
    awk -F'\t' -v n="$2" '$1 == n { print $3; exit }' "$FIXTURES/lab$1-broken.tsv"
}

# assert_checker_rejects_all NN CHECKER: CHECKER FILE must fail on every
# case of lab NN's broken table, saying what the table expects.
assert_checker_rejects_all() {
    local lab=$1 checker=$2 name file expect bad=""
    while IFS= read -r name; do
        file=$(broken_fixture "$lab" "$name") || { bad+="$name (edit) "; continue; }
        expect=$(broken_expect "$lab" "$name")
        if run_checker "$checker" "$file"; then
            bad+="$name (accepted) "
        elif ! grep -qE -- "$expect" <<<"$checker_output"; then
            bad+="$name (said: ${checker_output//$'\n'/ | }; expected /$expect/) "
        fi
    done < <(broken_cases "$lab")
    [ -z "$bad" ] || fail "the checker let these broken runs through: $bad"
}

# assert_checker_accepts_all NN CHECKER [silent]: CHECKER FILE must pass on every
# recording of lab NN (and, with "silent", say nothing), failing when the lab has none.
assert_checker_accepts_all() {
    local lab=$1 checker=$2 silent=${3:-} fx
    [ -n "$(recordings "$lab")" ] || fail "lab $lab has no recording (tests/fixtures/lab$lab-SUFFIX.csv)"
    for fx in $(recordings "$lab"); do
        run_checker "$checker" "$fx" || fail "$(basename "$fx"): $checker_output"
        [ -z "$silent" ] || [ -z "$checker_output" ] || fail "$(basename "$fx") passes, but says: $checker_output"
    done
}

# checked_by_host_tool NN FILE SAID: a lab's run checker on a result file. An empty
# or missing FILE, or one whose line 1 is not the result header (SAID and that line
# printed), fails at once: its rows cannot be read by name. Then lab NN's host tool's
# check, which recomputes the verdicts and judges the rules of the rows (the lab's
# harness/plausible.c), each line it says printed after "labNN: ". Fails when
# anything is wrong.
checked_by_host_tool() {
    local lab=$1 file=$2 said=$3 tool first
    if [ ! -s "$file" ]; then
        echo "lab$lab: $file is missing or empty"
        return 1
    fi
    first=$(head -1 "$file")
    if [ "$first" != "$(head -1 "$FIXTURES/rows-header.csv")" ]; then
        echo "lab$lab: $said$first"
        return 1
    fi
    tool=$(host_tool "$lab") || return 1
    "$tool" check "$file" 2>&1 | sed "s/^/lab$lab: /"
    return "${PIPESTATUS[0]}"
}

# run_checker CHECKER FILE: run it, keep what it said in $checker_output.
run_checker() {
    checker_output=$("$1" "$2" 2>&1)
}

# unit_run NN [ARGS...]: run lab NN's unit-test driver (tests/unit/labNN.c,
# which calls the student's functions directly) in the chosen build; each
# failing case is a line "not ok CASE: what was returned and what was expected".
unit_run() { driver_run unit "$@"; }

# stand_in_run NN [ARGS...]: the same for lab NN's cases against the stand-in
# runtime (tests/unit/labNN-stand-in.c, tests/unit/stand_in.h): two GPUs that
# answer the same on every machine.
stand_in_run() { driver_run stand-in "$@"; }

# threads_run NN [ARGS...]: the same for lab NN's thread tests
# (tests/unit/labNN-threads.c, built with ThreadSanitizer). On a kernel whose
# address-space layout ThreadSanitizer cannot use ("FATAL: ThreadSanitizer:
# unexpected memory mapping", e.g. vm.mmap_rnd_bits above 28) it runs again
# with address-space randomisation off for it (setarch -R); where that is not
# allowed either, the test is skipped with the reason.
threads_run() { driver_run threads "$@"; }

# driver_run KIND NN [ARGS...]: run lab NN's KIND test driver
# ($BUILD_DIR/$LAB_BUILD/KIND/NN-*, tools/grading/test-drivers.sh) with ARGS; $output
# and $status as `run` leaves them, what the program said shown on a failure,
# an unfinished TODO failed with its own message.
driver_run() {
    local kind=$1 program why
    why=$(lab_unbuilt "$2") && fail "$why"
    program=$(built "$BUILD_DIR/$LAB_BUILD/$kind" "$2") ||
        fail "lab $2: no $kind test driver (build it with 'make')"
    shift 2
    run "$program" "$@"
    if [ "$kind" = threads ] && grep -q 'ThreadSanitizer: unexpected memory mapping' <<<"$output"; then
        run setarch "$(uname -m)" -R "$program" "$@"
        if grep -qE 'ThreadSanitizer: unexpected memory mapping|setarch: failed' <<<"$output"; then
            skip "ThreadSanitizer cannot map memory on this kernel, even with setarch -R: $(grep -m1 -E 'FATAL|setarch' <<<"$output") (fix: sudo sysctl vm.mmap_rnd_bits=28)"
        fi
    fi
    program_said "$status" "$output"
    fail_if_todo
}

# student_edited FILE: true when FILE (a labs/NN-*/student/ source) is not
# what `make skeletons` last wrote: its checksum is not the one recorded in
# its lab's student/.checksums. A student's work, not drift.
student_edited() {
    local file=$1 rel manifest
    rel=${file#"$REPO_ROOT/labs/"}
    manifest="$REPO_ROOT/labs/${rel%%/*}/student/.checksums"
    [ -f "$manifest" ] || return 1
    [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$(awk -v p="$rel" '$2 == p { print $1 }' "$manifest")" ]
}
