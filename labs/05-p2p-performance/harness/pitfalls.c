/**
 * @file pitfalls.c
 * @brief The usual ways a measurement goes wrong, each timed the right way
 *        and the wrong way on the same copy: no warm-up, host timers
 *        (TODO 05.6), a synchronize after every copy, the legacy default
 *        stream, several streams on one link, the chapter's PreferL1 tip
 *        (TODO 05.7), and pageable host memory.
 *
 * Each runs on the one pair (a -> b: peer access on where it exists) and on
 * GPU a's host link (host -> GPU a), whichever this machine has.
 */
#include "lab05.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/** Bytes the warm-up experiment copies. */
#define WARMUP_BYTES ((size_t)4 << 20)
/** Bytes each stream copies in the streams experiment. */
#define STREAM_CHUNK ((size_t)32 << 20)
/** How long the busy kernel of the default-stream experiment runs. */
#define BUSY_NS 2000000ULL

/* The pitfall's transfer by this route, with peer access set to match; on
 * the host link a push is GPU a's kernel storing to host memory. */
static lab05_xfer pitfall_xfer(const lab05 *L, lab05_method method, lab_route route,
                               size_t bytes)
{
    int src, dst;
    lab05_route_ends(L, route, &src, &dst);
    if (route != LAB_ROUTE_HOST)
        lab05_set_peer(L->a, L->b, route == LAB_ROUTE_PEER);
    else if (method == LAB05_SM_PUSH)
        src = L->a, dst = -1;
    return lab05_xfer_make(L, method, src, dst, bytes);
}

