/**
 * @file copies.c
 * @brief Lab 02's sweep (both wrappers at every size, every byte checked) and stream-order
 *        experiments. The source GPU is current during the sweep, on purpose: the chapter says
 *        it must be the destination. The wrapper must also leave it current.
 */
#include "lab02.h"

#include <stdio.h>
#include <string.h>

/* From 1 byte to 256 MiB: powers of two, their neighbours, and odd sizes. */
static const size_t sweep_sizes[] = {
    1, 2, 3, 7, 8, 15, 64, 255, 256, 1000, 4095, 4096, 4097, 65535, 65536, 65537,
    (1u << 20) - 1, 1u << 20, (1u << 20) + 1, (16u << 20) - 3, 16u << 20,
    (64u << 20) + 5, (128u << 20) - 1, 256u << 20,
};

/** Offset of the unaligned copies' source: misaligned differently from the destination. */
#define SRC_SKEW 1
/** Offset of the unaligned copies' destination. */
#define DST_SKEW 3

/* One checked copy through a wrapper (unaligned when @p skew), and its row. */
static int sweep_copy(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, bool async, size_t bytes,
                      bool skew)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    const size_t src_off = skew ? SRC_SKEW : 0, dst_off = skew ? DST_SKEW : 0;
    const char *call = async ? "p2p_copy_async" : "p2p_copy";
    char what[160];
    lab02_what(leg, bytes, call, what, sizeof what);
    lab02_poison(dst, bytes, dst_off);
    CUDA_CHECK(cudaSetDevice(src->dev));
    p2p_status status = async ? p2p_copy_async(dst->window + dst_off, dst->dev,
                                               src->src + src_off, src->dev, bytes, src->stream)
                              : p2p_copy(dst->window + dst_off, dst->dev,
                                         src->src + src_off, src->dev, bytes);
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    if (async)
        CUDA_CHECK(cudaStreamSynchronize(src->stream));
    lab02_sync(src->dev);
    lab02_sync(dst->dev);
    int ok = status == P2P_OK && current == src->dev &&
             lab02_verify(st, dst, dst_off, st->ref[src->index] + src_off, bytes, what);
    lab_row row = lab02_row("sweep", call, skew ? "unaligned" : "aligned", leg, bytes);
    lab_row_set(row.value, sizeof row.value, "%d", current);
    if (skew)
        lab_row_set(row.detail, sizeof row.detail, "source offset %d; destination offset %d",
                    SRC_SKEW, DST_SKEW);
    row.verified = ok;
    lab_emit(ctx, &row);
    return lab_check(ctx, ok, "%s: %s; current device before %d, after %d", what,
                     p2p_status_name(status), src->dev, current);
}

/* Every size up to the largest (and the largest, when it is not in the list); odd sizes
 * unaligned too. The first failure ends the leg. */
static int sweep_leg(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, bool async)
{
    bool cap_done = false;
    for (size_t i = 0; i < sizeof sweep_sizes / sizeof sweep_sizes[0]; i++) {
        const size_t bytes = sweep_sizes[i];
        if (bytes > st->cap)
            break;
        cap_done |= bytes == st->cap;
        if (sweep_copy(ctx, st, leg, async, bytes, false) != 0 ||
            (bytes % 2 && sweep_copy(ctx, st, leg, async, bytes, true) != 0))
            return LAB_EXIT_FAIL;
    }
    return cap_done ? 0 : sweep_copy(ctx, st, leg, async, st->cap, false);
}

static int sweep_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    int status = 0;
    for (int l = 0; l < n_legs; l++)
        for (int async = 0; async < 2; async++)
            status |= sweep_leg(ctx, st, &legs[l], async);
    return status;
}

int lab02_run_sweep(lab_ctx *ctx)
{
    return lab02_each_route(ctx, "sweep", true, sweep_route);
}

/* --- stream order ------------------------------------------------------------ */

static const int hold_short_ms = 20;
static const int hold_long_ms = 40;

