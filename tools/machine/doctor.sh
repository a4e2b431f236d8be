#!/usr/bin/env bash
# doctor.sh: what can this machine do for the course? Toolchain, driver, GPUs,
# the P2P matrix, and which labs it can run; for anything missing, the command
# that installs it. Exits 0 whatever it finds: it reports, it does not judge.
# DOCTOR_BUILD="TARGETS" (make doctor sets it) builds those first, as far as
# this machine can; run by hand, it reports on what is already built.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
nvcc=${NVCC:-nvcc}
query="$build/tools/gpu-query"
errs=$(mktemp)
trap 'rm -f "$errs"' EXIT

section() { printf '\n== %s\n' "$1"; }
have() { command -v "$1" >/dev/null 2>&1; }

# The CUDA toolkit's packages: NVIDIA's repository names them by version
# (cuda-toolkit-13-0, with cuda-sanitizer-13-0 in it); Debian has one package.
toolkit_hint() {
    local v=${cuda_version:-X.Y}
    echo "sudo apt-get install cuda-toolkit-${v/./-} (NVIDIA's CUDA repository; Debian and Ubuntu: nvidia-cuda-toolkit)"
}

section "Toolchain"
cuda_version=""
if have "$nvcc"; then
    cuda_version=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
    echo "nvcc:     $cuda_version  ($(command -v "$nvcc"))"
else
    echo "nvcc:     missing — the CUDA toolkit: $(toolkit_hint)"
fi
echo "gcc:      $(gcc -dumpfullversion 2>/dev/null || echo 'missing — sudo apt-get install gcc')"
have make && echo "make:     $(make --version | head -n 1)" || echo "make:     missing — sudo apt-get install make"
have python3 && echo "python3:  $(command -v python3)" || echo "python3:  missing — sudo apt-get install python3 (grading and the handouts' numbers use it)"
for tool in bats unifdef gnuplot doxygen compute-sanitizer; do
    path=$(command -v "$tool" || ls "$(dirname "$(command -v "$nvcc" 2>/dev/null || echo /none)")/$tool" 2>/dev/null)
    if [ -n "$path" ]; then
        printf '%-9s %s\n' "$tool:" "$path"
    else
        case $tool in
            compute-sanitizer) v=${cuda_version:-X.Y}
                hint="make sanitize needs it; it is part of the CUDA toolkit, next to nvcc: sudo apt-get install cuda-sanitizer-${v/./-} (NVIDIA's CUDA repository, in cuda-toolkit-${v/./-}; Debian and Ubuntu: nvidia-cuda-toolkit)" ;;
            gnuplot) hint="sudo apt-get install gnuplot-nox" ;;
            *) hint="sudo apt-get install $tool" ;;
        esac
        printf '%-9s missing — %s\n' "$tool:" "$hint"
    fi
done
for tool in dot npm chromium; do
    if have "$tool"; then
        printf '%-9s %s\n' "$tool:" "$(command -v "$tool")"
    else
        case $tool in
            dot) hint="sudo apt-get install graphviz (slides/plots/make-plots.sh draws the topology diagram with it)" ;;
            npm) hint="sudo apt-get install npm (make slides fetches the Marp CLI with it)" ;;
            chromium) hint="sudo apt-get install chromium (make slides renders PDFs and PNG pages with it; HTML without)" ;;
        esac
        printf '%-9s missing — %s\n' "$tool:" "$hint"
    fi
done
cjk=$(fc-list :lang=zh family 2>/dev/null | grep -i CJK | head -n 1)
if [ -n "$cjk" ]; then
    printf '%-9s %s\n' "CJK font:" "$cjk"
else
    printf '%-9s missing — %s\n' "CJK font:" "sudo apt-get install fonts-noto-cjk (make slides refuses without: the chapter's quotes would be boxes)"
