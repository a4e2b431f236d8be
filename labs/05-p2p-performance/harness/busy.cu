/**
 * @file busy.cu
 * @brief A busy kernel for the default-stream pitfall (harness, not a TODO).
 */
#include "lab05.h"

/* One thread busy for ns nanoseconds of %globaltimer. */
static __global__ void busy_kernel(unsigned long long ns)
{
    const unsigned long long start = lab05_now_ns();
    while (lab05_now_ns() - start < ns) {
    }
}

cudaError_t lab05_launch_busy(unsigned long long ns, cudaStream_t stream)
{
    busy_kernel<<<1, 1, 0, stream>>>(ns);
    return cudaGetLastError();
}
