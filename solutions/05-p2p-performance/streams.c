/**
 * @file streams.c
 * @brief Pitfalls with streams and settings: the legacy default stream,
 *        several streams sharing one link, and the chapter's tip that
 *        cudaDeviceSetCacheConfig(cudaFuncCachePreferL1) doubles P2P bandwidth.
 */
#include "kernels.h"
#include "p2p_perf.h"

#include <stdio.h>

/** Bytes each stream copies in the streams experiment. */
#define STREAM_CHUNK ((size_t)32 << 20)
/** How long the busy kernel of the default-stream experiment runs. */
#define BUSY_NS 2000000ULL

static int pair_peer_on(lab05_ctx *ctx, int a, int b)
{
    const int on = ctx->link[a * ctx->n + b].p2p;
    lab05_set_peer(a, b, on != 0);
    return on;
}

static lab05_row *series_row(lab05_ctx *ctx, const char *experiment, const char *variant,
                             const char *mode, const lab05_series *s, int peer,
                             const lab_stats *us, int directions)
{
    lab05_row *row = lab05_add_row(ctx, experiment, variant);
    const lab05_transfer *t = &s->t[0];
    const lab05_link *l = &ctx->link[t->src * ctx->n + t->dst];
    row->src = t->src;
    row->dst = t->dst;
    snprintf(row->mode, sizeof row->mode, "%s", mode);
    row->peer = peer;
    row->bytes = t->bytes;
    row->ops = s->ops;
    row->us = *us;
    row->counted = (double)t->bytes * (double)s->nt;
    row->peak_gbps = (peer ? l->peak_gbps : l->pcie_peak_gbps) * (double)directions;
    row->gated = (s->gate || s->gate_timeouts) ? (s->gate_timeouts == 0) : -1;
    row->verified = 1;
    return row;
}

/* ------------------------------------------------ legacy default stream -- */

/* Both directions issued into GPU a's legacy default stream: stream order
 * runs them one after the other. */
static void legacy_both_ways(lab05_ctx *ctx, int a, int b, int peer)
{
    lab05_transfer t[2] = {lab05_make_transfer(ctx, LAB05_CE, a, b, LAB05_PITFALL_BYTES),
                           lab05_make_transfer(ctx, LAB05_CE, b, a, LAB05_PITFALL_BYTES)};
    lab05_series s; /* only for its clear/verify helpers and the row */
    lab05_series_init(&s, ctx, t, 2, 1, false);
    lab05_clear_destinations(&s);
    CUDA_CHECK(cudaSetDevice(a));
    lab_timer timer;
    CUDA_CHECK(lab_timer_create(&timer));
    double ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = -1; r < reps; r++) {
        float elapsed = 0.0f;
        CUDA_CHECK(lab_timer_start(&timer, cudaStreamLegacy));
        CUDA_CHECK(cudaMemcpyPeerAsync(t[0].to, b, t[0].from, a, t[0].bytes, cudaStreamLegacy));
        CUDA_CHECK(cudaMemcpyPeerAsync(t[1].to, a, t[1].from, b, t[1].bytes, cudaStreamLegacy));
        CUDA_CHECK(lab_timer_stop(&timer, cudaStreamLegacy));
        CUDA_CHECK(lab_timer_elapsed_ms(&timer, &elapsed));
        if (r >= 0)
            ms[r] = elapsed;
    }
    lab_timer_destroy(&timer);
    lab05_verify_transfers(ctx, t, 2);
    lab_stats us;
    lab05_stats_us(ms, reps, 1, &us);
    lab05_row *row = series_row(ctx, "default_stream", "legacy", "both_ways", &s, peer, &us, 2);
    snprintf(row->detail, sizeof row->detail,
             "both copies in GPU %d's legacy default stream (stream 0)", a);
    lab05_series_destroy(&s);
}

static void nonblocking_both_ways(lab05_ctx *ctx, int a, int b, int peer)
{
    lab05_transfer t[2] = {lab05_make_transfer(ctx, LAB05_CE, a, b, LAB05_PITFALL_BYTES),
                           lab05_make_transfer(ctx, LAB05_CE, b, a, LAB05_PITFALL_BYTES)};
    lab05_series s;
    lab05_series_init(&s, ctx, t, 2, 1, false);
    lab_stats us;
    lab05_series_measure(&s, ctx->opt.reps, &us);
    lab05_row *row = series_row(ctx, "default_stream", "nonblocking", "both_ways", &s, peer, &us,
                                2);
    snprintf(row->detail, sizeof row->detail,
             "one non-blocking stream per direction (one on each GPU)");
    lab05_series_destroy(&s);
}

/* A kernel runs in an ordinary (blocking) stream; how long until a copy
 * issued meanwhile is done? The legacy default stream waits for it. */
