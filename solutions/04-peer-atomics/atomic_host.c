/**
 * @file atomic_host.c
 * @brief Lab 04, the student's host functions: TODOs 04.1, 04.5 and 04.8
 *        (contracts in harness/atomics.h).
 */
#include "atomics.h"
#include "todo.h"

/* Contract of TODO 04.1 (in full: harness/atomics.h); each clause and its test:
 * - b starts after a's start event; a stops the clock only after b's done event; checked by: TODO
 *   04.1: two GPUs with system-scope atomics
 * - both streams are waited for before the elapsed time is read; checked by: TODO 04.1: two GPUs
 *   with system-scope atomics; TODO 04.6 with 04.1 and 04.5
 * - GPU a is current afterwards; checked by: TODO 04.1: two GPUs with system-scope atomics
 */
float span_run(lab04_pair *pair, const span_plan *plan)
{
    float ms = 0.0f;
    /* Resets, outside the timed region; b waits for a's start event below,
     * which stream order puts after a's reset. */
    lab04_step(plan->prepare_a, plan->arg, pair->a, pair->stream_a);
    lab04_step(plan->prepare_b, plan->arg, pair->b, pair->stream_b);
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(lab_timer_start(&pair->timer_a, pair->stream_a));
    lab04_step(plan->work_a, plan->arg, pair->a, pair->stream_a);

    /* b begins after the clock starts, and works while a works. */
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaStreamWaitEvent(pair->stream_b, pair->timer_a.start, 0));
    lab04_step(plan->work_b, plan->arg, pair->b, pair->stream_b);
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaEventRecord(pair->done_b, pair->stream_b));

    /* a stops the clock only when b is done too. */
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaStreamWaitEvent(pair->stream_a, pair->done_b, 0));
    lab04_step(plan->finish_a, plan->arg, pair->a, pair->stream_a);
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(lab_timer_stop(&pair->timer_a, pair->stream_a));

    /* Everything is queued on both GPUs: now wait for both. */
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_b));
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
    CUDA_CHECK(lab_timer_elapsed_ms(&pair->timer_a, &ms));
#else
    LAB_TODO("04.1");
#endif
    return ms;
}

/* Contract of TODO 04.5 (in full: harness/atomics.h); each clause and its test:
 * - one peer copy, dst <- src, of exactly bytes, on the caller's stream; checked by: TODO 04.5:
 *   counting per GPU and gathering once
 * - the gathered total and histogram are exact; checked by: TODO 04.5: counting per GPU and
 *   gathering once; TODO 04.6 with 04.1 and 04.5
 */
cudaError_t gather_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                        cudaStream_t stream)
{
#ifndef LAB_SKELETON
    return cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, stream);
#else
    LAB_TODO("04.5");
#endif
}

/* Contract of TODO 04.8 (in full: harness/atomics.h); each clause and its test:
 * - one atomic read-modify-write per increment: two threads lose none; checked by: TODO 04.8 the
 *   CPU adds with one atomic per increment
 * - asks busy before each batch; returns the increments made; checked by: TODO 04.8 the CPU adds
 *   with one atomic per increment
 * - a NULL counter, a NULL busy or batch 0 make no call and return 0; checked by: TODO 04.8 the
 *   CPU adds with one atomic per increment
 * - a NULL arg is allowed: it is only passed to busy; checked by: TODO 04.8 the CPU adds with one
 *   atomic per increment
 */
unsigned long long cpu_add_while(unsigned long long *counter, unsigned long long batch,
                                 lab04_busy_fn busy, void *arg)
{
#ifndef LAB_SKELETON
    unsigned long long made = 0;
    if (counter == NULL || busy == NULL || batch == 0)
        return 0;
    while (busy(arg)) {
        for (unsigned long long i = 0; i < batch; i++)
            __atomic_fetch_add(counter, 1ULL, __ATOMIC_RELAXED);
        made += batch;
    }
    return made;
#else
    LAB_TODO("04.8");
#endif
}