static cudaStream_t new_stream(const lab05_xfer *t)
{
    cudaStream_t stream;
    CUDA_CHECK(cudaSetDevice(lab05_xfer_device(t)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
}

/* Run @p one on every route of the one-pair pitfalls (peer_off only when @p off_too). */
static int each_route(lab_ctx *ctx, void (*one)(lab_ctx *, lab_route), bool off_too)
{
    lab_route routes[2];
    const int n = lab05_pitfall_routes(ctx->lab, routes);
    for (int i = 0; i < n; i++)
        if (off_too || routes[i] != LAB_ROUTE_PEER_OFF)
            one(ctx, routes[i]);
    return 0;
}

static void emit(lab_ctx *ctx, const char *experiment, const char *variant, const char *mode,
                 const lab05_xfer *t, lab_route route, const double *us, int count, int ops,
                 int verified, const char *detail)
{
    lab_row row = lab05_row(experiment, variant, t, route, mode);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail);
    lab05_emit_samples(ctx, &row, us, count, ops, verified, lab05_peak(ctx->lab, t, route));
}

/* --------------------------------------------------------------- warm-up -- */

/* One call timed twice: by events (GPU time) and by the host clock around
 * the call and a synchronize (what the program waits for). */
static void timed_call(const lab05_xfer *t, cudaStream_t stream, lab_timer *timer,
                       double *event_us, double *host_us)
{
    float ms = 0.0f;
    const double t0 = lab_host_seconds();
    CUDA_CHECK(lab_timer_start(timer, stream));
    CUDA_CHECK(lab05_xfer_enqueue(t, stream));
    CUDA_CHECK(lab_timer_stop(timer, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    *host_us = (lab_host_seconds() - t0) * 1e6;
    CUDA_CHECK(lab_timer_elapsed_ms(timer, &ms));
    *event_us = 1e3 * (double)ms;
}

static void warmup_one(lab_ctx *ctx, lab05_method method, lab_route route)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, method, route, WARMUP_BYTES);
    double first_event, first_host;
    double *event = lab_host_alloc((size_t)L->reps, sizeof *event, "samples");
    double *host = lab_host_alloc((size_t)L->reps, sizeof *host, "samples");
    lab_timer timer;
    lab05_xfer_clear(&t);
    cudaStream_t stream = new_stream(&t);
    CUDA_CHECK(lab_timer_create(&timer));
    timed_call(&t, stream, &timer, &first_event, &first_host); /* the very first call */
    for (int r = 0; r < L->reps; r++)
        timed_call(&t, stream, &timer, &event[r], &host[r]);
    lab_timer_destroy(&timer);
    CUDA_CHECK(cudaStreamDestroy(stream));
    const int ok = lab05_xfer_verify(L, &t);
    char variant[32];
    snprintf(variant, sizeof variant, "%s_event", lab05_method_name(method));
    emit(ctx, "warmup", variant, "first", &t, route, &first_event, 1, 1, ok, "");
    emit(ctx, "warmup", variant, "steady", &t, route, event, L->reps, 1, ok, "");
    snprintf(variant, sizeof variant, "%s_host", lab05_method_name(method));
    emit(ctx, "warmup", variant, "first", &t, route, &first_host, 1, 1, ok, "");
    emit(ctx, "warmup", variant, "steady", &t, route, host, L->reps, 1, ok, "");
    free(event);
    free(host);
}

static void warmup_route(lab_ctx *ctx, lab_route route)
{
    warmup_one(ctx, LAB05_CE, route);
    if (route != LAB_ROUTE_PEER_OFF)
        warmup_one(ctx, LAB05_SM_PUSH, route); /* the kernel's first launch */
}

int lab05_run_warmup(lab_ctx *ctx)
{
    return each_route(ctx, warmup_route, true);
}

/* ------------------------------------------------------------ CPU timers -- */

/** The host's clocks the chapter names: wall time, and the process's CPU time. */
typedef enum host_clock { WALL_MONOTONIC, WALL_GETTIMEOFDAY, CPU_CLOCK } host_clock;
/** How the CPU waits for the copy: not at all, cudaStreamSynchronize, or a blocking-sync event. */
typedef enum host_wait { WAIT_NONE, WAIT_STREAM, WAIT_BLOCKING } host_wait;

/** One way of timing a copy from the host. */
typedef struct host_timing {
    const char *variant; /**< the rows' variant */
    host_clock clock;    /**< which clock */
    host_wait wait;      /**< how the CPU waits */
    const char *detail;  /**< the rows' detail */
} host_timing;

/* host_no_sync and host_sync come from the student's lab05_time_on_host (TODO 05.6). */
static const host_timing host_timings[] = {
    {"host_block", WALL_MONOTONIC, WAIT_BLOCKING,
     "clock_gettime (wall time) around the copy and a blocking-sync event: the CPU sleeps"},
    {"gettimeofday_no_sync", WALL_GETTIMEOFDAY, WAIT_NONE,
     "gettimeofday (wall time) around the copy call alone"},
    {"gettimeofday_sync", WALL_GETTIMEOFDAY, WAIT_STREAM,
     "gettimeofday (wall time) around the copy and cudaStreamSynchronize"},
    {"clock_no_sync", CPU_CLOCK, WAIT_NONE, "clock() around the copy call alone"},
    {"clock_sync", CPU_CLOCK, WAIT_STREAM,
     "clock() around the copy and cudaStreamSynchronize: CPU time of the process"},
    {"clock_block", CPU_CLOCK, WAIT_BLOCKING,
     "clock() around the copy and a blocking-sync event: CPU time of a sleeping process"},
};

static double clock_us(host_clock which)
{
    struct timeval tv;
    switch (which) {
    case WALL_GETTIMEOFDAY:
        gettimeofday(&tv, NULL);
        return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
    case CPU_CLOCK:
        return (double)clock() * 1e6 / (double)CLOCKS_PER_SEC; /* CPU time, not wall time */
    default:
        return lab_host_seconds() * 1e6;
    }
}

/* One copy timed from the host; the stream is idle again when it returns. */
static double host_timed(const lab05_xfer *t, cudaStream_t stream, cudaEvent_t done,
                         const host_timing *h)
{
    const double t0 = clock_us(h->clock);
    CUDA_CHECK(lab05_xfer_enqueue(t, stream));
    if (h->wait == WAIT_STREAM)
        CUDA_CHECK(cudaStreamSynchronize(stream));
    if (h->wait == WAIT_BLOCKING) {
        CUDA_CHECK(cudaEventRecord(done, stream));
        CUDA_CHECK(cudaEventSynchronize(done)); /* cudaEventBlockingSync: the thread sleeps */
    }
    const double us = clock_us(h->clock) - t0;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return us > 0.0 ? us : 1e-3; /* below the clock's resolution */
}

static void cpu_timer_one(lab_ctx *ctx, lab_route route)
{
    const lab05 *L = ctx->lab;
    enum { KINDS = 3 + sizeof host_timings / sizeof host_timings[0] };
    lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES);
    double *us = lab_host_alloc(KINDS * (size_t)L->reps, sizeof *us, "samples");
    lab_timer timer;
    cudaEvent_t done;
    lab05_xfer_clear(&t);
    cudaStream_t stream = new_stream(&t);
    CUDA_CHECK(lab_timer_create(&timer));
    CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventBlockingSync | cudaEventDisableTiming));
    CUDA_CHECK(lab05_xfer_enqueue(&t, stream)); /* warm-up */
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < L->reps; r++) {
        float ms = 0.0f;
        CUDA_CHECK(lab_timer_start(&timer, stream)); /* right: events on the stream */
        CUDA_CHECK(lab05_xfer_enqueue(&t, stream));
        CUDA_CHECK(lab_timer_stop(&timer, stream));
        CUDA_CHECK(lab_timer_elapsed_ms(&timer, &ms));
        us[r] = 1e3 * (double)ms;
        CUDA_CHECK(lab05_time_on_host(lab05_xfer_work, &t, stream, false, &us[L->reps + r]));
        CUDA_CHECK(lab05_time_on_host(lab05_xfer_work, &t, stream, true, &us[2 * L->reps + r]));
        for (int k = 3; k < KINDS; k++)
            us[k * L->reps + r] = host_timed(&t, stream, done, &host_timings[k - 3]);
    }
    CUDA_CHECK(cudaEventDestroy(done));
    lab_timer_destroy(&timer);
    CUDA_CHECK(cudaStreamDestroy(stream));
    const int ok = lab05_xfer_verify(L, &t);
    emit(ctx, "cpu_timer", "event", "one_way", &t, route, us, L->reps, 1, ok,
         "cudaEventRecord before and after the copy");
    emit(ctx, "cpu_timer", "host_no_sync", "one_way", &t, route, us + L->reps, L->reps, 1, ok,
         "host clock around the copy call alone: measures the enqueue");
    emit(ctx, "cpu_timer", "host_sync", "one_way", &t, route, us + 2 * L->reps, L->reps, 1, ok,
         "host clock around the copy and cudaStreamSynchronize");
    for (int k = 3; k < KINDS; k++)
        emit(ctx, "cpu_timer", host_timings[k - 3].variant, "one_way", &t, route,
             us + k * L->reps, L->reps, 1, ok, host_timings[k - 3].detail);
    free(us);
}

