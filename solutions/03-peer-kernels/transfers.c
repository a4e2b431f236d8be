/**
 * @file transfers.c
 * @brief Lab 03: local = 2 x peer, computed four ways at every size of the
 *        sweep, each run timed and its result checked bit for bit.
 *
 * The source lives on GPU b and the result on GPU a, whichever way is used:
 * - local:             the reference without the link (source copy on a);
 * - pull:              GPU a's kernel reads b's memory, writes its own;
 * - push:              GPU b's kernel reads its own memory, writes a's;
 * - copy_only:         cudaMemcpyPeerAsync b -> a alone, to compare with;
 * - copy_then_compute: that copy into a staging buffer on a, then the kernel
 *                      on a reading the staging buffer.
 */
#include "peer_kernels.h"

#include <stdio.h>

/** What one run of a variant needs. */
typedef struct transfer_ctx {
    const lab03_pair *pair;    /**< the GPUs */
    const lab03_buffers *buf;  /**< the buffers */
    size_t n;                  /**< floats to process */
} transfer_ctx;

static void run_local(void *arg)
{
    const transfer_ctx *c = arg;
    CUDA_CHECK(cudaSetDevice(c->pair->a));
    launch_scale(c->buf->dst_a, c->buf->src_a, c->n, c->pair->blocks_a, c->pair->stream_a);
}

/* Step 03.4: the same kernel, two directions. The GPU that launches is the
 * one whose SMs issue the loads and stores; where each pointer lives
 * decides which of them cross the link. */
static void run_pull(void *arg)
{
    const transfer_ctx *c = arg;
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(c->pair->a));
    launch_scale(c->buf->dst_a, c->buf->src_b, c->n, c->pair->blocks_a, c->pair->stream_a);
#else
    LAB_TODO("03.4");
#endif
}

static void run_push(void *arg)
{
    const transfer_ctx *c = arg;
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(c->pair->b));
    launch_scale(c->buf->dst_a, c->buf->src_b, c->n, c->pair->blocks_b, c->pair->stream_b);
#else
    LAB_TODO("03.4");
#endif
}

/* Step 03.5: move the data first with the copy engines, then compute on
 * local memory. Copy and kernel go to the same stream of GPU a, so the
 * kernel starts only when the copy is complete. */
static void copy_from_peer(const transfer_ctx *c)
{
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaMemcpyPeerAsync(c->buf->stage_a, c->pair->a, c->buf->src_b, c->pair->b,
                                   c->n * sizeof(float), c->pair->stream_a));
#else
    LAB_TODO("03.5");
#endif
}

static void run_copy_only(void *arg)
{
    copy_from_peer(arg);
}

static void run_copy_then_compute(void *arg)
{
    const transfer_ctx *c = arg;
    copy_from_peer(c);
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(c->pair->a));
    launch_scale(c->buf->dst_a, c->buf->stage_a, c->n, c->pair->blocks_a, c->pair->stream_a);
#else
    LAB_TODO("03.5");
#endif
}

/** A variant: its name, its work, where it runs, what it produces. */
typedef struct variant_info {
    const char *name;     /**< CSV name */
    lab03_work run;       /**< one run */
    int on_b;             /**< 1 when it runs on GPU b's stream */
    int result_is_stage;  /**< 1 when its result is the staging buffer */
} variant_info;

static const variant_info variants[LAB03_VARIANTS] = {
    [VARIANT_LOCAL] = {"local", run_local, 0, 0},
    [VARIANT_PULL] = {"pull", run_pull, 0, 0},
    [VARIANT_PUSH] = {"push", run_push, 1, 0},
    [VARIANT_COPY_ONLY] = {"copy_only", run_copy_only, 0, 1},
    [VARIANT_COPY_THEN_COMPUTE] = {"copy_then_compute", run_copy_then_compute, 0, 0},
};

const char *variant_name(transfer_variant v)
{
    return (unsigned int)v < LAB03_VARIANTS ? variants[v].name : "?";
}

static void measure_variant(lab03_pair *pair, const lab03_config *cfg,
                            const lab03_buffers *buf, transfer_variant v, size_t bytes,
                            transfer_result *out)
{
    const variant_info *info = &variants[v];
    transfer_ctx ctx = {pair, buf, bytes / sizeof(float)};
    char what[128], size[32];
    snprintf(what, sizeof what, "%s, %s, GPU %d <- GPU %d", info->name,
             lab_format_size(bytes, size, sizeof size), pair->a, pair->b);

    /* A stale result from the previous variant must not pass as this one's. */
    poison_on_a(pair, buf->dst_a, ctx.n);
    poison_on_a(pair, buf->stage_a, ctx.n);

    cudaStream_t stream = info->on_b ? pair->stream_b : pair->stream_a;
    lab_timer *timer = info->on_b ? &pair->timer_b : &pair->timer_a;
    CUDA_CHECK(cudaSetDevice(info->on_b ? pair->b : pair->a));
    out->ms = measure_ms(stream, timer, cfg->reps, info->run, &ctx, what);
    out->bytes = bytes;
    out->reps = cfg->reps;
    out->gbps = lab_gbps((double)bytes, out->ms.median);

    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (info->result_is_stage)
        out->verified = verify_on_host(pair, buf, buf->stage_a, buf->host_src, ctx.n, what);
    else
        out->verified = verify_on_host(pair, buf, buf->dst_a, buf->host_want, ctx.n, what);
}

void run_transfers(lab03_pair *pair, const lab03_config *cfg,
                   const lab03_buffers *buf, lab03_results *results)
{
    for (int k = 0; k < results->nsizes; k++)
        for (int v = 0; v < LAB03_VARIANTS; v++)
            measure_variant(pair, cfg, buf, (transfer_variant)v, results->sizes[k],
                            &results->transfer[k][v]);
    results->transfers_run = 1;
}
