/**
 * @file lab02.c
 * @brief Unit tests of lab 02's student functions, on any machine (no GPU
 *        needed): the byte count, every check and its order, the owner of
 *        host pointers, and that the copies refuse before they copy.
 *
 * `lab02 02.k` runs only that TODO's cases (default: all), so that an
 * unfinished TODO stops only its own group. Prints "ok NAME" or "not ok
 * NAME: what came back and what was expected" per case; exits 1 when any
 * case failed.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "p2p_copy.h"
#include "unit_groups.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

static void report(const char *name, int ok, const char *got, const char *want)
{
    if (ok)
        printf("ok %s\n", name);
    else
        printf("not ok %s: got %s, expected %s\n", name, got, want);
    failed |= !ok;
}

static void expect_bytes(const char *name, size_t count, size_t elem, p2p_status want_status,
                         size_t want)
{
    size_t bytes = 12345;
    unit_case(name);
    p2p_status got = p2p_bytes(count, elem, &bytes);
    size_t left = want_status == P2P_OK ? want : 12345;
    char g[96], w[96];
    snprintf(g, sizeof g, "%s with *bytes %zu", p2p_status_name(got), bytes);
    snprintf(w, sizeof w, "%s with *bytes %zu", p2p_status_name(want_status), left);
    report(name, got == want_status && bytes == left, g, w);
}

/** @brief TODO 02.1: zero, one, odd sizes, the largest product, overflow (wrapping below and
 *         above the factors). */
static void test_bytes(void)
{
    expect_bytes("bytes_product", 1000, 4, P2P_OK, 4000);
    expect_bytes("bytes_one", 1, 1, P2P_OK, 1);
    expect_bytes("bytes_odd", 3, 7, P2P_OK, 21);
    expect_bytes("bytes_zero_count", 0, 4, P2P_ERR_ZERO_SIZE, 0);
    expect_bytes("bytes_zero_elem_size", 4, 0, P2P_ERR_ZERO_SIZE, 0);
    expect_bytes("bytes_both_zero", 0, 0, P2P_ERR_ZERO_SIZE, 0);
    expect_bytes("bytes_largest_floats", SIZE_MAX / 4, 4, P2P_OK, (SIZE_MAX / 4) * 4);
    expect_bytes("bytes_size_max", SIZE_MAX, 1, P2P_OK, SIZE_MAX);
    expect_bytes("bytes_overflow_floats", SIZE_MAX / 4 + 1, 4, P2P_ERR_SIZE_OVERFLOW, 0);
    expect_bytes("bytes_overflow_odd", SIZE_MAX / 3 + 1, 3, P2P_ERR_SIZE_OVERFLOW, 0);
    expect_bytes("bytes_overflow_halves", SIZE_MAX / 2 + 1, 2, P2P_ERR_SIZE_OVERFLOW, 0);
    expect_bytes("bytes_overflow_both_large", SIZE_MAX, SIZE_MAX, P2P_ERR_SIZE_OVERFLOW, 0);
    /* Products that wrap around to a value above both factors: a check made after the
     * multiplication (product < count) lets them through. */
    expect_bytes("bytes_overflow_wraps_above_count", SIZE_MAX / 2, 4, P2P_ERR_SIZE_OVERFLOW, 0);
    expect_bytes("bytes_overflow_wraps_above_elem_size", 4, SIZE_MAX / 2, P2P_ERR_SIZE_OVERFLOW, 0);
}

static int dst_word, src_word;

/* A valid copy GPU 0 -> GPU 1 on a machine with two GPUs. */
static p2p_request valid(void)
{
    p2p_request req = {&dst_word, 1, 1, &src_word, 0, 0, 1000};
    return req;
}

static void expect_check(const char *name, p2p_request req, int count, p2p_status want)
{
    p2p_request copy = req;
    unit_case(name);
    p2p_status got = p2p_check(&req, count);
    report(name, got == want, p2p_status_name(got), p2p_status_name(want));
    if (memcmp(&copy, &req, sizeof req) != 0)
        report(name, 0, "a changed request", "the request left as it was");
}