int lab05_run_cpu_timer(lab_ctx *ctx)
{
    return each_route(ctx, cpu_timer_one, true);
}

/* ------------------------------------------------------ CPU in the loop -- */

static void cpu_sync_size(lab_ctx *ctx, lab_route route, size_t bytes)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, bytes);
    const int ops = bytes <= ((size_t)1 << 20) ? 64 : bytes <= ((size_t)16 << 20) ? 16 : 4;
    double *queued = lab_host_alloc(2 * (size_t)L->reps, sizeof *queued, "samples");
    double *each = queued + L->reps;
    lab05_xfer_clear(&t);
    cudaStream_t stream = new_stream(&t);
    for (int r = -1; r < L->reps; r++) { /* r = -1 warms up */
        double t0 = lab_host_seconds();
        for (int i = 0; i < ops; i++)
            CUDA_CHECK(lab05_xfer_enqueue(&t, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        double t1 = lab_host_seconds();
        if (r >= 0)
            queued[r] = (t1 - t0) * 1e6 / ops;
        t0 = lab_host_seconds();
        for (int i = 0; i < ops; i++) {
            CUDA_CHECK(lab05_xfer_enqueue(&t, stream));
            CUDA_CHECK(cudaStreamSynchronize(stream)); /* the CPU waits for each copy */
        }
        t1 = lab_host_seconds();
        if (r >= 0)
            each[r] = (t1 - t0) * 1e6 / ops;
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    const int ok = lab05_xfer_verify(L, &t);
    char detail[96];
    snprintf(detail, sizeof detail, "%d copies queued; one synchronize at the end", ops);
    emit(ctx, "cpu_sync", "queued", "one_way", &t, route, queued, L->reps, ops, ok, detail);
    snprintf(detail, sizeof detail, "%d copies; cudaStreamSynchronize after each", ops);
    emit(ctx, "cpu_sync", "sync_each", "one_way", &t, route, each, L->reps, ops, ok, detail);
    free(queued);
}

static void cpu_sync_route(lab_ctx *ctx, lab_route route)
{
    static const size_t sizes[] = {(size_t)64 << 10, (size_t)1 << 20, (size_t)16 << 20,
                                   (size_t)256 << 20};
    const lab05 *L = ctx->lab;
    for (int s = 0; s < (L->quick ? 3 : 4); s++)
        if (sizes[s] <= L->buf_bytes)
            cpu_sync_size(ctx, route, sizes[s]);
}

int lab05_run_cpu_sync(lab_ctx *ctx)
{
    return each_route(ctx, cpu_sync_route, true);
}

/* ------------------------------------------------ legacy default stream -- */

/* Both directions at once: in one legacy default stream, or one
 * non-blocking stream each. */
static void both_ways(lab_ctx *ctx, lab_route route, bool legacy)
{
    const lab05 *L = ctx->lab;
    lab05_job job = lab05_job_one(L, pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES), route, 1);
    job.t[1] = lab05_xfer_make(L, LAB05_CE, job.t[0].dst, job.t[0].src, LAB05_PITFALL_BYTES);
    job.n = 2;
    job.join = true;
    job.legacy = legacy;
    job.gate = false;
    lab05_result res;
    lab05_time_job(ctx, &job, &res);
    lab_row row = lab05_row("default_stream", legacy ? "legacy" : "nonblocking", &job.t[0],
                            route, "both_ways");
    lab_row_set(row.detail, sizeof row.detail, legacy
                    ? "both copies in one stream, GPU %d's legacy default stream: one stream "
                      "serializes them, whichever it is"
                    : "one non-blocking stream per direction (on GPU %d and its partner)",
                lab05_xfer_device(&job.t[0]));
    lab05_emit_job(ctx, &row, &job, &res, 2, 2);
}

/* A kernel runs in an ordinary (blocking) stream: how long until a copy
 * issued meanwhile is done? The legacy default stream waits for it. */
static void beside_busy_kernel(lab_ctx *ctx, lab_route route, bool legacy)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES);
    double *us = lab_host_alloc((size_t)L->reps, sizeof *us, "samples");
    cudaStream_t busy, mine = new_stream(&t);
    lab05_xfer_clear(&t);
    CUDA_CHECK(cudaSetDevice(lab05_xfer_device(&t)));
    CUDA_CHECK(cudaStreamCreate(&busy)); /* blocking: it synchronizes with stream 0 */
    cudaStream_t copy = legacy ? cudaStreamLegacy : mine;
    for (int r = -1; r < L->reps; r++) { /* r = -1 warms up */
        CUDA_CHECK(lab05_launch_busy(BUSY_NS, busy));
        const double t0 = lab_host_seconds();
        CUDA_CHECK(lab05_xfer_enqueue(&t, copy));
        CUDA_CHECK(cudaStreamSynchronize(copy));
        us[r < 0 ? 0 : r] = (lab_host_seconds() - t0) * 1e6;
        CUDA_CHECK(cudaStreamSynchronize(busy));
    }
    CUDA_CHECK(cudaStreamDestroy(busy));
    CUDA_CHECK(cudaStreamDestroy(mine));
    emit(ctx, "default_stream", legacy ? "legacy" : "nonblocking", "beside_busy_kernel", &t,
         route, us, L->reps, 1, lab05_xfer_verify(L, &t),
         "host time until the copy is done while a 2 ms kernel runs in another stream");
    free(us);
}