fi
for lib in bats-support bats-assert bats-file; do
    found=no
    IFS=: read -r -a dirs <<<"${BATS_LIB_PATH:-/usr/lib/bats}"
    for d in "${dirs[@]}"; do [ -f "$d/$lib/load.bash" ] && found=yes; done
    [ $found = yes ] && printf '%-13s %s\n' "$lib:" "found" ||
        printf '%-13s missing — sudo apt-get install %s\n' "$lib:" "$lib"
done

# What the rest of this report runs (the GPU query, each lab's --list) must be
# built; without nvcc nothing can be, and the report says so instead.
if [ -n "${DOCTOR_BUILD:-}" ]; then
    section "Building (make $DOCTOR_BUILD)"
    if ! have "$nvcc"; then
        echo "  not built: the CUDA toolkit (nvcc) is missing, and every program here needs it"
    else
        log="$build/doctor-build.log"
        mkdir -p "$build"
        # Under make -jN the jobserver is inherited; a plain make doctor uses every core.
        jobs=""
        case " ${MAKEFLAGS:-} " in *jobserver*|*" -j"*) ;; *) jobs="-j$(nproc 2>/dev/null || echo 1)" ;; esac
        # shellcheck disable=SC2086 # the targets and the job flag are split on purpose
        if ${DOCTOR_MAKE:-make} --no-print-directory -k $jobs $DOCTOR_BUILD >"$log" 2>&1; then
            echo "  built: the course's tools and every lab's program"
        else
            build_failed=$log
            echo "  could not build all of it (the first errors; the whole output is in $log):"
            grep -m 5 -E 'error|Error [0-9]' "$log" | sed 's/^/    /'
        fi
    fi
fi

section "Driver and GPUs"
if have nvidia-smi; then
    nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total --format=csv 2>/dev/null ||
        echo "nvidia-smi is here but could not read the GPUs"
else
    echo "nvidia-smi: not found (no NVIDIA driver on this machine)"
fi
# asked: whether the CUDA runtime could be asked at all (the query is built).
asked=no
n=0
if [ -x "$query" ]; then
    asked=yes
    n=$("$query" count 2>"$errs") || n=0
    why=$(cat "$errs")
    echo "CUDA runtime sees $n GPU(s)${why:+ — $why}"
    [ "$n" -gt 0 ] && "$query" list | sed 's/^/  GPU /'
else
    echo "CUDA runtime: not asked — $query is not built (make builds it; it needs nvcc)"
fi

pair=""
if [ "$n" -ge 2 ]; then
    section "Peer access (cudaDeviceCanAccessPeer; row = device, column = peer)"
    "$query" matrix | awk '{ printf "  GPU%-2d", NR - 1; for (i = 1; i <= NF; i++) printf " %s", (NR == i ? "-" : $i); print "" }'
    if have nvidia-smi; then
        section "Links (nvidia-smi topo -m)"
        nvidia-smi topo -m 2>/dev/null | sed 's/^/  /'
    fi
    pair=$("$query" pair 2>/dev/null) || pair=""
fi

# Lab 04 adds to one host counter from the GPU and the CPU at once: CUDA
# promises that only where cudaDevAttrHostNativeAtomicSupported is 1.
section "Atomics across links (lab 04)"
atomics="$build/ref/bin/04-peer-atomics"
[ -x "$atomics" ] || atomics="$build/student/bin/04-peer-atomics"
rows=""
if [ "$asked" = yes ] && [ "$n" -gt 0 ] && [ -x "$atomics" ]; then
    rows=$("$atomics" -t link --csv 2>"$errs")
    status=$?
fi
if [ "$n" -eq 0 ]; then
    echo "  lab 04's host-counter experiment needs cudaDevAttrHostNativeAtomicSupported = 1 for"
    if [ "$asked" = yes ]; then
        echo "  GPU and CPU atomics on one host object to be atomic; no GPU here to ask."
    else
        echo "  GPU and CPU atomics on one host object to be atomic; not asked here (the GPU query is not built)."
    fi
