/**
 * @file atomics.h
 * @brief Lab 04: the contracts of the student's kernels and functions (student/atomic_kernels.cu,
 *        student/atomic_host.c). Read it; do not edit it: the grade builds your files against this
 *        copy.
 *
 * Every kernel takes the memory it updates as a pointer; the harness puts that memory in GPU a's
 * own memory (route loopback), in the other GPU's (route peer) or in pinned host memory mapped into
 * the GPU (route host). The same code runs on every route; the cost changes, and so does the scope
 * that makes the result correct. Blocks are not whole warps on purpose (default 244 threads: 7 full
 * warps and one of 20 lanes), so code that assumes 32 lanes per warp miscounts.
 */
#ifndef LAB04_ATOMICS_H
#define LAB04_ATOMICS_H

#include "cuda_check.h"
#include "timing.h"

#include <cuda_runtime_api.h>
#include <stddef.h>

/** Bins of the histogram: one per byte value. */
#define LAB04_BINS 256
/** Slots of the latency chain (a power of two). */
#define LAB04_CHAIN_SLOTS 1024u
/** One visit of a chain slot: 1 in the high 32 bits (the low 32 hold the link). */
#define LAB04_VISIT (1ULL << 32)

/** @brief A launch shape. */
typedef struct lab04_shape {
    int blocks;  /**< blocks in the grid (>= 1) */
    int threads; /**< threads per block (1..1024, often not a multiple of 32) */
    int iters;   /**< increments per thread (counters only) */
} lab04_shape;

