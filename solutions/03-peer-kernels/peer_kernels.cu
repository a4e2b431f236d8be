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
/* Contract of TODO 03.2 (in full: harness/peer_kernels.h); each clause and its test:
 * - dst[i] = 2 src[i] for every i < n and nothing beyond; checked by: TODO 03.2: the bound check
 *   holds; TODOs 03.2, 03.3, 03.4 and 03.6: odd sizes
 * - any grid covers any n (one element, partial warps and blocks); checked by: TODOs 03.2, 03.3,
 *   03.4 and 03.6: odd sizes
 * - the launch goes on the caller's stream; its error is returned; checked by: TODOs 03.1, 03.2,
 *   03.4 and 03.5: every variant
 * - one kernel on lab03_grid(n, LAB03_THREADS, max_blocks) blocks of LAB03_THREADS; checked by:
 *   TODOs 03.2 and 03.6: each launch is one kernel
 */
__global__ void scale_kernel(float *__restrict__ dst, const float *__restrict__ src, size_t n)
{
#ifndef LAB_SKELETON
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        dst[i] = 2.0f * src[i];
#else
    /* TODO 03.2: the loop over i (see lab03_launch_scale's contract) */
#endif
}

cudaError_t lab03_launch_scale(float *dst, const float *src, size_t n, int max_blocks,
                               cudaStream_t stream)
{
#ifndef LAB_SKELETON
    scale_kernel<<<lab03_grid(n, LAB03_THREADS, max_blocks), LAB03_THREADS, 0, stream>>>(dst,
                                                                                       src, n);
    return cudaGetLastError();
#else
    LAB_TODO("03.2");
#endif
}

/* Contract of TODO 03.4 (in full: harness/peer_kernels.h); each clause and its test:
 * - pull: near = 2 far (loads cross the route); checked by: TODOs 03.1, 03.2, 03.4 and 03.5: every
 *   variant
 * - push: far = 2 near (stores cross the route); checked by: TODOs 03.1, 03.2, 03.4 and 03.5:
 *   every variant; TODOs 03.2, 03.3, 03.4 and 03.6: odd sizes
 */
cudaError_t lab03_pull(const lab03_job *job, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    return lab03_launch_scale(job->near, job->far, job->n, job->max_blocks, stream);
#else
    LAB_TODO("03.4");
#endif
}

cudaError_t lab03_push(const lab03_job *job, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    return lab03_launch_scale(job->far, job->near, job->n, job->max_blocks, stream);
#else
    LAB_TODO("03.4");
#endif
}

/* Contract of TODO 03.5 (in full: harness/peer_kernels.h); each clause and its test:
 * - copy_in: stage = far, n floats, by the copy engines, on the caller's stream; checked by: TODOs
 *   03.1, 03.2, 03.4 and 03.5: every variant
 * - copy then compute: near = 2 stage after the copy, costing at least the copy; checked by: TODO
 *   03.5: copy-then-compute costs
 */
cudaError_t lab03_copy_in(const lab03_job *job, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    const size_t bytes = job->n * sizeof(float);
    if (job->far_dev < 0)
        return cudaMemcpyAsync(job->stage, job->far, bytes, cudaMemcpyHostToDevice, stream);
    return cudaMemcpyPeerAsync(job->stage, job->near_dev, job->far, job->far_dev, bytes,
                               stream);
#else
    LAB_TODO("03.5");
#endif
}

cudaError_t lab03_copy_then_compute(const lab03_job *job, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    const cudaError_t err = lab03_copy_in(job, stream);
    if (err != cudaSuccess)
        return err;
    return lab03_launch_scale(job->near, job->stage, job->n, job->max_blocks, stream);
#else
    LAB_TODO("03.5");
#endif
}

/** TODO 03.6: n elements as n / stride rows of stride columns; thread t reads
 * column t / rows of row t % rows, so threads t and t + 1 read elements
 * stride apart. The writes stay in order. */
/* Contract of TODO 03.6 (in full: harness/peer_kernels.h); each clause and its test:
 * - dst[t] = 2 src[(t % rows) stride + t / rows]: the writes in order, the reads stride apart;
 *   checked by: TODOs 03.1, 03.2, 03.4 and 03.5: every variant; TODOs 03.2, 03.3, 03.4 and 03.6:
 *   odd sizes
 * - coalesced reads beat strided ones over every link; checked by: TODO 03.6: coalesced reads beat
 * - any n below 2^31, whatever n x stride; launched on lab03_grid's blocks; checked by: TODOs 03.2
 *   and 03.6: each launch is one kernel
 */
__global__ void strided_kernel(float *__restrict__ dst, const float *__restrict__ src,
                               unsigned int n, unsigned int stride)
{
#ifndef LAB_SKELETON
    const unsigned int rows = n / stride, step = gridDim.x * blockDim.x;
    for (unsigned int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        dst[t] = 2.0f * src[(t % rows) * stride + t / rows];
#else
    /* TODO 03.6: the loop over t (see lab03_launch_strided's contract) */
#endif
}

cudaError_t lab03_launch_strided(float *dst, const float *src, unsigned int n,
                                 unsigned int stride, int max_blocks, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    strided_kernel<<<lab03_grid(n, LAB03_THREADS, max_blocks), LAB03_THREADS, 0, stream>>>(
        dst, src, n, stride);
    return cudaGetLastError();
#else
    LAB_TODO("03.6");
#endif
}

/* Contract of TODO 03.7 (in full: harness/peer_kernels.h); each clause and its test:
 * - *launch is the launch's status, *sync that of cudaDeviceSynchronize after it; checked by: TODO
 *   03.7: the child that touches
 * - no CUDA_CHECK: a fault is reported, the child does not die at it; checked by: TODO 03.7: the
 *   child that touches
 */
void lab03_touch(float *dst, const float *src, size_t n, cudaError_t *launch,
                 cudaError_t *sync)
{
#ifndef LAB_SKELETON
    /* A bad address fails the launch only if the runtime can tell at once; a
     * fault while the kernel runs shows when we wait for it. */
    *launch = lab03_launch_scale(dst, src, n, 1024, 0);
    *sync = cudaDeviceSynchronize();
#else
    LAB_TODO("03.7");
#endif
}