elif grep -q '^link,host_native_atomics,' <<<"$rows"; then
    # (an unfinished skeleton may exit non-zero after its link rows: the rows are the answer)
    # (one statement per line: mawk takes no line break inside ?:)
    # (the rows' columns by the names of their header line)
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             $c["experiment"] == "link" && $c["variant"] == "host_native_atomics" {
                 note = " (GPU and CPU must not update one host object at once: lab 04 shows what is lost)"
                 if ($c["value"] == "1") note = " (GPU and CPU atomics on one host object are atomic)"
                 printf "  GPU %s, host link: cudaDevAttrHostNativeAtomicSupported = %s%s\n", $c["src"], $c["value"], note }
             $c["experiment"] == "link" && $c["variant"] == "native_atomics" {
                 printf "  GPU %s -> GPU %s: cudaDevP2PAttrNativeAtomicSupported = %s\n", $c["src"], $c["dst"], $c["value"] }' <<<"$rows"
elif [ ! -x "$atomics" ]; then
    echo "  could not ask: lab 04's program is not built ($atomics; make builds it)"
else
    echo "  could not ask: $atomics -t link --csv exited $status without its link rows: $(head -n 1 "$errs")"
fi

section "Labs on this machine"
# A lab's own word on its build here (LAB_DOCTOR_NN-name in its lab.mk).
lab_notes=$(${DOCTOR_MAKE:-make} -s --no-print-directory lab-doctor-lines 2>/dev/null || true)
# say_lab LAB TEXT: the lab's line, then its note.
say_lab() {
    printf '  %-22s %s\n' "$1" "$2"
    awk -F'\t' -v lab="$1" '$1 == lab { printf "  %-22s %s\n", "", $2 }' <<<"$lab_notes"
}
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    program="$build/ref/bin/$lab"
    [ -x "$program" ] || program="$build/student/bin/$lab"
    # Only what was asked is said: a program that is not built, or whose
    # --list fails, gets no count and no verdict.
    if [ ! -x "$program" ]; then
        if [ -n "${build_failed:-}" ]; then # make just failed: running it again would too
            say_lab "$lab" "does not build: see the errors under 'Building' (all in $build_failed)"
        elif have "$nvcc"; then
            say_lab "$lab" "not built yet: run make"
        else
            say_lab "$lab" "not built: it needs the CUDA toolkit (nvcc)"
        fi
        continue
    fi
    if ! list=$("$program" --list 2>"$errs"); then
        say_lab "$lab" "built, but '$program --list' failed: $(head -n 1 "$errs")"
        continue
    fi
    count=$(grep -c . <<<"$list")
    if [ "$asked" = no ]; then
        verdict="built, $count experiments; which run here is unknown (the GPUs were not asked)"
    elif [ "$n" -eq 0 ]; then
        verdict="built; its $count experiments skip here (no GPU)"
    elif [ "$n" -eq 1 ]; then
        verdict="runs here on one GPU (host link and loopback); its two-GPU experiments skip"
    elif [ -z "$pair" ]; then
        verdict="runs here; its peer experiments skip (no pair of GPUs has P2P both ways)"
    else
        verdict="runs here, every route (pair: GPU ${pair/ / and GPU })"
    fi
    say_lab "$lab" "$verdict"
done
if [ "$asked" = yes ] && [ "$n" -eq 0 ]; then
    echo
    echo "Without a GPU you can still build everything (make), check each lab's host-side TODOs"
    echo "(make check LAB=NN) and read the handouts; the GPU tests skip and say why."
elif [ "$asked" = no ] && have "$nvcc"; then
    echo
    echo "The tools are not built, so the GPUs and the labs were not asked: make doctor builds them."
elif [ "$asked" = no ]; then
    echo
    echo "Without the CUDA toolkit nothing here builds, so the GPUs and the labs were not asked:"
    echo "install it (the nvcc line above), then run make doctor again."
fi
