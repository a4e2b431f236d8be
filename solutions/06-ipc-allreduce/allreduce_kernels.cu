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
#ifndef LAB_SKELETON
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        local[i] += from_left[i];
#else
    /* TODO 06.5: a grid-stride loop: local[i] += from_left[i] for every i < count */
#endif
}

cudaError_t launch_ring_reduce(float *local, const float *from_left, size_t count,
                               cudaStream_t stream)
{
#ifndef LAB_SKELETON
    if (count == 0)
        return cudaSuccess;
    size_t blocks = (count + LAB06_THREADS - 1) / LAB06_THREADS;
    ring_reduce_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), LAB06_THREADS, 0, stream>>>(
        local, from_left, count);
    return cudaGetLastError();
#else
    LAB_TODO("06.5");
#endif
}

/** @brief TODO 06.6: every rank's element i, summed into out[i]. */
__global__ void one_shot_kernel(float *out, lab06_inputs in, size_t count)
{
#ifndef LAB_SKELETON
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        float sum = 0.0f;
        for (int r = 0; r < in.nranks; r++)
            sum += in.ptr[r][i];
        out[i] = sum;
    }
#else
    /* TODO 06.6: a grid-stride loop: out[i] = sum over r < in.nranks of in.ptr[r][i] */
#endif
}

cudaError_t launch_one_shot(float *out, lab06_inputs in, size_t count, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    if (count == 0)
        return cudaSuccess;
    size_t blocks = (count + LAB06_THREADS - 1) / LAB06_THREADS;
    one_shot_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), LAB06_THREADS, 0, stream>>>(
        out, in, count);
    return cudaGetLastError();
#else
    LAB_TODO("06.6");
#endif
}