#ifdef __cplusplus
extern "C" {
#endif

/* student/atomic_kernels.cu. Each launcher enqueues its kernel on @p stream
 * (of the current device) with shape.blocks blocks of shape.threads threads
 * (the chain: one thread), returns cudaGetLastError() and does not wait.
 * The harness checks every result against its own count on the host. */

/**
 * @brief TODO 04.2: one atomic per increment. count_per_thread_kernel: every thread adds 1 to
 *        counter[threadIdx.x & same_address_mask] iters times, each with its own atomic:
 *        atomicAdd_system when system_scope is non-zero, else atomicAdd (device scope). The
 *        launcher passes mask 0: all threads hit counter[0], yet the compiler cannot prove the
 *        address uniform and merge a warp's atomics. *counter grows by blocks * threads * iters.
 *        Checked: exact counts on every route, a system-scope atomic in the kernel's PTX.
 */
cudaError_t launch_count_per_thread(unsigned long long *counter, lab04_shape shape,
                                    int system_scope, cudaStream_t stream);

/**
 * @brief TODO 04.3: one atomic per warp and iteration. In each iteration the lanes that run
 *        together (__activemask()) elect the lowest, which adds their number (__popc) with one
 *        atomic of the scope asked; the others add nothing. *counter grows by blocks * threads *
 *        iters, with blocks * ceil(threads / 32) * iters atomics while lanes stay together.
 *        Checked: exact counts with partial warps, the PTX's scope.
 */
cudaError_t launch_count_warp_aggregated(unsigned long long *counter, lab04_shape shape,
                                         int system_scope, cudaStream_t stream);

/**
 * @brief TODO 04.4: one atomic per block. Each block adds threads * iters to *counter with exactly
 *        one global atomic of the scope asked, issued once all its threads have counted (inside the
 *        block: block-scope atomics or shuffles; a partial last warp counts too). Checked: exact
 *        counts, the PTX's scope.
 */
cudaError_t launch_count_block_aggregated(unsigned long long *counter, lab04_shape shape,
                                          int system_scope, cudaStream_t stream);

/**
 * @brief TODO 04.6: a privatized histogram. Adds the count of each byte value among the @p n bytes
 *        at @p data (4-byte aligned, any n) to partial[value]: LAB04_BINS counters in this GPU's
 *        memory, added to, never overwritten. Each block counts into a __shared__ histogram with
 *        block-scope atomics, then adds each non-zero bin to @p partial with one device-scope
 *        atomic; any threads per block work. Checked: bit-exact against the host's histogram on
 *        every route; on one GPU also at tails of 1 to 3 bytes, on data 4 bytes past a 16-byte
 *        boundary, with odd blocks, and onto bins that hold counts already.
 */
cudaError_t launch_histogram_privatized(const unsigned char *data, size_t n,
                                        unsigned int *partial, lab04_shape shape,
                                        cudaStream_t stream);

/**
 * @brief TODO 04.7: a chain of dependent atomics, one thread (<<<1, 1>>>). From index 0, @p steps
 *        times: add LAB04_VISIT to slots[index] (atomicAdd_system when system_scope is non-zero,
 *        else atomicAdd) and take the next index from the low 32 bits of the old value returned,
 *        masked with LAB04_CHAIN_SLOTS - 1; then *final_index = index. No atomic can start before
 *        the one before returned, so the chain's time over its length is one atomic's latency.
 *        Checked: the final index and every slot's visits against the host's replay; the links
 *        carry bits above the slot index, which the mask removes.
 */
cudaError_t launch_atomic_chain(unsigned long long *slots, int steps, int system_scope,
                                unsigned int *final_index, cudaStream_t stream);

/* student/atomic_host.c */

/** @brief Work enqueued on one stream; @p arg is the experiment's own. */
typedef void (*span_work)(void *arg, cudaStream_t stream);

/** @brief Two GPUs, a stream on each, and the events that time both. */
typedef struct lab04_pair {
    int a;                 /**< GPU a: owns the shared data */
    int b;                 /**< GPU b: reaches into a's memory (-1: none) */
    cudaStream_t stream_a; /**< a non-blocking stream on a */
    cudaStream_t stream_b; /**< a non-blocking stream on b */
    lab_timer timer_a;     /**< start and stop, both recorded on a */
    cudaEvent_t done_b;    /**< recorded on b when b's part is done */
} lab04_pair;

/** @brief One run over both GPUs; any step may be NULL. */
typedef struct span_plan {
    span_work prepare_a; /**< untimed, on a, before the start event */
    span_work prepare_b; /**< untimed, on b */
    span_work work_a;    /**< timed, on a */
    span_work work_b;    /**< timed, on b, at the same time as work_a */
    span_work finish_a;  /**< timed, on a, after both works */
    void *arg;           /**< passed to every step */
} span_plan;

/** @brief Run one step with its stream's GPU current (a launch into another
 *         device's stream fails); a NULL step does nothing. */
static inline void lab04_step(span_work work, void *arg, int dev, cudaStream_t stream)
{
    if (work == NULL)
        return;
    CUDA_CHECK(cudaSetDevice(dev));
    work(arg, stream);
}

/**
 * @brief TODO 04.1: run @p plan once on both GPUs and time all of it. After the prepare steps
 *        (given): with a current, record timer_a.start on stream_a and run work_a; with b current,
 *        make stream_b wait for timer_a.start, run work_b, record done_b on stream_b; with a
 *        current, make stream_a wait for done_b, run finish_a, record timer_a.stop. Only then
 *        synchronize both streams. Returns the milliseconds between the events: both GPUs'
 *        concurrent work. Steps run through lab04_step(); CUDA failures exit 1 (CUDA_CHECK); a is
 *        current afterwards. Checked: the two-GPU counters and histogram count exactly, their
 *        times cover b's work, and a is current after every run.
 */
float span_run(lab04_pair *pair, const span_plan *plan);

/**
 * @brief TODO 04.5: gather a result on one GPU with one peer copy: enqueue on @p stream (of
 *        @p src_dev) cudaMemcpyPeerAsync of @p bytes from @p src on @p src_dev to @p dst on
 *        @p dst_dev and return its error, without waiting. Checked: the counter counted per GPU and
 *        gathered, and the privatized two-GPU histogram, are exact.
 */
cudaError_t gather_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                        cudaStream_t stream);

/** @brief Is the other side still at work? Non-zero: yes. */
typedef int (*lab04_busy_fn)(void *arg);

/**
 * @brief TODO 04.8: the CPU's side of a counter the GPU updates too. Calls busy(arg) before each
 *        batch of @p batch increments and returns once it says 0. Each increment adds 1 to *counter
 *        with one atomic read-modify-write (GCC __atomic_fetch_add or C11 atomic_fetch_add, any
 *        memory order), never a plain load and store; the counter wraps modulo 2^64. Returns the
 *        increments made (a multiple of @p batch). A NULL counter or busy, or batch 0: returns 0 at
 *        once, busy never called. No CUDA call, no output. Checked: tests/unit/lab04.c (any
 *        machine) and lab04-threads.c (two CPU threads at once, under ThreadSanitizer, so that
 *        a race fails on any number of CPUs) and the cpu-gpu count.
 */
unsigned long long cpu_add_while(unsigned long long *counter, unsigned long long batch,
                                 lab04_busy_fn busy, void *arg);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/** @brief One atomic add with the scope asked: system (every GPU and the CPU)
 *         when @p system_scope is non-zero, else device (this GPU only). */
static __device__ __forceinline__ void lab04_add(unsigned long long *target,
                                                 unsigned long long value, int system_scope)
{
    if (system_scope)
        atomicAdd_system(target, value);
    else
        atomicAdd(target, value);
}
#endif

#endif /* LAB04_ATOMICS_H */
