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
#ifndef LAB_SKELETON
    unsigned long long *target = counter + (threadIdx.x & same_address_mask);
    for (int i = 0; i < iters; i++)
        add_scoped(target, 1ULL, system_scope);
#endif
}

void launch_count_per_thread(unsigned long long *counter, int blocks, int iters,
                             int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_per_thread_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(counter, 0u, iters,
                                                                  system_scope);
    CUDA_CHECK_LAUNCH("count_per_thread_kernel");
#else
    LAB_TODO("04.2");
#endif
}

/** @brief Step 04.3 (body and launch): one atomic per warp and iteration. The
 * lanes that run together elect the lowest of them, which adds their
 * number. */
__global__ void count_warp_aggregated_kernel(unsigned long long *counter, int iters,
                                             int system_scope)
{
#ifndef LAB_SKELETON
    const int lane = (int)(threadIdx.x & 31u);
    for (int i = 0; i < iters; i++) {
        unsigned int active = __activemask();
        int leader = __ffs((int)active) - 1;
        if (lane == leader)
            add_scoped(counter, (unsigned long long)__popc(active), system_scope);
    }
#endif
}

void launch_count_warp_aggregated(unsigned long long *counter, int blocks, int iters,
                                  int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_warp_aggregated_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(counter, iters,
                                                                       system_scope);
    CUDA_CHECK_LAUNCH("count_warp_aggregated_kernel");
#else
    LAB_TODO("04.3");
#endif
}

/** @brief Step 04.4 (body and launch): one atomic per block. Each thread counts
 * in a register, each warp sums with shuffles, thread 0 sums the warps
 * and adds once. */
__global__ void count_block_aggregated_kernel(unsigned long long *counter, int iters,
                                              int system_scope)
{
#ifndef LAB_SKELETON
    __shared__ unsigned long long warp_sums[LAB04_THREADS / 32];
    unsigned long long mine = 0;
    for (int i = 0; i < iters; i++)
        mine += 1ULL;
    for (int offset = 16; offset > 0; offset /= 2)
        mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if ((threadIdx.x & 31u) == 0)
        warp_sums[threadIdx.x / 32] = mine;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long block_total = 0;
        for (unsigned int w = 0; w < blockDim.x / 32; w++)
            block_total += warp_sums[w];
        add_scoped(counter, block_total, system_scope);
    }
#endif
}

void launch_count_block_aggregated(unsigned long long *counter, int blocks, int iters,
                                   int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_block_aggregated_kernel<<<blocks, LAB04_THREADS, 0, stream>>>(counter, iters,
                                                                        system_scope);
    CUDA_CHECK_LAUNCH("count_block_aggregated_kernel");
#else
    LAB_TODO("04.4");
#endif
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
