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
