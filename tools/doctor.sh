#!/usr/bin/env bash
# doctor.sh: what can this machine do for the course? Toolchain, driver, GPUs,
# the P2P matrix, and which labs it can run; for anything missing, the command
# that installs it. Exits 0 whatever it finds: it reports, it does not judge.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
nvcc=${NVCC:-nvcc}
query="$build/tools/gpu-query"

section() { printf '\n== %s\n' "$1"; }
have() { command -v "$1" >/dev/null 2>&1; }

section "Toolchain"
if have "$nvcc"; then
    echo "nvcc:     $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')  ($(command -v "$nvcc"))"
else
    echo "nvcc:     missing — install the CUDA toolkit (Debian: sudo apt-get install nvidia-cuda-toolkit)"
fi
echo "gcc:      $(gcc -dumpfullversion 2>/dev/null || echo 'missing — sudo apt-get install gcc')"
echo "make:     $(make --version | head -n 1)"
for tool in bats unifdef gnuplot doxygen compute-sanitizer; do
    path=$(command -v "$tool" || ls "$(dirname "$(command -v "$nvcc" 2>/dev/null || echo /none)")/$tool" 2>/dev/null)
    if [ -n "$path" ]; then
        printf '%-9s %s\n' "$tool:" "$path"
    else
        case $tool in
            compute-sanitizer) hint="comes with the CUDA toolkit, next to nvcc (Debian: sudo apt-get install nvidia-cuda-toolkit); make sanitize needs it" ;;
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

section "Driver and GPUs"
if have nvidia-smi; then
    nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total --format=csv 2>/dev/null ||
        echo "nvidia-smi is here but could not read the GPUs"
else
    echo "nvidia-smi: not found (no NVIDIA driver on this machine)"
fi
n=$("$query" count 2>/tmp/doctor.$$) || n=0
why=$(cat /tmp/doctor.$$ 2>/dev/null); rm -f /tmp/doctor.$$
echo "CUDA runtime sees $n GPU(s)${why:+ — $why}"
[ "$n" -gt 0 ] && "$query" list | sed 's/^/  GPU /'

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

section "Labs on this machine"
for dir in labs/[0-9][0-9]-*/; do
    lab=$(basename "$dir")
    program="$build/ref/bin/$lab"
    [ -x "$program" ] || program="$build/student/bin/$lab"
    count=$("$program" --list 2>/dev/null | wc -l)
    if [ "$n" -eq 0 ]; then
        verdict="builds; its $count experiments skip here (no GPU)"
    elif [ "$n" -eq 1 ]; then
        verdict="runs here on one GPU (host link and loopback); its two-GPU experiments skip"
    elif [ -z "$pair" ]; then
        verdict="runs here; its peer experiments skip (no pair of GPUs has P2P both ways)"
    else
        verdict="runs here, every route (pair: GPU ${pair/ / and GPU })"
    fi
    printf '  %-22s %s\n' "$lab" "$verdict"
done
if [ "$n" -eq 0 ]; then
    echo
    echo "Without a GPU you can still build everything (make), run the host-side tests (make test)"
    echo "and read the handouts; the GPU tests skip and say why."
fi
