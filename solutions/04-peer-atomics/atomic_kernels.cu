/**
 * @file atomic_kernels.cu
 * @brief Lab 04, the student's kernels: TODOs 04.2, 04.3, 04.4, 04.6 and
 *        04.7 (contracts in harness/atomics.h). Each TODO is a kernel and
 *        its launcher; write the kernel's body, then the launch.
 */
#include "atomics.h"
#include "todo.h"

/** @brief TODO 04.2: every thread, every iteration, one atomic. */
/* Contract of TODO 04.2 (in full: harness/atomics.h); each clause and its test:
 * - exactly threads x blocks x iters increments, one atomic each, of the scope asked; checked by:
 *   TODO 04.2, 04.3, 04.4: every counter counts exactly
 * - system scope where two GPUs share the counter (in the PTX); checked by: are system-scope (in
 *   the compiled PTX)
 */
__global__ void count_per_thread_kernel(unsigned long long *counter,
                                        unsigned int same_address_mask, int iters,
                                        int system_scope)
{
#ifndef LAB_SKELETON
    unsigned long long *target = counter + (threadIdx.x & same_address_mask);
    for (int i = 0; i < iters; i++)
        lab04_add(target, 1ULL, system_scope);
#else
    /* TODO 04.2: iters scoped atomic adds of 1 to counter[threadIdx.x & same_address_mask] */
#endif
}

cudaError_t launch_count_per_thread(unsigned long long *counter, lab04_shape shape,
                                    int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_per_thread_kernel<<<shape.blocks, shape.threads, 0, stream>>>(counter, 0u, shape.iters,
                                                                        system_scope);
    return cudaGetLastError();
#else
    LAB_TODO("04.2");
#endif
}

/** @brief TODO 04.3: the lanes that run together elect one, which adds for all. */
/* Contract of TODO 04.3 (in full: harness/atomics.h); each clause and its test:
 * - the lowest active lane adds the warp's count: exact with partial warps; checked by: TODO 04.3,
 *   04.4: blocks of 33 threads
 * - one atomic per warp and iteration; checked by: TODO 04.2, 04.3, 04.4: every counter counts
 *   exactly
 */
__global__ void count_warp_aggregated_kernel(unsigned long long *counter, int iters,
                                             int system_scope)
{
#ifndef LAB_SKELETON
    const int lane = (int)(threadIdx.x & 31u);
    for (int i = 0; i < iters; i++) {
        unsigned int active = __activemask();
        if (lane == __ffs((int)active) - 1)
            lab04_add(counter, (unsigned long long)__popc(active), system_scope);
    }
#else
    /* TODO 04.3: per iteration, the lowest active lane adds __popc(__activemask()) */
#endif
}

cudaError_t launch_count_warp_aggregated(unsigned long long *counter, lab04_shape shape,
                                         int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_warp_aggregated_kernel<<<shape.blocks, shape.threads, 0, stream>>>(
        counter, shape.iters, system_scope);
    return cudaGetLastError();
#else
    LAB_TODO("04.3");
#endif
}

/** @brief TODO 04.4: the block sums in shared memory, thread 0 adds once. */
/* Contract of TODO 04.4 (in full: harness/atomics.h); each clause and its test:
 * - the block sums in shared memory; thread 0 adds once, after the barrier; checked by: TODO 04.3,
 *   04.4: blocks of 33 threads; TODO 04.2, 04.3, 04.4: every counter counts exactly
 */
__global__ void count_block_aggregated_kernel(unsigned long long *counter, int iters,
                                              int system_scope)
{
#ifndef LAB_SKELETON
    __shared__ unsigned long long block_total;
    if (threadIdx.x == 0)
        block_total = 0;
    __syncthreads();
    unsigned long long mine = 0;
    for (int i = 0; i < iters; i++)
        mine += 1ULL;
    atomicAdd_block(&block_total, mine); /* on-chip, among this block only */
    __syncthreads();
    if (threadIdx.x == 0)
        lab04_add(counter, block_total, system_scope);
#else
    /* TODO 04.4: count in the block, then one scoped atomic per block */
#endif
}

