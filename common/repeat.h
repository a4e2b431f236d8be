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
 *        operations each between two events recorded on @p stream; @p out gets microseconds
 *        per operation.
 *
 * With plan.gate a gate kernel holds @p stream while the host queues the start event, the
 * operations and the stop event, then lets them run back to back: small operations are timed,
 * not the host's launch rate. A gate that timed out (the host took longer than
 * LAB_GATE_TIMEOUT_NS to queue) leaves out->gated 0; the sample is still a valid upper bound.
 *
 * Only @p stream is timed: work that puts operations on another stream must make @p stream wait
 * for them (cudaStreamWaitEvent) before returning.
 */
cudaError_t lab_time_work(cudaStream_t stream, const lab_plan *plan, lab_work_fn work,
                          void *arg, lab_timing *out);

#ifdef __cplusplus
}
#endif

#endif /* LAB_REPEAT_H */
