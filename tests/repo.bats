#!/usr/bin/env bats
# The repository itself: skeletons in step with the solutions, every program
# behaving on a machine without GPUs, every lab complete.

bats_require_minimum_version 1.5.0
load helpers/lab

all_programs() {
    local p
    for p in "$BUILD_DIR"/ref/bin/* "$BUILD_DIR"/student/bin/*; do
        [ -x "$p" ] && echo "$p"
    done
}

lab_names() {
    local d
    for d in "$REPO_ROOT"/labs/[0-9][0-9]-*/; do
        basename "$d"
    done
}

# bats test_tags=lab-rules
@test "repo: the committed skeletons are exactly what the generator makes" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    # On a fresh clone (CI) nobody's work is in labs/: compare every file.
    SKELETONS_STRICT=${CI:+1} run "$REPO_ROOT/tools/authoring/skeletons.sh" check
    assert_success
    assert_output --partial "labs/ matches solutions/"
}

@test "repo: a student's edited file is their work, not drift: the sync check names it and passes" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    local copy="$BATS_TEST_TMPDIR/repo" edited
    mkdir -p "$copy"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$copy/"
    edited=$(find "$copy/labs" -path '*/student/*.c' | sort | head -n 1)
    echo "/* my work */" >>"$edited"
    run "$copy/tools/authoring/skeletons.sh" check
    assert_success
    assert_output --partial "${edited#"$copy/"} was edited (a student's work): not compared"
    REPO_ROOT=$copy run student_edited "$edited"
    assert_success
    REPO_ROOT=$copy run student_edited "$copy/labs/02-memcpy-peer/student/p2p_copy.c"
    assert_failure
    # The maintainers' strict form still sees it.
    SKELETONS_STRICT=1 run "$copy/tools/authoring/skeletons.sh" check
    assert_failure
    assert_output --partial "differs from what its master in solutions/ generates"
}

@test "repo: regenerating never overwrites a skeleton a student edited" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$copy/"
    local edited
    edited=$(find "$copy/labs" -path '*/student/*.c' | sort | head -n 1)
    echo "/* my work */" >>"$edited"
    # Make the master differ too, so that the generator has something to write.
    local master="$copy/solutions/${edited#"$copy/labs/"}"
    master=${master/\/student\//\/}
    echo "/* a newer master */" >>"$master"
    run "$copy/tools/authoring/skeletons.sh" generate
    assert_failure 1
    assert_output --partial "kept your edited"
    run tail -n 1 "$edited"
    assert_output "/* my work */"
    assert_file_exists "$edited.new"
    run tail -n 1 "$edited.new"
    assert_output "/* a newer master */"
}

