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

double lab05_nvlink_per_link_gbps(double total_gbps, int links)
{
    LAB_TODO("05.1");
}

double lab05_pcie_lane_gbps(double gt_per_s, double payload_share)
{
    LAB_TODO("05.1");
}

int lab05_count_rate(size_t bytes, int copies, int directions, double us, double link_gbps,
                     lab05_rate *out)
{
    LAB_TODO("05.2");
}

cudaError_t lab05_time_on_host(lab_work_fn enqueue, void *arg, cudaStream_t stream, bool sync,
                               double *us)
{
    LAB_TODO("05.6");
}

cudaError_t lab05_set_cache_config(int dev, enum cudaFuncCache config)
{
    LAB_TODO("05.7");
}
