/**
 * @file route.c
 * @brief Far memory by route.
 */
#include "route.h"
#include "cuda_check.h"
#include "devices.h"

#include <stdio.h>
#include <string.h>

const char *lab_route_name(lab_route route)
{
    static const char *const names[LAB_ROUTE_COUNT] = {"peer", "peer_off", "host", "loopback"};
    return (unsigned)route < LAB_ROUTE_COUNT ? names[route] : "unknown";
}

static bool two_gpus(int near_dev, int far_dev, char *why, size_t why_len)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    if (near_dev == far_dev || far_dev < 0 || far_dev >= n || near_dev >= n) {
        snprintf(why, why_len, "needs two GPUs, this machine has %d", n);
        return false;
    }
    return true;
}

bool lab_route_possible(lab_route route, int near_dev, int far_dev, char *why,
                        size_t why_len)
{
    int flag = 0;
    switch (route) {
    case LAB_ROUTE_PEER:
        if (!two_gpus(near_dev, far_dev, why, why_len))
            return false;
        if (!lab_can_access_peer(near_dev, far_dev)) {
            snprintf(why, why_len, "GPU %d cannot access GPU %d (no P2P)", near_dev, far_dev);
            return false;
        }
        return true;
    case LAB_ROUTE_PEER_OFF:
        return two_gpus(near_dev, far_dev, why, why_len);
    case LAB_ROUTE_HOST:
        CUDA_CHECK(cudaDeviceGetAttribute(&flag, cudaDevAttrCanMapHostMemory, near_dev));
        if (!flag)
            snprintf(why, why_len, "GPU %d cannot map host memory", near_dev);
        return flag != 0;
    case LAB_ROUTE_LOOPBACK:
        return true;
    }
    snprintf(why, why_len, "unknown route %d", (int)route);
    return false;
}

cudaError_t lab_far_alloc(lab_far *far, lab_route route, int near_dev, int far_dev,
                          size_t bytes)
{
    memset(far, 0, sizeof *far);
    far->route = route;
    far->near_dev = near_dev;
    far->far_dev = route == LAB_ROUTE_HOST ? -1 : route == LAB_ROUTE_LOOPBACK ? near_dev : far_dev;
    far->bytes = bytes;
    if (route == LAB_ROUTE_HOST) {
        CUDA_TRY(cudaSetDevice(near_dev));
        CUDA_TRY(cudaHostAlloc(&far->host, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
        CUDA_TRY(cudaHostGetDevicePointer(&far->ptr, far->host, 0));
        return cudaSuccess;
    }
    CUDA_TRY(cudaSetDevice(far->far_dev));
    CUDA_TRY(cudaMalloc(&far->ptr, bytes));
    if (route == LAB_ROUTE_PEER || route == LAB_ROUTE_PEER_OFF)
        CUDA_TRY(lab_peer_access(near_dev, far_dev, route == LAB_ROUTE_PEER));
    return cudaSetDevice(near_dev);
}

void lab_far_free(lab_far *far)
{
    if (far->host != NULL)
        (void)cudaFreeHost(far->host);
    else if (far->ptr != NULL)
        (void)cudaFree(far->ptr);
    memset(far, 0, sizeof *far);
}
