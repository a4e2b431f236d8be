/**
 * @file peer_checks.c
 * @brief Lab 01, the student's file: TODOs 01.1-01.6 (contracts in
 *        harness/peer_checks.h).
 */
#include "peer_checks.h"
#include "cuda_check.h"
#include "todo.h"

#include <stdio.h>

/* Contract of TODO 01.1 (in full: harness/peer_checks.h); each clause and its test:
 * - every field (name, compute capability, UVA, PCI bus id) equals the runtime's own answer for GPU
 *   dev; checked by: TODO 01.1: every GPU is described; TODO 01.1: with two GPUs or more each is
 *   described as itself; TODO 01.1 describe_gpu describes each GPU as itself
 * - the error of the first failing query is returned, whichever of the two fails; the fields it
 *   fills keep the caller's values; checked by: describe_gpu_no_such_device; TODO 01.1 describe_gpu
 *   describes each GPU as itself
 * - the current device is unchanged; no error is left pending; checked by: TODO 01.1: every GPU is
 *   described; TODO 01.1 describe_gpu describes each GPU as itself
 */
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

/* Contract of TODO 01.2 (in full: harness/peer_checks.h); each clause and its test:
 * - *can_access is the runtime's answer, the diagonal asked too, not assumed; checked by: TODO
 *   01.2: the access matrix; TODO 01.2 check_access asks every cell
 * - a failed call gives *can_access = 0 and returns the call's error, one fault or two; checked by:
 *   check_access_no_such_device; check_access_both_ids_negative
 * - the result returned is this call's own, not an older error still pending; checked by: TODO 01.2
 *   check_access asks every cell
 * - the error is cleared: cudaGetLastError() is cudaSuccess afterwards; the current device is
 *   unchanged; checked by: check_access_clears_its_error; TODO 01.2 check_access asks every cell
 */
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

/* Contract of TODO 01.3 (in full: harness/peer_checks.h); each clause and its test:
 * - the four values equal the harness's own cudaDeviceGetP2PAttribute queries, source first;
 *   checked by: TODO 01.3: every ordered pair; TODO 01.3 query_attributes asks source first
 * - the first failing query's error is returned; the values not yet asked keep theirs; checked by:
 *   query_attributes_no_such_peer; query_attributes_both_ids_bad; TODO 01.3 query_attributes asks
 *   source first
 * - the current device is unchanged; checked by: TODO 01.3: every ordered pair; TODO 01.3
 *   query_attributes asks source first
 */
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

/* Contract of TODO 01.4 (in full: harness/peer_checks.h); each clause and its test:
 * - dev is made current, or cudaSetDevice's error is returned and *result is not written; checked
 *   by: TODO 01.4 try_nonzero_flags makes no call
 * - *result is what flags 1 answers, as the harness's own call answers, peer == dev included; the
 *   function returns cudaSetDevice's status, not that answer; checked by: TODO 01.4: flags 1 asked
 *   on each GPU; TODO 01.4: flags 1 on a pair; TODO 01.4 try_nonzero_flags asks flags 1 from dev
 * - the provoked error is cleared; access did not come on; dev stays current; checked by: TODO
 *   01.4: flags 1 asked on each GPU; TODO 01.4 try_nonzero_flags asks flags 1 from dev
 */
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

/* Contract of TODO 01.5 (in full: harness/peer_checks.h); each clause and its test:
 * - dev is made current, or the error is returned and nothing is called; checked by: TODO 01.5
 *   enable_twice makes no call
 * - the first enable succeeds, the second answers cudaErrorPeerAccessAlreadyEnabled, and that error
 *   is cleared; checked by: TODO 01.5: enabling with flags 0 succeeds; TODO 01.5 enable_twice
 *   records both answers
 * - access dev -> peer is on afterwards; the reverse direction is untouched; dev stays current;
 *   checked by: TODO 01.5: access is one-way; TODO 01.5 enable_twice records both answers
 */
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

/* Contract of TODO 01.6 (in full: harness/peer_checks.h); each clause and its test:
 * - dev is made current, or the error is returned and nothing is called; checked by: TODO 01.6
 *   disable_twice makes no call
 * - the first disable succeeds, the second answers cudaErrorPeerAccessNotEnabled, and that error is
 *   cleared; checked by: TODO 01.6: access is disabled again; TODO 01.5 and 01.6: enabling and
 *   disabling; TODO 01.6 disable_twice records both answers
 * - access dev -> peer is off afterwards; dev stays current; checked by: TODO 01.6: access is
 *   disabled again; TODO 01.6 disable_twice records both answers
 */
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
