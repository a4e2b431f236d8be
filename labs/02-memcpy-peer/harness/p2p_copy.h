/**
 * @file p2p_copy.h
 * @brief Lab 02: the contracts of the student's functions, TODOs 02.1 to 02.7 (read them; do
 *        not edit this file: grading uses its own copy). Unlike the chapter's p2pCopy, the
 *        wrapper takes bytes, checks every argument before it copies (a refused call writes
 *        nothing), leaves the current device alone and returns a status. The checks are split
 *        so that each is tested alone: the decision (p2p_check, TODO 02.2) is pure, so
 *        tests/unit/lab02.c runs it without a GPU; p2p_owner (TODO 02.3) asks the runtime.
 *        tests/unit/lab02-stand-in.c runs TODOs 02.3 to 02.7 on any machine against a stand-in
 *        runtime of two GPUs (tests/unit/stand_in.h): memory of each type, the copy calls made,
 *        the current device, failures planted in a runtime call.
 */
#ifndef LAB02_P2P_COPY_H
#define LAB02_P2P_COPY_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/** @brief What a checked copy returns. */
typedef enum p2p_status {
    P2P_OK = 0,                /**< the copy was issued */
    P2P_ERR_NULL_DST,          /**< the destination pointer is NULL */
    P2P_ERR_NULL_SRC,          /**< the source pointer is NULL */
    P2P_ERR_ZERO_SIZE,         /**< nothing to copy: 0 bytes, 0 elements or 0-byte elements */
    P2P_ERR_SIZE_OVERFLOW,     /**< count x element size does not fit in size_t */
    P2P_ERR_BAD_DST_DEVICE,    /**< the destination device id does not exist */
    P2P_ERR_BAD_SRC_DEVICE,    /**< the source device id does not exist */
    P2P_ERR_DST_NOT_ON_DEVICE, /**< the destination is not memory of the destination device */
    P2P_ERR_SRC_NOT_ON_DEVICE, /**< the source is not memory of the source device */
    P2P_ERR_CUDA               /**< the copy call itself failed (reported on stderr) */
} p2p_status;

/** The owner p2p_owner() gives memory that is not device memory. */
#define P2P_NOT_DEVICE (-1)

/** @brief One copy as the checks see it. */
typedef struct p2p_request {
    const void *dst; /**< destination pointer */
    int dst_dev;     /**< destination device id, as passed */
    int dst_owner;   /**< the device whose memory dst is (P2P_NOT_DEVICE: none) */
    const void *src; /**< source pointer */
    int src_dev;     /**< source device id, as passed */
    int src_owner;   /**< the device whose memory src is (P2P_NOT_DEVICE: none) */
    size_t bytes;    /**< bytes to copy */
} p2p_request;

/**
 * @brief TODO 02.1: bytes for @p count elements of @p elem_size bytes.
 *
 * Contract: P2P_ERR_ZERO_SIZE when either factor is 0; P2P_ERR_SIZE_OVERFLOW
 * when the product does not fit in size_t (test before multiplying: after
 * the multiplication the product has already wrapped); otherwise *bytes is
 * the product and the result P2P_OK. On an error *bytes is left unchanged.
 * No other effect. Checked by tests/unit/lab02.c (group bytes) and by the
 * args experiment's p2p_copy_floats cases.
 */
p2p_status p2p_bytes(size_t count, size_t elem_size, size_t *bytes);

/**
 * @brief TODO 02.2: decide whether a copy may be issued.
 *
 * Contract: returns the FIRST failing check in this order, else P2P_OK:
 *  1. dst is NULL: P2P_ERR_NULL_DST;  2. src is NULL: P2P_ERR_NULL_SRC;
 *  3. bytes is 0: P2P_ERR_ZERO_SIZE;
 *  4. dst_dev outside [0, device_count): P2P_ERR_BAD_DST_DEVICE;
 *  5. src_dev outside [0, device_count): P2P_ERR_BAD_SRC_DEVICE;
 *  6. dst_owner != dst_dev: P2P_ERR_DST_NOT_ON_DEVICE;
 *  7. src_owner != src_dev: P2P_ERR_SRC_NOT_ON_DEVICE.
 * dst_dev == src_dev is a valid copy (loopback). Pure: no CUDA call, no
 * output, @p req unchanged. Checked by tests/unit/lab02.c (group check:
 * every fault alone, several at once, the boundaries 0, count - 1 and
 * count) and by the args experiment on the GPU.
 */
p2p_status p2p_check(const p2p_request *req, int device_count);

/**
 * @brief TODO 02.3: the device whose memory @p ptr points into.
 *
 * Contract: asks cudaPointerGetAttributes. Only device memory
 * (cudaMemoryTypeDevice) has an owner: its attr.device. NULL, pageable host
 * memory, pinned host memory and managed memory give P2P_NOT_DEVICE. When
 * the query fails (a pointer the runtime cannot place, no device), the error
 * is cleared with cudaGetLastError and the answer is P2P_NOT_DEVICE: the
 * wrapper copies only what it can prove is device memory. The current
 * device is unchanged. Checked by tests/unit/lab02.c (group owner: host
 * pointers, any machine) and by the args experiment (device, pinned and
 * other-GPU pointers).
 */
