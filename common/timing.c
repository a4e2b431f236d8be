/**
 * @file timing.c
 * @brief Event timers and the host clock.
 */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <time.h>

cudaError_t lab_timer_create(lab_timer *timer)
{
    timer->start = timer->stop = NULL;
    cudaError_t err = cudaEventCreate(&timer->start);
    if (err == cudaSuccess)
        err = cudaEventCreate(&timer->stop);
    return err;
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
    if (err != cudaSuccess)
        return err;
    return cudaEventElapsedTime(ms, timer->start, timer->stop);
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
