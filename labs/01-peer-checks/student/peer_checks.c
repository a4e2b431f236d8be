/**
 * @file peer_checks.c
 * @brief Lab 01, the student's file: TODOs 01.1-01.6 (contracts in
 *        harness/peer_checks.h).
 */
#include "peer_checks.h"
#include "cuda_check.h"
#include "todo.h"

#include <stdio.h>

cudaError_t describe_gpu(int dev, gpu_info *info)
{
    LAB_TODO("01.1");
}

cudaError_t check_access(int dev, int peer, int *can_access)
{
    LAB_TODO("01.2");
}

cudaError_t query_attributes(int dev, int peer, p2p_attributes *attr)
{
    LAB_TODO("01.3");
}

cudaError_t try_nonzero_flags(int dev, int peer, cudaError_t *result)
{
    LAB_TODO("01.4");
}

cudaError_t enable_twice(int dev, int peer, peer_calls *calls)
{
    LAB_TODO("01.5");
}

cudaError_t disable_twice(int dev, int peer, peer_calls *calls)
{
    LAB_TODO("01.6");
}