int p2p_owner(const void *ptr);

/**
 * @brief Every check of a copy, in p2p_check's order (given, not a TODO).
 *
 * Counts the devices (none when the runtime has no device or driver), asks
 * p2p_owner for each non-NULL pointer, and returns p2p_check's answer.
 */
static inline p2p_status p2p_validate(const void *dst, int dst_dev, const void *src,
                                      int src_dev, size_t bytes)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        count = 0;
    }
    p2p_request req = {dst, dst_dev, dst ? p2p_owner(dst) : P2P_NOT_DEVICE,
                       src, src_dev, src ? p2p_owner(src) : P2P_NOT_DEVICE, bytes};
    return p2p_check(&req, count);
}

/**
 * @brief TODO 02.4: copy @p bytes from @p src (device memory of @p src_dev)
 *        to @p dst (device memory of @p dst_dev) with cudaMemcpyPeer.
 *
 * Contract: first p2p_validate(); a refusal is returned at once and nothing
 * is written. Then cudaMemcpyPeer(dst, dst_dev, src, src_dev, bytes),
 * without cudaSetDevice: the current device is neither needed nor changed.
 * A failure of the copy is reported (lab_cuda_report) and gives
 * P2P_ERR_CUDA. Like cudaMemcpyPeer, the copy is ordered with the legacy
 * default streams of the current device, the source and the destination,
 * and may still run when the call returns. Checked by the args, sweep
 * (every size, guards, current device) and unit (group copy) tests.
 */
p2p_status p2p_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes);

/**
 * @brief TODO 02.5: p2p_copy() on @p stream with cudaMemcpyPeerAsync.
 *
 * Contract: as p2p_copy(), but the copy is ordered after the work already
 * in @p stream and before the work put there later, and with nothing else.
 * @p stream may belong to either device (0 is the legacy default stream).
 * Checked by the args, sweep and stream_order experiments and the unit test.
 */
p2p_status p2p_copy_async(void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, cudaStream_t stream);

/**
 * @brief TODO 02.6: the chapter's p2pCopy(dst, dstDev, src, srcDev, count),
 *        fixed: @p count floats, counted in bytes by p2p_bytes().
 *
 * Contract: p2p_bytes(count, sizeof(float), &bytes); its error is returned
 * as it is (nothing copied); else the result of p2p_copy() with those
 * bytes. Checked by the args experiment (valid_count must write exactly
 * count x 4 bytes) and the unit test (overflow and zero, any machine).
 */
p2p_status p2p_copy_floats(float *dst, int dst_dev, const float *src, int src_dev,
                           size_t count);

/** @brief What a copy staged through host memory needs besides its ends. */
typedef struct p2p_staging {
    void *pinned;            /**< pinned host buffer of at least the copy's bytes */
    cudaStream_t src_stream; /**< a stream of the source's device, not the timed one */
    cudaEvent_t fork;        /**< an event of the timed stream's device */
    cudaEvent_t staged;      /**< an event of the source's device */
} p2p_staging;

/**
 * @brief TODO 02.7: copy @p bytes from device memory @p src to device memory
 *        @p dst through pinned host memory, the path chapter 4.1 warns
 *        against, with both halves inside what @p timed measures.
 *
 * Contract, in this order, every call checked with CUDA_TRY:
 *  1. record via->fork on @p timed and make via->src_stream wait for it
 *     (the first half starts only after what @p timed already holds:
 *     the start event, a launch gate);
 *  2. cudaMemcpyAsync(via->pinned, src, bytes, cudaMemcpyDeviceToHost,
 *     via->src_stream);
 *  3. record via->staged on via->src_stream and make @p timed wait for it;
 *  4. cudaMemcpyAsync(dst, via->pinned, bytes, cudaMemcpyHostToDevice, timed).
 * The host does not wait; the first error is returned. Checked by the
 * stream_order experiment: new source data arrives in @p timed's order
 * after 40 ms while via->src_stream is held for 20 ms, so a copy without
 * the fork moves the old data and one without the wait moves stale host
 * bytes; and by the timing experiment (every timed copy verified).
 */
cudaError_t p2p_copy_staged(void *dst, const void *src, size_t bytes, cudaStream_t timed,
                            const p2p_staging *via);

/** @brief The status as spelled in the enum, e.g. "P2P_ERR_NULL_DST". */
static inline const char *p2p_status_name(p2p_status status)
{
    static const char *const names[] = {
        "P2P_OK", "P2P_ERR_NULL_DST", "P2P_ERR_NULL_SRC", "P2P_ERR_ZERO_SIZE",
        "P2P_ERR_SIZE_OVERFLOW", "P2P_ERR_BAD_DST_DEVICE", "P2P_ERR_BAD_SRC_DEVICE",
        "P2P_ERR_DST_NOT_ON_DEVICE", "P2P_ERR_SRC_NOT_ON_DEVICE", "P2P_ERR_CUDA"};
    unsigned i = (unsigned)status;
    return i < sizeof names / sizeof names[0] ? names[i] : "P2P_UNKNOWN";
}

#endif /* LAB02_P2P_COPY_H */
