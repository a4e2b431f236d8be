/**
 * @file p2p_copy.c
 * @brief Lab 02: the checked peer copy (TODOs 02.1 to 02.5).
 */
#include "p2p_copy.h"
#include "lab.h"

#include <stdint.h>

const char *p2p_status_name(p2p_status status)
{
    switch (status) {
    case P2P_OK: return "P2P_OK";
    case P2P_ERR_NULL_DST: return "P2P_ERR_NULL_DST";
    case P2P_ERR_NULL_SRC: return "P2P_ERR_NULL_SRC";
    case P2P_ERR_ZERO_SIZE: return "P2P_ERR_ZERO_SIZE";
    case P2P_ERR_SIZE_OVERFLOW: return "P2P_ERR_SIZE_OVERFLOW";
    case P2P_ERR_BAD_DST_DEVICE: return "P2P_ERR_BAD_DST_DEVICE";
    case P2P_ERR_BAD_SRC_DEVICE: return "P2P_ERR_BAD_SRC_DEVICE";
    case P2P_ERR_DST_NOT_ON_DEVICE: return "P2P_ERR_DST_NOT_ON_DEVICE";
    case P2P_ERR_SRC_NOT_ON_DEVICE: return "P2P_ERR_SRC_NOT_ON_DEVICE";
    case P2P_ERR_CUDA: return "P2P_ERR_CUDA";
    }
    return "P2P_UNKNOWN";
}

const char *p2p_status_message(p2p_status status)
{
    switch (status) {
    case P2P_OK: return "copy issued";
    case P2P_ERR_NULL_DST: return "the destination pointer is NULL";
    case P2P_ERR_NULL_SRC: return "the source pointer is NULL";
    case P2P_ERR_ZERO_SIZE: return "nothing to copy (zero bytes)";
    case P2P_ERR_SIZE_OVERFLOW: return "count x element size overflows size_t";
    case P2P_ERR_BAD_DST_DEVICE: return "the destination device does not exist";
    case P2P_ERR_BAD_SRC_DEVICE: return "the source device does not exist";
    case P2P_ERR_DST_NOT_ON_DEVICE: return "the destination is not memory of the destination device";
    case P2P_ERR_SRC_NOT_ON_DEVICE: return "the source is not memory of the source device";
    case P2P_ERR_CUDA: return "a CUDA call failed";
    }
    return "unknown status";
}

/* Step 1: the chapter computes count * sizeof(float) and trusts it. */
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

/* Step 2: everything that can be decided without asking the GPU. */
p2p_status p2p_check_args(const void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, int device_count)
{
#ifndef LAB_SKELETON
    if (dst == NULL)
        return P2P_ERR_NULL_DST;
    if (src == NULL)
        return P2P_ERR_NULL_SRC;
    if (bytes == 0)
        return P2P_ERR_ZERO_SIZE;
    if (dst_dev < 0 || dst_dev >= device_count)
        return P2P_ERR_BAD_DST_DEVICE;
    if (src_dev < 0 || src_dev >= device_count)
        return P2P_ERR_BAD_SRC_DEVICE;
    return P2P_OK;
#else
    LAB_TODO("02.2");
#endif
}

/* Step 3: with unified addressing a pointer says where it lives. */
p2p_status p2p_check_owner(const void *ptr, int dev, p2p_status not_owned)
{
#ifndef LAB_SKELETON
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
    if (err == cudaErrorInvalidValue) {
        /* A value the runtime cannot place at all: not this device's memory. */
        (void)cudaGetLastError();
        return not_owned;
    }
    if (err != cudaSuccess) {
        lab_cuda_report(err, "cudaPointerGetAttributes(&attr, ptr)", __FILE__, __LINE__);
        return P2P_ERR_CUDA;
    }
    if (attr.type != cudaMemoryTypeDevice || attr.device != dev)
        return not_owned;
    return P2P_OK;
#else
    LAB_TODO("02.3");
#endif
}

/* cudaGetDeviceCount works without a GPU or a driver: it fails, and then no
 * device id is valid. */
static int device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    return n;
}

/* All checks, in the documented order; nothing is written before they pass. */
static p2p_status validate(const void *dst, int dst_dev, const void *src, int src_dev,
                           size_t bytes)
{
    p2p_status status = p2p_check_args(dst, dst_dev, src, src_dev, bytes, device_count());
    if (status != P2P_OK)
        return status;
    status = p2p_check_owner(dst, dst_dev, P2P_ERR_DST_NOT_ON_DEVICE);
    if (status != P2P_OK)
        return status;
    return p2p_check_owner(src, src_dev, P2P_ERR_SRC_NOT_ON_DEVICE);
}

/* Step 4: the copy itself, without cudaSetDevice. */
p2p_status p2p_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes)
{
    p2p_status status = validate(dst, dst_dev, src, src_dev, bytes);
    if (status != P2P_OK)
        return status;
#ifndef LAB_SKELETON
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

/* Step 5: the same on a stream the caller chooses. */
p2p_status p2p_copy_async(void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, cudaStream_t stream)
{
    p2p_status status = validate(dst, dst_dev, src, src_dev, bytes);
    if (status != P2P_OK)
        return status;
#ifndef LAB_SKELETON
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

p2p_status p2p_copy_floats(float *dst, int dst_dev, const float *src, int src_dev,
                           size_t count)
{
    size_t bytes = 0;
    p2p_status status = p2p_bytes(count, sizeof(float), &bytes);
    if (status != P2P_OK)
        return status;
    return p2p_copy(dst, dst_dev, src, src_dev, bytes);
}
