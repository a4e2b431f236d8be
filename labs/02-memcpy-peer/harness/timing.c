/**
 * @file timing.c
 * @brief Lab 02's timing experiment: four ways to move the same bytes from
 *        one GPU to another (or within one), and the host route's pinned and
 *        pageable copies beside them, every timed copy verified.
 *
 * Each way is timed by lab_time_work on the stream its copies are ordered
 * in, behind a launch gate so that a 4 KiB copy is timed, not the host's
 * call overhead:
 * - cudaMemcpyPeer and cudaMemcpy(cudaMemcpyDefault) are ordered with the
 *   legacy default stream of the current device (the destination here), so
 *   events in that stream bracket them;
 * - cudaMemcpyPeerAsync and the host-staged copy run on the destination's
 *   non-blocking stream (the staged copy's first half joins it by events).
 * A copy that keeps the host waiting while the gate holds its stream would
 * time the gate out; a one-sample probe finds that first, and such a copy is
 * timed without the gate (value "ungated").
 */
#include "lab02.h"

#include <string.h>

/** @brief One timed copy: the leg, the size, and what the way needs. */
typedef struct copy_job {
    const lab02_leg *leg; /**< from where to where */
    size_t bytes;         /**< bytes per copy */
    p2p_staging via;      /**< the staged copy's buffer, stream and events */
    unsigned char *host;  /**< the host route's buffer (pinned or pageable) */
    bool to_host;         /**< the host route's direction: device to host */
} copy_job;

cudaError_t lab02_copy_way(int way, const lab02_leg *leg, size_t bytes, cudaStream_t stream)
{
    void *dst = lab02_window(leg->dst, 0);
    if (way == LAB02_MEMCPY_PEER) /* ordered with the legacy streams, not @p stream */
        return cudaMemcpyPeer(dst, leg->dst->dev, leg->src->src, leg->src->dev, bytes);
    if (way == LAB02_MEMCPY_PEER_ASYNC)
        return cudaMemcpyPeerAsync(dst, leg->dst->dev, leg->src->src, leg->src->dev, bytes,
                                   stream);
    /* unified addressing finds both devices from the pointers */
    return cudaMemcpy(dst, leg->src->src, bytes, cudaMemcpyDefault);
}

static cudaError_t do_memcpy_peer(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    return lab02_copy_way(LAB02_MEMCPY_PEER, j->leg, j->bytes, stream);
}

static cudaError_t do_memcpy_peer_async(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    return lab02_copy_way(LAB02_MEMCPY_PEER_ASYNC, j->leg, j->bytes, stream);
}

static cudaError_t do_memcpy_default(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    return lab02_copy_way(LAB02_MEMCPY_DEFAULT, j->leg, j->bytes, stream);
}

static cudaError_t do_host_staged(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    return p2p_copy_staged(lab02_window(j->leg->dst, 0), j->leg->src->src, j->bytes, stream,
                           &j->via);
}

static cudaError_t do_host_copy(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    if (j->to_host)
        return cudaMemcpyAsync(j->host, j->leg->src->src, j->bytes, cudaMemcpyDeviceToHost,
                               stream);
    return cudaMemcpyAsync(lab02_window(j->leg->dst, 0), j->host, j->bytes,
                           cudaMemcpyHostToDevice, stream);
}

/** @brief A way to copy: its key, how to enqueue one copy, where it is ordered. */
typedef struct copy_way {
    const char *key;   /**< the rows' variant */
    lab_work_fn work;  /**< enqueue one copy */
    bool own_stream;   /**< true: the destination's stream; false: its legacy stream */
} copy_way;

static const copy_way ways[] = {
    {"memcpy_peer", do_memcpy_peer, false},
    {"memcpy_peer_async", do_memcpy_peer_async, true},
    {"memcpy_default", do_memcpy_default, false},
    {"host_staged", do_host_staged, true},
};