cudaError_t launch_count_block_aggregated(unsigned long long *counter, lab04_shape shape,
                                          int system_scope, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    count_block_aggregated_kernel<<<shape.blocks, shape.threads, 0, stream>>>(
        counter, shape.iters, system_scope);
    return cudaGetLastError();
#else
    LAB_TODO("04.4");
#endif
}

/** @brief TODO 04.6: per-block bins in shared memory, merged once per bin. */
/* Contract of TODO 04.6 (in full: harness/atomics.h); each clause and its test:
 * - bit-exact for every size, tails included; checked by: TODO 04.6: the privatized histogram is
 *   bit-exact
 * - shared bins merged once per bin after a barrier, and faster than naive atomics; checked by:
 *   TODO 04.6: the privatized histogram is bit-exact
 * - any n, data 4-byte aligned only, any threads per block; added to what partial holds; checked
 *   by: TODO 04.6: the privatized histogram is bit-exact
 */
__global__ void histogram_privatized_kernel(const unsigned char *data, size_t n,
                                            unsigned int *partial)
{
#ifndef LAB_SKELETON
    __shared__ unsigned int local[LAB04_BINS];
    for (unsigned int bin = threadIdx.x; bin < LAB04_BINS; bin += blockDim.x)
        local[bin] = 0u;
    __syncthreads();
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int *words = (const unsigned int *)data;
    for (size_t i = first; i < n / 4; i += stride)
        for (unsigned int w = words[i], k = 0; k < 4; k++, w >>= 8)
            atomicAdd_block(&local[w & 0xffu], 1u);
    for (size_t i = n / 4 * 4 + first; i < n; i += stride)
        atomicAdd_block(&local[data[i]], 1u);
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < LAB04_BINS; bin += blockDim.x)
        if (local[bin] != 0u)
            atomicAdd(&partial[bin], local[bin]);
#else
    /* TODO 04.6: shared bins (atomicAdd_block), then one atomicAdd per non-zero bin */
#endif
}

cudaError_t launch_histogram_privatized(const unsigned char *data, size_t n,
                                        unsigned int *partial, lab04_shape shape,
                                        cudaStream_t stream)
{
#ifndef LAB_SKELETON
    histogram_privatized_kernel<<<shape.blocks, shape.threads, 0, stream>>>(data, n, partial);
    return cudaGetLastError();
#else
    LAB_TODO("04.6");
#endif
}

/** @brief TODO 04.7: one thread; each atomic's old value names the next slot. */
/* Contract of TODO 04.7 (in full: harness/atomics.h); each clause and its test:
 * - one thread; each atomic's old value names the next slot; *final_index is the last; checked by:
 *   TODO 04.7: an atomic over the host link
 * - system scope when system_scope asks (in the PTX); checked by: are system-scope (in the
 *   compiled PTX)
 * - a far atomic takes longer than a local one; checked by: TODO 04.7: an atomic over the host
 *   link
 * - the next index is the old value's low 32 bits masked with LAB04_CHAIN_SLOTS - 1; checked by:
 *   TODO 04.7: an atomic over the host link
 */
__global__ void atomic_chain_kernel(unsigned long long *slots, int steps, int system_scope,
                                    unsigned int *final_index)
{
#ifndef LAB_SKELETON
    unsigned int index = 0;
    for (int s = 0; s < steps; s++) {
        unsigned long long old = system_scope ? atomicAdd_system(&slots[index], LAB04_VISIT)
                                              : atomicAdd(&slots[index], LAB04_VISIT);
        /* The mask keeps a damaged slot from sending the walk out of bounds. */
        index = (unsigned int)(old & 0xffffffffULL) & (LAB04_CHAIN_SLOTS - 1u);
    }
    *final_index = index;
#else
    /* TODO 04.7: steps dependent atomics from slot 0, then *final_index = index */
#endif
}

cudaError_t launch_atomic_chain(unsigned long long *slots, int steps, int system_scope,
                                unsigned int *final_index, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    atomic_chain_kernel<<<1, 1, 0, stream>>>(slots, steps, system_scope, final_index);
    return cudaGetLastError();
#else
    LAB_TODO("04.7");
#endif
}
