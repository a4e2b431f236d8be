/* Event timers, the host clock, and timed repetitions with device events, optionally behind
 * the launch gate. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_check.h"
#include "data.h"
#include "gate.h"
#include "repeat.h"
#include "timing.h"

#include <stdlib.h>
#include <time.h>

cudaError_t lab_timer_create(lab_timer *timer)
{
    timer->start = timer->stop = NULL;
    cudaError_t err = cudaEventCreate(&timer->start);
    return err == cudaSuccess ? cudaEventCreate(&timer->stop) : err;
}

void lab_timer_destroy(lab_timer *timer)
{
    if (timer->start)
        (void)cudaEventDestroy(timer->start);
    if (timer->stop)
        (void)cudaEventDestroy(timer->stop);
    timer->start = timer->stop = NULL;
}

cudaError_t lab_timer_start(lab_timer *timer, cudaStream_t stream)
{
    return cudaEventRecord(timer->start, stream);
}

cudaError_t lab_timer_stop(lab_timer *timer, cudaStream_t stream)
{
    return cudaEventRecord(timer->stop, stream);
}

cudaError_t lab_timer_elapsed_ms(lab_timer *timer, float *ms)
{
    cudaError_t err = cudaEventSynchronize(timer->stop);
    return err == cudaSuccess ? cudaEventElapsedTime(ms, timer->start, timer->stop) : err;
}

double lab_host_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

double lab_gbps(double bytes, double ms)
{
    return bytes / 1e9 / (ms / 1e3);
}

/** One timing in progress. */
typedef struct sampler {
    cudaStream_t stream;  /**< the timed stream */
    const lab_plan *plan; /**< what to do */
    lab_work_fn work;     /**< one operation */
    void *arg;            /**< its argument */
    lab_timer timer;      /**< events around a sample */
    lab_gate gate;        /**< the launch gate (plan->gate) */
} sampler;

static cudaError_t one_sample(sampler *s, double *us, int *gated)
{
    float ms = 0.0f;
    if (s->plan->gate)
        CUDA_TRY(lab_gate_close(&s->gate, s->stream));
    CUDA_TRY(lab_timer_start(&s->timer, s->stream));
    for (int op = 0; op < s->plan->ops; op++)
        CUDA_TRY(s->work(s->stream, s->arg));
    CUDA_TRY(lab_timer_stop(&s->timer, s->stream));
    if (s->plan->gate)
        lab_gate_open(&s->gate);
    CUDA_TRY(lab_timer_elapsed_ms(&s->timer, &ms));
    if (s->plan->gate && lab_gate_timed_out(&s->gate))
        *gated = 0;
    *us = 1000.0 * (double)ms / (double)s->plan->ops;
    return cudaSuccess;
}

static cudaError_t all_samples(sampler *s, double *samples, int *gated)
{
    for (int w = 0; w < s->plan->warmup; w++)
        CUDA_TRY(s->work(s->stream, s->arg));
    CUDA_TRY(cudaStreamSynchronize(s->stream));
    for (int r = 0; r < s->plan->reps; r++)
        CUDA_TRY(one_sample(s, &samples[r], gated));
    return cudaSuccess;
}

cudaError_t lab_time_work(cudaStream_t stream, const lab_plan *plan, lab_work_fn work,
                          void *arg, lab_timing *out)
{
    if (plan->reps < 1 || plan->ops < 1 || plan->warmup < 0)
        return cudaErrorInvalidValue;
    sampler s = {stream, plan, work, arg, {0}, {0}};
    CUDA_TRY(lab_timer_create(&s.timer));
    cudaError_t err = plan->gate ? lab_gate_create(&s.gate) : cudaSuccess;
    double *samples = lab_host_alloc((size_t)plan->reps, sizeof *samples, "timing samples");
    out->gated = plan->gate ? 1 : -1;
    if (err == cudaSuccess)
        err = all_samples(&s, samples, &out->gated);
    if (err == cudaSuccess && lab_stats_compute(samples, (size_t)plan->reps, &out->us) != 0)
        err = cudaErrorInvalidValue;
    free(samples);
    lab_gate_destroy(&s.gate);
    lab_timer_destroy(&s.timer);
    return err;
}
