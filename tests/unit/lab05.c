/**
 * @file lab05.c
 * @brief Unit tests of lab 05's host-side student functions (TODOs 05.1,
 *        05.2, 05.6's and 05.7's error clauses), on any machine: a GPU, when
 *        there is one, is only asked to become current and to start (and fail) a
 *        stream capture.
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1
 * when any case failed.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "p2p_perf.h"
#include "unit_groups.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

static int failed;

static void report(const char *name, int ok, const char *fmt, double got, double want)
{
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok) {
        printf(": ");
        printf(fmt, got, want);
    }
    printf("\n");
    failed |= !ok;
}

static void rate_is(const char *name, double got, double want)
{
    const int ok = fabs(got - want) <= 1e-12 * (fabs(want) > 1.0 ? fabs(want) : 1.0);
    report(name, ok, "returned %.12g, expected %.12g", got, want);
}

/* TODO 05.1: datasheet totals and lane rates. */
static void per_link_and_lane(void)
{
    rate_is("nvlink3_a100", lab05_nvlink_per_link_gbps(600.0, 12), 25.0);
    rate_is("nvlink4_h100", lab05_nvlink_per_link_gbps(900.0, 18), 25.0);
    rate_is("nvlink_one_link", lab05_nvlink_per_link_gbps(50.0, 1), 25.0);
    rate_is("nvlink_zero_links", lab05_nvlink_per_link_gbps(600.0, 0), 0.0);
    rate_is("nvlink_negative_links", lab05_nvlink_per_link_gbps(600.0, -3), 0.0);
    rate_is("nvlink_zero_total", lab05_nvlink_per_link_gbps(0.0, 12), 0.0);
    rate_is("nvlink_negative_total", lab05_nvlink_per_link_gbps(-600.0, 12), 0.0);
    rate_is("nvlink_nan_total", lab05_nvlink_per_link_gbps(NAN, 12), 0.0);
    rate_is("nvlink_infinite_total", lab05_nvlink_per_link_gbps(INFINITY, 12), 0.0);
    rate_is("pcie3_lane", lab05_pcie_lane_gbps(8.0, 128.0 / 130.0), 8.0 * 128.0 / 130.0 / 8.0);
    rate_is("pcie1_lane_8b10b", lab05_pcie_lane_gbps(2.5, 0.8), 0.25);
    rate_is("pcie6_flit", lab05_pcie_lane_gbps(64.0, 242.0 / 256.0), 7.5625);
    rate_is("pcie_share_one", lab05_pcie_lane_gbps(16.0, 1.0), 2.0);
    rate_is("pcie_zero_rate", lab05_pcie_lane_gbps(0.0, 0.8), 0.0);
    rate_is("pcie_negative_rate", lab05_pcie_lane_gbps(-8.0, 0.8), 0.0);
    rate_is("pcie_nan_rate", lab05_pcie_lane_gbps(NAN, 0.8), 0.0);
    rate_is("pcie_infinite_rate", lab05_pcie_lane_gbps(INFINITY, 0.8), 0.0);
    rate_is("pcie_share_zero", lab05_pcie_lane_gbps(8.0, 0.0), 0.0);
    rate_is("pcie_share_negative", lab05_pcie_lane_gbps(8.0, -0.8), 0.0);
    rate_is("pcie_share_above_one", lab05_pcie_lane_gbps(8.0, 1.5), 0.0);
    rate_is("pcie_share_nan", lab05_pcie_lane_gbps(8.0, NAN), 0.0);
}

