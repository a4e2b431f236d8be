/**
 * @file capture.h
 * @brief What a call enqueues, seen without running it: the work is captured into a CUDA graph
 *        and its kernel launches are read back (how many, their grid and block shapes). The
 *        harnesses check a launcher's contracted shape this way, which results alone cannot
 *        show (a grid-stride loop gives right results on any grid).
 */
#ifndef LAB_CAPTURE_H
#define LAB_CAPTURE_H

#include "repeat.h"

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The work one call enqueued. */
typedef struct lab_launches {
    int kernels;     /**< kernel launches */
    int others;      /**< any other work (copies, memsets, waits) */
    dim3 grid;       /**< the first kernel's grid (0 x 0 x 0 without one) */
    dim3 block;      /**< the first kernel's block */
} lab_launches;

/**
 * @brief Capture what @p work enqueues on a new non-blocking stream of the current device
 *        (relaxed capture mode: nothing runs) into @p out. Returns the error of @p work, else
 *        that of the capture; the stream is destroyed and no error is left pending.
 */
cudaError_t lab_capture_launches(lab_work_fn work, void *arg, lab_launches *out);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CAPTURE_H */
