/**
 * @file devices.h
 * @brief Device discovery, P2P checks and the choice of a GPU pair.
 *
 * Every lab asks the same questions before it starts: how many GPUs are
 * there, which pairs can reach each other, and which pair should I use?
 * The answers that end a run follow lab_exit.h: a machine without enough
 * GPUs exits 77 with the reason, a device id that cannot be right exits 2.
 */
#ifndef LAB_DEVICES_H
#define LAB_DEVICES_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Count the CUDA devices, treating "no device" and "no driver" as 0.
 * @param why     where to write the reason when the count is 0 (may be NULL)
 * @param why_len size of @p why in bytes
 * @return the number of devices (0 when none can be used)
 */
int lab_gpu_count(char *why, size_t why_len);

/**
 * @brief Exit 77 with the reason unless at least @p needed GPUs are present.
 * @param prog   program name for the message
 * @param needed how many GPUs the lab needs
 * @return the number of GPUs present (>= needed)
 */
int lab_require_gpus(const char *prog, int needed);

/**
 * @brief cudaDeviceCanAccessPeer for one ordered pair, checked.
 * @return true when @p dev can access memory on @p peer
 */
bool lab_can_access_peer(int dev, int peer);

/**
 * @brief Fill the n x n peer-access matrix: m[i*n+j] = 1 when GPU i can
 *        access GPU j. The diagonal is 0 (a device is not its own peer).
 * @param n      number of GPUs
 * @param matrix n*n ints, written
 */
void lab_p2p_matrix(int n, int *matrix);

/**
 * @brief Find the first pair (a < b) that has peer access both ways.
 * @return true when such a pair exists; *a and *b are set then
 */
bool lab_find_p2p_pair(int n, int *a, int *b);

/**
 * @brief Choose the two GPUs a lab runs on, or end the run with the reason.
 *
 * @p want_a and @p want_b are device ids from the command line, or -1 for
 * "choose for me". Equal ids exit 2; fewer than two GPUs exits 77; an id
 * that does not exist exits 2; when @p need_p2p is set, a pair without peer
 * access both ways exits 77 naming the pair. Without wishes the first pair
 * with P2P is chosen (or GPUs 0 and 1 when P2P is not needed).
 *
 * @param prog     program name for messages
 * @param want_a   requested first GPU, or -1
 * @param want_b   requested second GPU, or -1
 * @param need_p2p whether the lab needs peer access between the two
 * @param a        chosen first GPU (written)
 * @param b        chosen second GPU (written)
 */
void lab_select_pair(const char *prog, int want_a, int want_b, bool need_p2p,
                     int *a, int *b);

/**
 * @brief Let @p dev access @p peer's memory (flags 0). An access that is
 *        already enabled counts as success; the runtime's sticky
 *        "already enabled" error is cleared.
 * @return cudaSuccess or the error of cudaDeviceEnablePeerAccess
 */
cudaError_t lab_enable_peer(int dev, int peer);

/**
 * @brief Undo lab_enable_peer(). An access that is not enabled counts as
 *        success.
 * @return cudaSuccess or the error of cudaDeviceDisablePeerAccess
 */
cudaError_t lab_disable_peer(int dev, int peer);

struct lab_rows;

/**
 * @brief Append "machine" rows: one per GPU (name, compute capability, PCI
 *        id, memory), the CUDA runtime and driver versions, and the date, so
 *        that every result file says where and when it was measured.
 */
void lab_describe_machine(struct lab_rows *rows, int gpus);

/** Most GPUs the peer-access bookkeeping tracks. */
#define LAB_MAX_GPUS 64

/**
 * @brief Switch access dev -> peer on or off, only when it changes.
 *
 * The process remembers what it enabled, so it never enables twice (which
 * the runtime reports as an error and compute-sanitizer flags) nor disables
 * what is off. Leaves the current device at @p dev.
 */
cudaError_t lab_peer_access(int dev, int peer, bool on);

/** @brief Is access dev -> peer on, as this process set it? */
bool lab_peer_access_is_on(int dev, int peer);

/** @brief Disable every direction this process enabled (end of a run). */
void lab_peer_access_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* LAB_DEVICES_H */
