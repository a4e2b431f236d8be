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
    LAB_TODO("03.1");
}

int lab03_grid(size_t n, int threads, int max_blocks)
{
    LAB_TODO("03.3");
}
