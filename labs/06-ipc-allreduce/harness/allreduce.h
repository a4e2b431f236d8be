/**
 * @file allreduce.h
 * @brief Lab 06: the contracts of the student's functions (student/ipc_host.c) and kernels
 *        (student/allreduce_kernels.cu). Read it; do not edit it: the grade builds your files
 *        against this copy.
 *
 * Every rank is a process of its own. A device pointer means nothing in another process; an IPC
 * handle (64 bytes) does: the exporting rank takes one of its buffer and one of an event, the
 * launcher hands them to every rank, and each rank opens the others' to map their buffers and
 * wait on their events. The all-reduce sums float data whose values are small integers, so the
 * sum is exact in any order and every rank checks its result against the host's, bit for bit.
 */
#ifndef LAB06_ALLREDUCE_H
#define LAB06_ALLREDUCE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/** Most ranks a run may start. */
#define LAB06_MAX_RANKS 8

/** The ring all-reduce's first phase: each rank ends with one chunk fully reduced. */
#define LAB06_REDUCE_SCATTER 0
/** Its second phase: the reduced chunks travel round until every rank has all of them. */
#define LAB06_ALL_GATHER 1

/** @brief What a rank hands to the others: its buffer's and its event's IPC handles. */
typedef struct lab06_handles {
    cudaIpcMemHandle_t mem;     /**< of a cudaMalloc'ed buffer */
    cudaIpcEventHandle_t event; /**< of an interprocess event */
} lab06_handles;

/** @brief A peer rank's buffer and event, opened in this process (NULL: not open). */
typedef struct lab06_peer {
    void *ptr;         /**< the peer's buffer, mapped here */
    cudaEvent_t event; /**< the peer's event, usable here */
} lab06_peer;

/** @brief One step of the ring for one rank: the chunk it sends and the one it receives. */
typedef struct lab06_ring_step {
    int send_chunk; /**< the chunk of its buffer its right neighbour reads in this step */
    int recv_chunk; /**< the chunk it reduces (reduce-scatter) or copies (all-gather) from its
                         left neighbour's buffer in this step */
} lab06_ring_step;

/** @brief The buffers of every rank, as one rank's kernels see them (mapped pointers). */
typedef struct lab06_inputs {
    const float *ptr[LAB06_MAX_RANKS]; /**< rank r's buffer; ptr[own rank] is local */
    int nranks;                        /**< how many are set (1..LAB06_MAX_RANKS) */
} lab06_inputs;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- student/ipc_host.c ---------------------------------------------------------------- */

/**
 * @brief TODO 06.1: export a buffer and a new event as IPC handles. Creates *event with
 *        cudaEventCreateWithFlags(cudaEventInterprocess | cudaEventDisableTiming) (an event
 *        another process may wait on must be interprocess, and interprocess events may not
 *        time), then fills out->mem with cudaIpcGetMemHandle(buffer) and out->event with
 *        cudaIpcGetEventHandle(*event). Returns cudaSuccess; on any failure returns that call's
 *        error, destroys the event it created and leaves *event NULL.
 *        Checked: the ipc experiment, where every other rank opens the handles and reads the data.
 */
cudaError_t ipc_export(void *buffer, cudaEvent_t *event, lab06_handles *out);

/**
 * @brief TODO 06.2: open a peer rank's handles. Maps in->mem with cudaIpcOpenMemHandle and the
 *        flag cudaIpcMemLazyEnablePeerAccess (a peer on another GPU needs peer access) into
 *        peer->ptr, and opens in->event into peer->event with cudaIpcOpenEventHandle. Returns
 *        cudaSuccess; on any failure returns that call's error, closes what it opened and leaves
 *        both fields NULL. A rank's own handles fail to open in its own process: that error is
 *        returned too.
 *        Checked: the ipc experiment (data read through every peer's pointer, a rank's own
 *        handles refused, fields NULL after a refusal).
 */
cudaError_t ipc_open(const lab06_handles *in, lab06_peer *peer);

/**
 * @brief TODO 06.3: close what ipc_open opened. Unmaps peer->ptr with cudaIpcCloseMemHandle
 *        unless it is NULL, destroys peer->event with cudaEventDestroy unless it is NULL, and sets
 *        each field it closed to NULL. A peer with both fields NULL is left alone: cudaSuccess,
 *        no CUDA call. Returns the first error, after trying both.
 *        Checked: tests/unit/lab06.c (an empty peer, on any machine) and the ipc experiment
 *        (both fields NULL after a close).
 */
cudaError_t ipc_close(lab06_peer *peer);

/**
 * @brief TODO 06.4: the ring schedule. Ranks 0..nranks-1 form a ring; rank r reads from its
 *        left neighbour (r-1 mod n). The buffer is cut in nranks chunks. In step s of the
 *        reduce-scatter (phase LAB06_REDUCE_SCATTER, s in 0..n-2) rank r sends chunk (r - s)
 *        mod n and receives chunk (r - s - 1) mod n, which it adds to its own; after n-1 steps
 *        rank r holds the full sum of chunk (r + 1) mod n. In step s of the all-gather (phase
 *        LAB06_ALL_GATHER, s in 0..n-2) rank r sends chunk (r - s + 1) mod n and receives chunk
 *        (r - s) mod n, which it copies. Every chunk index is in 0..n-1.
 *        Returns 0 with *out set; -1 with *out untouched when nranks is not in
 *        1..LAB06_MAX_RANKS, rank not in 0..nranks-1, phase is neither, or step not in 0..n-2
 *        (one rank has no step at all). No CUDA call, no output.
 *        Checked: tests/unit/lab06.c (every n 1..8, every rank and step, and a ring simulated
 *        on the host), and the ring all-reduce's verified result.
 */
int ring_schedule(int nranks, int rank, int phase, int step, lab06_ring_step *out);

/**
 * @brief TODO 06.7: an all-reduce's bandwidths as nccl-tests define them: algbw = bytes /
 *        seconds (in 1e9 bytes per second), busbw = algbw * 2 (n - 1) / n, the bytes each rank's
 *        links carry (one rank: 0). Returns 0 with both set; -1 with both untouched when seconds
 *        is not a finite number above 0, or nranks is below 1.
 *        Checked: tests/unit/lab06.c, on any machine.
 */
int allreduce_bandwidth(size_t bytes, double seconds, int nranks, double *algbw, double *busbw);

/* ---- student/allreduce_kernels.cu ------------------------------------------------------ */
/* Each launcher enqueues its kernel on @p stream (of the current device), returns
 * cudaGetLastError() and does not wait. count 0 launches nothing and returns cudaSuccess. */

/**
 * @brief TODO 06.5: the ring step. local[i] += from_left[i] for every i < count: the chunk
 *        that arrived in the left neighbour's buffer, added into this rank's own. count is any
 *        number (not a multiple of 4 or of the block), the pointers are 4-byte aligned only.
 *        Checked: the ring all-reduce's verified result at every size.
 */
cudaError_t launch_ring_reduce(float *local, const float *from_left, size_t count,
                               cudaStream_t stream);

/**
 * @brief TODO 06.6: the one-shot all-reduce. out[i] = the sum over r < in.nranks of
 *        in.ptr[r][i] for every i < count, read through the mapped pointers; out is this
 *        rank's own buffer and is written, not added to. count is any number.
 *        Checked: the one_shot all-reduce's verified result at every size, after repeated runs.
 */
cudaError_t launch_one_shot(float *out, lab06_inputs in, size_t count, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* LAB06_ALLREDUCE_H */
