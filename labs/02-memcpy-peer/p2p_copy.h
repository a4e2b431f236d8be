/**
 * @file p2p_copy.h
 * @brief Lab 02: a checked peer copy, the chapter's p2pCopy done carefully.
 *
 * The chapter wraps cudaMemcpyPeer in a function that takes a float count,
 * switches the current device and ignores every error. This wrapper takes
 * bytes, checks each argument before anything is copied, leaves the current
 * device alone and returns a status instead of exiting. A call that is
 * rejected writes nothing.
 *
 * The checks run in a fixed order, so a call with several faults always
 * reports the same one:
 *  1. null destination, null source, zero bytes (host only);
 *  2. device ids in [0, number of devices) (host only, given the count; the
 *     count comes from cudaGetDeviceCount, which needs no GPU: without one
 *     it fails and the count is 0, so no id is valid);
 *  3. each pointer belongs to the device named for it (cudaPointerGetAttributes).
 */
#ifndef P2P_COPY_H
#define P2P_COPY_H

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
    P2P_ERR_CUDA               /**< a CUDA call failed (reported on stderr) */
} p2p_status;

/**
 * @brief The status as the identifier spelled in the enum, e.g.
 *        "P2P_ERR_NULL_DST" (stable: the CSV and the tests use it).
 * @param status any value; an unknown one gives "P2P_UNKNOWN"
 */
const char *p2p_status_name(p2p_status status);

/**
 * @brief A one-line explanation of the status for people.
 * @param status any value
 */
const char *p2p_status_message(p2p_status status);

/**
 * @brief Bytes for @p count elements of @p elem_size bytes, checked.
 * @param count     number of elements
 * @param elem_size bytes per element
 * @param bytes     the product (written only on success)
 * @return P2P_OK; P2P_ERR_ZERO_SIZE when either factor is 0;
 *         P2P_ERR_SIZE_OVERFLOW when the product does not fit in size_t
 */
p2p_status p2p_bytes(size_t count, size_t elem_size, size_t *bytes);

/**
 * @brief The checks that need no GPU: pointers, size, device ids.
 * @param dst          destination pointer
 * @param dst_dev      destination device id
 * @param src          source pointer
 * @param src_dev      source device id
 * @param bytes        bytes to copy
 * @param device_count how many devices exist (ids 0 .. device_count - 1)
 * @return P2P_OK or the first failed check, in the order of this file's comment
 */
p2p_status p2p_check_args(const void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, int device_count);

/**
 * @brief Does @p ptr point into memory allocated on device @p dev?
 *
 * Asks cudaPointerGetAttributes: only device memory (cudaMalloc) of @p dev
 * counts. Host memory, pinned or not, and memory of another device do not.
 * @param ptr       the pointer to check (not NULL)
 * @param dev       the device it should belong to
 * @param not_owned the status to return when it does not belong
 * @return P2P_OK, @p not_owned, or P2P_ERR_CUDA when the query itself failed
 */
p2p_status p2p_check_owner(const void *ptr, int dev, p2p_status not_owned);

/**
 * @brief Copy @p bytes from @p src on @p src_dev to @p dst on @p dst_dev
 *        with cudaMemcpyPeer, after every check.
 * @param dst     destination: device memory of @p dst_dev
 * @param dst_dev destination device id
 * @param src     source: device memory of @p src_dev
 * @param src_dev source device id
 * @param bytes   bytes to copy (> 0)
 *
 * The current device is neither needed nor changed. Like cudaMemcpyPeer, the
 * copy is ordered with the legacy default streams of the current device, the
 * source and the destination; it may still be running when the call returns,
 * so synchronize (or work in those streams) before reading the result.
 * @return P2P_OK when the copy was issued; an error status and no write otherwise
 */
p2p_status p2p_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes);

/**
 * @brief p2p_copy() on @p stream with cudaMemcpyPeerAsync: ordered after
 *        the work already in @p stream and before the work put there later,
 *        and with nothing else.
 * @param dst     destination: device memory of @p dst_dev
 * @param dst_dev destination device id
 * @param src     source: device memory of @p src_dev
 * @param src_dev source device id
 * @param bytes   bytes to copy (> 0)
 * @param stream  any stream, of either device (NULL is the legacy default stream)
 * @return as p2p_copy()
 */
p2p_status p2p_copy_async(void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, cudaStream_t stream);

/**
 * @brief The chapter's p2pCopy(dst, dstDev, src, srcDev, count) with floats,
 *        fixed: the byte count is computed with p2p_bytes(), then p2p_copy().
 * @param dst     destination floats on @p dst_dev
 * @param dst_dev destination device id
 * @param src     source floats on @p src_dev
 * @param src_dev source device id
 * @param count   number of floats
 * @return as p2p_copy(), or the status of p2p_bytes()
 */
p2p_status p2p_copy_floats(float *dst, int dst_dev, const float *src, int src_dev,
                           size_t count);

#endif /* P2P_COPY_H */
