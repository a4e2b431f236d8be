/**
 * @file pitfalls.c
 * @brief The usual ways a measurement goes wrong, each timed the right way and the wrong way
 *        on the same copy: no warm-up, host timers (TODO 05.6), a synchronize after every copy,
 *        the legacy default stream, several streams on one link, the chapter's PreferL1 tip
 *        (TODO 05.7), pageable host memory. Each runs on the one pair (a -> b: peer access on
 *        where it exists) and on GPU a's host link (host -> GPU a), whichever this machine has.
 */
#include "lab05.h"

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

/* The transfer by @p route, peer access set to match; on the host link a push is GPU a's. */
static lab05_xfer pitfall_xfer(const lab05 *L, lab05_method method, lab_route route,
                               size_t bytes)
{
    if (route == LAB_ROUTE_HOST)
        return method == LAB05_SM_PUSH ? lab05_xfer_make(L, method, L->a, -1, bytes)
                                       : lab05_xfer_make(L, method, -1, L->a, bytes);
    lab05_set_peer(L->a, L->b, route == LAB_ROUTE_PEER);
    return lab05_xfer_make(L, method, L->a, L->b, bytes);
}

/* Run @p one on the pair's route (peer, or peer_off without P2P), then on the host link. */
static int each_route(lab_ctx *ctx, void (*one)(lab_ctx *, lab_route))
{
    const lab05 *L = ctx->lab;
    if (L->b >= 0)
        one(ctx, lab_links_pair(&L->links, L->a, L->b)->p2p ? LAB_ROUTE_PEER
                                                             : LAB_ROUTE_PEER_OFF);
    if (L->hsrc.ptr != NULL)
        one(ctx, LAB_ROUTE_HOST);
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

/* The copy engine, and the SM copy's first launch (a kernel cannot reach a peer without
 * peer access); sample 0 of each clock is the very first call. */
static void warmup_route(lab_ctx *ctx, lab_route route)
{
    const lab05 *L = ctx->lab;
    const int n = L->reps + 1;
    for (int m = 0; m < (route == LAB_ROUTE_PEER_OFF ? 1 : 2); m++) {
        const lab05_method method = m ? LAB05_SM_PUSH : LAB05_CE;
        const lab05_xfer t = pitfall_xfer(L, method, route, WARMUP_BYTES);
        double *us = lab_host_alloc(2 * (size_t)n, sizeof *us, "samples"); /* event, host */
        lab_timer timer;
        lab05_xfer_clear(&t);
        cudaStream_t stream = lab05_xfer_stream(&t);
        CUDA_CHECK(lab_timer_create(&timer));
        for (int r = 0; r < n; r++) { /* by events, and by the host clock with a synchronize */
            float ms = 0.0f;
            const double t0 = lab_host_seconds();
            CUDA_CHECK(lab_timer_start(&timer, stream));
            CUDA_CHECK(lab05_xfer_enqueue(&t, stream));
            CUDA_CHECK(lab_timer_stop(&timer, stream));
            CUDA_CHECK(cudaStreamSynchronize(stream));
            us[n + r] = (lab_host_seconds() - t0) * 1e6;
            CUDA_CHECK(lab_timer_elapsed_ms(&timer, &ms));
            us[r] = 1e3 * (double)ms;
        }
        lab_timer_destroy(&timer);
        CUDA_CHECK(cudaStreamDestroy(stream));
        const int ok = lab05_xfer_verify(L, &t);
        for (int k = 0; k < 2; k++) {
            char variant[32];
            snprintf(variant, sizeof variant, "%s_%s", lab05_method_names[method],
                     k ? "host" : "event");
            emit(ctx, "warmup", variant, "first", &t, route, &us[k * n], 1, 1, ok, "");
            emit(ctx, "warmup", variant, "steady", &t, route, &us[k * n + 1], L->reps, 1, ok, "");
        }
        free(us);
    }
}

int lab05_run_warmup(lab_ctx *ctx)
{
    return each_route(ctx, warmup_route);
}

/** What times a copy: events, the student's host timer (TODO 05.6), or a host clock. */
typedef enum host_clock { BY_EVENTS, BY_STUDENT, WALL_MONOTONIC, WALL_GETTIMEOFDAY, CPU_CLOCK }
    host_clock;
/** How the CPU waits for the copy: not at all, cudaStreamSynchronize, or a blocking-sync event. */
typedef enum host_wait { WAIT_NONE, WAIT_STREAM, WAIT_BLOCKING } host_wait;

/** One way of timing a copy. */
typedef struct host_timing {
    const char *variant; /**< the rows' variant */
    host_clock clock;    /**< which clock */
    host_wait wait;      /**< how the CPU waits */
    const char *detail;  /**< the rows' detail */
} host_timing;

/* Each sample takes one copy of each, in this order. */
static const host_timing host_timings[] = {
    {"event", BY_EVENTS, WAIT_NONE, "cudaEventRecord before and after the copy"},
    {"host_no_sync", BY_STUDENT, WAIT_NONE,
     "host clock around the copy call alone: measures the enqueue"},
    {"host_sync", BY_STUDENT, WAIT_STREAM, "host clock around the copy and cudaStreamSynchronize"},
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

/* lab_work_fn for the student's timer: make the transfer's GPU current, queue it. */
static cudaError_t xfer_work(cudaStream_t stream, void *arg)
{
    CUDA_TRY(cudaSetDevice(lab05_xfer_device(arg)));
    return lab05_xfer_enqueue(arg, stream);
}

/* TODO 05.6 leaves its stream idle: 0 when it is, 1 (counted in *busy) when work is left. */
static int left_busy(cudaStream_t stream, int *busy)
{
    const cudaError_t err = cudaStreamQuery(stream);
    if (err == cudaErrorNotReady) {
        (void)cudaGetLastError(); /* not an error: the work is not done yet */
        (*busy)++;
        return 1;
    }
    CUDA_CHECK(err);
    return 0;
}

/* One copy timed the way @p h says; the stream is idle again when it returns (the student's
 * timer must leave it so: each time it does not counts in *busy). */
static double host_timed(lab05_xfer *t, cudaStream_t stream, lab_timer *timer,
                         cudaEvent_t done, const host_timing *h, int *busy)
{
    float ms = 0.0f;
    double us = 0.0;
    if (h->clock == BY_EVENTS) { /* right: events on the stream */
        CUDA_CHECK(lab_timer_start(timer, stream));
        CUDA_CHECK(lab05_xfer_enqueue(t, stream));
        CUDA_CHECK(lab_timer_stop(timer, stream));
        CUDA_CHECK(lab_timer_elapsed_ms(timer, &ms));
        return 1e3 * (double)ms;
    }
    if (h->clock == BY_STUDENT) {
        CUDA_CHECK(lab05_time_on_host(xfer_work, t, stream, h->wait == WAIT_STREAM, &us));
        if (left_busy(stream, busy))
            CUDA_CHECK(cudaStreamSynchronize(stream)); /* the next copy must start alone */
        return us;
    }
    const double t0 = clock_us(h->clock);
    CUDA_CHECK(lab05_xfer_enqueue(t, stream));
    if (h->wait == WAIT_STREAM)
        CUDA_CHECK(cudaStreamSynchronize(stream));
    if (h->wait == WAIT_BLOCKING) {
        CUDA_CHECK(cudaEventRecord(done, stream));
        CUDA_CHECK(cudaEventSynchronize(done)); /* cudaEventBlockingSync: the thread sleeps */
    }
    us = clock_us(h->clock) - t0;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return us > 0.0 ? us : 1e-3; /* below the clock's resolution */
}

static void cpu_timer_one(lab_ctx *ctx, lab_route route)
{
    const lab05 *L = ctx->lab;
    enum { KINDS = sizeof host_timings / sizeof host_timings[0] };
    lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES);
    double *us = lab_host_alloc(KINDS * (size_t)L->reps, sizeof *us, "samples");
    lab_timer timer;
    cudaEvent_t done;
    int busy = 0;
    lab05_xfer_clear(&t);
    cudaStream_t stream = lab05_xfer_stream(&t);
    CUDA_CHECK(lab_timer_create(&timer));
    CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventBlockingSync | cudaEventDisableTiming));
    CUDA_CHECK(lab05_xfer_enqueue(&t, stream)); /* warm-up */
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < L->reps; r++)
        for (int k = 0; k < KINDS; k++)
            us[k * L->reps + r] = host_timed(&t, stream, &timer, done, &host_timings[k], &busy);
    CUDA_CHECK(cudaEventDestroy(done));
    lab_timer_destroy(&timer);
    CUDA_CHECK(cudaStreamDestroy(stream));
    const int idle = lab_check(ctx, busy == 0, "TODO 05.6: lab05_time_on_host returned %d of "
                               "%d times with its copy still running: the stream must be idle "
                               "on return", busy, 2 * L->reps) == 0;
    const int ok = lab05_xfer_verify(L, &t) && idle;
    for (int k = 0; k < KINDS; k++)
        emit(ctx, "cpu_timer", host_timings[k].variant, "one_way", &t, route, us + k * L->reps,
             L->reps, 1, ok, host_timings[k].detail);
    free(us);
}