/* After the check: the seeded source back in place. */
static int order_row(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, const char *call,
                     const char *mode, size_t bytes, const unsigned char *want)
{
    char what[160];
    lab02_what(leg, bytes, call, what, sizeof what);
    lab02_sync(leg->src->dev);
    lab02_sync(leg->dst->dev);
    int ok = lab02_verify(st, leg->dst, 0, want, bytes, what);
    CUDA_CHECK(cudaMemcpy(leg->src->src, st->ref[leg->src->index], bytes,
                          cudaMemcpyHostToDevice));
    lab_row row = lab02_row("stream_order", call, mode, leg, bytes);
    row.verified = ok;
    lab_emit(ctx, &row);
    return lab_check(ctx, ok, "%s (%s): the copy did not run in its stream's order", what,
                     mode);
}

/* A delay, then an upload of new source data, then the copy, in one stream:
 * a copy that ignored the stream would run at once and move the old data. */
static int async_order(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, size_t bytes)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    lab02_fill(st->upload, bytes, st->seed + 1000 + (uint64_t)src->index);
    lab02_poison(dst, bytes, 0);
    CUDA_CHECK(cudaSetDevice(src->dev));
    lab02_delay(src->stream, &st->delay_ms);
    CUDA_CHECK(cudaMemcpyAsync(src->src, st->upload, bytes, cudaMemcpyHostToDevice,
                               src->stream));
    p2p_status status = p2p_copy_async(dst->window, dst->dev, src->src, src->dev, bytes,
                                       src->stream);
    if (status != P2P_OK)
        fprintf(stderr, "stream_order: p2p_copy_async returned %s\n", p2p_status_name(status));
    CUDA_CHECK(cudaStreamSynchronize(src->stream));
    return order_row(ctx, st, leg, "p2p_copy_async", "delay_then_upload", bytes, st->upload);
}

/* The staged copy, timed on the destination's stream. With @p upload, new source data
 * arrives in that stream's order after 40 ms while the source's stream is free after 20:
 * without the fork the old data moves. Without it, the source's stream is held 40 ms:
 * without the wait stale host bytes move. */
static int staged_order(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, size_t bytes,
                        bool upload)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    cudaStream_t timed = dst->stream;
    p2p_staging via = {st->pinned, src->aux, dst->fork, src->staged};
    lab02_fill(st->upload, bytes, st->seed + 2000 + (uint64_t)src->index);
    memset(st->pinned, POISON_BYTE, bytes);
    lab02_poison(dst, bytes, 0);
    CUDA_CHECK(cudaSetDevice(src->dev));
    lab02_delay(src->aux, upload ? &hold_short_ms : &hold_long_ms);
    if (upload) {
        CUDA_CHECK(cudaSetDevice(dst->dev));
        lab02_delay(timed, &hold_long_ms);
        CUDA_CHECK(cudaEventRecord(dst->mark, timed));
        CUDA_CHECK(cudaSetDevice(src->dev));
        CUDA_CHECK(cudaStreamWaitEvent(src->stream, dst->mark, 0));
        CUDA_CHECK(cudaMemcpyAsync(src->src, st->upload, bytes, cudaMemcpyHostToDevice,
                                   src->stream));
        CUDA_CHECK(cudaEventRecord(src->mark, src->stream));
        CUDA_CHECK(cudaSetDevice(dst->dev));
        CUDA_CHECK(cudaStreamWaitEvent(timed, src->mark, 0));
    }
    CUDA_CHECK(cudaSetDevice(dst->dev)); /* as in the timing experiment */
    CUDA_CHECK(p2p_copy_staged(dst->window, src->src, bytes, timed, &via));
    CUDA_CHECK(cudaStreamSynchronize(timed));
    CUDA_CHECK(cudaStreamSynchronize(src->aux));
    return order_row(ctx, st, leg, "p2p_copy_staged",
                     upload ? "upload_in_timed_order" : "source_stream_held", bytes,
                     upload ? st->upload : st->ref[src->index]);
}

static int order_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    const size_t bytes = st->cap < (1u << 20) + 1 ? st->cap : (1u << 20) + 1;
    int status = 0;
    for (int l = 0; l < n_legs; l++) {
        status |= async_order(ctx, st, &legs[l], bytes);
        status |= staged_order(ctx, st, &legs[l], bytes, true);
        status |= staged_order(ctx, st, &legs[l], bytes, false);
    }
    return status;
}

int lab02_run_stream_order(lab_ctx *ctx)
{
    return lab02_each_route(ctx, "stream_order", true, order_route);
}
