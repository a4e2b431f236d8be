/**
 * @file lab02-stand-in.c
 * @brief Lab 02's functions against the stand-in runtime (tests/unit/stand_in.h), on any machine:
 *        two GPUs whose memory is host memory the stand-in knows by type and owner, so that what
 *        a real machine shows only with GPUs, or never, is checked everywhere: which memory has
 *        an owner, the copy call made with exactly the caller's arguments and stream, the current
 *        device left alone, a failed copy reported, the staged copy's calls in their order.
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1 when any case failed;
 * `lab02-stand-in 02.k` runs only TODO 02.k's cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "p2p_copy.h"
#include "stand_in.h"
#include "unit_groups.h"

#include <stdio.h>
#include <string.h>

/** The error a planted failure returns: no path of the stand-in returns it otherwise. */
#define PLANTED cudaErrorNotPermitted
/** Bytes of each buffer. */
#define BUF 256
/** A byte no copy writes. */
#define POISON 0xA5

static int failed;

/* The stand-in's memory: each GPU's device buffer, pinned and managed memory, pageable host
 * memory it does not know. */
static unsigned char gpu_mem[2][BUF], pinned[BUF], managed[BUF], pageable[BUF];

/* Three GPUs (the third only ever current), GPU @p current current; the buffers registered,
 * the GPUs' patterned, pinned memory poisoned. */
static void machine(int current)
{
    stand_in_start(3, current);
    stand_in_memory(gpu_mem[0], BUF, cudaMemoryTypeDevice, 0);
    stand_in_memory(gpu_mem[1], BUF, cudaMemoryTypeDevice, 1);
    stand_in_memory(pinned, BUF, cudaMemoryTypeHost, 0);
    stand_in_memory(managed, BUF, cudaMemoryTypeManaged, 0);
    for (int i = 0; i < BUF; i++) {
        gpu_mem[0][i] = (unsigned char)(i * 7 + 1);
        gpu_mem[1][i] = (unsigned char)(i * 13 + 5);
    }
    memset(pinned, POISON, BUF);
}

/* Whether @p dst (of @p size bytes, poisoned before) holds @p src's first @p bytes and is
 * poison after them. */
static int copied(const unsigned char *dst, size_t size, const unsigned char *src, size_t bytes)
{
    if (memcmp(dst, src, bytes) != 0)
        return 0;
    for (size_t i = bytes; i < size; i++)
        if (dst[i] != POISON)
            return 0;
    return 1;
}

/* The current device and the last error after a call: empty when GPU @p want_dev is current
 * and nothing is pending. */
static const char *state_kept(int want_dev, char *why, size_t len)
{
    why[0] = '\0';
    if (stand_in.last != cudaSuccess)
        snprintf(why, len, "; it left %s pending", cudaGetErrorName(stand_in.last));
    else if (stand_in.current != want_dev)
        snprintf(why, len, "; it left GPU %d current, not GPU %d", stand_in.current, want_dev);
    return why;
}

/* TODO 02.3: only device memory has an owner; a failed query is cleared. */
static void owner_case(const char *name, const void *ptr, int want)
{
    char why[96];
    unit_case(name);
    machine(1);
    int got = p2p_owner(ptr);
    failed |= !unit_verdict(name, got == want && !*state_kept(1, why, sizeof why),
                            "p2p_owner gave %d%s; expected %d", got, why, want);
}

static void owner_cases(void)
{
    char why[96];
    owner_case("owner_device_memory_of_gpu_0", gpu_mem[0] + 10, 0);
    owner_case("owner_device_memory_of_gpu_1", gpu_mem[1] + BUF - 1, 1);
    owner_case("owner_pinned_host_memory", pinned, P2P_NOT_DEVICE);
    owner_case("owner_managed_memory", managed + 3, P2P_NOT_DEVICE);
    owner_case("owner_pageable_host_memory", pageable, P2P_NOT_DEVICE);
    unit_case("owner_failed_query_is_cleared");
    machine(1);
    stand_in_fail("cudaPointerGetAttributes", 1, PLANTED);
    int got = p2p_owner(gpu_mem[1]);
    failed |= !unit_verdict(
        "owner_failed_query_is_cleared", got == P2P_NOT_DEVICE && !*state_kept(1, why, sizeof why),
        "with cudaPointerGetAttributes failing (%s) p2p_owner gave %d%s; expected %d and "
        "nothing pending",
        cudaGetErrorName(PLANTED), got, why, P2P_NOT_DEVICE);
    stand_in_stop();
}

/* One copy call: which wrapper, what it was given, what it must make of it. */
typedef struct copy_case {
    const char *name;
    int async;           /**< p2p_copy_async (on stream), else p2p_copy */
    int dst_dev;         /**< the destination GPU (its buffer) */
    int src_dev;         /**< the source GPU */
    size_t bytes;        /**< bytes asked */
    int current;         /**< the GPU current during the call */
    const char *failing; /**< the runtime call planted to fail, or NULL */
} copy_case;