static void default_stream_route(lab_ctx *ctx, lab_route route)
{
    both_ways(ctx, route, true);
    both_ways(ctx, route, false);
    beside_busy_kernel(ctx, route, true);
    beside_busy_kernel(ctx, route, false);
}

int lab05_run_default_stream(lab_ctx *ctx)
{
    return each_route(ctx, default_stream_route, true);
}

/* --------------------------------------------------- streams on one link -- */

static void streams_one(lab_ctx *ctx, lab_route route)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer whole = pitfall_xfer(L, LAB05_CE, route, STREAM_CHUNK);
    for (int k = 1; k <= LAB05_MAX_STREAMS && (size_t)k * STREAM_CHUNK <= L->buf_bytes; k *= 2) {
        lab05_job job = lab05_job_one(L, whole, route, 1);
        for (int i = 0; i < k; i++) /* each stream copies its own slice */
            job.t[i] = lab05_xfer_slice(whole, (size_t)i * STREAM_CHUNK, STREAM_CHUNK);
        job.n = k;
        job.join = true;
        lab05_result res;
        lab05_time_job(ctx, &job, &res);
        lab_row row = lab05_row("streams", "ce", &whole, route, "one_way");
        lab_row_set(row.value, sizeof row.value, "%d", k);
        lab_row_set(row.detail, sizeof row.detail, "%d stream(s) on GPU %d each copy their own "
                    "slice at once; GB/s is the total", k, lab05_xfer_device(&whole));
        lab05_emit_job(ctx, &row, &job, &res, k, 1);
    }
}

