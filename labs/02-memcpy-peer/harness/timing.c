/**
 * @file timing.c
 * @brief Lab 02's timing experiment: four ways to move the same bytes between GPUs (or within
 *        one), and the host route's pinned and pageable copies beside them, each copy verified.
 */
#include "lab02.h"

#include <string.h>

/** The way after the LAB02_MEMCPY_* ones: through pinned host memory (p2p_copy_staged). */
#define HOST_STAGED 3

/** @brief One timed copy: the leg, the size, and what the way needs. */
typedef struct copy_job {
    int way;              /**< LAB02_MEMCPY_* or HOST_STAGED */
    const lab02_leg *leg; /**< from where to where */
    size_t bytes;         /**< bytes per copy */
    p2p_staging via;      /**< the staged copy's buffer, stream and events */
    unsigned char *host;  /**< the host route's buffer (pinned or pageable; NULL: a way) */
    bool to_host;         /**< the host route's direction: device to host */
} copy_job;

/** @brief A way to copy: its key, and where it is ordered. */
typedef struct copy_way {
    const char *key;   /**< the rows' variant */
    bool own_stream;   /**< true: the destination's stream; false: its legacy stream */
} copy_way;

/** The ways, by their index. */
static const copy_way ways[] = {
    {"memcpy_peer", false},
    {"memcpy_peer_async", true},
    {"memcpy_default", false},
    {"host_staged", true},
};

cudaError_t lab02_copy_way(int way, const lab02_leg *leg, size_t bytes, cudaStream_t stream)
{
    void *dst = leg->dst->window;
    if (way == LAB02_MEMCPY_PEER) /* ordered with the legacy streams, not @p stream */
        return cudaMemcpyPeer(dst, leg->dst->dev, leg->src->src, leg->src->dev, bytes);
    if (way == LAB02_MEMCPY_PEER_ASYNC)
        return cudaMemcpyPeerAsync(dst, leg->dst->dev, leg->src->src, leg->src->dev, bytes,
                                   stream);
    /* unified addressing finds both devices from the pointers */
    return cudaMemcpy(dst, leg->src->src, bytes, cudaMemcpyDefault);
}

/* lab_work_fn: one copy of the job. */
static cudaError_t do_copy(cudaStream_t stream, void *arg)
{
    const copy_job *j = arg;
    void *window = j->leg->dst->window;
    if (j->host != NULL && j->to_host)
        return cudaMemcpyAsync(j->host, j->leg->src->src, j->bytes, cudaMemcpyDeviceToHost,
                               stream);
    if (j->host != NULL)
        return cudaMemcpyAsync(window, j->host, j->bytes, cudaMemcpyHostToDevice, stream);
    if (j->way == HOST_STAGED)
        return p2p_copy_staged(window, j->leg->src->src, j->bytes, stream, &j->via);
    return lab02_copy_way(j->way, j->leg, j->bytes, stream);
}

/* Time the job into @p row on the stream its copies are ordered in, behind a launch gate so
 * that a 4 KiB copy is timed, not the host's call overhead. A copy that keeps the host waiting
 * while the gate holds its stream would time the gate out: a one-sample probe finds that
 * first, and such a copy is timed without the gate (value "ungated"). */
static void time_copy(const lab02 *st, cudaStream_t stream, copy_job *job, lab_row *row)
{
    lab_plan probe = {1, 1, 1, true};
    lab_timing t;
    CUDA_CHECK(lab_time_work(stream, &probe, do_copy, job, &t));
    lab_plan plan = {1, st->reps, 1, t.gated == 1};
    CUDA_CHECK(lab_time_work(stream, &plan, do_copy, job, &t));
    row->count = 1;
    row->us = t.us;
    row->gbps = lab_gbps((double)row->bytes, t.us.median / 1000.0);
    lab_row_set(row->value, sizeof row->value, "%s", t.gated == 1 ? "gated" : "ungated");
}

static int time_way(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, int way, size_t bytes)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    copy_job job = {way, leg, bytes, {st->pinned, src->aux, dst->fork, src->staged}, NULL,
                    false};
    lab_row row = lab02_row("timing", ways[way].key, "", leg, bytes);
    char what[160];
    lab02_what(leg, bytes, ways[way].key, what, sizeof what);
    lab02_poison(dst, bytes, 0); /* leaves the destination current */
    time_copy(st, ways[way].own_stream ? dst->stream : cudaStreamLegacy, &job, &row);
    lab02_sync(src->dev);
    lab02_sync(dst->dev);
    row.verified = lab02_verify(st, dst, 0, st->ref[src->index], bytes, what);
    lab_emit(ctx, &row);
    return lab_check(ctx, row.verified, "%s: a timed copy moved the wrong bytes", what);
}

static int ways_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    int status = 0;
    for (int s = 0; s < st->n_sizes; s++)
        for (int l = 0; l < n_legs; l++)
            for (int w = 0; w < 4; w++)
                status |= time_way(ctx, st, &legs[l], w, st->sizes[s]);
    return status;
}

/* GPU a and host memory, pinned or pageable, one direction. */
static int time_host(lab_ctx *ctx, lab02 *st, bool pinned, bool to_host, size_t bytes)
{
    const lab02_side *a = &st->side[0];
    const lab02_leg leg = {LAB_ROUTE_HOST, a, a};
    copy_job job = {0, &leg, bytes, {NULL, NULL, NULL, NULL},
                    pinned ? st->pinned : st->pageable, to_host};
    const char *variant = pinned ? "pinned" : "pageable";
    lab_row row = lab02_row("timing", variant, to_host ? "d2h" : "h2d", &leg, bytes);
    row.src = to_host ? a->dev : -1;
    row.dst = to_host ? -1 : a->dev;
    if (to_host)
        memset(job.host, POISON_BYTE, bytes);
    else
        memcpy(job.host, st->ref[0], bytes);
    lab02_poison(a, bytes, 0);
    time_copy(st, a->stream, &job, &row);
    lab02_sync(a->dev);
    row.verified = to_host ? memcmp(job.host, st->ref[0], bytes) == 0
                           : lab02_verify(st, a, 0, job.host, bytes, variant);
    lab_emit(ctx, &row);
    return lab_check(ctx, row.verified, "%s copy %s, %zu bytes: wrong bytes", variant,
                     to_host ? "device to host" : "host to device", bytes);
}

int lab02_run_timing(lab_ctx *ctx)
{
    int status = lab02_each_route(ctx, "timing", true, ways_route);
    lab02 *st = lab02_state(ctx);
    for (int s = 0; s < st->n_sizes; s++)
        for (int k = 0; k < 4; k++)
            status |= time_host(ctx, st, k < 2, k % 2 == 1, st->sizes[s]);
    return status;
}
