/**
 * @file peer_checks.c
 * @brief Lab 01, the student's file: TODOs 01.1-01.6 (contracts in
 *        harness/peer_checks.h).
 */
#include "peer_checks.h"
#include "cuda_check.h"
#include "todo.h"

#include <stdio.h>

cudaError_t describe_gpu(int dev, gpu_info *info)
{
#ifndef LAB_SKELETON
    struct cudaDeviceProp prop;
    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->unified_addressing = prop.unifiedAddressing;
    CUDA_TRY(cudaDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, dev));
    return cudaSuccess;
#else
    LAB_TODO("01.1");
#endif
}

cudaError_t check_access(int dev, int peer, int *can_access)
{
#ifndef LAB_SKELETON
    *can_access = 0;
    cudaError_t err = cudaDeviceCanAccessPeer(can_access, dev, peer);
    (void)cudaGetLastError(); /* an error here is an answer, not a failure */
    return err;
#else
    LAB_TODO("01.2");
#endif
}

cudaError_t query_attributes(int dev, int peer, p2p_attributes *attr)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaDeviceGetP2PAttribute(&attr->performance_rank,
                                       cudaDevP2PAttrPerformanceRank, dev, peer));
    CUDA_TRY(cudaDeviceGetP2PAttribute(&attr->access_supported,
                                       cudaDevP2PAttrAccessSupported, dev, peer));
    CUDA_TRY(cudaDeviceGetP2PAttribute(&attr->native_atomics,
                                       cudaDevP2PAttrNativeAtomicSupported, dev, peer));
    CUDA_TRY(cudaDeviceGetP2PAttribute(&attr->array_access,
                                       cudaDevP2PAttrCudaArrayAccessSupported, dev, peer));
    return cudaSuccess;
#else
    LAB_TODO("01.3");
#endif
}

cudaError_t try_nonzero_flags(int dev, int peer, cudaError_t *result)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaSetDevice(dev));
    *result = cudaDeviceEnablePeerAccess(peer, 1);
    (void)cudaGetLastError(); /* clear the error provoked on purpose */
    return cudaSuccess;
#else
    LAB_TODO("01.4");
#endif
}

cudaError_t enable_twice(int dev, int peer, peer_calls *calls)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaSetDevice(dev));
    calls->first = cudaDeviceEnablePeerAccess(peer, 0);
    (void)cudaGetLastError();
    calls->again = cudaDeviceEnablePeerAccess(peer, 0);
    (void)cudaGetLastError(); /* "already enabled" is harmless, but sticks */
    return cudaSuccess;
#else
    LAB_TODO("01.5");
#endif
}

cudaError_t disable_twice(int dev, int peer, peer_calls *calls)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaSetDevice(dev));
    calls->first = cudaDeviceDisablePeerAccess(peer);
    (void)cudaGetLastError();
    calls->again = cudaDeviceDisablePeerAccess(peer);
    (void)cudaGetLastError();
    return cudaSuccess;
#else
    LAB_TODO("01.6");
#endif
}
