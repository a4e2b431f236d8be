/**
 * @file route.h
 * @brief Far memory by route: a peer GPU (access on or off), the host over
 *        its link (pinned, mapped), or the same GPU (loopback).
 *
 * The same student kernels and wrappers run against whichever far memory
 * the machine has. One GPU is enough for the host and loopback routes; the
 * loopback route verifies code, and is never reported as a link.
 */
#ifndef LAB_ROUTE_H
#define LAB_ROUTE_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Where the far memory lives. */
typedef enum lab_route {
    LAB_ROUTE_PEER = 0,     /**< another GPU, peer access enabled near -> far */
    LAB_ROUTE_PEER_OFF = 1, /**< another GPU, peer access disabled (copies only) */
    LAB_ROUTE_HOST = 2,     /**< pinned host memory mapped into the GPU (PCIe or C2C) */
    LAB_ROUTE_LOOPBACK = 3  /**< the near GPU's own memory */
} lab_route;

/** Number of routes. */
#define LAB_ROUTE_COUNT 4

/** @brief One far buffer as the near GPU sees it. */
typedef struct lab_far {
    lab_route route; /**< how it was made */
    int near_dev;    /**< the GPU that uses it */
    int far_dev;     /**< the GPU that owns it (-1: the host) */
    void *ptr;       /**< the address kernels and copies on near_dev use */
    void *host;      /**< the host's address (host route only, else NULL) */
    size_t bytes;    /**< its size */
} lab_far;

/** @brief "peer", "peer_off", "host" or "loopback": the rows' route column. */
const char *lab_route_name(lab_route route);

/**
 * @brief Can near_dev reach far memory by this route here? false with the
 *        reason (fewer GPUs, no P2P between them, no mapped host memory).
 */
bool lab_route_possible(lab_route route, int near_dev, int far_dev, char *why,
                        size_t why_len);

/**
 * @brief Allocate @p bytes of far memory for @p near_dev by @p route and set
 *        peer access to match (through lab_peer_access). The current device
 *        is near_dev afterwards.
 */
cudaError_t lab_far_alloc(lab_far *far, lab_route route, int near_dev, int far_dev,
                          size_t bytes);

/** @brief Free what lab_far_alloc allocated (peer access is left as it is). */
void lab_far_free(lab_far *far);

#ifdef __cplusplus
}
#endif

#endif /* LAB_ROUTE_H */
