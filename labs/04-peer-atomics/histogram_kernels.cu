/**
 * @file histogram_kernels.cu
 * @brief Lab 04: a 256-bin histogram of bytes, naive and privatized.
 *
 * Both kernels read the input as 32-bit words (four bytes per load) with a
 * grid-stride loop; the few bytes past the last whole word are read one by
 * one. They differ only in where each byte's count goes.
 */
#include "kernels.h"
#include "lab.h"

/** @brief Naive: every byte is one system-scope atomic on the shared histogram,
 * which for GPU b's half means one atomic across the link per byte. */
__global__ void histogram_naive_kernel(const unsigned char *data, size_t n,
                                       unsigned int *hist)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int *words = (const unsigned int *)data;
    const size_t n_words = n / 4;
    for (size_t i = first; i < n_words; i += stride) {
        unsigned int w = words[i];
        atomicAdd_system(&hist[w & 0xffu], 1u);
        atomicAdd_system(&hist[(w >> 8) & 0xffu], 1u);
        atomicAdd_system(&hist[(w >> 16) & 0xffu], 1u);
        atomicAdd_system(&hist[w >> 24], 1u);
    }
    for (size_t i = n_words * 4 + first; i < n; i += stride)
        atomicAdd_system(&hist[data[i]], 1u);
}

void launch_histogram_naive(const unsigned char *data, size_t n, unsigned int *hist,
                            int blocks, cudaStream_t stream)
{
    histogram_naive_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(data, n, hist);
    CUDA_CHECK_LAUNCH("histogram_naive_kernel");
}

/** @brief Step 04.6 (body and launch): privatized. Each block counts into its own
 * histogram in shared memory (on-chip, block scope), then adds its 256
 * totals to this GPU's partial histogram: 256 global atomics per block,
 * none of them across the link. The two GPUs' partials are combined
 * afterwards, by one peer copy and one addition on GPU a. */
__global__ void histogram_privatized_kernel(const unsigned char *data, size_t n,
                                            unsigned int *partial)
{
}

void launch_histogram_privatized(const unsigned char *data, size_t n,
                                 unsigned int *partial, int blocks, cudaStream_t stream)
{
    LAB_TODO("04.6");
}

/** @brief out[i] = x[i] + y[i] for n 32-bit values. */
__global__ void sum_u32_kernel(unsigned int *out, const unsigned int *x,
                               const unsigned int *y, int n)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = x[i] + y[i];
}

void launch_sum_u32(unsigned int *out, const unsigned int *x, const unsigned int *y,
                    int n, cudaStream_t stream)
{
    int blocks = (n + LAB04_THREADS - 1) / LAB04_THREADS;
    sum_u32_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(out, x, y, n);
    CUDA_CHECK_LAUNCH("sum_u32_kernel");
}
