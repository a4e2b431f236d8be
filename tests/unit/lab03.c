/**
 * @file lab03.c
 * @brief Unit tests of lab 03's host-side student functions, on any machine
 *        (no GPU needed): TODO 03.3 (lab03_grid) and the argument clauses
 *        of TODO 03.1 (lab03_peer_both).
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1
 * when any case failed; `lab03 03.1` or `lab03 03.3` runs one TODO's cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "peer_kernels.h"
#include "unit_groups.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static int failed;

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

/**
 * @brief The cases of TODOs 03.1 and 03.3; with an argument (03.1 or 03.3)
 *        only that TODO's, so that each is scored on its own (an unfinished
 *        TODO stops the driver where it is first called).
 */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"03.1", peer_both_cases}, {"03.3", grid_cases}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