@test "repo: regenerating updates a skeleton nobody edited" {
    [ -d "$REPO_ROOT/solutions" ] || skip "a student tree: no solutions/ to generate from"
    local copy="$BATS_TEST_TMPDIR/repo"
    mkdir -p "$copy"
    cp -r "$REPO_ROOT/tools" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$copy/"
    local master
    master=$(find "$copy/solutions" -name '*.c' | sort | head -n 1)
    echo "/* a newer master */" >>"$master"
    run "$copy/tools/authoring/skeletons.sh" generate
    assert_success
    local rel=${master#"$copy/solutions/"}
    run tail -n 1 "$copy/labs/${rel%%/*}/student/${rel#*/}"
    assert_output "/* a newer master */"
    run "$copy/tools/authoring/skeletons.sh" check
    assert_success
}

# bats test_tags=lab-rules
@test "repo: no solution text survives in a skeleton" {
    run grep -rl --include='*.c' --include='*.cu' --include='*.h' 'LAB_SKELETON' "$REPO_ROOT/labs"
    assert_failure
}

@test "repo: an unfinished TODO stops the program naming the TODO and file:line" {
    local src="$BATS_TEST_TMPDIR/todo_demo.c"
    printf '#include "todo.h"\nint main(void)\n{\n    LAB_TODO("99.1");\n}\n' >"$src"
    run gcc -std=c11 -Wall -Wextra -Werror -I "$REPO_ROOT/common" "$src" "$REPO_ROOT/common/todo.c" \
        -o "$BATS_TEST_TMPDIR/todo_demo"
    assert_success
    run "$BATS_TEST_TMPDIR/todo_demo"
    assert_failure 1
    assert_output --regexp "^TODO 99\.1 is not done yet \(.*todo_demo\.c:4\)"
}

# bats test_tags=lab-rules
@test "repo: the unfinished-TODO hint names what every handout has: its heading and the TODO's bullet" {
    local src="$BATS_TEST_TMPDIR/todo_demo.c" heading lab id
    printf '#include "todo.h"\nint main(void)\n{\n    LAB_TODO("99.1");\n}\n' >"$src"
    gcc -std=c11 -I "$REPO_ROOT/common" "$src" "$REPO_ROOT/common/todo.c" -o "$BATS_TEST_TMPDIR/todo_demo"
    run "$BATS_TEST_TMPDIR/todo_demo"
    assert_failure 1
    assert_output --regexp ": see TODO 99\.1 under [A-Z][A-Za-z ]+ in the lab's handout$"
    heading=$(sed -E 's/.* under (.*) in the lab.s handout$/\1/' <<<"$output")
    for lab in $(lab_names); do
        grep -qxF "## $heading" "$REPO_ROOT/labs/$lab/README.md" ||
            fail "labs/$lab/README.md has no heading '## $heading', which the hint names"
        for id in $(grep -rhoE 'LAB_TODO\("[0-9]+\.[0-9]+"\)' "$REPO_ROOT/labs/$lab/student" | grep -oE '[0-9]+\.[0-9]+' | sort -u); do
            sed -n "/^## $heading\$/,/^## /p" "$REPO_ROOT/labs/$lab/README.md" | grep -qE "^- \*\*TODO $id\b" ||
                fail "labs/$lab/README.md: no bullet 'TODO $id' under '## $heading'"
        done
    done
}

# bats test_tags=lab-rules
@test "repo: every lab has a handout, tests, a skeleton and a solution" {
    local lab number
    for lab in $(lab_names); do
        number=${lab%%-*}
        assert_file_exists "$REPO_ROOT/labs/$lab/README.md"
        assert_file_exists "$REPO_ROOT/tests/lab$number.bats"
        [ -n "$(find "$REPO_ROOT/labs/$lab" -name '*.c' -o -name '*.cu')" ] || fail "labs/$lab has no sources"
        if [ -d "$REPO_ROOT/solutions" ]; then
            assert_dir_exists "$REPO_ROOT/solutions/$lab"
        fi
    done
}

# bats test_tags=lab-rules
@test "repo: every TODO in a skeleton is explained in its handout" {
    local lab id
    for lab in $(lab_names); do
        for id in $(grep -rhoE 'LAB_TODO\("[0-9]+\.[0-9]+"\)' "$REPO_ROOT/labs/$lab" | grep -oE '[0-9]+\.[0-9]+' | sort -u); do
            grep -qE "TODO $id\b" "$REPO_ROOT/labs/$lab/README.md" ||
                fail "labs/$lab/README.md does not explain TODO $id"
        done
    done
}

# bats test_tags=lab-rules
@test "repo: every lab program built, reference and student" {
    local lab
    for lab in $(lab_names); do
        [ -d "$REPO_ROOT/solutions" ] && assert_file_executable "$BUILD_DIR/ref/bin/$lab"
        assert_file_executable "$BUILD_DIR/student/bin/$lab"
    done
}

# bats test_tags=lab-rules
@test "repo: every program answers --help with usage and exit 0" {
    local p
    for p in $(all_programs); do
        run "$p" --help
        [ "$status" -eq 0 ] || fail "$p --help exited $status"
        [[ "$output" == *usage:* ]] || fail "$p --help prints no usage"
    done
}

# bats test_tags=lab-rules
@test "repo: every program without a GPU exits 77 with the reason" {
    local p
    for p in $(all_programs); do
        CUDA_VISIBLE_DEVICES= run "$p"
        [ "$status" -eq 77 ] || fail "$p exited $status without GPUs: $output"
        [[ "$output" == *"skipped: needs"* ]] || fail "$p gave no reason: $output"
    done
}

# bats test_tags=lab-rules
@test "repo: every program rejects an unknown option with exit 2" {
    local p
    for p in $(all_programs); do
        run "$p" --definitely-not-an-option
        [ "$status" -eq 2 ] || fail "$p exited $status on an unknown option"
        # A value given to a flag is named as such, not as some other option.
        run "$p" --csv=yes
        [ "$status" -eq 2 ] || fail "$p --csv=yes exited $status"
        [[ "$output" == *"error: option '--csv' takes no value"* ]] || fail "$p --csv=yes: $output"
    done
}

# bats test_tags=lab-rules
@test "repo: every program and host tool says a usage error the same way: one line, its name, --help" {
    local p name args
    for p in $(all_programs) "$BUILD_DIR"/host/*; do
        [ -x "$p" ] || continue
        name=$(basename "$p")
        for args in "--definitely-not-an-option" "--reps" "extra-operand"; do
            [[ "$p" = */host/* && "$args" = --reps ]] && continue
            # shellcheck disable=SC2086 # the arguments are split on purpose
            run --separate-stderr "$p" $args
            [ "$status" -eq 2 ] || fail "$p $args exited $status"
            [ "$(wc -l <<<"$stderr")" -eq 1 ] || fail "$p $args: not one line: $stderr"
            [[ "$stderr" == "$name: error: "*". Try '$name --help' for usage." ]] || fail "$p $args: $stderr"
        done
        # --help wins wherever it stands, even after a bad option.
        run "$p" --definitely-not-an-option --help
        [ "$status" -eq 0 ] || fail "$p: --help after a bad option exited $status"
        [[ "$output" == usage:* ]] || fail "$p: --help after a bad option printed no usage"
    done
}

@test "repo: options that do not combine say which, and sizes in errors have units" {
    local p
    for p in $(all_programs); do
        run "$p" -l --csv
        assert_failure 2
        assert_output --partial "--list takes no other option: it cannot be combined with '--csv'"
    done
    # Each size an error names has its unit: the largest exact one, else B
    # (1100000000 is no whole KiB); never a bare byte count.
    local -a cases=(
        "02|--max-size 2G|--max-size: 2 GiB is out of range (1 B .. 1 GiB)"
        "03|--max-size 5G|--max-size: 5 GiB is out of range (4 B .. 4 GiB)"
        "04|--hist-size 2G|--hist-size: 2 GiB is out of range (64 B .. 1 GiB)"
        "04|--hist-size 1100000000|--hist-size: 1100000000 B is out of range (64 B .. 1 GiB)"
        "04|--host-hist-size 32|--host-hist-size: 32 B is out of range (64 B .. 1 GiB)"
        "05|--max-size 8G|--max-size: 8 GiB is out of range (1 B .. 4 GiB)"
        "05|--max-size 4294967297|--max-size: 4294967297 B is out of range (1 B .. 4 GiB)"
        "05|--min-size 2M --max-size 1M|--min-size (2 MiB) is larger than --max-size (1 MiB)"
    )
    local case lab args want prog name
    for case in "${cases[@]}"; do
        IFS='|' read -r lab args want <<<"$case"
        prog=$(built "$BUILD_DIR/$LAB_BUILD/bin" "$lab")
        name=$(basename "$prog")
        # shellcheck disable=SC2086 # the arguments are split on purpose
        run --separate-stderr "$prog" $args
        [ "$status" -eq 2 ] || fail "$name $args exited $status, expected 2"
        [ "$stderr" = "$name: error: $want. Try '$name --help' for usage." ] ||
            fail "$name $args: expected '$want' in the one-line error style: $stderr"
    done
}

@test "repo: make doctor gives the install command for everything missing, and lab 04's atomics need" {
    local bin="$BATS_TEST_TMPDIR/bin" t missing line
    mkdir -p "$bin"
    # A machine with a shell and its basic tools only.
    for t in bash env sed awk grep cat rm wc dirname basename head ls tr; do
        ln -s "$(command -v "$t")" "$bin/$t"
    done
    PATH="$bin" NVCC=/none BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    missing=$(grep -E ': +missing' <<<"$output")
    [ "$(wc -l <<<"$missing")" -ge 8 ] || fail "too few tools reported missing: $missing"
    while IFS= read -r line; do
        [[ "$line" == *"sudo apt-get install "?* ]] || fail "no install command: $line"
    done <<<"$missing"
    assert_output --regexp "compute-sanitizer: +missing .*cuda-sanitizer-"
    assert_output --partial "cudaDevAttrHostNativeAtomicSupported"
}

@test "repo: make doctor reports lab 04's atomics rows of a GPU machine, each GPU and link named" {
    local fake="$BATS_TEST_TMPDIR/build"
    mkdir -p "$fake/tools" "$fake/ref/bin"
    printf '#!/bin/sh\ncase $1 in count) echo 2 ;; list) echo "0: a"; echo "1: b" ;; matrix) printf "0 1\\n1 0\\n" ;; pair) echo "0 1" ;; esac\n' \
        >"$fake/tools/gpu-query"
    # Lab 04's link rows under their header, as its program writes them on a pair (GPU 1 first).
    { cat "$FIXTURES/rows-header.csv"
      echo "link,host_native_atomics,host,1,-1,,0,0,0,,,,,,-1,1,"
      echo "link,native_atomics,peer,1,0,,0,0,0,,,,,,-1,0,"; } >"$BATS_TEST_TMPDIR/rows.csv"
    printf '#!/bin/sh\ncat "%s"\n' "$BATS_TEST_TMPDIR/rows.csv" >"$fake/ref/bin/04-peer-atomics"
    chmod +x "$fake/tools/gpu-query" "$fake/ref/bin/04-peer-atomics"
    BUILD="$fake" run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    assert_line '  GPU 1, host link: cudaDevAttrHostNativeAtomicSupported = 1 (GPU and CPU atomics on one host object are atomic)'
    assert_line '  GPU 1 -> GPU 0: cudaDevP2PAttrNativeAtomicSupported = 0'
}

@test "repo: make doctor says 'Without a GPU' only where there is none" {
    local fake="$BATS_TEST_TMPDIR/build"
    mkdir -p "$fake/tools"
    printf '#!/bin/sh\ncase $1 in count) echo 0 ;; esac\n' >"$fake/tools/gpu-query"
    chmod +x "$fake/tools/gpu-query"
    BUILD="$fake" run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    assert_output --partial "Without a GPU you can still build everything"
    # The student's command for the host-side TODOs, not the whole reference suite.
    assert_output --partial "(make check LAB=NN)"
    refute_output --partial "make test"
    printf '#!/bin/sh\ncase $1 in count) echo 1 ;; list) echo "0: a GPU" ;; esac\n' >"$fake/tools/gpu-query"
    BUILD="$fake" run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    assert_output --partial "CUDA runtime sees 1 GPU(s)"
    refute_output --partial "Without a GPU"
}

@test "repo: make doctor without the CUDA toolkit runs and says so, claiming nothing it could not build" {
    local out="$BATS_TEST_TMPDIR/x"
    run make -s -C "$REPO_ROOT" doctor CUDA_HOME=/none NVCC=/none/bin/nvcc BUILD="$out"
    assert_success
    assert_output --partial "nvcc:     missing — the CUDA toolkit: sudo apt-get install cuda-toolkit-"
    assert_output --partial "not built: the CUDA toolkit (nvcc) is missing"
    refute_output --partial "fatal error"
    refute_output --regexp "built;|builds;|experiments skip|CUDA runtime sees"
    local lab
    for lab in $(lab_names); do
        assert_line --regexp "^  $lab +not built: it needs the CUDA toolkit \(nvcc\)$"
    done
}

@test "repo: make doctor on a fresh build folder builds the labs and counts each one's experiments" {
    local out="$BATS_TEST_TMPDIR/fresh" lab build count
    run make -s -C "$REPO_ROOT" doctor BUILD="$out" CUDA_ARCH=90
    assert_success
    refute_output --partial "could not build"
    refute_output --partial "not built"
    build=ref
    [ -d "$REPO_ROOT/solutions" ] || build=student
    for lab in $(lab_names); do
        count=$("$out/$build/bin/$lab" --list | grep -c .)
        [ "$count" -gt 0 ] || fail "$lab --list shows no experiment"
        if [ "$(BUILD="$out" "$out/tools/gpu-query" count 2>/dev/null || echo 0)" = 0 ]; then
            assert_line "  $(printf '%-22s' "$lab") built; its $count experiments skip here (no GPU)"
        else
            assert_line --regexp "^  $lab +runs here"
        fi
    done
    refute_output --partial "build lab 04 first"
}

@test "repo: doctor reports a lab that is not built, and a --list that fails, with no count" {
    local fake="$BATS_TEST_TMPDIR/build" first
    first=$(lab_names | head -n 1)
    mkdir -p "$fake/tools" "$fake/ref/bin"
    printf '#!/bin/sh\ncase $1 in count) echo 0 ;; esac\n' >"$fake/tools/gpu-query"
    printf '#!/bin/sh\necho "cannot load libcudart.so" >&2\nexit 1\n' >"$fake/ref/bin/$first"
    chmod +x "$fake/tools/gpu-query" "$fake/ref/bin/$first"
    BUILD="$fake" run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    assert_line --regexp "^  $first +built, but '.*/$first --list' failed: cannot load libcudart.so$"
    local lab
    for lab in $(lab_names | tail -n +2); do
        assert_line --regexp "^  $lab +not built yet: run make$"
    done
    refute_output --regexp "its [0-9]+ experiments"
    # Where doctor's own build failed, "run make" would fail again: it says so.
    command -v "${NVCC:-nvcc}" >/dev/null || return 0 # doctor.sh finds it as NVCC or on PATH
    BUILD="$fake" DOCTOR_MAKE=false DOCTOR_BUILD=reference run "$REPO_ROOT/tools/machine/doctor.sh"
    assert_success
    assert_output --partial "could not build all of it"
    for lab in $(lab_names | tail -n +2); do
        assert_line --regexp "^  $lab +does not build: see the errors under 'Building'"
    done
}

@test "repo: make help lists the targets and the variables" {
    run make -s -C "$REPO_ROOT" help CUDA_ARCH=90
    assert_success
    local targets="all run test check doctor clean help"
    [ -d "$REPO_ROOT/solutions" ] && targets+=" skeletons mistakes handout"
    for target in $targets; do
        assert_line --regexp "^  $target +"
    done
    for variable in LAB CUDA_HOME NVCC CUDA_ARCH V=1; do
        assert_output --partial "  $variable"
    done
    # The README says make help lists them all: every VAR= it names is there.
    for variable in $(grep -oE '\b[A-Z][A-Z_]+=' "$REPO_ROOT/README.md" | sort -u); do
        assert_output --partial "  ${variable%=}"
    done
}

@test "repo: the README names every package make deps asks for" {
    [ -d "$REPO_ROOT/solutions" ] || skip "the student tree's README leaves the packages to make deps"
    local slides packages package
    for slides in 0 1; do
        # No tool on PATH: ensure-deps names every package it would install.
        run env -i PATH=/nonexistent BATS_LIB_PATH=/nonexistent LAB_NO_INSTALL=1 DEPS_SLIDES=$slides \
            "$BASH" "$REPO_ROOT/tools/machine/ensure-deps.sh"
        packages=$(sed -n 's/^deps: missing Debian packages: //p' <<<"$output")
        [ -n "$packages" ] || fail "ensure-deps.sh named no package: $output"
        for package in $packages; do
            grep -qF "\`$package\`" "$REPO_ROOT/README.md" || fail "README.md does not name $package, which make deps asks for"
        done
    done
}

@test "repo: make check without LAB, with two labs or with no lab says how to call it" {
    run make -s -C "$REPO_ROOT" check CUDA_ARCH=90
    assert_failure
    assert_output --partial "make check LAB=01"
    run make -s -C "$REPO_ROOT" check LAB="01 02" CUDA_ARCH=90
    assert_failure
    assert_output --partial "make check takes one lab, not '01 02'"
    run make -s -C "$REPO_ROOT" check LAB=abc CUDA_ARCH=90
    assert_failure
    assert_output --partial "no lab 'abc' (labs: "
}

@test "repo: build output stays under build/, sources stay clean" {
    git -C "$REPO_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
        skip "not a git work tree (a copy without .git cannot tell ignored files)"
    run git -C "$REPO_ROOT" status --porcelain --ignored=matching -- labs solutions common tests tools
    refute_output --regexp '\.(o|d|a)$'
}

# bats test_tags=lab-rules
@test "repo: make docs builds the API and handout pages with no warning" {
    command -v doxygen >/dev/null || skip "doxygen is not installed (sudo apt-get install doxygen)"
    local out="$BATS_TEST_TMPDIR/docs"
    run make -s -C "$REPO_ROOT" docs BUILD="$out" CUDA_ARCH=90
    assert_success
    assert_file_exists "$out/docs/html/index.html"
    run cat "$out/docs/warnings.log"
    assert_output ""
    # The docs may be published: no solution is in them, not even as source.
    run grep -rlE 'solutions/[0-9][0-9]-' "$out/docs/html"
    assert_failure
    # The common/ API and every lab's handout are pages of their own.
    assert_file_exists "$out/docs/html/devices_8h.html"
    local lab
    for lab in $(lab_names); do
        grep -rqs "$(head -n 1 "$REPO_ROOT/labs/$lab/README.md" | sed 's/^# //' | cut -c1-20)" "$out/docs/html" ||
            fail "no docs page for labs/$lab/README.md"
    done
}

@test "repo: make docs works in a tree whose path has a space (Doxygen before 1.9.7 cannot link there)" {
    command -v doxygen >/dev/null || skip "doxygen is not installed (sudo apt-get install doxygen)"
    local tree="$BATS_TEST_TMPDIR/a course/tree"
    source_copy "$tree"
    run make -s -C "$tree" docs BUILD="$tree/build"
    assert_success
    assert_file_exists "$tree/build/docs/html/index.html"
    run cat "$tree/build/docs/warnings.log"
    assert_output ""
}

# bats test_tags=lab-rules
@test "repo: every handout has a Chinese twin with the same sections and TODO ids" {
    local lab en zh
    for lab in $(lab_names); do
        en="$REPO_ROOT/labs/$lab/README.md"
        zh="$REPO_ROOT/labs/$lab/README.zh-CN.md"
        assert_file_exists "$zh"
        [ "$(grep -c '^## ' "$en")" -eq "$(grep -c '^## ' "$zh")" ] ||
            fail "$lab: README.md has $(grep -c '^## ' "$en") sections, README.zh-CN.md $(grep -c '^## ' "$zh")"
        [ "$(grep -oE 'TODO [0-9]+\.[0-9]+' "$en" | sort -u)" = "$(grep -oE 'TODO [0-9]+\.[0-9]+' "$zh" | sort -u)" ] ||
            fail "$lab: the two handouts name different TODOs"
        # The needs line is translated: the GPU counts it names must agree.
        grep -q '^Needs: ' "$en" && grep -q '^需要：' "$zh" || fail "$lab: a handout has no needs line"
        [ "$(grep -m1 '^Needs: ' "$en" | grep -oE '[0-9]+' | tr '\n' ' ')" = \
          "$(grep -m1 '^需要：' "$zh" | grep -oE '[0-9]+' | tr '\n' ' ')" ] ||
            fail "$lab: the two handouts state different needs"
        grep -q 'README.zh-CN.md' "$en" || fail "$lab: README.md does not link its Chinese twin"
    done
    grep -q 'README.zh-CN.md' "$REPO_ROOT/README.md" || fail "the top README does not link the Chinese handouts"
}

# without_cuda: PATH without the CUDA toolkit's folders and nvcc, as on a
# lecturer's laptop (CUDA_HOME then points at a folder that does not exist).
without_cuda() {
    local dir path=""
    IFS=: read -r -a dirs <<<"$PATH"
    for dir in "${dirs[@]}"; do
        [[ $dir == *cuda* || -x $dir/nvcc ]] || path+="${path:+:}$dir"
    done
    echo "$path"
}

@test "repo: make slides builds nothing that needs CUDA (a laptop without the toolkit renders the decks)" {
    local path
    path=$(without_cuda)
    run env PATH="$path" bash -c 'command -v nvcc'
    assert_failure
    # what make would run: the host tools (C), never nvcc nor the CUDA part of common/
    run env PATH="$path" make -n -C "$REPO_ROOT" slides BUILD="$BATS_TEST_TMPDIR/b" CUDA_HOME="$BATS_TEST_TMPDIR/no-cuda"
    assert_success
    assert_output --partial "host_tool_main.c"
    refute_output --regexp 'nvcc|devices\.c|\.cu\b|gpu-query'
}

@test "repo: make slides renders every deck, and every image a deck shows exists" {
    command -v npm >/dev/null || skip "npm is not installed (sudo apt-get install npm)"
    # make slides refuses to draw Chinese quotes as empty boxes: give make deps
    # its chance to install a CJK font (it cannot under LAB_NO_INSTALL=1 or
    # without root), then skip where there is still none.
    DEPS_SLIDES=1 "$REPO_ROOT/tools/machine/ensure-deps.sh" >/dev/null 2>&1 || true
    need_cjk_font
    local out="$BATS_TEST_TMPDIR/s" deck name img
    # without the CUDA toolkit, as on a lecturer's laptop
    run env PATH="$(without_cuda)" make -s -C "$REPO_ROOT" slides BUILD="$out" CUDA_HOME="$BATS_TEST_TMPDIR/no-cuda"
    assert_success
    for deck in "$REPO_ROOT"/slides/[0-9][0-9]-*.md; do
        name=$(basename "$deck" .md)
        assert_file_exists "$out/slides/$name.html"
        grep -q '<section' "$out/slides/$name.html" || fail "$name.html has no slides"
        for img in $(grep -oE '!\[[^]]*\]\([^)]+\)' "$deck" | sed -E 's/.*\(([^)]+)\)/\1/'); do
            assert_file_exists "$REPO_ROOT/slides/$img"
            assert_file_exists "$out/slides/$img"
        done
    done
}

@test "repo: a GPU id beyond the machine's GPUs exits 2 naming it, for every program that takes one" {
    require_gpus 2
    local p n
    n=$(gpu_count)
    for p in $(all_programs); do
        "$p" --help | grep -q -- '--gpu-a' || continue
        for args in "-a 0 -b $n" "-a $((n + 5)) -b 0"; do
            # shellcheck disable=SC2086 # the arguments are split on purpose
            run "$p" $args
            [ "$status" -eq 2 ] || fail "$p $args exited $status: $output"
            [[ "$output" == *"does not exist: this machine has $n GPUs"* ]] || fail "$p $args: $output"
            [ "$(grep -c 'error: ' <<<"$output")" -eq 1 ] || fail "$p $args: not one error line: $output"
        done
    done
}

@test "repo: with one GPU visible every program runs, and says once what it skipped and why" {
    require_gpus 1
    local p lab
    for p in "$BUILD_DIR/$LAB_BUILD"/bin/*; do
        lab=$(basename "$p")
        CUDA_VISIBLE_DEVICES=0 run "$p" --quick --out "$BATS_TEST_TMPDIR/one"
        fail_if_todo
        [ "$status" -eq 0 ] || fail "$p exited $status with one GPU: $output"
        # A skipped experiment is a row, and one line on stderr, never more.
        for key in $(csv_get "$BATS_TEST_TMPDIR/one/$lab.csv" experiment variant=skipped); do
            [ "$(grep -c "skipped $key: " <<<"$output")" -eq 1 ] || fail "$lab: skip of $key not said once"
        done
    done
}

# The claims of every lab: "lab<TAB>id<TAB>section<TAB>chapter<TAB>meaning".
catalogue_rows() {
    local dir
    for dir in "$REPO_ROOT"/labs/[0-9][0-9]-*/; do
        grep -v '^#' "$dir/claims.tsv" | tail -n +2 | sed "s/^/$(basename "$dir")\t/"
    done
}
catalogue_ids() {
    local dir
    for dir in "$REPO_ROOT"/labs/[0-9][0-9]-*/; do
        lab_claim_ids "$(basename "$dir" | cut -c1-2)"
    done
}

# recorded_verdicts FIXTURE: "id<TAB>verdict<TAB>measured" of each claim of a
# recording, as its lab's host tool recomputes them.
recorded_verdicts() {
    local n
    n=$(basename "$1" | cut -c4-5)
    "$(built "$BUILD_DIR/host" "$n")" verdicts "$1" |
        rows_awk 'f("experiment") == "claim" { print f("variant") "\t" f("value") "\t" f("detail") }'
}
# recorded_gpus FIXTURE: "N× NAME" from its machine rows (N GPUs named NAME),
# as make run's report names a recording's hardware.
recorded_gpus() {
    local gpus
    gpus=$(csv_get "$1" value experiment=machine variant=gpu)
    echo "$(grep -c . <<<"$gpus")× $(head -1 <<<"$gpus")"
}
# recording_kinds: each machine's suffix and its link as the report names it (link_en of
# tests/fixtures/machines.tsv).
recording_kinds() {
    paste <(machine_suffixes) <(machines_query link_en)
}
# no_gpu_report DIR: make run into DIR with no GPU visible.
no_gpu_report() {
    CUDA_VISIBLE_DEVICES= REPORT_DIR="$1" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/report/run_report.py"
    assert_success
    assert_file_exists "$1/report.md"
}

@test "repo: make run completes its report on a machine with no GPU visible, saying why once" {
    local report="$BATS_TEST_TMPDIR/report" id lab why f
    no_gpu_report "$report"
    for lab in $(lab_names); do
        assert_file_exists "$report/data/$lab.csv"
    done
    # The reason, the same for every lab, is said once in the whole report.
    why=$(grep -h -m1 'skipped: ' "$report/01-peer-checks.txt" | sed 's/^.*skipped: //')
    [ -n "$why" ] || fail "lab 01 gave no reason for not running"
    run grep -cF -- "$why" "$report/report.md"
    assert_output 1
    run grep -c "^\*\*No lab can run on this machine\*\*: " "$report/report.md"
    assert_output 1
    run grep -cE '^\| [0-9]{2}-[a-z0-9-]* \| skipped \(said above\) \| [0-9]+ s \|$' "$report/report.md"
    assert_output "$(lab_names | wc -l)"
    run grep -ciE 'could not run here' "$report/report.md"
    assert_output 0
    local rest want
    while IFS=$'\t' read -r lab id rest; do
        want="recorded on "
        [ -n "$(recordings "${lab%%-*}")" ] || want="no recording of this lab yet"
        grep -qF "(\`$id\`) | cannot be tested here | $want" "$report/report.md" ||
            fail "the ledger does not show what the course recorded for $id ($want)"
    done < <(catalogue_rows)
    # Each lab shows every recording of it, each under its own heading.
    for lab in $(lab_names); do
        for f in $(recordings "${lab%%-*}"); do
            sed -n "/^## $lab\$/,/^## [^#]/p" "$report/report.md" |
                grep -q "^From \`tests/fixtures/$(basename "$f")\`, drawn by the lab's host tool:" ||
                fail "$lab's section does not show $(basename "$f")"
        done
    done
    # A recording converted from an earlier program's output says so, once, in its lab's section.
    local said
    for lab in $(lab_names); do
        for f in $(recordings "${lab%%-*}"); do
            said=$(python3 "$REPO_ROOT/tools/lib/converted.py" "$f")
            [ -n "$said" ] || continue
            run grep -cF -- "$said" <(sed -n "/^## $lab\$/,/^## [^#]/p" "$report/report.md")
            assert_output 1
        done
    done
    run grep -c "^These rows were converted from the printed output" "$report/report.md"
    assert_output "$(grep -c '^lab' "$FIXTURES/converted.tsv")"
}

@test "repo: with no GPU, the ledger gives each claim the verdict of every recording, named with its hardware" {
    local report="$BATS_TEST_TMPDIR/report" suffix link f id verdict measured words gpus line
    no_gpu_report "$report"
    while IFS=$'\t' read -r suffix link; do
        for f in $(all_recordings suffix="$suffix"); do
            gpus=$(recorded_gpus "$f")
            while IFS=$'\t' read -r id verdict measured; do
                case $verdict in holds) words="**holds**" ;; does_not_hold) words="**does not hold**" ;;
                    *) words="cannot be tested there" ;; esac
                line=$(grep -F "(\`$id\`) | cannot be tested here | " "$report/report.md") ||
                    fail "no ledger row for $id"
                grep -qF -- "recorded on $gpus ($link): " <<<"$line" || fail "$id: no verdict named with $gpus ($link)"
                # The recording's "this machine" was its own: under its name it is "that machine".
                measured=${measured//this machine/that machine}
                measured=${measured//This machine/That machine}
                grep -qF -- "): $words — ${measured//|/\\|}" <<<"$line" ||
                    fail "$id: $(basename "$f")'s verdict '$verdict — $measured' is not in: $line"
            done < <(recorded_verdicts "$f")
        done
    done < <(recording_kinds)
    # No recording's text speaks of this report's machine as its own (this one has no GPU).
    run grep -c "this machine has [1-9]" "$report/report.md"
    assert_output 0
}

@test "repo: with no GPU, the counts at the top keep this machine and each recording apart" {
    local report="$BATS_TEST_TMPDIR/report" suffix link holds dnh untested gpus
    no_gpu_report "$report"
    run grep -c "^The chapter's claims on this machine: 0 hold, 0 do not hold, $(catalogue_ids | wc -l) cannot be tested here " \
        "$report/report.md"
    assert_output 1
    while IFS=$'\t' read -r suffix link; do
        gpus=$(recorded_gpus "$(all_recordings suffix="$suffix" | head -n 1)")
        read -r holds dnh untested < <(for f in $(all_recordings suffix="$suffix"); do recorded_verdicts "$f"; done |
            awk -F'\t' '{ c[$2]++ } END { print c["holds"] + 0, c["does_not_hold"] + 0, c["untested"] + 0 }')
        [ "$holds" -gt 0 ] || fail "$suffix: no claim holds in the recordings: the count would prove nothing"
        run grep -cxF -- "- on $gpus ($link): $holds hold, $dnh do not hold, $untested cannot be tested there" \
            "$report/report.md"
        assert_output 1
    done < <(recording_kinds)
}

@test "repo: make run NVBANDWIDTH= runs it before and after the labs, keeps its rows, and says at the top what failed" {
    # A report folder with a space: the rows beside the labs' are one argument each.
    local report="$BATS_TEST_TMPDIR/a report/report" fake="$BATS_TEST_TMPDIR/nvbandwidth"
    local fx json runs
    fx=$(nvbandwidth_recording 05)
    json="${fx%.csv}.nvbandwidth-before.json"
    assert_file_exists "$json"
    runs=("${fx%.csv}".nvbandwidth-*.json)
    # A stand-in that answers the seven testcases with a recorded run of nvbandwidth.
    printf '#!/bin/sh\ncat %q\n' "$json" >"$fake"
    chmod +x "$fake"
    NVBANDWIDTH=$fake no_gpu_report "$report"
    assert_file_exists "$report/data/nvbandwidth-before.json"
    assert_file_exists "$report/data/nvbandwidth-after.json"
    run grep -c '^nvbandwidth,host_to_device_memcpy_ce,host,-1,0,one_way,' "$report/data/nvbandwidth.csv"
    assert_output 2
    run grep -c '^\*\*nvbandwidth\*\*' "$report/report.md"
    assert_output 0
    # The recording's own nvbandwidth runs stand beside it, whole.
    grep -qF "beside nvbandwidth v0.8 on GPU 0 ($(recording_field "$fx" gpu)), the best of its ${#runs[@]} runs" "$report/report.md" ||
        fail "$(basename "$fx") is not shown beside its nvbandwidth runs"
    run grep -c '^| host -> GPU, copy engine | [0-9.]* | 63.0 | [0-9.]* | [0-9.]* |$' "$report/report.md"
    assert_output 1
    # It fails before the labs and answers after them: the failure is said, the answer kept.
    printf '#!/bin/sh\n[ -f %q ] && exec cat %q\ntouch %q; echo "no GPU" >&2; exit 3\n' \
        "$BATS_TEST_TMPDIR/once" "$json" "$BATS_TEST_TMPDIR/once" >"$fake"
    NVBANDWIDTH=$fake no_gpu_report "$report"
    run grep -c "^\*\*nvbandwidth\*\* (\`$fake\`): its run before the labs failed: nvbandwidth.sh: $fake failed (exit 3); see $report/data/nvbandwidth-before.json.err" "$report/report.md"
    assert_output 1
    assert_file_exists "$report/data/nvbandwidth-before.json.err"
    assert_file_not_exists "$report/data/nvbandwidth-before.json"
    run grep -c '^nvbandwidth,host_to_device_memcpy_ce,' "$report/data/nvbandwidth.csv"
    assert_output 1
    # What is no binary, and output that is not nvbandwidth's JSON: each said, no rows kept.
    NVBANDWIDTH="$BATS_TEST_TMPDIR/no such" no_gpu_report "$report"
    run grep -c "its run \(before\|after\) the labs failed: nvbandwidth.sh: '$BATS_TEST_TMPDIR/no such' is not an executable" "$report/report.md"
    assert_output 2
    printf '#!/bin/sh\necho "nvbandwidth Version: v0.7"\n' >"$fake"
    NVBANDWIDTH=$fake no_gpu_report "$report"
    run grep -c "its output cannot be read: nvbandwidth_rows.py: .*not nvbandwidth's JSON output" "$report/report.md"
    assert_output 1
    assert_file_not_exists "$report/data/nvbandwidth.csv"
}

@test "repo: with no GPU, a recording without a date row is named without a dangling comma" {
    local report="$BATS_TEST_TMPDIR/report" f dateless=() suffix n=0
    for f in $(all_recordings); do
        grep -q '^machine,date,' "$f" || dateless+=("$f")
    done
    [ ${#dateless[@]} -gt 0 ] || skip "every recording has a date row now"
    no_gpu_report "$report"
    run grep -nE ',  |, \(|, $' "$report/report.md"
    refute_output --regexp '[Rr]ecorded on'
    # Under its heading: the GPUs and the link, no date (one heading for each such recording
    # of that machine).
    local first=${dateless[0]}
    suffix=$(recording_suffix "$first")
    for f in "${dateless[@]}"; do
        if [ "$(recording_suffix "$f")" = "$suffix" ]; then n=$((n + 1)); fi
    done
    run grep -cE "^### Recorded on $(recorded_gpus "$first") \($(recording_field "$first" link_kind)[^,]*\) \(not here\)$" "$report/report.md"
    assert_output "$n"
}

@test "repo: with no GPU, lab 05's plots are drawn from every recording, each named and its routes said" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed"
    local report="$BATS_TEST_TMPDIR/report" suffix link
    no_gpu_report "$report"
    while IFS=$'\t' read -r suffix link; do
        assert_file_exists "$report/05-p2p-performance-$suffix-bandwidth.png"
        grep -qF "](05-p2p-performance-$suffix-bandwidth.png)" "$report/report.md" ||
            fail "the report does not show the bandwidth plot of lab05-$suffix.csv"
    done < <(recording_kinds)
    # A one-GPU recording is one with the host link's series.
    local f
    [ -n "$(recordings 05 gpu_count=1)" ] || fail "lab 05 has no recording on one GPU"
    for f in $(recordings 05 gpu_count=1); do
        sed -n "/^### Recorded on $(recorded_gpus "$f") .*/,/^## /p" "$report/report.md" |
            grep -q 'This recording has rows for the routes .*host' ||
            fail "the host-link route of $(basename "$f") is not named beside its plots"
    done
    # The first line gives the day once: this machine is named by its GPUs alone.
    [ "$(sed -n '3p' "$report/report.md" | grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2}' | wc -l)" -eq 1 ] ||
        fail "the report's first line gives the date more than once: $(sed -n '3p' "$report/report.md")"
}

@test "repo: labs that ran here are reported with this machine's verdicts; one that could not, with the recordings'" {
    local fake="$BATS_TEST_TMPDIR/build" report="$BATS_TEST_TMPDIR/report" id verdict measured rows
    # A fake build: lab 01 "runs" and writes the rows of its recording on a pair; lab 02 cannot run.
    rows=$(recording 01 gpu_count=2)
    mkdir -p "$fake/ref/bin"
    ln -s "$BUILD_DIR/host" "$fake/host"
    printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done\ncp "%s" "$out/01-peer-checks.csv"\n' \
        "$rows" >"$fake/ref/bin/01-peer-checks"
    printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done\ncp "%s" "$out/02-memcpy-peer.csv"\n%s\nexit 77\n' \
        "$FIXTURES/rows-header.csv" 'echo "02-memcpy-peer: skipped: needs 2 GPUs, this machine has 1"' >"$fake/ref/bin/02-memcpy-peer"
    chmod +x "$fake/ref/bin/"*
    BUILD="$fake" RUN_BUILD=ref REPORT_DIR="$report" run "$REPO_ROOT/tools/report/run_report.py"
    assert_success
    run grep -c '^| 01-peer-checks | ok | ' "$report/report.md"
    assert_output 1
    run grep -c '^\*\*Lab 02 cannot run on this machine\*\*: needs 2 GPUs, this machine has 1\.$' "$report/report.md"
    assert_output 1
    # Lab 01's verdicts are the ones of its rows here, with no recording beside them.
    while IFS=$'\t' read -r id verdict measured; do
        grep -q "^$id	01-peer-checks	.*	$verdict	" "$report/claims.tsv" || fail "$id: the ledger is not the rows' $verdict"
        grep -F "(\`$id\`) | " "$report/report.md" | grep -qF -- "| ${measured//|/\\|} |" ||
            fail "$id: the ledger does not show this machine's measurement"
    done < <(recorded_verdicts "$rows")
    run bash -c "sed -n '/^## 01-peer-checks\$/,/^## 02-/p' '$report/report.md' | grep -c '[Rr]ecorded on'"
    assert_output 0
    run grep -c "^### Recorded on " "$report/report.md"
    assert_output "$(recordings 02 | wc -l)"
    run rows_awk -F '\t' 'f("lab") == "01-peer-checks"' "$report/recorded.tsv"
    assert_output ""
    run grep -c "^The chapter's claims on this machine: 1 hold, 1 do not hold, 8 cannot be tested here " "$report/report.md"
    assert_output 1
}

@test "repo: with a GPU, make run writes the report from the labs' rows (labs in their quick form)" {
    require_gpus 1
    [ -d "$REPO_ROOT/solutions" ] || skip "runs the reference solutions: the student tree's labs are yours"
    local report="$BATS_TEST_TMPDIR/report" id lab
    REPORT_QUICK=1 REPORT_DIR="$report" BUILD="$BUILD_DIR" run "$REPO_ROOT/tools/report/run_report.py"
    assert_success
    run grep -c '^| [0-9][0-9]-[a-z0-9-]* | ok |' "$report/report.md"
    assert_output "$(lab_names | wc -l)"
    for lab in $(lab_names); do
        run head -1 "$report/data/$lab.csv"
        assert_output "$(cat "$FIXTURES/rows-header.csv")"
        grep -q "^## $lab$" "$report/report.md" || fail "the report has no section for $lab"
    done
    for id in $(catalogue_ids); do
        grep -qE "\(\`$id\`\) \| (\*\*holds\*\*|\*\*does not hold\*\*|cannot be tested here) \| [^|]*[0-9a-z]" \
            "$report/report.md" || fail "the ledger has no verdict with a measurement or reason for $id"
    done
    # The ledger is the rows: each verdict there is the one in the lab's result file.
    while IFS=$'\t' read -r id lab section verdict rest; do
        [ "$id" = id ] && continue
        grep -q "^claim,$id,.*,$verdict," "$report/data/$lab.csv" || fail "$id: ledger says $verdict, the rows do not"
    done <"$report/claims.tsv"
}

# bats test_tags=lab-rules
@test "repo: every lab's claims are quoted with a section, and judged in each of its recorded runs" {
    local lab id section quote meaning n fx
    while IFS=$'\t' read -r lab id section quote meaning; do
        n=${lab%%-*}
        # A lab not recorded yet has no run to judge it in; its quote is checked all the same.
        for fx in $(recordings "$n"); do
            grep -qE "^claim,$id,.*,4(\.[1-4])?,.*,(holds|does_not_hold|untested)," "$fx" ||
                fail "$id: lab $n's recorded run $(basename "$fx") does not judge it"
        done
        # 4: the chapter's opening, before 4.1.
        [[ "$section" =~ ^4(\.[1-4])?$ ]] || fail "$id: section '$section' is not 4 or one of 4.1-4.4"
        [ -n "$quote" ] && [ -n "$meaning" ] || fail "$id: no quote or no meaning"
        # Word for word: each part between the elisions (…) is in the chapter.
        local chapter="$REPO_ROOT/../shared/chapter/000_93af1dbb3a5801f1.txt" part
        [ -f "$chapter" ] || continue
        while IFS= read -r part; do
            part=$(sed -E 's/^ +//; s/ +$//' <<<"$part")
            [ -z "$part" ] || grep -qF -- "$part" "$chapter" ||
                fail "$id: the quote is not word for word in the chapter: '$part'"
        done < <(sed 's/…/\n/g' <<<"$quote")
    done < <(catalogue_rows)
    [ "$(catalogue_ids | sort | uniq -d)" = "" ] || fail "claim ids used twice: $(catalogue_ids | sort | uniq -d)"
}

# --- the machines: one row each of tests/fixtures/machines.tsv -----------------

@test "repo: machines.tsv has a row for each machine recorded, and each recording is its machine's, command beside it" {
    local suffix count gpu gpus label link kind f n base
    run python3 "$REPO_ROOT/tools/lib/machines.py" suffixes
    assert_success # tools/lib/machines.py reads the table: every column it needs, every row whole
    assert_equal "$output" "$(machine_suffixes)"
    [ -n "$output" ] || fail "tests/fixtures/machines.tsv names no machine"
    [ -z "$(machine_suffixes | sort | uniq -d)" ] || fail "suffixes named twice: $(machine_suffixes | sort | uniq -d)"
    for suffix in $(machine_suffixes); do
        count=$(machine_field "$suffix" gpu_count)
        gpu=$(machine_field "$suffix" gpu)
        gpus=$(machine_field "$suffix" gpus)
        label=$(machine_field "$suffix" label)
        link=$(machine_field "$suffix" link)
        kind=$(machine_field "$suffix" link_kind)
        [[ $count =~ ^[1-9][0-9]*$ ]] || fail "$suffix: gpu_count '$count' is not a count"
        [ "$gpus" = "$count× $gpu" ] || fail "$suffix: gpus '$gpus' is not '$count× $gpu'"
        [[ $label == "$count× "?* ]] || fail "$suffix: label '$label' does not start with '$count× '"
        [[ $link == "$kind "* ]] || fail "$suffix: link '$link' is not of its kind '$kind'"
        [[ $(machine_field "$suffix" link_en) == *"$link"* ]] || fail "$suffix: link_en does not name '$link'"
        [[ $(machine_field "$suffix" link_zh) == *"$link"* ]] || fail "$suffix: link_zh does not name '$link'"
        # A row with no recording names a machine the course has nothing of.
        [ -n "$(all_recordings suffix="$suffix")" ] || fail "$suffix: no recording tests/fixtures/labNN-$suffix.csv"
        for f in $(all_recordings suffix="$suffix"); do
            # The rows' GPUs are the row's: gpu_count of them, each named gpu.
            n=$(csv_get "$f" value experiment=machine variant=gpu | wc -l)
            [ "$n" = "$count" ] || fail "$(basename "$f"): $n machine,gpu rows; its machine ($suffix) has $count GPUs"
            [ -z "$(csv_get "$f" value experiment=machine variant=gpu | grep -vxF -- "$gpu")" ] ||
                fail "$(basename "$f"): a GPU that is not a $gpu: $(csv_get "$f" value experiment=machine variant=gpu | sort -u | tr '\n' ' ')"
            assert_file_exists "$(recording_command "$f")"
        done
    done
    # Every command and every nvbandwidth run is a recording's.
    for f in "$FIXTURES"/*.cmd "$FIXTURES"/*.nvbandwidth-*.json; do
        [ -e "$f" ] || continue
        base=$(basename "$f")
        base=${base%%.nvbandwidth-*}
        base=${base%.cmd}
        recording_suffix "$base.csv" >/dev/null || fail "$(basename "$f") is not beside a recording of a machine of machines.tsv"
        [ -f "$FIXTURES/$base.csv" ] || fail "$(basename "$f"): no $base.csv beside it"
    done
}

# machine_name_regex TEXT: TEXT as code might write it, an extended regular
# expression: × or x, with or without the spaces (N× NAME, Nx NAME, NxNAME).
machine_name_regex() {
    printf '(^|[^0-9.])%s' "$(sed -E 's#[][\.*^$+?(){}|]#\\&#g; s#×#(×|x)#g; s# # ?#g' <<<"$1")"
}

@test "repo: no machine and no fixture suffix is written in code: tests/fixtures/machines.tsv names them" {
    local pending=()
    local patterns=() suffix col value re hits f
    for suffix in $(machine_suffixes); do
        re=$(sed -E 's#[][\.*^$+?(){}|]#\\&#g' <<<"$suffix")
        # A suffix as a recording's name writes it: labNN-SUFFIX (its .csv, .cmd and nvbandwidth
        # runs), SUFFIX.csv, SUFFIX.cmd.
        patterns+=(-e "lab[^[:space:]/]*-$re([^[:alnum:]_]|$)" -e "(^|[^[:alnum:]_])$re\.(csv|cmd)")
        # One that is not a plain word is itself a name, wherever it stands.
        [[ $suffix =~ ^[a-z]+$ ]] || patterns+=(-e "(^|[^[:alnum:]_-])$re([^[:alnum:]_-]|$)")
        for col in gpus gpu label; do
            value=$(machine_field "$suffix" "$col")
            patterns+=(-e "$(machine_name_regex "$value")")
        done
    done
    local where=(tools tests/*.bats tests/helpers tests/unit slides/plots slides/diagrams Makefile)
    local data=(':!*.md' ':!*.csv' ':!*.cmd' ':!*.json' ':!*.tsv')
    for f in "${pending[@]}"; do
        data+=(":!$f")
    done
    if git -C "$REPO_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        hits=$(cd "$REPO_ROOT" && git grep -nIiE "${patterns[@]}" -- "${where[@]}" "${data[@]}" || true)
    else # a copy without .git (the student tree): every file of those places
        hits=$(cd "$REPO_ROOT" && grep -rnIiE "${patterns[@]}" --exclude='*.md' --exclude='*.csv' --exclude='*.cmd' \
            --exclude='*.json' --exclude='*.tsv' -- "${where[@]}" 2>/dev/null |
            grep -vE "^($(IFS='|'; echo "${pending[*]}")):" || true)
    fi
    [ -z "$hits" ] || fail "a machine or a fixture suffix written in code (read it from tests/fixtures/machines.tsv: tests/helpers/machines.bash, tools/lib/machines.py):
$hits"
}

# The awk that may split result rows on commas (FILE:TEXT of its line), each with why.
POSITIONAL_OK=(
    'tests/helpers/lab.bash:-v rows_echo=' # the reader itself (rows_run)
    'tests/helpers/lab06.bash:{ fields = NF }' # counts each row's fields, reads none
    'tools/machine/doctor.sh:c[$i] = i; next }' # reads by name: a tool loads no test helper
)

# positional_reads FILE...: "FILE:LINE: text" of each line that reads CSV rows by column
# number: awk splitting on commas (-F, or FS = ","), cut -d, or read with IFS=,; and, in
# the checkers (tests/helpers/lab0*.bash, whose awk reads result rows), a field by number
# ($N) outside double quotes and comments (their shell code quotes its arguments, "$1").
# The lines of POSITIONAL_OK are left out.
positional_reads() {
    local f ok hits
    for f in "$@"; do
        hits=$(awk -v checker="$([[ $f == tests/helpers/lab0*.bash ]] && echo 1)" '
            /^[[:space:]]*#/ { next }
            { code = $0; gsub(/"[^"]*"/, "\"\"", code) }
            /-F *["\047]?,|(^|[^O])FS *= *["\047]?,|(^|[^[:alnum:]_-])cut +[^|;)]*(-d *["\047]?,|--delimiter=["\047]?,)|IFS=["\047]?,/ ||
            (checker && code ~ /(^|[^=])[$][1-9]/) { print FILENAME ":" FNR ": " $0 }' "$f")
        for ok in "${POSITIONAL_OK[@]}"; do
            [ "${ok%%:*}" = "$f" ] && hits=$(grep -vF -- "${ok#*:}" <<<"$hits")
        done
        [ -z "$hits" ] || echo "$hits"
    done
}

@test "repo: no awk or shell code in tests/ and tools/ reads a result file by column number" {
    local files hits
    files=$(cd "$REPO_ROOT" && find tests tools -type f \( -name '*.bats' -o -name '*.bash' -o -name '*.sh' \) | sort)
    hits=$(cd "$REPO_ROOT" && positional_reads $files)
    [ -z "$hits" ] || fail "a result file read by column number (read it by name: rows_awk, rows_edit or csv_get, tests/helpers/lab.bash):
$hits"
    # The guard sees a planted read: a checker's field by number, cut -d, in a test.
    mkdir -p "$BATS_TEST_TMPDIR/tests/helpers"
    printf 'lab03_planted() {\n    rows_awk %s "$1"\n}\n' "'{ print \$10 }'" >"$BATS_TEST_TMPDIR/tests/helpers/lab03.bash"
    printf 'judged=$(cut -d%s -f2 "$fx")\n' , >"$BATS_TEST_TMPDIR/tests/planted.bats"
    hits=$(cd "$BATS_TEST_TMPDIR" && positional_reads tests/helpers/lab03.bash tests/planted.bats)
    [ "$(grep -c '^tests/helpers/lab03.bash:[0-9]*: .*[$]10' <<<"$hits")" = 1 ] &&
        [ "$(grep -c '^tests/planted.bats:1: ' <<<"$hits")" = 1 ] || fail "the planted reads are not the ones seen: $hits"
    # The reader refuses a program that reads a field by number.
    run rows_awk '$1 == "claim"' "$FIXTURES/rows-header.csv"
    assert_failure 2
    assert_output --partial 'reads a column by number'
}

# gnuplot_positional_reads FILE...: "FILE:LINE: text" of each line of a gnuplot script that
# reads a column by number: column(N), strcol(N), stringcolumn(N), $N, or a using spec with a
# bare number ("using 7:...", ":11:12"); comments and quoted strings left out.
gnuplot_positional_reads() {
    awk '
        /^[[:space:]]*#/ { next }
        { code = $0; gsub(/"[^"]*"/, "\"\"", code) }
        code ~ /(column|strcol|stringcolumn)\( *[0-9]/ || code ~ /[$][0-9]/ ||
            code ~ /using +[0-9]+ *(:|$| )/ || code ~ /using +[^ ]*[):] *[0-9]+ *(:|$| )/ { print FILENAME ":" FNR ": " $0 }' "$@"
}

# bats test_tags=lab-rules
@test "repo: no gnuplot script reads a result file by column number" {
    local files hits
    files=$(cd "$REPO_ROOT" && find labs slides tools -type f -name '*.gp' | sort)
    [ -n "$files" ] || fail "no gnuplot script found"
    hits=$(cd "$REPO_ROOT" && gnuplot_positional_reads $files)
    [ -z "$hits" ] || fail "a result file read by column number (read it by name: set datafile columnheaders, column(\"gbps\")):
$hits"
    # The guard sees each planted form, and passes a read by name.
    printf '%s\n' 'x = column(13)' 'y = strcol(1) eq "a"' 'plot f using 7:(1)' \
        'plot f using (i):(lat(1)):11:12' 'plot f using 1:($2)' \
        'plot f using "bytes":(column("gbps"))' '# column(3) in a comment' >"$BATS_TEST_TMPDIR/planted.gp"
    hits=$(gnuplot_positional_reads "$BATS_TEST_TMPDIR/planted.gp")
    [ "$(cut -d: -f2 <<<"$hits" | paste -sd' ')" = "1 2 3 4 5" ] || fail "the planted reads are not the ones seen: $hits"
}

@test "repo: an interrupted make run leaves the previous report as it was" {
    local fake="$BATS_TEST_TMPDIR/build" report="$BATS_TEST_TMPDIR/report" pid waited=0
    # A build whose only lab takes its time, like lab 05 does.
    mkdir -p "$fake/ref/bin" "$fake/tools" "$report"
    printf '#!/bin/sh\necho started >&2\nexec sleep 60\n' >"$fake/ref/bin/01-slow"
    chmod +x "$fake/ref/bin/01-slow"
    echo "the previous report" >"$report/report.md"
    # Its own process group, which Ctrl-C in a terminal or a job's kill hits
    # as a whole (SIGTERM: a background job of a script ignores SIGINT). No
    # nvbandwidth run first, were NVBANDWIDTH set: the lab is what is interrupted.
    BUILD="$fake" RUN_BUILD=ref REPORT_DIR="$report" env -u NVBANDWIDTH setsid "$REPO_ROOT/tools/report/run_report.py" \
        >"$BATS_TEST_TMPDIR/log" 2>&1 &
    pid=$!
    until grep -q started "$BATS_TEST_TMPDIR/log"; do
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 100 ] || { kill -- -"$pid"; fail "the run did not start the lab"; }
    done
    kill -TERM -- -"$pid"
    wait "$pid" || true
    assert_equal "$(cat "$report/report.md")" "the previous report"
    run ls -d "$report".tmp.*
    assert_failure # no half-written report left beside it
    run cat "$BATS_TEST_TMPDIR/log"
    assert_output --partial "interrupted; $report is left as it was"
}

# student_files LAB: the student's files of a lab (labs/LAB/student/).
student_files() {
    find "$REPO_ROOT/labs/$1/student" -maxdepth 1 -type f \( -name '*.c' -o -name '*.cu' \) | sort
}

# bats test_tags=lab-rules
@test "repo: each lab's student files are at most two sources, in labs/NN-*/student/" {
    local lab n
    for lab in $(lab_names); do
        assert_dir_exists "$REPO_ROOT/labs/$lab/student"
        assert_dir_exists "$REPO_ROOT/labs/$lab/harness"
        n=$(student_files "$lab" | wc -l)
        [ "$n" -ge 1 ] && [ "$n" -le 2 ] || fail "labs/$lab/student holds $n sources (1 or 2 expected)"
    done
}

# bats test_tags=lab-rules
@test "repo: a student file holds only TODO functions, each naming its TODO" {
    local lab file bad
    for lab in $(lab_names); do
        for file in $(student_files "$lab"); do
            # A student's finished functions no longer call LAB_TODO.
            student_edited "$file" && continue
            # Every top-level function body of the skeleton calls LAB_TODO (a
            # kernel, which cannot, names its TODO in a comment).
            bad=$(awk 'FNR == 1 { depth = 0; body = "" }
                {
                    line = $0; sub(/\/\/.*$/, "", line)
                    o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
                    if (depth == 0 && o > 0 && $0 ~ /^\{/) { start = FNR; body = "" }
                    if (depth > 0 || o > 0) body = body $0 "\n"
                    depth += o - c
                    if (start && depth == 0) {
                        if (body !~ /LAB_TODO\("[0-9]+\.[0-9]+"\)|TODO [0-9]+\.[0-9]+/) print FILENAME ":" start
                        start = 0
                    }
                }' "$file")
            [ -z "$bad" ] || fail "functions without a TODO in a student file: $bad"
        done
    done
}

# bats test_tags=lab-rules
@test "repo: the student files of all labs together stay under 2500 lines" {
    local total
    total=$(cat $(for lab in $(lab_names); do student_files "$lab"; done) | wc -l)
    [ "$total" -lt 2500 ] || fail "the student files hold $total lines"
}

# bats test_tags=lab-rules
@test "repo: no function of common/, a harness or a solution is over 60 lines" {
    local long
    long=$(find "$REPO_ROOT/common" "$REPO_ROOT/labs" "$REPO_ROOT/solutions" "$REPO_ROOT/tools" \
            \( -name '*.c' -o -name '*.cu' \) -not -path '*/student/*' -not -path '*/lab-template/*' \
            -print0 2>/dev/null | xargs -0 awk -f "$REPO_ROOT/tools/lib/function-lengths.awk" |
        awk '$1 > 60')
    [ -z "$long" ] || fail "functions over 60 lines: $long"
}