/* One lab05_count_rate call against what the contract says. */
static void count_case(const char *name, size_t bytes, int copies, int directions, double us,
                       double link, int want_rc, double gbps, double peak)
{
    const lab05_rate untouched = {-1.0, -1.0, -1.0, -1.0};
    lab05_rate got = untouched;
    const int rc = lab05_count_rate(bytes, copies, directions, us, link, &got);
    int ok = rc == want_rc;
    if (ok && rc == 0) {
        const double counted = (double)bytes * (double)copies;
        const double pct = peak > 0.0 ? 100.0 * gbps / peak : 0.0;
        ok = fabs(got.counted - counted) <= 1e-9 * counted &&
             fabs(got.gbps - gbps) <= 1e-9 * gbps && fabs(got.peak_gbps - peak) <= 1e-12 &&
             fabs(got.pct_peak - pct) <= 1e-9 * (pct > 1.0 ? pct : 1.0);
    } else if (ok) {
        ok = got.counted == -1.0 && got.gbps == -1.0 && got.peak_gbps == -1.0 &&
             got.pct_peak == -1.0;
    }
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok)
        printf(": lab05_count_rate(%zu, %d, %d, %g, %g) returned %d with counted %g, gbps %g, "
               "peak %g, pct %g; expected %d%s", bytes, copies, directions, us, link, rc,
               got.counted, got.gbps, got.peak_gbps, got.pct_peak, want_rc,
               want_rc ? " with *out untouched" : "");
    printf("\n");
    failed |= !ok;
}

/* TODO 05.2: the counted bytes, GB/s and the peak. */
static void counted_bytes(void)
{
    count_case("one_way_1GB_in_20ms", 1000000000, 1, 1, 20000.0, 63.0, 0, 50.0, 63.0);
    count_case("both_ways_counts_both", 268435456, 2, 2, 1000.0, 450.0, 0, 536.870912, 900.0);
    count_case("streams_count_all_one_direction", 33554432, 8, 1, 714.0, 450.0, 0,
               8.0 * 33554432 / 714.0e3, 450.0);
    count_case("one_byte", 1, 1, 1, 1.0, 25.0, 0, 1e-3, 25.0);
    count_case("odd_size", 1000001, 1, 1, 3.0, 0.0, 0, 1000001.0 / 3.0e3, 0.0);
    count_case("unknown_peak", 4096, 1, 1, 2.0, 0.0, 0, 2.048, 0.0);
    count_case("zero_bytes", 0, 1, 1, 1.0, 25.0, -1, 0, 0);
    count_case("zero_copies", 4096, 0, 1, 1.0, 25.0, -1, 0, 0);
    count_case("negative_copies", 4096, -2, 1, 1.0, 25.0, -1, 0, 0);
    count_case("three_directions", 4096, 4, 3, 1.0, 25.0, -1, 0, 0);
    count_case("zero_directions", 4096, 1, 0, 1.0, 25.0, -1, 0, 0);
    count_case("two_directions_one_copy", 4096, 1, 2, 1.0, 25.0, -1, 0, 0);
    count_case("overflow", SIZE_MAX / 2 + 1, 2, 1, 1.0, 25.0, -1, 0, 0);
    /* 3 x (2^63 + 1) wraps to 2^63 + 3: above bytes, so "product < bytes" misses it. */
    count_case("overflow_wraps_above_bytes", SIZE_MAX / 2 + 2, 3, 1, 1.0, 25.0, -1, 0, 0);
    count_case("product_is_size_max", SIZE_MAX / 3, 3, 1, 1e6, 25.0, 0,
               (double)SIZE_MAX / 1e9, 25.0);
    count_case("negative_directions", 4096, 2, -1, 1.0, 25.0, -1, 0, 0);
    count_case("zero_time", 4096, 1, 1, 0.0, 25.0, -1, 0, 0);
    count_case("negative_time", 4096, 1, 1, -1.0, 25.0, -1, 0, 0);
    count_case("nan_time", 4096, 1, 1, NAN, 25.0, -1, 0, 0);
    count_case("infinite_time", 4096, 1, 1, INFINITY, 25.0, -1, 0, 0);
    count_case("negative_peak", 4096, 1, 1, 1.0, -25.0, -1, 0, 0);
    count_case("nan_peak", 4096, 1, 1, 1.0, NAN, -1, 0, 0);
    count_case("infinite_peak", 4096, 1, 1, 1.0, INFINITY, -1, 0, 0);
    count_case("several_faults", 0, 0, 3, -1.0, NAN, -1, 0, 0);
}

static int calls;

static cudaError_t failing_enqueue(cudaStream_t stream, void *arg)
{
    (void)stream;
    (void)arg;
    calls++;
    return cudaErrorInvalidValue;
}

