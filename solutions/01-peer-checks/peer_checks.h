/**
 * @file peer_checks.h
 * @brief Lab 01: what the peer checks of chapter 4.1 find on this machine.
 *
 * peer_checks.c runs the checks and fills these records; report.c prints
 * them for people or as CSV.
 */
#ifndef PEER_CHECKS_H
#define PEER_CHECKS_H

#include <cuda_runtime_api.h>

/** @brief What one GPU says about itself. */
typedef struct gpu_info {
    char name[256];          /**< marketing name, e.g. "NVIDIA H200" */
    int major;               /**< compute capability, major part */
    int minor;               /**< compute capability, minor part */
    int unified_addressing;  /**< 1 when the GPU shares the host's address space (UVA) */
    char pci_bus_id[32];     /**< domain:bus:device.function */
} gpu_info;

/** @brief Everything learnt about one ordered pair (dev -> peer). */
typedef struct pair_info {
    int can_access;              /**< cudaDeviceCanAccessPeer(dev, peer) */
    cudaError_t can_access_err;  /**< what that call returned */
    int performance_rank;        /**< cudaDevP2PAttrPerformanceRank */
    int access_supported;        /**< cudaDevP2PAttrAccessSupported */
    int native_atomics;          /**< cudaDevP2PAttrNativeAtomicSupported */
    int array_access;            /**< cudaDevP2PAttrCudaArrayAccessSupported */
    cudaError_t enable_flags_one; /**< cudaDeviceEnablePeerAccess(peer, 1) */
    cudaError_t enable_first;    /**< first cudaDeviceEnablePeerAccess(peer, 0) */
    cudaError_t enable_again;    /**< the same call once more */
    cudaError_t reverse_disable; /**< disabling peer -> dev right after enabling dev -> peer */
    int reverse_tried;           /**< 1 when reverse_disable was measured */
    cudaError_t disable_first;   /**< cudaDeviceDisablePeerAccess(peer) */
    cudaError_t disable_again;   /**< the same call once more */
} pair_info;

/** @brief All results: n GPUs and the n x n ordered pairs (row = dev). */
typedef struct peer_report {
    int n;           /**< number of GPUs */
    gpu_info *gpus;  /**< n entries */
    pair_info *pairs; /**< n*n entries, pairs[dev * n + peer] */
} peer_report;

/** @brief The record for dev -> peer. */
static inline pair_info *report_pair(const peer_report *r, int dev, int peer)
{
    return &r->pairs[dev * r->n + peer];
}

/**
 * @brief Print the report as tables for people.
 */
void print_report_table(const peer_report *report);

/**
 * @brief Print the report as CSV: section,gpu,peer,field,value.
 */
void print_report_csv(const peer_report *report);

#endif /* PEER_CHECKS_H */
