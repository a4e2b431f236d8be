/**
 * @file span.c
 * @brief Lab 04: the pair's streams and events, and the harness that runs
 *        work on both GPUs at the same time and times all of it.
 *
 * Two GPUs have two clocks, and an event only times work on its own GPU.
 * To time work that runs on both, both start events and stop events live on
 * GPU a, and the events order the two streams: b starts only after a's
 * start event, and a records its stop only after b's done event. In
 * between, nothing waits: both GPUs' kernels are in flight together.
 */
#include "peer_atomics.h"

#include <stdio.h>
#include <stdlib.h>

void pair_setup(lab04_pair *pair, int a, int b)
{
    pair->a = a;
    pair->b = b;
    CUDA_CHECK(lab_enable_peer(a, b)); /* a's copies reach b directly */
    CUDA_CHECK(lab_enable_peer(b, a)); /* b's kernels reach a's memory */

    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaStreamCreateWithFlags(&pair->stream_a, cudaStreamNonBlocking));
    CUDA_CHECK(lab_timer_create(&pair->timer_a));

    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaStreamCreateWithFlags(&pair->stream_b, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&pair->done_b, cudaEventDisableTiming));
}

void pair_teardown(lab04_pair *pair)
{
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaEventDestroy(pair->done_b));
    CUDA_CHECK(cudaStreamDestroy(pair->stream_b));

    CUDA_CHECK(cudaSetDevice(pair->a));
    lab_timer_destroy(&pair->timer_a);
    CUDA_CHECK(cudaStreamDestroy(pair->stream_a));

    CUDA_CHECK(lab_disable_peer(pair->b, pair->a));
    CUDA_CHECK(lab_disable_peer(pair->a, pair->b));
}

/* A step runs with its stream's GPU current: a launch into a stream of
 * another device fails. */
static void step(span_work work, void *arg, int dev, cudaStream_t stream)
{
    if (work == NULL)
        return;
    CUDA_CHECK(cudaSetDevice(dev));
    work(arg, stream);
}

float span_run(lab04_pair *pair, const span_plan *plan)
{
    lab_timer *timer = &pair->timer_a;
    float ms = 0.0f;

    /* Resets, outside the timed region. Stream order puts a's reset before
     * the start event, and b waits for that event below. */
    step(plan->prepare_a, plan->arg, pair->a, pair->stream_a);
    step(plan->prepare_b, plan->arg, pair->b, pair->stream_b);

    LAB_TODO("04.1");
    return ms;
}

lab_stats summarize_ms(const double *samples, int count, const char *what)
{
    lab_stats stats;
    if (lab_stats_compute(samples, (size_t)count, &stats) != 0) {
        fprintf(stderr, "%s: the times could not be summarized (a time is not finite)\n",
                what);
        exit(LAB_EXIT_FAIL);
    }
    return stats;
}
