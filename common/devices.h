/**
 * @file devices.h
 * @brief Devices, peer access and far memory by route: a peer GPU (access on or off), the host
 *        over its link, or the same GPU (loopback: verifies code, never reported as a link).
 *        An answer that ends a run exits 77 (too few GPUs) or 2 (a device id that cannot be).
 */
#ifndef LAB_DEVICES_H
#define LAB_DEVICES_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The number of CUDA devices, 0 for "no device" or "no driver" (reason in @p why). */
int lab_gpu_count(char *why, size_t why_len);

/** @brief cudaDeviceCanAccessPeer for one ordered pair, checked: can @p dev reach @p peer? */
bool lab_can_access_peer(int dev, int peer);

/** @brief The n x n peer matrix: m[i*n+j] = 1 when GPU i can access GPU j (diagonal 0). */
void lab_p2p_matrix(int n, int *matrix);

/** @brief The first pair (a < b) with peer access both ways: true with *a and *b set. */
bool lab_find_p2p_pair(int n, int *a, int *b);

/**
 * @brief Choose the two GPUs (@p want_a, @p want_b: ids, or -1 "choose for me") or end the run:
 *        equal or missing ids exit 2, fewer than two GPUs or (with @p need_p2p) no peer access
 *        both ways exit 77. Without wishes: the first P2P pair, else 0 and 1 unless P2P needed.
 */
void lab_select_pair(const char *prog, int want_a, int want_b, bool need_p2p,
                     int *a, int *b);

/** @brief Let @p dev access @p peer's memory; "already enabled" is success (and is cleared). */
cudaError_t lab_enable_peer(int dev, int peer);

struct lab_rows;

/**
 * @brief Append "machine" rows: one per GPU (name, compute capability, PCI id, memory), the
 *        CUDA runtime and driver versions, and the date: where and when it was measured.
 */
void lab_describe_machine(struct lab_rows *rows, int gpus);

/** Most GPUs the peer-access bookkeeping tracks. */
#define LAB_MAX_GPUS 64

/**
 * @brief Switch access dev -> peer on or off, only when it changes. The process remembers what
 *        it enabled, so it never enables twice (which the runtime reports as an error and
 *        compute-sanitizer flags) nor disables what is off. Leaves the current device at @p dev.
 */
cudaError_t lab_peer_access(int dev, int peer, bool on);

/** @brief Is access dev -> peer on, as this process set it? */
bool lab_peer_access_is_on(int dev, int peer);

/** @brief Disable every direction this process enabled (end of a run). */
void lab_peer_access_reset(void);

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

/** @brief Can near_dev reach far memory by this route here? false with the reason in @p why. */
bool lab_route_possible(lab_route route, int near_dev, int far_dev, char *why,
                        size_t why_len);

/**
 * @brief Allocate @p bytes of far memory for @p near_dev by @p route and set peer access to
 *        match (through lab_peer_access). The current device is near_dev afterwards.
 */
cudaError_t lab_far_alloc(lab_far *far, lab_route route, int near_dev, int far_dev,
                          size_t bytes);

/** @brief Free what lab_far_alloc allocated (peer access is left as it is). */
void lab_far_free(lab_far *far);

#ifdef __cplusplus
}
#endif

#endif /* LAB_DEVICES_H */