/** @brief TODO 02.2: each fault alone, the boundaries, several faults at once. */
static void test_check(void)
{
    p2p_request r = valid();
    expect_check("check_valid", r, 2, P2P_OK);
    r = valid(); r.dst_dev = r.dst_owner = 0;
    expect_check("check_loopback", r, 1, P2P_OK);
    r = valid(); r.bytes = 1;
    expect_check("check_one_byte", r, 2, P2P_OK);
    r = valid(); r.bytes = SIZE_MAX;
    expect_check("check_size_max", r, 2, P2P_OK);
    r = valid(); r.src_dev = r.src_owner = 7; r.dst_dev = r.dst_owner = 7;
    expect_check("check_last_device", r, 8, P2P_OK);
    r = valid(); r.dst = NULL;
    expect_check("check_null_dst", r, 2, P2P_ERR_NULL_DST);
    r = valid(); r.src = NULL;
    expect_check("check_null_src", r, 2, P2P_ERR_NULL_SRC);
    r = valid(); r.bytes = 0;
    expect_check("check_zero_bytes", r, 2, P2P_ERR_ZERO_SIZE);
    r = valid(); r.dst_dev = r.dst_owner = -1;
    expect_check("check_dst_device_negative", r, 2, P2P_ERR_BAD_DST_DEVICE);
    r = valid(); r.dst_dev = r.dst_owner = 2;
    expect_check("check_dst_device_equals_count", r, 2, P2P_ERR_BAD_DST_DEVICE);
    r = valid(); r.dst_dev = r.dst_owner = INT_MAX;
    expect_check("check_dst_device_int_max", r, 2, P2P_ERR_BAD_DST_DEVICE);
    r = valid(); r.src_dev = r.src_owner = -1;
    expect_check("check_src_device_negative", r, 2, P2P_ERR_BAD_SRC_DEVICE);
    r = valid(); r.src_dev = r.src_owner = 2;
    expect_check("check_src_device_equals_count", r, 2, P2P_ERR_BAD_SRC_DEVICE);
    r = valid(); r.dst_dev = r.dst_owner = r.src_dev = r.src_owner = 0;
    expect_check("check_no_devices", r, 0, P2P_ERR_BAD_DST_DEVICE);
    r = valid(); r.dst_owner = P2P_NOT_DEVICE;
    expect_check("check_dst_host_memory", r, 2, P2P_ERR_DST_NOT_ON_DEVICE);
    r = valid(); r.dst_owner = 0;
    expect_check("check_dst_on_other_gpu", r, 2, P2P_ERR_DST_NOT_ON_DEVICE);
    r = valid(); r.src_owner = P2P_NOT_DEVICE;
    expect_check("check_src_host_memory", r, 2, P2P_ERR_SRC_NOT_ON_DEVICE);
    r = valid(); r.src_owner = 1;
    expect_check("check_src_on_other_gpu", r, 2, P2P_ERR_SRC_NOT_ON_DEVICE);

    /* Several faults at once: the first in the documented order wins. */
    r = valid(); r.dst = NULL; r.src = NULL;
    expect_check("check_null_dst_and_null_src", r, 2, P2P_ERR_NULL_DST);
    r = valid(); r.src = NULL; r.bytes = 0;
    expect_check("check_null_src_and_zero_bytes", r, 2, P2P_ERR_NULL_SRC);
    r = valid(); r.dst = NULL; r.bytes = 0;
    expect_check("check_null_dst_and_zero_bytes", r, 2, P2P_ERR_NULL_DST);
    r = valid(); r.bytes = 0; r.dst_dev = -1;
    expect_check("check_zero_bytes_and_bad_dst_device", r, 2, P2P_ERR_ZERO_SIZE);
    r = valid(); r.dst_dev = 5; r.src_dev = -3;
    expect_check("check_bad_dst_and_bad_src_device", r, 2, P2P_ERR_BAD_DST_DEVICE);
    r = valid(); r.src_dev = 9; r.dst_owner = P2P_NOT_DEVICE;
    expect_check("check_bad_src_device_and_dst_host_memory", r, 2, P2P_ERR_BAD_SRC_DEVICE);
    r = valid(); r.dst_owner = P2P_NOT_DEVICE; r.src_owner = P2P_NOT_DEVICE;
    expect_check("check_dst_and_src_host_memory", r, 2, P2P_ERR_DST_NOT_ON_DEVICE);
    r = (p2p_request){NULL, -1, P2P_NOT_DEVICE, NULL, -1, P2P_NOT_DEVICE, 0};
    expect_check("check_every_fault", r, 0, P2P_ERR_NULL_DST);
}

/** @brief TODO 02.3: host pointers have no device (with or without a GPU). */
static void test_owner(void)
{
    char stack_bytes[64];
    char *heap = malloc(4096);
    unit_case("owner_null");
    int got = p2p_owner(NULL);
    char g[32], w[32];
    snprintf(w, sizeof w, "%d", P2P_NOT_DEVICE);
    snprintf(g, sizeof g, "%d", got);
    report("owner_null", got == P2P_NOT_DEVICE, g, w);
    unit_case("owner_stack_memory");
    got = p2p_owner(stack_bytes);
    snprintf(g, sizeof g, "%d", got);
    report("owner_stack_memory", got == P2P_NOT_DEVICE, g, w);
    unit_case("owner_heap_memory");
    got = heap ? p2p_owner(heap) : P2P_NOT_DEVICE;
    snprintf(g, sizeof g, "%d", got);
    report("owner_heap_memory", got == P2P_NOT_DEVICE, g, w);
    free(heap);
}

