/**
 * @file current.c
 * @brief Lab 02's current-device and ordering experiments (two GPUs). The first is the
 *        chapter's: cudaMemcpyPeer with each GPU current, the data checked every time. The
 *        second shows what the current device does decide: which pending work a copy waits for.
 */
#include "lab02.h"

#include <stdio.h>
#include <string.h>

/** At most this many copies per current device (each of the largest timed size). */
#define CURRENT_REPS_MAX 10
/** Bytes copied in the ordering experiment. */
#define ORDERING_BYTES ((size_t)4 << 20)

/* Timed on the host until both GPUs are idle: what "the data arrived" means. */
static int current_case(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, int current)
{
    const lab02_side *src = leg->src, *dst = leg->dst;
    const size_t bytes = st->sizes[st->n_sizes - 1];
    const int reps = st->reps < CURRENT_REPS_MAX ? st->reps : CURRENT_REPS_MAX;
    double samples[CURRENT_REPS_MAX];
    char what[160];
    int arrived = 0;
    snprintf(what, sizeof what, "cudaMemcpyPeer GPU%d -> GPU%d with GPU%d current (%s)",
             src->dev, dst->dev, current, lab_route_name(leg->route));
    for (int r = 0; r < reps; r++) {
        lab02_poison(dst, bytes, 0);
        CUDA_CHECK(cudaSetDevice(current));
        double t0 = lab_host_seconds();
        CUDA_CHECK(cudaMemcpyPeer(dst->window, dst->dev, src->src, src->dev, bytes));
        lab02_sync(src->dev); /* the two GPUs the data concerns, not the current one */
        lab02_sync(dst->dev);
        samples[r] = (lab_host_seconds() - t0) * 1e6;
        arrived += lab02_verify(st, dst, 0, st->ref[src->index], bytes, what);
        lab02_sync(current);
    }
    const char *role = current == src->dev   ? "current_src"
                       : current == dst->dev ? "current_dst"
                                             : "current_other";
    lab_row row = lab02_row("current_device", role, "", leg, bytes);
    row.count = reps;
    if (lab_stats_compute(samples, (size_t)reps, &row.us) != 0)
        return lab_check(ctx, 0, "%s: the host times are not finite", what);
    row.gbps = lab_gbps((double)bytes, row.us.median / 1000.0);
    row.verified = arrived == reps;
    lab_row_set(row.value, sizeof row.value, "%d", current);
    lab_row_set(row.detail, sizeof row.detail, "the data arrived in %d of %d copies", arrived,
                reps);
    lab_emit(ctx, &row);
    return lab_check(ctx, arrived == reps, "%s: the data arrived in %d of %d copies", what,
                     arrived, reps);
}

static int current_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    int status = 0;
    for (int l = 0; l < n_legs; l++) {
        const int currents[3] = {legs[l].src->dev, legs[l].dst->dev, st->third};
        for (int c = 0; c < (st->third >= 0 ? 3 : 2); c++)
            status |= current_case(ctx, st, &legs[l], currents[c]);
    }
    return status;
}

int lab02_run_current_device(lab_ctx *ctx)
{
    return lab02_each_route(ctx, "current_device", false, current_route);
}

/* --- ordering ------------------------------------------------------------------ */

/** @brief Where the pending work is, and which GPU is current. */
typedef struct placement {
    const char *name; /**< the rows' mode */
    int pending;      /**< the GPU whose legacy stream holds the pending work */
    int current;      /**< the current device when the copy is issued */
} placement;

static const char *const calls[] = {"memcpy_peer", "memcpy_peer_async", "memcpy_default"};

/* Milliseconds from t0 until the copy's last bytes are seen at the destination (a
 * non-blocking stream of the destination watches), or -1 after the timeout. */
static double arrival_ms(lab02 *st, const lab02_leg *leg, size_t bytes, double t0)
{
    const size_t n = bytes < 8 ? bytes : 8;
    const unsigned char *tail = leg->dst->window + bytes - n;
    const unsigned char *want = st->ref[leg->src->index] + bytes - n;
    const double timeout_ms = 20.0 * st->delay_ms + 5000.0;
    for (;;) {
        CUDA_CHECK(cudaMemcpyAsync(st->probe, tail, n, cudaMemcpyDeviceToHost, leg->dst->aux));
        CUDA_CHECK(cudaStreamSynchronize(leg->dst->aux));
        double ms = (lab_host_seconds() - t0) * 1e3;
        if (memcmp(st->probe, want, n) == 0)
            return ms;
        if (ms > timeout_ms)
            return -1.0;
    }
}

/* A host function that sleeps is put into one GPU's legacy default stream, then the copy. */
static int ordering_case(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, const placement *p,
                         int call)
{
    const size_t bytes = st->cap < ORDERING_BYTES ? st->cap : ORDERING_BYTES;
    char what[192];
    snprintf(what, sizeof what, "%s GPU%d -> GPU%d, GPU%d current, work pending on GPU%d (%s)",
             calls[call], leg->src->dev, leg->dst->dev, p->current, p->pending,
             lab_route_name(leg->route));
    lab02_poison(leg->dst, bytes, 0);
    CUDA_CHECK(cudaSetDevice(p->pending));
    lab02_delay(cudaStreamLegacy, &st->delay_ms);
    CUDA_CHECK(cudaSetDevice(p->current));
    double t0 = lab_host_seconds();
    CUDA_CHECK(lab02_copy_way(call, leg, bytes, leg->dst->stream));
    double ms = arrival_ms(st, leg, bytes, t0);
    lab02_sync(p->pending);
    lab02_sync(p->current);
    lab02_sync(leg->src->dev);
    lab02_sync(leg->dst->dev);
    int ok = ms >= 0.0 && lab02_verify(st, leg->dst, 0, st->ref[leg->src->index], bytes, what);
    lab_row row = lab02_row("ordering", calls[call], p->name, leg, bytes);
    row.count = 1;
    if (ms >= 0.0) {
        row.us.count = 1;
        row.us.median = row.us.min = row.us.max = row.us.mean = ms * 1000.0;
    }
    lab_row_set(row.value, sizeof row.value, "%s",
                ms < 0.0 ? "not_seen" : ms >= 0.5 * st->delay_ms ? "waited" : "no_wait");
    lab_row_set(row.detail, sizeof row.detail, "%d ms pending on GPU %d; GPU %d current",
                st->delay_ms, p->pending, p->current);
    row.verified = ok;
    lab_emit(ctx, &row);
    return lab_check(ctx, ok, "%s: the copy was not seen at the destination in time", what);
}

/* One direction is enough: GPU a -> GPU b. */
static int ordering_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    const int a = legs[0].src->dev, b = legs[0].dst->dev, c = st->third;
    const placement places[4] = {
        {"pending_on_src", a, b},
        {"pending_on_dst", b, a},
        {"pending_on_current_other", c, c},
        {"pending_on_other", c, a},
    };
    int status = 0;
    (void)n_legs;
    for (int i = 0; i < (c >= 0 ? 4 : 2); i++)
        for (int call = 0; call < 3; call++)
            status |= ordering_case(ctx, st, &legs[0], &places[i], call);
    return status;
}

int lab02_run_ordering(lab_ctx *ctx)
{
    return lab02_each_route(ctx, "ordering", false, ordering_route);
}
