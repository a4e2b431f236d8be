/**
 * @file kernels.cu
 * @brief Lab 03: the chapter's kernel (local = 2 x peer) and a strided
 *        variant of it that reads with a chosen distance between threads.
 *
 * Both kernels loop over their elements with a grid stride, so a grid of
 * any size covers any n, and check the bound, so no thread touches an
 * element past n. The chapter's version (one thread per element, an int
 * index, `if (idx < N)`) is correct only while the grid has a thread for
 * every element and N fits in an int.
 */
#include "kernels.h"
#include "lab.h"

int lab03_grid(size_t n, int max_blocks)
{
    size_t blocks = (n + LAB03_THREADS - 1) / LAB03_THREADS;
    if (blocks > (size_t)max_blocks)
        blocks = (size_t)max_blocks;
    return blocks < 1 ? 1 : (int)blocks;
}

/** @brief Step 03.2 (this body and the launch below): the chapter's kernel,
 * dst[i] = 2 * src[i], grid-stride and bounds-checked. Whether src or dst
 * lives on this GPU or on its peer is decided by the caller's pointers. */
__global__ void scale_kernel(float *__restrict__ dst, const float *__restrict__ src,
                             size_t n)
{
}

void launch_scale_raw(float *dst, const float *src, size_t n, int max_blocks,
                      cudaStream_t stream)
{
    LAB_TODO("03.2");
}

void launch_scale(float *dst, const float *src, size_t n, int max_blocks,
                  cudaStream_t stream)
{
    launch_scale_raw(dst, src, n, max_blocks, stream);
    CUDA_CHECK_LAUNCH("scale_kernel");
}

/** @brief Step 03.6 (this body and the launch below): the same work with a
 * different order of reads. The n elements are seen as n / stride rows of
 * stride columns; thread t reads column t / rows of row t % rows, so
 * threads t and t + 1 (same column, next row) read elements stride apart.
 * The writes stay in order: only the reads change their pattern. */
__global__ void strided_scale_kernel(float *__restrict__ dst, const float *__restrict__ src,
                                     unsigned int n, unsigned int stride)
{
}

void launch_strided_scale(float *dst, const float *src, unsigned int n,
                          unsigned int stride, int max_blocks, cudaStream_t stream)
{
    LAB_TODO("03.6");
}
