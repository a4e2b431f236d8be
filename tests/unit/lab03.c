/**
 * @file lab03.c
 * @brief Unit tests of lab 03's host-side student functions, on any machine
 *        (no GPU needed): TODO 03.3 (lab03_grid) and TODO 03.1
 *        (lab03_peer_both): its argument checks, and the calls it makes to
 *        lab_peer_access, which this driver replaces with a recorder.
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1
 * when any case failed; `lab03 03.1`, `lab03 03.1-calls` or `lab03 03.3`
 * runs one group of cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "devices.h"
#include "peer_kernels.h"
#include "unit_groups.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failed;

/* lab_peer_access as the student's lab03_peer_both sees it: this definition replaces
 * common/devices.c's at link time. It refuses what the real one refuses (and records nothing);
 * every other call is recorded, as "dev->peer on|off;", and returns the status scripted for
 * that direction (cudaSuccess unless a case says otherwise). */
static char calls[256];
static int scripted_dev = -1, scripted_peer = -1;
static cudaError_t scripted_status = cudaSuccess;

cudaError_t lab_peer_access(int dev, int peer, bool on)
{
    if (dev < 0 || peer < 0 || dev >= LAB_MAX_GPUS || peer >= LAB_MAX_GPUS || dev == peer)
        return cudaErrorInvalidDevice;
    const size_t used = strlen(calls);
    snprintf(calls + used, sizeof calls - used, "%d->%d %s;", dev, peer, on ? "on" : "off");
    return dev == scripted_dev && peer == scripted_peer ? scripted_status : cudaSuccess;
}

static void grid(const char *name, size_t n, int threads, int max_blocks, int want)
{
    const int got = lab03_grid(n, threads, max_blocks);
    printf("%s %s", got == want ? "ok" : "not ok", name);
    if (got != want)
        printf(": lab03_grid(%zu, %d, %d) returned %d; expected %d", n, threads, max_blocks, got,
               want);
    printf("\n");
    failed |= got != want;
}

static void refused(const char *name, int a, int b, bool on)
{
    const cudaError_t got = lab03_peer_both(a, b, on);
    const int ok = got == cudaErrorInvalidDevice;
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok)
        printf(": lab03_peer_both(%d, %d, %s) returned %s; expected cudaErrorInvalidDevice", a,
               b, on ? "true" : "false", cudaGetErrorName(got));
    printf("\n");
    failed |= !ok;
}

/** @brief Every clause of TODO 03.3's contract. */
static void grid_cases(void)
{
    grid("grid_zero_elements", 0, 256, 100, 0);
    grid("grid_zero_threads", 1000, 0, 100, 0);
    grid("grid_negative_threads", 1000, -256, 100, 0);
    grid("grid_zero_max_blocks", 1000, 256, 0, 0);
    grid("grid_negative_max_blocks", 1000, 256, -1, 0);
    grid("grid_most_negative_max_blocks", 1, 256, INT_MIN, 0);
    grid("grid_one_element", 1, 256, 100, 1);
    grid("grid_partial_warp", 31, 256, 100, 1);
    grid("grid_one_full_block", 256, 256, 100, 1);
    grid("grid_one_past_a_block", 257, 256, 100, 2);
    grid("grid_odd_size", 1000003, 256, 1 << 20, 3907);
    grid("grid_capped", 1000003, 256, 7, 7);
    grid("grid_cap_equals_need", 1024, 256, 4, 4);
    grid("grid_one_thread_per_block", 5, 1, 100, 5);
    grid("grid_near_size_max", SIZE_MAX, 256, 1000, 1000);
    grid("grid_near_size_max_uncapped", SIZE_MAX - 3, 1, INT_MAX, INT_MAX);
    grid("grid_more_blocks_than_int", (size_t)1 << 42, 256, INT_MAX, INT_MAX);
    grid("grid_last_block_before_wrap", SIZE_MAX - 254, 256, INT_MAX, INT_MAX);
}

/** @brief TODO 03.1's argument checks (no GPU needed). */
static void peer_both_cases(void)
{
    refused("peer_both_same_gpu", 0, 0, true);
    refused("peer_both_negative_a", -1, 1, true);
    refused("peer_both_negative_b", 1, -1, false);
    refused("peer_both_both_negative", -1, -1, true);
    refused("peer_both_equal_negative", -2, -2, false);
}

/* lab03_peer_both(a, b, on) with direction fail_dev -> fail_peer scripted to return @p status:
 * it must return @p want and have made exactly the calls @p want_calls (in either order). */
static void switched(const char *name, int a, int b, bool on, int fail_dev, int fail_peer,
                     cudaError_t status, cudaError_t want)
{
    char one[64], other[64], both[2][128];
    calls[0] = '\0';
    scripted_dev = fail_dev;
    scripted_peer = fail_peer;
    scripted_status = status;
    const cudaError_t got = lab03_peer_both(a, b, on);
    snprintf(one, sizeof one, "%d->%d %s;", a, b, on ? "on" : "off");
    snprintf(other, sizeof other, "%d->%d %s;", b, a, on ? "on" : "off");
    snprintf(both[0], sizeof both[0], "%s%s", one, other);
    snprintf(both[1], sizeof both[1], "%s%s", other, one);
    /* A failed call may end it: the other direction then need not be switched. */
    const bool stopped = status != cudaSuccess && fail_dev >= 0 &&
                         strcmp(calls, fail_dev == a ? one : other) == 0;
    const bool calls_ok = stopped || strcmp(calls, both[0]) == 0 || strcmp(calls, both[1]) == 0;
    const bool ok = got == want && calls_ok;
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok)
        printf(": lab03_peer_both(%d, %d, %s), with lab_peer_access(%d, %d) returning %s, "
               "returned %s and called lab_peer_access as \"%s\"; expected %s and the calls "
               "\"%s\"", a, b, on ? "true" : "false", fail_dev, fail_peer,
               cudaGetErrorName(status), cudaGetErrorName(got), calls, cudaGetErrorName(want),
               both[0]);
    printf("\n");
    failed |= !ok;
    scripted_dev = scripted_peer = -1;
}

/** @brief TODO 03.1: both directions through lab_peer_access, and its first error (no GPU
 *         needed: the recorder above stands in for it). */
static void peer_both_call_cases(void)
{
    const cudaError_t ok = cudaSuccess, none = cudaErrorPeerAccessUnsupported;
    switched("peer_both_on_both_ways_gpu_0", 0, 1, true, -1, -1, ok, ok);
    switched("peer_both_off_both_ways", 2, 5, false, -1, -1, ok, ok);
    switched("peer_both_on_b_is_gpu_0", 3, 0, true, -1, -1, ok, ok);
    switched("peer_both_first_error_a_to_b", 0, 1, true, 0, 1, none, none);
    switched("peer_both_error_b_to_a", 0, 1, true, 1, 0, cudaErrorTooManyPeers,
             cudaErrorTooManyPeers);
    switched("peer_both_off_error_a_to_b", 4, 2, false, 4, 2, cudaErrorInvalidValue,
             cudaErrorInvalidValue);
}

/**
 * @brief The cases of TODOs 03.1 and 03.3; with an argument (03.1, 03.1-calls or 03.3)
 *        only that group's, so that each is scored on its own (an unfinished
 *        TODO stops the driver where it is first called).
 */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {
        {"03.1", peer_both_cases}, {"03.1-calls", peer_both_call_cases}, {"03.3", grid_cases}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
