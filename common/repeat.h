/**
 * @file repeat.h
 * @brief Timed repetitions: warm-up, device events around each sample, statistics over the
 *        samples, written once for every lab.
 */
#ifndef LAB_REPEAT_H
#define LAB_REPEAT_H

#include "rows.h"

#include <cuda_runtime_api.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Enqueue one operation on @p stream (asynchronously). */
typedef cudaError_t (*lab_work_fn)(cudaStream_t stream, void *arg);

/** @brief How to time: warm-up operations, samples, operations per sample. */
typedef struct lab_plan {
    int warmup; /**< untimed operations first (first-touch, clocks, caches) */
    int reps;   /**< timed samples */
    int ops;    /**< operations per sample (the time is divided by it) */
    bool gate;  /**< hold the stream behind a launch gate while a sample is queued */
} lab_plan;

/** @brief What a timing gives back besides the statistics. */
typedef struct lab_timing {
    lab_stats us;  /**< microseconds per operation: median, min, max */
    int gated;     /**< 1 every sample was queued behind the gate, 0 not, -1 no gate asked */
} lab_timing;

/**
 * @brief Time @p work: plan.warmup untimed operations, then plan.reps samples of plan.ops
 *        operations between two events on @p stream; @p out gets microseconds per operation.
 *
 * With plan.gate the stream waits behind the gate while the host queues a sample, so small
 * operations are timed, not the launch rate; a gate that timed out leaves out->gated 0 (the
 * sample is still an upper bound). Work on another stream must make @p stream wait for it.
 */
cudaError_t lab_time_work(cudaStream_t stream, const lab_plan *plan, lab_work_fn work,
                          void *arg, lab_timing *out);

#ifdef __cplusplus
}
#endif

#endif /* LAB_REPEAT_H */
