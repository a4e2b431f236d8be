/**
 * @file peer_kernels.cu
 * @brief Lab 03, the student's kernels: TODOs 03.2 and 03.4-03.7 (contracts
 *        in harness/peer_kernels.h).
 *
 * The chapter's kernel (a thread per element, an int index) is right only
 * while the grid covers N and N fits an int. These loop with a grid stride:
 * any grid covers any n, and the loop condition is the bound check.
 */
#include "peer_kernels.h"
#include "todo.h"

/** TODO 03.2: dst[i] = 2 * src[i] for every i < n, grid-stride, size_t index. */
__global__ void scale_kernel(float *__restrict__ dst, const float *__restrict__ src, size_t n)
{
    /* TODO 03.2: the loop over i (see lab03_launch_scale's contract) */
}

cudaError_t lab03_launch_scale(float *dst, const float *src, size_t n, int max_blocks,
                               cudaStream_t stream)
{
    LAB_TODO("03.2");
}

cudaError_t lab03_pull(const lab03_job *job, cudaStream_t stream)
{
    LAB_TODO("03.4");
}

cudaError_t lab03_push(const lab03_job *job, cudaStream_t stream)
{
    LAB_TODO("03.4");
}

cudaError_t lab03_copy_in(const lab03_job *job, cudaStream_t stream)
{
    LAB_TODO("03.5");
}

cudaError_t lab03_copy_then_compute(const lab03_job *job, cudaStream_t stream)
{
    LAB_TODO("03.5");
}

/** TODO 03.6: n elements as n / stride rows of stride columns; thread t reads
 * column t / rows of row t % rows, so threads t and t + 1 read elements
 * stride apart. The writes stay in order. */
__global__ void strided_kernel(float *__restrict__ dst, const float *__restrict__ src,
                               unsigned int n, unsigned int stride)
{
    /* TODO 03.6: the loop over t (see lab03_launch_strided's contract) */
}

cudaError_t lab03_launch_strided(float *dst, const float *src, unsigned int n,
                                 unsigned int stride, int max_blocks, cudaStream_t stream)
{
    LAB_TODO("03.6");
}

void lab03_touch(float *dst, const float *src, size_t n, cudaError_t *launch,
                 cudaError_t *sync)
{
    LAB_TODO("03.7");
}
