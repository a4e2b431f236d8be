# The machines the course has recordings of, and their recordings, from the one
# table tests/fixtures/machines.tsv (one row a machine, its columns read by
# name; tools/lib/machines.py answers the same for the tools). A recording is
# tests/fixtures/labNN-SUFFIX.csv, made on the machine of row SUFFIX, with its
# command in labNN-SUFFIX.cmd. No test names a machine or a suffix: a test
# about every recording loops over `recordings NN`; a test about one kind of
# machine asks for it by its columns, e.g. `recording 05 gpu_count=1`.
# Loaded by helpers/lab.bash; needs FIXTURES.

# machines_query COLUMN [COL=VALUE...]: COLUMN of each machine whose columns
# have these values, in the table's order; exit 2, saying which, for a column
# the table does not have.
machines_query() {
    local want=$1
    shift
    awk -F'\t' -v want="$want" -v filters="$(printf '%s\n' "$@")" -v table="$FIXTURES/machines.tsv" '
        /^#/ || !NF { next }
        !head {
            head = 1
            for (i = 1; i <= NF; i++) col[$i] = i
            if (!(want in col)) { print table ": no column " want > "/dev/stderr"; bad = 2; exit 2 }
            n = split(filters, f, "\n")
            k = 0
            for (j = 1; j <= n; j++) {
                if (f[j] == "") continue
                eq = index(f[j], "=")
                name = substr(f[j], 1, eq - 1)
                if (eq == 0 || !(name in col)) { print table ": \"" f[j] "\" is not COLUMN=VALUE of a column it has" > "/dev/stderr"; bad = 2; exit 2 }
                k++; fcol[k] = col[name]; fval[k] = substr(f[j], eq + 1)
            }
            next
        }
        {
            for (j = 1; j <= k; j++) if ($fcol[j] != fval[j]) next
            print $col[want]
        }
        END { if (!head && !bad) { print table ": no header" > "/dev/stderr"; exit 2 } }' "$FIXTURES/machines.tsv"
}

# machine_suffixes [COL=VALUE...]: the suffixes of the machines whose columns
# have these values (every machine without any), in the table's order.
machine_suffixes() {
    machines_query suffix "$@"
}

# machine_field SUFFIX COLUMN: one column of the machine of SUFFIX; fails,
# saying so, when the table has no such machine.
machine_field() {
    machine_suffixes | grep -qFx -- "$1" ||
        { echo "$FIXTURES/machines.tsv has no machine '$1'" >&2; return 1; }
    machines_query "$2" suffix="$1"
}

# recordings NN [COL=VALUE...]: the paths of lab NN's recordings made on the
# machines whose columns have these values, in the table's order.
recordings() {
    local nn=$1 suffix
    shift
    machine_suffixes "$@" >/dev/null || return 2
    while IFS= read -r suffix; do
        [ -f "$FIXTURES/lab$nn-$suffix.csv" ] && echo "$FIXTURES/lab$nn-$suffix.csv"
    done < <(machine_suffixes "$@")
    return 0
}

# all_recordings [COL=VALUE...]: the recordings of every lab (lab by lab, each
# lab's in the table's order) made on the machines whose columns have these values.
all_recordings() {
    local nn
    for nn in $(ls "$FIXTURES" | sed -nE 's/^lab([0-9]{2})-.*\.csv$/\1/p' | sort -u); do
        recordings "$nn" "$@" || return 2
    done
}

# recording NN [COL=VALUE...]: the path of lab NN's first recording (in the
# table's order) made on a machine whose columns have these values; fails,
# saying what is missing, when lab NN has none.
recording() {
    local first
    first=$(recordings "$@") || return 2
    first=$(head -n 1 <<<"$first")
    if [ -z "$first" ]; then
        local nn=$1
        shift
        echo "lab $nn has no recording of a machine with ${*:-any columns} (tests/fixtures/machines.tsv)" >&2
        return 1
    fi
    echo "$first"
}

# nvbandwidth_recording NN: the path of lab NN's first recording (in the
# table's order) with nvbandwidth's runs beside it (labNN-SUFFIX.nvbandwidth-*.json);
# fails, saying so, when none has.
nvbandwidth_recording() {
    local fx
    for fx in $(recordings "$1"); do
        compgen -G "${fx%.csv}.nvbandwidth-*.json" >/dev/null && { echo "$fx"; return 0; }
    done
    echo "lab $1 has no recording with nvbandwidth's runs beside it (lab$1-SUFFIX.nvbandwidth-*.json)" >&2
    return 1
}

# recording_suffix FILE: the suffix of a recording (labNN-SUFFIX.csv or its
# .cmd); fails, saying so, for a file that is not a recording of a machine of the table.
recording_suffix() {
    local base
    base=$(basename "$1")
    if [[ $base =~ ^lab[0-9]{2}-(.*)\.(csv|cmd)$ ]] && machine_suffixes | grep -qFx -- "${BASH_REMATCH[1]}"; then
        echo "${BASH_REMATCH[1]}"
        return 0
    fi
    echo "$base is not a recording (labNN-SUFFIX.csv, SUFFIX a row of tests/fixtures/machines.tsv)" >&2
    return 1
}

# recording_field FILE COLUMN: one column of the machine a recording was made on.
recording_field() {
    local suffix
    suffix=$(recording_suffix "$1") || return 1
    machine_field "$suffix" "$2"
}

# recording_command FILE: the file holding the command a recording was made with.
recording_command() {
    echo "${1%.csv}.cmd"
}
