#!/usr/bin/env bash
# cuda-arch.sh NVCC: print the SM versions to build for, e.g. "90" or "75 80 86 89 90".
# With GPUs present: the compute capabilities of those GPUs. Without: every
# architecture from Volta to Hopper that this nvcc still supports (CUDA 13
# dropped Volta). The Makefile adds PTX for the newest one so that newer GPUs
# can still run the code through the driver's JIT.
set -u
nvcc=${1:-nvcc}
if command -v nvidia-smi >/dev/null 2>&1; then
    caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
           tr -d ' .' | grep -E '^[0-9]+$' | sort -un | tr '\n' ' ')
    if [ -n "$caps" ]; then
        echo "${caps% }"
        exit 0
    fi
fi
supported=$("$nvcc" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_//p' | tr '\n' ' ')
wanted=""
for sm in 70 75 80 86 89 90; do
    case " $supported " in *" $sm "*) wanted="$wanted $sm" ;; esac
done
[ -n "$wanted" ] || wanted=" 90"
echo "${wanted# }"
