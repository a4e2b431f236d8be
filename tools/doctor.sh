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
            compute-sanitizer) hint="part of the CUDA toolkit (used by make sanitize on a GPU machine)" ;;
            gnuplot) hint="sudo apt-get install gnuplot-nox" ;;
            *) hint="sudo apt-get install $tool" ;;
        esac
        printf '%-9s missing — %s\n' "$tool:" "$hint"
    fi
done
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
    needs=$(grep -m1 -oE '^Needs: .*' "$dir/README.md" 2>/dev/null | sed 's/^Needs: //')
    needs=${needs:-2 GPUs with peer access}
    if [ "$n" -lt 2 ]; then
        verdict="skips here: needs $needs, this machine has $n GPU(s)"
    elif [[ "$needs" == *peer* ]] && [ -z "$pair" ]; then
        verdict="skips here: needs $needs, no pair has it"
    else
        verdict="runs here${pair:+ (pair: GPU ${pair/ / and GPU })}"
    fi
    printf '  %-22s %s\n' "$lab" "$verdict"
done
echo
echo "Without GPUs you can still build everything (make), run the host-side tests (make test)"
echo "and read the handouts; the GPU tests skip and say why."