static void beside_busy_kernel(lab05_ctx *ctx, int a, int b, int peer, int legacy)
{
    lab05_transfer t = lab05_make_transfer(ctx, LAB05_CE, a, b, LAB05_PITFALL_BYTES);
    lab05_series s;
    lab05_series_init(&s, ctx, &t, 1, 1, false);
    lab05_clear_destinations(&s);
    CUDA_CHECK(cudaSetDevice(a));
    cudaStream_t busy;
    CUDA_CHECK(cudaStreamCreate(&busy)); /* blocking: synchronizes with stream 0 */
    cudaStream_t copy = legacy ? cudaStreamLegacy : s.stream[0];
    double ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = -1; r < reps; r++) {
        lab05_launch_busy(BUSY_NS, busy);
        const double t0 = lab_host_seconds();
        lab05_transfer_enqueue(&t, copy);
        CUDA_CHECK(cudaStreamSynchronize(copy));
        const double t1 = lab_host_seconds();
        CUDA_CHECK(cudaStreamSynchronize(busy));
        if (r >= 0)
            ms[r] = (t1 - t0) * 1e3;
    }
    CUDA_CHECK(cudaStreamDestroy(busy));
    lab05_verify_transfers(ctx, &t, 1);
    lab_stats us;
    lab05_stats_us(ms, reps, 1, &us);
    lab05_row *row = series_row(ctx, "default_stream", legacy ? "legacy" : "nonblocking",
                                "beside_busy_kernel", &s, peer, &us, 1);
    snprintf(row->detail, sizeof row->detail,
             "host time until the copy is done while a %.0f ms kernel runs in another stream",
             (double)BUSY_NS / 1e6);
    lab05_series_destroy(&s);
}

void lab05_run_default_stream(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = pair_peer_on(ctx, a, b);
    legacy_both_ways(ctx, a, b, peer);
    nonblocking_both_ways(ctx, a, b, peer);
    beside_busy_kernel(ctx, a, b, peer, 1);
    beside_busy_kernel(ctx, a, b, peer, 0);
}

/* --------------------------------------------------- streams on one link -- */

void lab05_run_streams(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = pair_peer_on(ctx, a, b);
    for (int count = 1; count <= LAB05_MAX_STREAMS; count *= 2) {
        if ((size_t)count * STREAM_CHUNK > ctx->buf_bytes)
            break;
        lab05_transfer t[LAB05_MAX_STREAMS];
        for (int i = 0; i < count; i++) {
            /* Each stream copies its own slice of the buffers. */
            const size_t offset = (size_t)i * STREAM_CHUNK;
            t[i] = lab05_make_transfer(ctx, LAB05_CE, a, b, STREAM_CHUNK);
            t[i].from = (const char *)t[i].from + offset;
            t[i].to = (char *)t[i].to + offset;
            t[i].ref_offset = offset;
        }
        lab05_series s;
        lab05_series_init(&s, ctx, t, count, 1, true);
        lab_stats us;
        lab05_series_measure(&s, ctx->opt.reps, &us);
        lab05_row *row = series_row(ctx, "streams", "ce", "one_way", &s, peer, &us, 1);
        snprintf(row->value, sizeof row->value, "%d", count);
        snprintf(row->detail, sizeof row->detail,
                 "%d stream(s) on GPU %d each copy their own slice at once; GB/s is the total",
                 count, a);
        lab05_series_destroy(&s);
    }
}

/* ------------------------------------------------------ PreferL1 on/off -- */

/* Set the cache preference of the device @p dev (the current one). */
static void set_cache_config(int dev, enum cudaFuncCache config)
{
    CUDA_CHECK(cudaSetDevice(dev));
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaDeviceSetCacheConfig(config));
#else
    LAB_TODO("05.7");
#endif
}

void lab05_run_preferl1(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    lab05_set_peer(a, b, true);
    static const lab05_method methods[] = {LAB05_SM_PULL, LAB05_SM_PUSH};
    for (int m = 0; m < 2; m++) {
        lab05_transfer t = lab05_make_transfer(ctx, methods[m], a, b, LAB05_PITFALL_BYTES);
        const int dev = lab05_transfer_device(&t);
        enum cudaFuncCache saved;
        CUDA_CHECK(cudaSetDevice(dev));
        CUDA_CHECK(cudaDeviceGetCacheConfig(&saved));
        static const enum cudaFuncCache configs[] = {cudaFuncCachePreferNone,
                                                     cudaFuncCachePreferL1};
        static const char *const names[] = {"prefer_none", "prefer_l1"};
        for (int c = 0; c < 2; c++) {
            set_cache_config(dev, configs[c]);
            lab05_series s;
            lab05_series_init(&s, ctx, &t, 1, 1, true);
            lab_stats us;
            lab05_series_measure(&s, ctx->opt.reps, &us);
            lab05_row *row = series_row(ctx, "preferl1", lab05_method_name(methods[m]), "one_way",
                                        &s, 1, &us, 1);
            snprintf(row->value, sizeof row->value, "%s", names[c]);
            snprintf(row->detail, sizeof row->detail,
                     "cudaDeviceSetCacheConfig(%s) on GPU %d, where the kernel runs",
                     c ? "cudaFuncCachePreferL1" : "cudaFuncCachePreferNone", dev);
            lab05_series_destroy(&s);
        }
        set_cache_config(dev, saved); /* leave the device as it was */
    }
}
