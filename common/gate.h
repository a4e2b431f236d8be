/**
 * @file gate.h
 * @brief The launch gate: hold a stream while the host enqueues a whole timed region, then
 *        release it, so launch overhead stays outside the measurement (nvbandwidth's
 *        "blocking kernel"). lab_time_work() uses it.
 */
#ifndef LAB_GATE_H
#define LAB_GATE_H

#include <cuda_runtime_api.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How long a gate holds its stream at most (nanoseconds). */
#define LAB_GATE_TIMEOUT_NS 200000000ULL

/** @brief A gate: two words of mapped host memory, [0] open, [1] timed out. */
typedef struct lab_gate {
    volatile unsigned int *flags; /**< host address of the two words */
    unsigned int *dev_flags;      /**< the GPU's address of the same words */
} lab_gate;

/** @brief Allocate the gate's flags (pinned, mapped) for the current device. */
cudaError_t lab_gate_create(lab_gate *gate);

/** @brief Free them. */
void lab_gate_destroy(lab_gate *gate);

/** @brief Close the gate: queue the spinning kernel on @p stream. */
cudaError_t lab_gate_close(lab_gate *gate, cudaStream_t stream);

/** @brief Open it: the stream goes on with what was queued behind it. */
void lab_gate_open(lab_gate *gate);

/** @brief Did the kernel give up before the host opened it (after a sync)? */
bool lab_gate_timed_out(const lab_gate *gate);

#ifdef __cplusplus
}
#endif

#endif /* LAB_GATE_H */
