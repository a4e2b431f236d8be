/**
 * @file counter_kernels.cu
 * @brief Lab 04: kernels that increment one 64-bit counter, from one thread
 *        at a time up to one atomic per block.
 *
 * Every variant adds the same number of 1s: blocks x 256 threads x iters.
 * What changes is how many atomics reach the counter, and so how many
 * cross the link when the counter lives on the other GPU.
 */
#include "kernels.h"
#include "lab.h"

/* One atomic add with the scope the caller asks for. Device scope
 * (atomicAdd) is atomic with respect to the threads of this GPU only;
 * system scope (atomicAdd_system) with respect to every thread of every
 * GPU and the CPU. */
static __device__ void add_scoped(unsigned long long *target, unsigned long long value,
                                  int system_scope)
{
    if (system_scope)
        atomicAdd_system(target, value);
    else
        atomicAdd(target, value);
}

/** @brief Step 04.2 (this kernel's body and its launch below): one atomic per
 * increment. same_address_mask is 0 at run time, so every thread adds to
 * counter[0]; since the compiler cannot prove that the address is the same
 * for the whole warp, it cannot merge the warp's atomics into one (which
 * it may do for an address it knows to be uniform). */
__global__ void count_per_thread_kernel(unsigned long long *counter,
                                        unsigned int same_address_mask, int iters,
                                        int system_scope)
{
}

void launch_count_per_thread(unsigned long long *counter, int blocks, int iters,
                             int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.2");
}

/** @brief Step 04.3 (body and launch): one atomic per warp and iteration. The
 * lanes that run together elect the lowest of them, which adds their
 * number. */
__global__ void count_warp_aggregated_kernel(unsigned long long *counter, int iters,
                                             int system_scope)
{
}

void launch_count_warp_aggregated(unsigned long long *counter, int blocks, int iters,
                                  int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.3");
}

/** @brief Step 04.4 (body and launch): one atomic per block. Each thread counts
 * in a register, each warp sums with shuffles, thread 0 sums the warps
 * and adds once. */
__global__ void count_block_aggregated_kernel(unsigned long long *counter, int iters,
                                              int system_scope)
{
}

void launch_count_block_aggregated(unsigned long long *counter, int blocks, int iters,
                                   int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.4");
}

/** @brief out[i] = x[i] + y[i] for n 64-bit values. */
__global__ void sum_u64_kernel(unsigned long long *out, const unsigned long long *x,
                               const unsigned long long *y, int n)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = x[i] + y[i];
}

void launch_sum_u64(unsigned long long *out, const unsigned long long *x,
                    const unsigned long long *y, int n, cudaStream_t stream)
{
    int blocks = (n + LAB04_THREADS - 1) / LAB04_THREADS;
    sum_u64_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(out, x, y, n);
    CUDA_CHECK_LAUNCH("sum_u64_kernel");
}
