/**
 * @file p2p_copy.c
 * @brief Lab 02, the student's file: TODOs 02.1 to 02.7. The contracts are
 *        in labs/02-memcpy-peer/harness/p2p_copy.h.
 */
#include "p2p_copy.h"
#include "cuda_check.h"
#include "todo.h"

#include <stdint.h>

/* The chapter computes count * sizeof(float) and trusts it. */
/* Contract of TODO 02.1 (in full: harness/p2p_copy.h); each clause and its test:
 * - P2P_ERR_ZERO_SIZE when either factor is 0; checked by: bytes_zero_count; bytes_zero_elem_size
 * - P2P_ERR_SIZE_OVERFLOW when the product does not fit in size_t, tested before multiplying (a
 *   product that wraps may land below the factors or above them); the largest exact product is
 *   accepted; checked by: bytes_overflow_floats; bytes_overflow_wraps_above_count; bytes_size_max;
 *   bytes_largest_floats
 * - *bytes is written only on P2P_OK; checked by: bytes_overflow_odd
 */
p2p_status p2p_bytes(size_t count, size_t elem_size, size_t *bytes)
{
#ifndef LAB_SKELETON
    if (count == 0 || elem_size == 0)
        return P2P_ERR_ZERO_SIZE;
    if (count > SIZE_MAX / elem_size)
        return P2P_ERR_SIZE_OVERFLOW;
    *bytes = count * elem_size;
    return P2P_OK;
#else
    LAB_TODO("02.1");
#endif
}

/* Everything that can be decided from the arguments alone, in order. */
/* Contract of TODO 02.2 (in full: harness/p2p_copy.h); each clause and its test:
 * - each check alone gives its own status; checked by: check_null_dst;
 *   check_src_device_equals_count; check_dst_device_negative
 * - several faults at once: the first in the documented order wins; checked by:
 *   check_null_src_and_zero_bytes; check_every_fault
 * - the bounds 0, count - 1 and count; loopback is valid; the request is unchanged; checked by:
 *   check_last_device; check_loopback
 */
p2p_status p2p_check(const p2p_request *req, int device_count)
{
#ifndef LAB_SKELETON
    if (req->dst == NULL)
        return P2P_ERR_NULL_DST;
    if (req->src == NULL)
        return P2P_ERR_NULL_SRC;
    if (req->bytes == 0)
        return P2P_ERR_ZERO_SIZE;
    if (req->dst_dev < 0 || req->dst_dev >= device_count)
        return P2P_ERR_BAD_DST_DEVICE;
    if (req->src_dev < 0 || req->src_dev >= device_count)
        return P2P_ERR_BAD_SRC_DEVICE;
    if (req->dst_owner != req->dst_dev)
        return P2P_ERR_DST_NOT_ON_DEVICE;
    if (req->src_owner != req->src_dev)
        return P2P_ERR_SRC_NOT_ON_DEVICE;
    return P2P_OK;
#else
    LAB_TODO("02.2");
#endif
}

/* With unified addressing a pointer says where it lives. */
/* Contract of TODO 02.3 (in full: harness/p2p_copy.h); each clause and its test:
 * - NULL and host memory, pageable, pinned or managed, have no device (P2P_NOT_DEVICE); checked by:
 *   owner_null; owner_stack_memory; TODO 02.3 p2p_owner gives only device memory an owner
 * - a pointer the runtime cannot place gives P2P_NOT_DEVICE and its error is cleared; checked by:
 *   owner_heap_memory; TODO 02.3 p2p_owner gives only device memory an owner
 * - device memory is owned by its device; pinned host memory is not; checked by: TODOs 02.2, 02.3,
 *   02.4, 02.5 and 02.6 through the real calls; TODO 02.3 p2p_owner gives only device memory an
 *   owner
 */
int p2p_owner(const void *ptr)
{
#ifndef LAB_SKELETON
    struct cudaPointerAttributes attr;
    if (ptr == NULL)
        return P2P_NOT_DEVICE;
    if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
        (void)cudaGetLastError(); /* a pointer the runtime cannot place */
        return P2P_NOT_DEVICE;
    }
    return attr.type == cudaMemoryTypeDevice ? attr.device : P2P_NOT_DEVICE;
#else
    LAB_TODO("02.3");
#endif
}

/* The copy itself: checked first, no cudaSetDevice. */
/* Contract of TODO 02.4 (in full: harness/p2p_copy.h); each clause and its test:
 * - validated first; a refusal writes nothing; checked by: copy_null_dst; copy_host_memory
 * - every size from 1 byte copied exactly, the current device unchanged; checked by: TODOs 02.4 and
 *   02.5: every size; TODO 02.4: cudaMemcpyPeer delivers; TODO 02.4 p2p_copy makes one
 *   cudaMemcpyPeer
 * - destination and source in the right order; checked by: TODOs 02.4 and 02.5: every size; TODO
 *   02.4 p2p_copy makes one cudaMemcpyPeer
 * - a failed cudaMemcpyPeer gives P2P_ERR_CUDA; checked by: TODO 02.4 p2p_copy makes one
 *   cudaMemcpyPeer
 */
