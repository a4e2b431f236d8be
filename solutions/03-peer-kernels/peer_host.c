/**
 * @file peer_host.c
 * @brief Lab 03, the student's host-side file: TODOs 03.1 and 03.3
 *        (contracts in harness/peer_kernels.h).
 */
#include "peer_kernels.h"
#include "devices.h"
#include "todo.h"

cudaError_t lab03_peer_both(int a, int b, bool on)
{
#ifndef LAB_SKELETON
    if (a < 0 || b < 0 || a == b)
        return cudaErrorInvalidDevice;
    /* Access is per direction: a pull on a needs a -> b, a push from b needs b -> a. */
    const cudaError_t err = lab_peer_access(a, b, on);
    return err != cudaSuccess ? err : lab_peer_access(b, a, on);
#else
    LAB_TODO("03.1");
#endif
}

int lab03_grid(size_t n, int threads, int max_blocks)
{
#ifndef LAB_SKELETON
    if (n == 0 || threads < 1 || max_blocks < 1)
        return 0;
    /* n / threads rounded up, without n + threads - 1 (it wraps near SIZE_MAX) */
    const size_t blocks = n / (size_t)threads + (n % (size_t)threads != 0);
    return blocks < (size_t)max_blocks ? (int)blocks : max_blocks;
#else
    LAB_TODO("03.3");
#endif
}
