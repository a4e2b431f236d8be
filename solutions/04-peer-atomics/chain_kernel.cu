/**
 * @file chain_kernel.cu
 * @brief Lab 04: the latency of one atomic, measured as a chain of atomics
 *        where each one needs the answer of the one before.
 *
 * A single thread cannot overlap dependent operations, so the time of the
 * chain divided by its length is the time of one atomic's round trip:
 * issue, travel to the memory that owns the slot, read-modify-write, and
 * the old value's way back.
 */
#include "kernels.h"
#include "lab.h"

/** A visit adds 1 to a slot's high 32 bits; the low 32 bits keep the link. */
#define LAB04_VISIT (1ULL << 32)

/** @brief Step 04.7 (body and launch): the dependent chain, run by one
 *  thread. */
__global__ void atomic_chain_kernel(unsigned long long *slots, int steps, int system_scope,
                                    unsigned int *final_index)
{
#ifndef LAB_SKELETON
    unsigned int index = 0;
    for (int s = 0; s < steps; s++) {
        unsigned long long old = system_scope ? atomicAdd_system(&slots[index], LAB04_VISIT)
                                              : atomicAdd(&slots[index], LAB04_VISIT);
        /* The mask keeps a damaged slot from sending the thread out of
         * bounds; the host checks where the chain really ended. */
        index = (unsigned int)(old & 0xffffffffULL) & (LAB04_CHAIN_SLOTS - 1);
    }
    *final_index = index;
#endif
}

void launch_atomic_chain(unsigned long long *slots, int steps, int system_scope,
                         unsigned int *final_index, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    atomic_chain_kernel<<<1, 1, 0, stream>>>(slots, steps, system_scope, final_index);
    CUDA_CHECK_LAUNCH("atomic_chain_kernel");
#else
    LAB_TODO("04.7");
#endif
}
