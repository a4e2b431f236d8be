/**
 * @file atomic_host.c
 * @brief Lab 04, the student's host functions: TODOs 04.1, 04.5 and 04.8
 *        (contracts in harness/atomics.h).
 */
#include "atomics.h"
#include "todo.h"

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

cudaError_t gather_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                        cudaStream_t stream)
{
#ifndef LAB_SKELETON
    return cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, stream);
#else
    LAB_TODO("04.5");
#endif
}

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
