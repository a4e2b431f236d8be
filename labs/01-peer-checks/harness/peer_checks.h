/**
 * @file peer_checks.h
 * @brief Lab 01 (chapter 4.1): the contracts of the student's functions, in student/peer_checks.c
 *        (read this file, do not edit it).
 *
 * Every function asks the CUDA runtime one of chapter 4.1's questions and hands back the answer,
 * errors included: the errors are the lesson. The harness makes the same calls itself and
 * compares; after each function returns it also reads the current device and cudaGetLastError(),
 * so an error left pending or a wrong current device fails the row. tests/unit/lab01-stand-in.c
 * checks the same clauses on any machine, against a stand-in runtime of two GPUs
 * (tests/unit/stand_in.h), and which call's error each function returns.
 *
 * Clauses shared by every function:
 * - returns cudaSuccess, or the error of a call the function cannot do without (said per
 *   function); on that path the out-parameters not yet written keep their values;
 * - otherwise leaves no error pending: cudaGetLastError() returns cudaSuccess afterwards, also
 *   when an answer it records is an error.
 */
#ifndef LAB01_PEER_CHECKS_H
#define LAB01_PEER_CHECKS_H

#include <cuda_runtime_api.h>

/** @brief What one GPU says about itself. */
typedef struct gpu_info {
    char name[256];         /**< e.g. "NVIDIA H200" (cudaDeviceProp.name) */
    int major;              /**< compute capability, major part */
    int minor;              /**< compute capability, minor part */
    int unified_addressing; /**< 1 when the GPU shares the host's address space (UVA) */
    char pci_bus_id[32];    /**< domain:bus:device.function */
} gpu_info;

/** @brief The four cudaDeviceGetP2PAttribute values of dev -> peer. */
typedef struct p2p_attributes {
    int performance_rank; /**< cudaDevP2PAttrPerformanceRank (lower: better link) */
    int access_supported; /**< cudaDevP2PAttrAccessSupported */
    int native_atomics;   /**< cudaDevP2PAttrNativeAtomicSupported */
    int array_access;     /**< cudaDevP2PAttrCudaArrayAccessSupported */
} p2p_attributes;

/** @brief What the same peer-access call answered twice in a row. */
typedef struct peer_calls {
    cudaError_t first; /**< the first call's result */
    cudaError_t again; /**< the same call once more */
} peer_calls;

/**
 * @brief TODO 01.1: fill @p info for GPU @p dev (cudaGetDeviceProperties, cudaDeviceGetPCIBusId).
 *
 * Returns the error of the first call that fails. Does not change the current device. Checked:
 * every field equals the harness's own query.
 */
cudaError_t describe_gpu(int dev, gpu_info *info);

/**
 * @brief TODO 01.2: can @p dev access @p peer's memory?
 *
 * Sets *can_access to cudaDeviceCanAccessPeer's answer, or to 0 when the call fails. Asked for
 * @p dev == @p peer too (the matrix's diagonal): ask, do not assume. Returns the call's result,
 * which is an answer, not a failure: no error stays pending. Does not change the current device.
 * Checked: answer and result equal the harness's own call.
 */
cudaError_t check_access(int dev, int peer, int *can_access);

/**
 * @brief TODO 01.3: the four P2P attributes of two distinct GPUs, dev -> peer
 *        (cudaDeviceGetP2PAttribute, source first).
 *
 * Returns the error of the first query that fails. Does not change the current device. Checked:
 * each value equals the harness's own query.
 */
cudaError_t query_attributes(int dev, int peer, p2p_attributes *attr);

/**
 * @brief TODO 01.4: the chapter's warning, tested: with @p dev current,
 *        cudaDeviceEnablePeerAccess(peer, 1) — flags 1, not 0.
 *
 * Returns cudaSetDevice's error when @p dev cannot be made current (then *result is not
 * written). Else writes the enable call's result to *result, clears the error it provoked and
 * leaves @p dev current. @p peer may equal @p dev (one GPU can still ask). Checked: *result
 * equals the same call made by the harness; access did not come on.
 */
cudaError_t try_nonzero_flags(int dev, int peer, cudaError_t *result);

/**
 * @brief TODO 01.5: with @p dev current, cudaDeviceEnablePeerAccess(peer, 0) twice; the second
 *        call's cudaErrorPeerAccessAlreadyEnabled is harmless, but is also left as the last
 *        error: clear it.
 *
 * Returns cudaSetDevice's error when @p dev cannot be made current (then @p calls is not
 * written). Else records both results, leaves @p dev current and access dev -> peer on (when the
 * runtime allows it); the reverse direction is not touched. Checked: both results equal the
 * harness's own two calls, and access dev -> peer is on afterwards.
 */
cudaError_t enable_twice(int dev, int peer, peer_calls *calls);

/**
 * @brief TODO 01.6: with @p dev current, cudaDeviceDisablePeerAccess(peer) twice (the second
 *        answers cudaErrorPeerAccessNotEnabled).
 *
 * Returns and writes as enable_twice(). Leaves access dev -> peer off. Checked: both results
 * equal the harness's own two calls, and access dev -> peer is off afterwards.
 */
cudaError_t disable_twice(int dev, int peer, peer_calls *calls);

#endif /* LAB01_PEER_CHECKS_H */