int lab05_run_cpu_timer(lab_ctx *ctx)
{
    return each_route(ctx, cpu_timer_one);
}

static void cpu_sync_size(lab_ctx *ctx, lab_route route, size_t bytes)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, bytes);
    const int ops = bytes <= ((size_t)1 << 20) ? 64 : bytes <= ((size_t)16 << 20) ? 16 : 4;
    double *us = lab_host_alloc(2 * (size_t)L->reps, sizeof *us, "samples"); /* queued, each */
    lab05_xfer_clear(&t);
    cudaStream_t stream = lab05_xfer_stream(&t);
    for (int r = -1; r < L->reps; r++) /* r = -1 warms up */
        for (int each = 0; each < 2; each++) {
            const double t0 = lab_host_seconds();
            for (int i = 0; i < ops; i++) {
                CUDA_CHECK(lab05_xfer_enqueue(&t, stream));
                if (each) /* the CPU waits for each copy */
                    CUDA_CHECK(cudaStreamSynchronize(stream));
            }
            if (!each)
                CUDA_CHECK(cudaStreamSynchronize(stream));
            if (r >= 0)
                us[each * L->reps + r] = (lab_host_seconds() - t0) * 1e6 / ops;
        }
    CUDA_CHECK(cudaStreamDestroy(stream));
    const int ok = lab05_xfer_verify(L, &t);
    char detail[96];
    snprintf(detail, sizeof detail, "%d copies queued; one synchronize at the end", ops);
    emit(ctx, "cpu_sync", "queued", "one_way", &t, route, us, L->reps, ops, ok, detail);
    snprintf(detail, sizeof detail, "%d copies; cudaStreamSynchronize after each", ops);
    emit(ctx, "cpu_sync", "sync_each", "one_way", &t, route, us + L->reps, L->reps, ops, ok,
         detail);
    free(us);
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
    return each_route(ctx, cpu_sync_route);
}

