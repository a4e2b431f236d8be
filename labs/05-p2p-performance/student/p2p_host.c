/**
 * @file p2p_host.c
 * @brief Lab 05, the student's host code: TODOs 05.1, 05.2, 05.6 and 05.7
 *        (contracts in harness/p2p_perf.h).
 */
#include "p2p_perf.h"
#include "timing.h"
#include "todo.h"

#include <math.h>
#include <stdint.h>

/* Contract of TODO 05.1 (in full: harness/p2p_perf.h); each clause and its test:
 * - per link and direction: total / links / 2; checked by: nvlink4_h100; nvlink_one_link
 * - per PCIe lane: GT/s x payload share / 8; checked by: pcie3_lane; pcie1_lane_8b10b; pcie6_flit
 * - bad input (0 links, a total or rate not positive and finite, share outside (0, 1]) gives 0;
 *   checked by: nvlink_zero_links; nvlink_negative_total; pcie_infinite_rate; pcie_share_zero
 * - every rate of the link experiment matches the arithmetic; checked by: TODO 05.1 every
 *   datasheet rate
 */
double lab05_nvlink_per_link_gbps(double total_gbps, int links)
{
    LAB_TODO("05.1");
}

double lab05_pcie_lane_gbps(double gt_per_s, double payload_share)
{
    LAB_TODO("05.1");
}

/* Contract of TODO 05.2 (in full: harness/p2p_perf.h); each clause and its test:
 * - every copy the time covers counts, both ways and several streams; checked by:
 *   both_ways_counts_both; streams_count_all_one_direction
 * - GB/s = bytes / (us x 1e3); peak x directions; checked by: one_byte; odd_size
 * - bad input refused, several faults at once; checked by: several_faults; two_directions_one_copy;
 *   overflow; overflow_wraps_above_bytes; infinite_peak
 * - a product of exactly SIZE_MAX fits; checked by: product_is_size_max
 */
int lab05_count_rate(size_t bytes, int copies, int directions, double us, double link_gbps,
                     lab05_rate *out)
{
    LAB_TODO("05.2");
}

/* Contract of TODO 05.6 (in full: harness/p2p_perf.h); each clause and its test:
 * - an enqueue that fails is returned at once, nothing timed; checked by:
 *   host_timer_sync_enqueue_fails; host_timer_nosync_enqueue_fails
 * - without a synchronize the enqueue is timed, with one the copy; checked by: TODO 05.6 the host
 *   clock without a synchronize
 * - a failing synchronize is returned, in the timing or after it, nothing timed; the stream is idle
 *   on return; checked by: host_timer_nosync_sync_fails; host_timer_sync_fails; TODO 05.6 the host
 *   clock without a synchronize
 */
cudaError_t lab05_time_on_host(lab_work_fn enqueue, void *arg, cudaStream_t stream, bool sync,
                               double *us)
{
    LAB_TODO("05.6");
}

/* Contract of TODO 05.7 (in full: harness/p2p_perf.h); each clause and its test:
 * - dev is made current and the setting applied (read back by the harness); checked by: TODO 05.7
 *   PreferL1 on and off
 * - the first error is returned: a GPU that does not exist gives cudaSetDevice's error; checked
 *   by: cache_config_no_such_device
 * - dev is left current, whichever GPU was current before (two GPUs); checked by: TODO 05.7 the
 *   setting's GPU is made current
 */
cudaError_t lab05_set_cache_config(int dev, enum cudaFuncCache config)
{
    LAB_TODO("05.7");
}
