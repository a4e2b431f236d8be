/**
 * @file launch.cu
 * @brief Lab 04's own kernels: the naive histogram (the baseline of the student's privatized
 *        one), the additions that combine per-GPU partials, and the flag that starts the CPU.
 */
#include "lab04.h"

/** @brief Every byte one system-scope atomic on the shared bins: for a peer's
 *         or the host's bins, one atomic across the link per byte. */
__global__ void histogram_naive_kernel(const unsigned char *data, size_t n, unsigned int *hist)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int *words = (const unsigned int *)data;
    for (size_t i = first; i < n / 4; i += stride)
        for (unsigned int w = words[i], k = 0; k < 4; k++, w >>= 8)
            atomicAdd_system(&hist[w & 0xffu], 1u);
    for (size_t i = n / 4 * 4 + first; i < n; i += stride)
        atomicAdd_system(&hist[data[i]], 1u);
}

cudaError_t lab04_histogram_naive(const unsigned char *data, size_t n, unsigned int *hist,
                                  lab04_shape shape, cudaStream_t stream)
{
    histogram_naive_kernel<<<shape.blocks, shape.threads, 0, stream>>>(data, n, hist);
    return cudaGetLastError();
}

/** @brief out[0] = x[0] + y[0]: a's total plus b's, once both arrived. */
__global__ void sum_u64_kernel(unsigned long long *out, const unsigned long long *x,
                               const unsigned long long *y)
{
    out[0] = x[0] + y[0];
}

cudaError_t lab04_sum_u64(unsigned long long *out, const unsigned long long *x,
                          const unsigned long long *y, cudaStream_t stream)
{
    sum_u64_kernel<<<1, 1, 0, stream>>>(out, x, y);
    return cudaGetLastError();
}

/** @brief out[bin] = x[bin] + y[bin], one thread per bin. */
__global__ void sum_bins_kernel(unsigned int *out, const unsigned int *x, const unsigned int *y)
{
    out[threadIdx.x] = x[threadIdx.x] + y[threadIdx.x];
}

cudaError_t lab04_sum_bins(unsigned int *out, const unsigned int *x, const unsigned int *y,
                           cudaStream_t stream)
{
    sum_bins_kernel<<<1, LAB04_BINS, 0, stream>>>(out, x, y);
    return cudaGetLastError();
}

/** @brief Tell the host, through mapped memory, that the stream got here. */
__global__ void raise_flag_kernel(volatile unsigned int *flag)
{
    *flag = 1u;
    __threadfence_system();
}

cudaError_t lab04_raise_flag(volatile unsigned int *flag, cudaStream_t stream)
{
    raise_flag_kernel<<<1, 1, 0, stream>>>(flag);
    return cudaGetLastError();
}
