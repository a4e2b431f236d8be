/**
 * @file timing.h
 * @brief GPU event timing and the host clock: events recorded on the stream that does the work
 *        are timed by the GPU, not by the CPU that only enqueues it; the host clock is here for
 *        the experiments that show why that matters.
 */
#ifndef LAB_TIMING_H
#define LAB_TIMING_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A pair of events that brackets GPU work on one stream. */
typedef struct lab_timer {
    cudaEvent_t start; /**< recorded before the work */
    cudaEvent_t stop;  /**< recorded after the work */
} lab_timer;

/** @brief Create the two events on the current device: cudaSuccess or cudaEventCreate's error. */
cudaError_t lab_timer_create(lab_timer *timer);

/** @brief Destroy the events (a zeroed timer is left alone). */
void lab_timer_destroy(lab_timer *timer);

/** @brief Record the start event on @p stream. */
cudaError_t lab_timer_start(lab_timer *timer, cudaStream_t stream);

/** @brief Record the stop event on @p stream. */
cudaError_t lab_timer_stop(lab_timer *timer, cudaStream_t stream);

/** @brief Wait for the stop event and write the milliseconds between the events to @p ms. */
cudaError_t lab_timer_elapsed_ms(lab_timer *timer, float *ms);

/** @brief Seconds on the host's monotonic clock. */
double lab_host_seconds(void);

/** @brief Bandwidth in GB/s (1e9 bytes per second) for @p bytes moved in @p ms milliseconds. */
double lab_gbps(double bytes, double ms);

#ifdef __cplusplus
}
#endif

#endif /* LAB_TIMING_H */