p2p_status p2p_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes)
{
#ifndef LAB_SKELETON
    p2p_status status = p2p_validate(dst, dst_dev, src, src_dev, bytes);
    if (status != P2P_OK)
        return status;
    cudaError_t err = cudaMemcpyPeer(dst, dst_dev, src, src_dev, bytes);
    if (err != cudaSuccess) {
        lab_cuda_report(err, "cudaMemcpyPeer(dst, dst_dev, src, src_dev, bytes)", __FILE__,
                        __LINE__);
        return P2P_ERR_CUDA;
    }
    return P2P_OK;
#else
    LAB_TODO("02.4");
#endif
}

/* The same on a stream the caller chooses. */
/* Contract of TODO 02.5 (in full: harness/p2p_copy.h); each clause and its test:
 * - validated first; a refusal writes nothing; checked by: copy_async_null_dst;
 *   copy_async_null_src_and_zero_bytes
 * - ordered in the caller's stream, after the work already there; checked by: TODOs 02.5 and 02.7:
 *   p2p_copy_async and p2p_copy_staged; TODO 02.5 p2p_copy_async makes one cudaMemcpyPeerAsync
 * - every size copied exactly; checked by: TODOs 02.4 and 02.5: every size
 * - the current device unchanged; a failed cudaMemcpyPeerAsync gives P2P_ERR_CUDA; checked by: TODO
 *   02.5 p2p_copy_async makes one cudaMemcpyPeerAsync
 */
p2p_status p2p_copy_async(void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    p2p_status status = p2p_validate(dst, dst_dev, src, src_dev, bytes);
    if (status != P2P_OK)
        return status;
    cudaError_t err = cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, stream);
    if (err != cudaSuccess) {
        lab_cuda_report(err, "cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, stream)",
                        __FILE__, __LINE__);
        return P2P_ERR_CUDA;
    }
    return P2P_OK;
#else
    LAB_TODO("02.5");
#endif
}

/* The chapter's float helper, counting bytes the careful way. */
/* Contract of TODO 02.6 (in full: harness/p2p_copy.h); each clause and its test:
 * - the count goes through p2p_bytes; its error is returned, nothing copied; checked by:
 *   floats_overflow; floats_overflow_wraps_above_count; floats_zero_count
 * - a valid count copies exactly count x 4 bytes; checked by: TODOs 02.2, 02.3, 02.4, 02.5 and 02.6
 *   through the real calls; TODO 02.6 p2p_copy_floats copies count x 4 bytes
 */
p2p_status p2p_copy_floats(float *dst, int dst_dev, const float *src, int src_dev,
                           size_t count)
{
#ifndef LAB_SKELETON
    size_t bytes = 0;
    p2p_status status = p2p_bytes(count, sizeof(float), &bytes);
    if (status != P2P_OK)
        return status;
    return p2p_copy(dst, dst_dev, src, src_dev, bytes);
#else
    LAB_TODO("02.6");
#endif
}

/* Down to the host on the source's stream, up on the timed one; the two
 * events keep the halves in order and inside the timed region. */
/* Contract of TODO 02.7 (in full: harness/p2p_copy.h); each clause and its test:
 * - the download waits for the timed stream's fork; checked by: TODOs 02.5 and 02.7: p2p_copy_async
 *   and p2p_copy_staged; TODO 02.7 p2p_copy_staged makes its six calls
 * - the upload waits for the staged event and runs on the timed stream; checked by: TODOs 02.5 and
 *   02.7: p2p_copy_async and p2p_copy_staged; TODO 02.7 p2p_copy_staged makes its six calls
 * - both halves inside the timing, below the link's ceiling; checked by: TODOs 02.4, 02.5 and 02.7:
 *   timing is sane
 * - the first failing call's error is returned; checked by: TODO 02.7 p2p_copy_staged makes its six
 *   calls
 */
cudaError_t p2p_copy_staged(void *dst, const void *src, size_t bytes, cudaStream_t timed,
                            const p2p_staging *via)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaEventRecord(via->fork, timed));
    CUDA_TRY(cudaStreamWaitEvent(via->src_stream, via->fork, 0));
    CUDA_TRY(cudaMemcpyAsync(via->pinned, src, bytes, cudaMemcpyDeviceToHost, via->src_stream));
    CUDA_TRY(cudaEventRecord(via->staged, via->src_stream));
    CUDA_TRY(cudaStreamWaitEvent(timed, via->staged, 0));
    CUDA_TRY(cudaMemcpyAsync(dst, via->pinned, bytes, cudaMemcpyHostToDevice, timed));
    return cudaSuccess;
#else
    LAB_TODO("02.7");
#endif
}
