/**
 * @file allreduce_kernels.cu
 * @brief Lab 06, the student's kernels: TODOs 06.5 and 06.6 (contracts in
 *        harness/allreduce.h). Each TODO is a kernel and its launcher.
 */
#include "allreduce.h"
#include "todo.h"

/** Threads per block of both kernels. */
#define LAB06_THREADS 256

/** @brief TODO 06.5: add the left neighbour's chunk into this rank's, any count. */
__global__ void ring_reduce_kernel(float *local, const float *from_left, size_t count)
{
    /* TODO 06.5: a grid-stride loop: local[i] += from_left[i] for every i < count */
}

cudaError_t launch_ring_reduce(float *local, const float *from_left, size_t count,
                               cudaStream_t stream)
{
    LAB_TODO("06.5");
}

/** @brief TODO 06.6: every rank's element i, summed into out[i]. */
__global__ void one_shot_kernel(float *out, lab06_inputs in, size_t count)
{
    /* TODO 06.6: a grid-stride loop: out[i] = sum over r < in.nranks of in.ptr[r][i] */
}

cudaError_t launch_one_shot(float *out, lab06_inputs in, size_t count, cudaStream_t stream)
{
    LAB_TODO("06.6");
}
