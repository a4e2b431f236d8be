/**
 * @file kernels.h
 * @brief Lab 04: launchers of the kernels, callable from C.
 *
 * Each launcher enqueues one kernel on @p stream (a stream of the current
 * device) and checks the launch. A pointer may point into the current
 * device's memory or, with peer access enabled, into the other GPU's.
 */
#ifndef LAB04_KERNELS_H
#define LAB04_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/** Threads per block of every kernel except the latency chain. */
#define LAB04_THREADS 256
/** Bins of the histogram: one per byte value. */
#define LAB04_BINS 256
/** Slots of the latency chain (a power of two). */
#define LAB04_CHAIN_SLOTS 1024

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Every thread adds 1 to @p counter, @p iters times, with its own
 *        atomic each time (TODO 04.2).
 * @param counter      one 64-bit counter, local or on the peer GPU
 * @param blocks       blocks of LAB04_THREADS threads
 * @param iters        increments per thread
 * @param system_scope 1: atomicAdd_system; 0: atomicAdd (device scope)
 * @param stream       a stream of the current device
 */
void launch_count_per_thread(unsigned long long *counter, int blocks, int iters,
                             int system_scope, cudaStream_t stream);

/**
 * @brief The same increments, but each warp adds its active lanes' share
 *        with one atomic per iteration (TODO 04.3).
 *
 * Same parameters as launch_count_per_thread().
 */
void launch_count_warp_aggregated(unsigned long long *counter, int blocks, int iters,
                                  int system_scope, cudaStream_t stream);

/**
 * @brief The same increments, counted inside each block and added with one
 *        atomic per block (TODO 04.4).
 *
 * Same parameters as launch_count_per_thread().
 */
void launch_count_block_aggregated(unsigned long long *counter, int blocks, int iters,
                                   int system_scope, cudaStream_t stream);

/**
 * @brief out[i] = x[i] + y[i] for @p n 64-bit values, on one GPU.
 */
void launch_sum_u64(unsigned long long *out, const unsigned long long *x,
                    const unsigned long long *y, int n, cudaStream_t stream);

/**
 * @brief out[i] = x[i] + y[i] for @p n 32-bit values, on one GPU.
 */
void launch_sum_u32(unsigned int *out, const unsigned int *x, const unsigned int *y,
                    int n, cudaStream_t stream);

/**
 * @brief Histogram of @p n bytes with one system-scope atomic per byte,
 *        straight into @p hist (LAB04_BINS counters, possibly on the peer).
 */
void launch_histogram_naive(const unsigned char *data, size_t n, unsigned int *hist,
                            int blocks, cudaStream_t stream);

/**
 * @brief Histogram of @p n bytes: one private histogram per block in shared
 *        memory, merged into @p partial (this GPU's memory) at the end
 *        (TODO 04.6).
 */
void launch_histogram_privatized(const unsigned char *data, size_t n,
                                 unsigned int *partial, int blocks, cudaStream_t stream);

/**
 * @brief One thread follows a chain of @p steps dependent atomics through
 *        @p slots (TODO 04.7).
 *
 * Each slot holds the index of the next slot in its low 32 bits; every
 * visit adds 1 to its high 32 bits, and the old value the atomic returns
 * gives the next index. The last index reached is written to
 * @p final_index.
 *
 * @param slots        the chain, local or on the peer GPU
 * @param steps        number of atomics, each waiting for the one before
 * @param system_scope 1: atomicAdd_system; 0: atomicAdd
 * @param final_index  one unsigned int in the current device's memory
 * @param stream       a stream of the current device
 */
void launch_atomic_chain(unsigned long long *slots, int steps, int system_scope,
                         unsigned int *final_index, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* LAB04_KERNELS_H */