/* The gate where the copy lets the host go on; without it where it does not. */
static cudaError_t time_copy(const lab02 *st, cudaStream_t stream, lab_work_fn work,
                             copy_job *job, lab_timing *out)
{
    lab_plan probe = {1, 1, 1, true};
    CUDA_TRY(lab_time_work(stream, &probe, work, job, out));
    lab_plan plan = {1, st->reps, 1, out->gated == 1};
    return lab_time_work(stream, &plan, work, job, out);
}

static void timing_row(lab_ctx *ctx, lab_row *row, const lab_timing *t, int verified)
{
    row->count = 1;
    row->us = t->us;
    row->gbps = lab_gbps((double)row->bytes, t->us.median / 1000.0);
    row->verified = verified;
    lab_row_set(row->value, sizeof row->value, "%s", t->gated == 1 ? "gated" : "ungated");
    lab_emit(ctx, row);
}

static int time_way(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, const copy_way *way,
                    size_t bytes)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    copy_job job = {leg, bytes, {st->pinned, src->aux, dst->fork, src->staged}, NULL, false};
    char what[160];
    lab_timing t;
    lab02_what(leg, bytes, way->key, what, sizeof what);
    lab02_poison(dst, bytes, 0); /* leaves the destination current */
    CUDA_CHECK(time_copy(st, way->own_stream ? dst->stream : cudaStreamLegacy, way->work, &job,
                         &t));
    lab02_sync(src->dev);
    lab02_sync(dst->dev);
    int ok = lab02_verify(st, dst, 0, st->ref[src->index], bytes, what);
    lab_row row = lab02_row("timing", way->key, leg, bytes);
    timing_row(ctx, &row, &t, ok);
    return lab_check(ctx, ok, "%s: a timed copy moved the wrong bytes", what);
}

static int ways_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    int status = 0;
    for (int s = 0; s < st->n_sizes; s++)
        for (int l = 0; l < n_legs; l++)
            for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
                status |= time_way(ctx, st, &legs[l], &ways[w], st->sizes[s]);
    return status ? LAB_EXIT_FAIL : 0;
}

/* GPU a and host memory, pinned or pageable, one direction. */
static int time_host(lab_ctx *ctx, lab02 *st, bool pinned, bool to_host, size_t bytes)
{
    const lab02_side *a = &st->side[0];
    const lab02_leg leg = {LAB_ROUTE_HOST, a, a};
    copy_job job = {&leg, bytes, {NULL, NULL, NULL, NULL}, pinned ? st->pinned : st->pageable,
                    to_host};
    const char *variant = pinned ? "pinned" : "pageable";
    lab_timing t;
    if (to_host)
        memset(job.host, POISON_BYTE, bytes);
    else
        memcpy(job.host, st->ref[0], bytes);
    lab02_poison(a, bytes, 0);
    CUDA_CHECK(time_copy(st, a->stream, do_host_copy, &job, &t));
    lab02_sync(a->dev);
    int ok = to_host ? memcmp(job.host, st->ref[0], bytes) == 0
                     : lab02_verify(st, a, 0, job.host, bytes, variant);
    lab_row row = lab02_row("timing", variant, &leg, bytes);
    row.src = to_host ? a->dev : -1;
    row.dst = to_host ? -1 : a->dev;
    lab_row_set(row.mode, sizeof row.mode, "%s", to_host ? "d2h" : "h2d");
    timing_row(ctx, &row, &t, ok);
    return lab_check(ctx, ok, "%s copy %s, %zu bytes: wrong bytes", variant,
                     to_host ? "device to host" : "host to device", bytes);
}

int lab02_run_timing(lab_ctx *ctx)
{
    int status = lab02_each_route(ctx, "timing", true, ways_route);
    lab02 *st = lab02_state(ctx);
    for (int s = 0; s < st->n_sizes; s++)
        for (int k = 0; k < 4; k++)
            status |= time_host(ctx, st, k < 2, k % 2 == 1, st->sizes[s]);
    return status ? LAB_EXIT_FAIL : 0;
}