/* TODO 05.6: an enqueue that fails is reported at once; nothing is timed. */
static void host_timer_errors(void)
{
    for (int sync = 0; sync < 2; sync++) {
        double us = -7.0;
        calls = 0;
        const cudaError_t err = lab05_time_on_host(failing_enqueue, NULL, NULL, sync != 0, &us);
        const int ok = err == cudaErrorInvalidValue && us == -7.0 && calls == 1;
        printf("%s %s", ok ? "ok" : "not ok", sync ? "host_timer_sync_enqueue_fails"
                                                   : "host_timer_nosync_enqueue_fails");
        if (!ok)
            printf(": returned error %d (want %d), *us %g (want it untouched), enqueue called "
                   "%d times (want 1)", (int)err, (int)cudaErrorInvalidValue, us, calls);
        printf("\n");
        failed |= !ok;
    }
}

static cudaError_t quiet_enqueue(cudaStream_t stream, void *arg)
{
    (void)stream;
    (void)arg;
    calls++;
    return cudaSuccess;
}

/* A stream whose cudaStreamSynchronize fails, though nothing was queued: on a GPU a stream that
 * is capturing (synchronizing it is not allowed), else the default stream (no device to
 * synchronize). NULL in *stream: the default stream. */
static void failing_sync_stream(cudaStream_t *stream)
{
    *stream = NULL;
    if (cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaStreamBeginCapture(*stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
        if (*stream != NULL)
            (void)cudaStreamDestroy(*stream);
        *stream = NULL;
    }
    (void)cudaGetLastError();
}

static void end_failing_sync_stream(cudaStream_t stream)
{
    cudaGraph_t graph = NULL;
    if (stream != NULL) {
        (void)cudaStreamEndCapture(stream, &graph); /* the capture was invalidated */
        if (graph != NULL)
            (void)cudaGraphDestroy(graph);
        (void)cudaStreamDestroy(stream);
    }
    (void)cudaGetLastError();
}

/* TODO 05.6: the enqueue succeeds, the synchronize fails: its error is returned, with and
 * without the synchronize in the timing, and nothing is timed. */
static void host_timer_sync_errors(void)
{
    for (int sync = 0; sync < 2; sync++) {
        double us = -7.0;
        cudaStream_t stream;
        failing_sync_stream(&stream);
        calls = 0;
        const cudaError_t err = lab05_time_on_host(quiet_enqueue, NULL, stream, sync != 0, &us);
        end_failing_sync_stream(stream);
        const int ok = err != cudaSuccess && us == -7.0 && calls == 1;
        printf("%s %s", ok ? "ok" : "not ok", sync ? "host_timer_sync_fails"
                                                   : "host_timer_nosync_sync_fails");
        if (!ok)
            printf(": with an enqueue that succeeds and a cudaStreamSynchronize that fails, "
                   "returned %s (want the synchronize's error), *us %g (want it untouched), "
                   "enqueue called %d times (want 1)", cudaGetErrorName(err), us, calls);
        printf("\n");
        failed |= !ok;
    }
}

/* TODO 05.7: a GPU that does not exist cannot be made current: its error is
 * returned, not the setting applied to whichever GPU is current (with no
 * GPU every call fails; with one, only a checked cudaSetDevice does). */
static void cache_config_errors(void)
{
    const int no_device = 4096;
    const cudaError_t err = lab05_set_cache_config(no_device, cudaFuncCachePreferL1);
    const int ok = err != cudaSuccess;
    printf("%s cache_config_no_such_device", ok ? "ok" : "not ok");
    if (!ok)
        printf(": lab05_set_cache_config(%d, cudaFuncCachePreferL1) returned cudaSuccess; "
               "expected cudaSetDevice's error", no_device);
    printf("\n");
    (void)cudaGetLastError();
    failed |= !ok;
}

/**
 * @brief Every host-side clause of TODOs 05.1, 05.2, 05.6 and 05.7 that
 *        needs no GPU; with an argument (05.1, 05.2, 05.6, 05.6-sync or 05.7)
 *        only that group's cases.
 */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"05.1", per_link_and_lane}, {"05.2", counted_bytes},
                                        {"05.6", host_timer_errors},
                                        {"05.6-sync", host_timer_sync_errors},
                                        {"05.7", cache_config_errors}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