/* Both directions at once: in one legacy default stream, or one non-blocking stream each. */
static void both_ways(lab_ctx *ctx, lab_route route, bool legacy)
{
    const lab05 *L = ctx->lab;
    lab05_job job = lab05_job_one(L, pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES),
                                  route, 1);
    job.t[1] = lab05_xfer_make(L, LAB05_CE, job.t[0].dst, job.t[0].src, LAB05_PITFALL_BYTES);
    job.n = 2;
    job.join = true;
    job.legacy = legacy;
    job.gate = false;
    lab_row row = lab05_row("default_stream", legacy ? "legacy" : "nonblocking", &job.t[0],
                            route, "both_ways");
    lab_row_set(row.detail, sizeof row.detail, legacy
                    ? "both copies in one stream, GPU %d's legacy default stream: one stream "
                      "serializes them, whichever it is"
                    : "one non-blocking stream per direction (on GPU %d and its partner)",
                lab05_xfer_device(&job.t[0]));
    lab05_run_job(ctx, &job, &row, 2, 2);
}

/* A kernel runs in an ordinary (blocking) stream: how long until a copy issued meanwhile is
 * done? The legacy default stream waits for it. */
static void beside_busy_kernel(lab_ctx *ctx, lab_route route, bool legacy)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer t = pitfall_xfer(L, LAB05_CE, route, LAB05_PITFALL_BYTES);
    double *us = lab_host_alloc((size_t)L->reps, sizeof *us, "samples");
    cudaStream_t busy, mine = lab05_xfer_stream(&t);
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
    return each_route(ctx, default_stream_route);
}

