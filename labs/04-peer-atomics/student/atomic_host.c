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
    LAB_TODO("04.1");
    return ms;
}

cudaError_t gather_peer(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                        cudaStream_t stream)
{
    LAB_TODO("04.5");
}

unsigned long long cpu_add_while(unsigned long long *counter, unsigned long long batch,
                                 lab04_busy_fn busy, void *arg)
{
    LAB_TODO("04.8");
}
