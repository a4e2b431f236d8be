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
    /* TODO 04.2: iters scoped atomic adds of 1 to counter[threadIdx.x & same_address_mask] */
}

cudaError_t launch_count_per_thread(unsigned long long *counter, lab04_shape shape,
                                    int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.2");
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
    /* TODO 04.3: per iteration, the lowest active lane adds __popc(__activemask()) */
}

cudaError_t launch_count_warp_aggregated(unsigned long long *counter, lab04_shape shape,
                                         int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.3");
}

/** @brief TODO 04.4: the block sums in shared memory, thread 0 adds once. */
/* Contract of TODO 04.4 (in full: harness/atomics.h); each clause and its test:
 * - the block sums in shared memory; thread 0 adds once, after the barrier; checked by: TODO 04.3,
 *   04.4: blocks of 33 threads; TODO 04.2, 04.3, 04.4: every counter counts exactly
 */
__global__ void count_block_aggregated_kernel(unsigned long long *counter, int iters,
                                              int system_scope)
{
    /* TODO 04.4: count in the block, then one scoped atomic per block */
}

cudaError_t launch_count_block_aggregated(unsigned long long *counter, lab04_shape shape,
                                          int system_scope, cudaStream_t stream)
{
    LAB_TODO("04.4");
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
    /* TODO 04.6: shared bins (atomicAdd_block), then one atomicAdd per non-zero bin */
}

cudaError_t launch_histogram_privatized(const unsigned char *data, size_t n,
                                        unsigned int *partial, lab04_shape shape,
                                        cudaStream_t stream)
{
    LAB_TODO("04.6");
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
    /* TODO 04.7: steps dependent atomics from slot 0, then *final_index = index */
}

cudaError_t launch_atomic_chain(unsigned long long *slots, int steps, int system_scope,
                                unsigned int *final_index, cudaStream_t stream)
{
    LAB_TODO("04.7");
}