static void streams_one(lab_ctx *ctx, lab_route route)
{
    const lab05 *L = ctx->lab;
    const lab05_xfer whole = pitfall_xfer(L, LAB05_CE, route, STREAM_CHUNK);
    for (int k = 1; k <= LAB05_MAX_STREAMS && (size_t)k * STREAM_CHUNK <= L->buf_bytes; k *= 2) {
        lab05_job job = lab05_job_one(L, whole, route, 1);
        for (int i = 0; i < k; i++) { /* each stream copies its own slice */
            const size_t offset = (size_t)i * STREAM_CHUNK;
            job.t[i] = whole;
            job.t[i].from = (const char *)whole.from + offset;
            job.t[i].to = (char *)whole.to + offset;
            job.t[i].to_host = whole.to_host ? (char *)whole.to_host + offset : NULL;
            job.t[i].ref = whole.ref + offset;
        }
        job.n = k;
        job.join = true;
        lab_row row = lab05_row("streams", "ce", &whole, route, "one_way");
        lab_row_set(row.value, sizeof row.value, "%d", k);
        lab_row_set(row.detail, sizeof row.detail, "%d stream(s) on GPU %d each copy their own "
                    "slice at once; GB/s is the total", k, lab05_xfer_device(&whole));
        lab05_run_job(ctx, &job, &row, k, 1);
    }
}

int lab05_run_streams(lab_ctx *ctx)
{
    return each_route(ctx, streams_one);
}

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
        if (L->n > 1) /* another GPU current: the call must make dev current itself */
            CUDA_CHECK(cudaSetDevice(dev == 0 ? 1 : 0));
        CUDA_CHECK(lab05_set_cache_config(dev, configs[c]));
        /* The contract, read back: dev current, the setting applied. */
        int current = -1;
        enum cudaFuncCache applied = cudaFuncCachePreferEqual;
        CUDA_CHECK(cudaGetDevice(&current));
        CUDA_CHECK(cudaDeviceGetCacheConfig(&applied));
        lab_row row = lab05_row("preferl1", lab05_method_names[method], &t, route, "one_way");
        row.verified = current == dev && applied == configs[c]; /* kept by lab05_run_job */
        if (!row.verified)
            fprintf(stderr, "05-p2p-performance: error: lab05_set_cache_config(%d, %s) left GPU %d "
                    "current with setting %d\n", dev, names[c], current, (int)applied);
        CUDA_CHECK(cudaSetDevice(dev));
        lab05_job job = lab05_job_one(L, t, route, 1);
        lab_row_set(row.value, sizeof row.value, "%s", names[c]);
        lab_row_set(row.detail, sizeof row.detail, "cudaDeviceSetCacheConfig(cudaFuncCache%s) on "
                    "GPU %d; where the kernel runs", c ? "PreferL1" : "PreferNone", dev);
        lab05_run_job(ctx, &job, &row, 1, 1);
    }
    CUDA_CHECK(lab05_set_cache_config(dev, saved)); /* leave the GPU as it was */
}

/* A kernel cannot reach a peer without peer access: no peer_off route. */
static void preferl1_route(lab_ctx *ctx, lab_route route)
{
    if (route == LAB_ROUTE_PEER_OFF)
        return;
    preferl1_one(ctx, route, LAB05_SM_PULL);
    preferl1_one(ctx, route, LAB05_SM_PUSH);
}

int lab05_run_preferl1(lab_ctx *ctx)
{
    return each_route(ctx, preferl1_route);
}

/* Memory the driver has not pinned: it copies through a pinned staging buffer, chunk by chunk. */
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
    lab_row row = lab05_row("pageable", pageable ? "pageable" : "pinned", &t, LAB_ROUTE_HOST,
                            "one_way");
    lab_row_set(row.detail, sizeof row.detail, "%s", pageable
                ? "malloc'd host memory: the driver stages it through pinned buffers"
                : "cudaHostAlloc'd (pinned) host memory: the copy engine reads it directly");
    lab05_emit_host_clocked(ctx, &row, &t, L->reps, lab05_peak(L, &t, LAB_ROUTE_HOST));
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