/* The stream a caller gives p2p_copy_async: the stand-in only passes it on. */
#define STREAM ((cudaStream_t)(uintptr_t)0x5a)

static void copy_case_run(const copy_case *c)
{
    char why[96], calls[512];
    unit_case(c->name);
    machine(c->current);
    if (c->failing)
        stand_in_fail(c->failing, 1, PLANTED);
    /* On one GPU the copy goes from the buffer's first half to its second. */
    const size_t size = c->dst_dev == c->src_dev ? BUF / 2 : BUF;
    unsigned char *dst = gpu_mem[c->dst_dev] + (BUF - size);
    const unsigned char *src = gpu_mem[c->src_dev];
    memset(dst, POISON, size);
    p2p_status got = c->async ? p2p_copy_async(dst, c->dst_dev, src, c->src_dev, c->bytes, STREAM)
                              : p2p_copy(dst, c->dst_dev, src, c->src_dev, c->bytes);
    const char *call = c->async ? "cudaMemcpyPeerAsync" : "cudaMemcpyPeer";
    const stand_in_call *made = stand_in_find(call, 0);
    p2p_status want = c->failing ? P2P_ERR_CUDA : P2P_OK;
    int ok = got == want && made != NULL && stand_in_count(call) == 1 &&
             made->arg[0] == (uintptr_t)dst && (int)made->arg[1] == c->dst_dev &&
             made->arg[2] == (uintptr_t)src && (int)made->arg[3] == c->src_dev &&
             made->arg[4] == c->bytes && (!c->async || made->arg[5] == (uintptr_t)STREAM) &&
             stand_in.current == c->current && (c->failing || copied(dst, size, src, c->bytes));
    state_kept(c->current, why, sizeof why);
    failed |= !unit_verdict(
        c->name, ok,
        "%s(GPU %d <- GPU %d, %zu bytes) with GPU %d current returned %s%s; "
        "expected %s from one %s(dst, %d, src, %d, %zu%s) and exactly those bytes moved, "
        "GPU %d left current (calls: %s)",
        c->async ? "p2p_copy_async" : "p2p_copy", c->dst_dev, c->src_dev, c->bytes, c->current,
        p2p_status_name(got), c->current != stand_in.current ? why : "", p2p_status_name(want),
        call, c->dst_dev, c->src_dev, c->bytes, c->async ? ", the caller's stream" : "", c->current,
        stand_in_calls(calls, sizeof calls));
}

/* TODO 02.4 (async 0): one cudaMemcpyPeer with the caller's arguments, its failure
 * P2P_ERR_CUDA; TODO 02.5 (async 1): the same through cudaMemcpyPeerAsync on the caller's
 * stream. */