int lab05_run_streams(lab_ctx *ctx)
{
    return each_route(ctx, streams_one, true);
}

/* ------------------------------------------------------ PreferL1 on/off -- */

static void preferl1_one(lab_ctx *ctx, lab_route route, lab05_method method)
{
    static const enum cudaFuncCache configs[] = {cudaFuncCachePreferNone, cudaFuncCachePreferL1};
    static const char *const names[] = {"prefer_none", "prefer_l1"};
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, method, route, LAB05_PITFALL_BYTES);
    const int dev = lab05_xfer_device(&t);
    enum cudaFuncCache saved;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaDeviceGetCacheConfig(&saved));
    for (int c = 0; c < 2; c++) {
        CUDA_CHECK(lab05_set_cache_config(dev, configs[c]));
        /* The contract, read back: dev current, the setting applied. */
        int current = -1;
        enum cudaFuncCache applied = cudaFuncCachePreferEqual;
        CUDA_CHECK(cudaGetDevice(&current));
        CUDA_CHECK(cudaDeviceGetCacheConfig(&applied));
        const int kept = current == dev && applied == configs[c];
        if (!kept)
            fprintf(stderr, "05-p2p-performance: error: lab05_set_cache_config(%d, %s) left GPU %d "
                    "current with setting %d\n", dev, names[c], current, (int)applied);
        CUDA_CHECK(cudaSetDevice(dev));
        lab05_job job = lab05_job_one(L, t, route, 1);
        lab05_result res;
        lab05_time_job(ctx, &job, &res);
        res.verified &= kept;
        lab_row row = lab05_row("preferl1", lab05_method_name(method), &t, route, "one_way");
        lab_row_set(row.value, sizeof row.value, "%s", names[c]);
        lab_row_set(row.detail, sizeof row.detail, "cudaDeviceSetCacheConfig(%s) on GPU %d; "
                    "where the kernel runs", c ? "cudaFuncCachePreferL1" : "cudaFuncCachePreferNone",
                    dev);
        lab05_emit_job(ctx, &row, &job, &res, 1, 1);
    }
    CUDA_CHECK(lab05_set_cache_config(dev, saved)); /* leave the GPU as it was */
}

/* A kernel cannot reach a peer without peer access: no peer_off route. */
static void preferl1_route(lab_ctx *ctx, lab_route route)
{
    preferl1_one(ctx, route, LAB05_SM_PULL);
    preferl1_one(ctx, route, LAB05_SM_PUSH);
}

int lab05_run_preferl1(lab_ctx *ctx)
{
    return each_route(ctx, preferl1_route, false);
}

/* ------------------------------------------------------ pageable memory -- */

/* Host memory the driver has not pinned: it copies through a pinned
 * staging buffer of its own, chunk by chunk. */
static void pageable_one(lab_ctx *ctx, bool to_gpu, bool pageable)
{
    const lab05 *L = ctx->lab;
    const size_t bytes = L->quick ? (size_t)64 << 20 : LAB05_PITFALL_BYTES;
    lab05_xfer t = lab05_xfer_make(L, LAB05_CE, to_gpu ? -1 : L->a, to_gpu ? L->a : -1, bytes);
    unsigned char *mem = pageable ? lab_host_alloc(bytes, 1, "pageable memory") : NULL;
    if (mem && to_gpu) {
        memcpy(mem, L->href, bytes);
        t.from = mem;
    } else if (mem) {
        t.to = t.to_host = mem;
    }
    double *us = lab_host_alloc((size_t)L->reps, sizeof *us, "samples");
    lab05_xfer_clear(&t);
    cudaStream_t stream = new_stream(&t);
    lab05_host_clock(&t, stream, L->reps, us);
    CUDA_CHECK(cudaStreamDestroy(stream));
    emit(ctx, "pageable", pageable ? "pageable" : "pinned", "one_way", &t, LAB_ROUTE_HOST, us,
         L->reps, 1, lab05_xfer_verify(L, &t),
         pageable ? "malloc'd host memory: the driver stages it through pinned buffers"
                  : "cudaHostAlloc'd (pinned) host memory: the copy engine reads it directly");
    free(us);
    free(mem);
}

int lab05_run_pageable(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    if (L->hsrc.ptr == NULL)
        return 0;
    for (int to_gpu = 1; to_gpu >= 0; to_gpu--) {
        pageable_one(ctx, to_gpu, false);
        pageable_one(ctx, to_gpu, true);
    }
    return 0;
}