/* A refused call must return one of @p want and leave @p dst as it was. */
static void expect_refused(const char *name, p2p_status got, p2p_status want1,
                           p2p_status want2, const unsigned char *dst)
{
    char w[80];
    snprintf(w, sizeof w, "%s%s%s", p2p_status_name(want1), want2 != want1 ? " or " : "",
             want2 != want1 ? p2p_status_name(want2) : "");
    report(name, got == want1 || got == want2, p2p_status_name(got), w);
    for (int i = 0; i < 64; i++)
        if (dst[i] != 0xA5) {
            report(name, 0, "a written destination", "nothing written");
            return;
        }
}

/* Host buffers: refused whether or not this machine has a GPU (no device:
 * the id is bad; a device: the pointer is not its memory). */
static unsigned char host_dst[64], host_src[64];

/* One refused call: the case is announced before CALL runs. */
#define REFUSED(name, call, want1, want2) \
    (unit_case(name), expect_refused((name), (call), (want1), (want2), host_dst))

/** @brief TODO 02.4: p2p_copy checks before it copies. */
static void test_copy(void)
{
    const p2p_status bad = P2P_ERR_BAD_DST_DEVICE, not_dev = P2P_ERR_DST_NOT_ON_DEVICE;
    memset(host_dst, 0xA5, sizeof host_dst);
    memset(host_src, 0x11, sizeof host_src);
    REFUSED("copy_null_dst", p2p_copy(NULL, 0, host_src, 0, 8), P2P_ERR_NULL_DST,
            P2P_ERR_NULL_DST);
    REFUSED("copy_null_src", p2p_copy(host_dst, 0, NULL, 0, 8), P2P_ERR_NULL_SRC,
            P2P_ERR_NULL_SRC);
    REFUSED("copy_zero_bytes", p2p_copy(host_dst, 0, host_src, 0, 0), P2P_ERR_ZERO_SIZE,
            P2P_ERR_ZERO_SIZE);
    REFUSED("copy_dst_device_negative", p2p_copy(host_dst, -1, host_src, 0, 8), bad, bad);
    REFUSED("copy_host_memory", p2p_copy(host_dst, 0, host_src, 0, 64), bad, not_dev);
}

/** @brief TODO 02.5: p2p_copy_async checks before it copies. */
static void test_copy_async(void)
{
    const p2p_status bad = P2P_ERR_BAD_DST_DEVICE, not_dev = P2P_ERR_DST_NOT_ON_DEVICE;
    memset(host_dst, 0xA5, sizeof host_dst);
    memset(host_src, 0x11, sizeof host_src);
    REFUSED("copy_async_null_dst", p2p_copy_async(NULL, 0, host_src, 0, 8, 0), P2P_ERR_NULL_DST,
            P2P_ERR_NULL_DST);
    REFUSED("copy_async_null_src_and_zero_bytes", p2p_copy_async(host_dst, 0, NULL, 0, 0, 0),
            P2P_ERR_NULL_SRC, P2P_ERR_NULL_SRC);
    REFUSED("copy_async_host_memory", p2p_copy_async(host_dst, 0, host_src, 0, 64, 0), bad,
            not_dev);
}

/** @brief TODO 02.6: the float count is checked before anything is copied. */
static void test_floats(void)
{
    float *dst = (float *)(void *)host_dst;
    const float *src = (const float *)(const void *)host_src;
    memset(host_dst, 0xA5, sizeof host_dst);
    REFUSED("floats_overflow", p2p_copy_floats(dst, 0, src, 0, SIZE_MAX / 4 + 1),
            P2P_ERR_SIZE_OVERFLOW, P2P_ERR_SIZE_OVERFLOW);
    /* count x 4 wraps to SIZE_MAX - 3, above count: only a check before multiplying sees it. */
    REFUSED("floats_overflow_wraps_above_count", p2p_copy_floats(dst, 0, src, 0, SIZE_MAX / 2),
            P2P_ERR_SIZE_OVERFLOW, P2P_ERR_SIZE_OVERFLOW);
    REFUSED("floats_zero_count", p2p_copy_floats(dst, 0, src, 0, 0), P2P_ERR_ZERO_SIZE,
            P2P_ERR_ZERO_SIZE);
    REFUSED("floats_host_memory", p2p_copy_floats(dst, 0, src, 0, 16), P2P_ERR_BAD_DST_DEVICE,
            P2P_ERR_DST_NOT_ON_DEVICE);
}

/** @brief Every group, or the one TODO id the argument names (02.1 ... 02.6). */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"02.1", test_bytes}, {"02.2", test_check},
                                        {"02.3", test_owner}, {"02.4", test_copy},
                                        {"02.5", test_copy_async}, {"02.6", test_floats}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