static void copy_cases_of(int async)
{
    static const copy_case cases[] = {
        {"copy_one_call_exact_bytes", 0, 1, 0, 100, 2, NULL},
        {"copy_one_byte_back", 0, 0, 1, 1, 2, NULL},
        {"copy_with_the_source_current", 0, 1, 0, 77, 0, NULL},
        {"copy_on_one_gpu", 0, 0, 0, 64, 2, NULL},
        {"copy_failure_is_p2p_err_cuda", 0, 1, 0, 100, 2, "cudaMemcpyPeer"},
        {"copy_async_on_the_callers_stream", 1, 1, 0, 100, 2, NULL},
        {"copy_async_one_byte_back", 1, 0, 1, 3, 2, NULL},
        {"copy_async_with_the_destination_current", 1, 1, 0, 77, 1, NULL},
        {"copy_async_on_one_gpu", 1, 1, 1, 64, 2, NULL},
        {"copy_async_failure_is_p2p_err_cuda", 1, 1, 0, 100, 2, "cudaMemcpyPeerAsync"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (cases[i].async == async)
            copy_case_run(&cases[i]);
    stand_in_stop();
}

static void copy_cases(void)
{
    copy_cases_of(0);
}

static void copy_async_cases(void)
{
    copy_cases_of(1);
}

/* TODO 02.6: count floats are count x 4 bytes, through p2p_copy. */
static void floats_cases(void)
{
    char calls[512];
    unit_case("floats_copy_count_times_4_bytes");
    machine(2);
    memset(gpu_mem[1], POISON, BUF);
    p2p_status got = p2p_copy_floats((float *)(void *)gpu_mem[1], 1,
                                     (const float *)(const void *)gpu_mem[0], 0, 25);
    const stand_in_call *made = stand_in_find("cudaMemcpyPeer", 0);
    failed |= !unit_verdict(
        "floats_copy_count_times_4_bytes",
        got == P2P_OK && made != NULL && made->arg[4] == 100 &&
            copied(gpu_mem[1], BUF, gpu_mem[0], 100),
        "p2p_copy_floats(25 floats) returned %s and asked cudaMemcpyPeer for %zu bytes "
        "(calls: %s); expected P2P_OK and 100 bytes moved",
        p2p_status_name(got), made ? (size_t)made->arg[4] : (size_t)0,
        stand_in_calls(calls, sizeof calls));
    stand_in_stop();
}

/* The streams and events of a staged copy: the stand-in only passes them on. */
#define TIMED ((cudaStream_t)(uintptr_t)0x71)
#define SRC_STREAM ((cudaStream_t)(uintptr_t)0x72)
#define FORK ((cudaEvent_t)(uintptr_t)0xf1)
#define STAGED ((cudaEvent_t)(uintptr_t)0xf2)

/* Whether call @p k of the log is @p name with arguments @p a0 and @p a1. */
static int logged(int k, const char *name, uintptr_t a0, uintptr_t a1)
{
    return k < stand_in.calls && strcmp(stand_in.log[k].name, name) == 0 &&
           stand_in.log[k].arg[0] == a0 && stand_in.log[k].arg[1] == a1;
}

/* The six calls of TODO 02.7's contract, in its order, and nothing else. */
static int staged_in_order(const void *dst, const void *src, size_t bytes)
{
    const stand_in_call *down = &stand_in.log[2], *up = &stand_in.log[5];
    return stand_in.calls == 6 && logged(0, "cudaEventRecord", (uintptr_t)FORK, (uintptr_t)TIMED) &&
           logged(1, "cudaStreamWaitEvent", (uintptr_t)SRC_STREAM, (uintptr_t)FORK) &&
           logged(2, "cudaMemcpyAsync", (uintptr_t)pinned, (uintptr_t)src) &&
           down->arg[2] == bytes && down->arg[3] == cudaMemcpyDeviceToHost &&
           down->arg[4] == (uintptr_t)SRC_STREAM &&
           logged(3, "cudaEventRecord", (uintptr_t)STAGED, (uintptr_t)SRC_STREAM) &&
           logged(4, "cudaStreamWaitEvent", (uintptr_t)TIMED, (uintptr_t)STAGED) &&
           logged(5, "cudaMemcpyAsync", (uintptr_t)dst, (uintptr_t)pinned) && up->arg[2] == bytes &&
           up->arg[3] == cudaMemcpyHostToDevice && up->arg[4] == (uintptr_t)TIMED;
}

/* TODO 02.7: the calls in the contract's order, on the right streams; the first error returned. */
static void staged_cases(void)
{
    char calls[512];
    const p2p_staging via = {pinned, SRC_STREAM, FORK, STAGED};
    unit_case("staged_calls_in_order");
    machine(2);
    memset(gpu_mem[1], POISON, BUF);
    cudaError_t err = p2p_copy_staged(gpu_mem[1], gpu_mem[0], 200, TIMED, &via);
    failed |=
        !unit_verdict("staged_calls_in_order",
                      err == cudaSuccess && staged_in_order(gpu_mem[1], gpu_mem[0], 200) &&
                          copied(gpu_mem[1], BUF, gpu_mem[0], 200),
                      "p2p_copy_staged returned %s after the calls %s; expected cudaSuccess after "
                      "cudaEventRecord(fork, timed), cudaStreamWaitEvent(src_stream, fork), "
                      "cudaMemcpyAsync(pinned, src, bytes, DeviceToHost, src_stream), "
                      "cudaEventRecord(staged, src_stream), cudaStreamWaitEvent(timed, staged), "
                      "cudaMemcpyAsync(dst, pinned, bytes, HostToDevice, timed)",
                      cudaGetErrorName(err), stand_in_calls(calls, sizeof calls));
    static const struct {
        const char *name, *call;
        int nth;
    } failing[] = {{"staged_returns_the_first_error", "cudaEventRecord", 1},
                   {"staged_returns_the_download_error", "cudaMemcpyAsync", 1},
                   {"staged_returns_the_join_error", "cudaStreamWaitEvent", 2}};
    for (size_t i = 0; i < sizeof failing / sizeof failing[0]; i++) {
        unit_case(failing[i].name);
        machine(1);
        stand_in_fail(failing[i].call, failing[i].nth, PLANTED);
        err = p2p_copy_staged(gpu_mem[1], gpu_mem[0], 200, TIMED, &via);
        failed |= !unit_verdict(failing[i].name, err == PLANTED,
                                "with call %d of %s failing (%s) "
                                "p2p_copy_staged returned %s (calls: %s)",
                                failing[i].nth, failing[i].call, cudaGetErrorName(PLANTED),
                                cudaGetErrorName(err), stand_in_calls(calls, sizeof calls));
    }
    stand_in_stop();
}

/** @brief Each TODO's cases against the stand-in; with an argument (02.3 ... 02.7) that TODO's. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"02.3", owner_cases},
                                        {"02.4", copy_cases},
                                        {"02.5", copy_async_cases},
                                        {"02.6", floats_cases},
                                        {"02.7", staged_cases}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
