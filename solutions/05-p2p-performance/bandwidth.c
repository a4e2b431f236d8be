/**
 * @file bandwidth.c
 * @brief The bandwidth sweeps: every size, every ordered pair, one way and
 *        both ways; the copy engine with peer access on and off, and the
 *        SM copy kernels (pull and push, which need peer access).
 *
 * Counted bytes: one way, the bytes of one copy; both ways, the bytes of
 * both copies (a -> b and b -> a), over the time both take together.
 */
#include "p2p_perf.h"

#include <stdio.h>

/* Peak of the counted bytes: the P2P path with peer access, the host
 * (PCIe) path without; both ways use both directions of the link. */
static double peak_for(const lab05_ctx *ctx, int a, int b, int peer, int directions)
{
    const lab05_link *l = &ctx->link[a * ctx->n + b];
    return (peer ? l->peak_gbps : l->pcie_peak_gbps) * (double)directions;
}

/* Measure one size of one configuration and keep the row. */
static void measure_size(lab05_ctx *ctx, const char *experiment, lab05_method method, int a,
                         int b, int both, int peer, size_t bytes)
{
    lab05_transfer t[2];
    t[0] = lab05_make_transfer(ctx, method, a, b, bytes);
    t[1] = lab05_make_transfer(ctx, method, b, a, bytes);
    const int nt = both ? 2 : 1;

    lab05_series s;
    lab05_series_init(&s, ctx, t, nt, lab05_ops_for(bytes), !ctx->no_gate[method][peer]);
    lab_stats us;
    lab05_series_measure(&s, ctx->opt.reps, &us);
    if (s.gate_timeouts)
        ctx->no_gate[method][peer] = 1; /* enqueueing blocks here: stop trying */

    lab05_row *row = lab05_add_row(ctx, experiment, lab05_method_name(method));
    row->src = a;
    row->dst = b;
    snprintf(row->mode, sizeof row->mode, "%s", both ? "both_ways" : "one_way");
    row->peer = peer;
    row->bytes = bytes;
    row->ops = s.ops;
    row->us = us;
    row->counted = (double)bytes * (double)nt;
    row->peak_gbps = peak_for(ctx, a, b, peer, nt);
    row->gated = s.gate_timeouts == 0 && !ctx->no_gate[method][peer];
    row->verified = 1;
    lab05_series_destroy(&s);
}

static void sweep(lab05_ctx *ctx, const char *experiment, lab05_method method, int a, int b,
                  int peer)
{
    for (int i = 0; i < ctx->nsizes; i++)
        measure_size(ctx, experiment, method, a, b, 0, peer, ctx->sizes[i]);
    /* Both ways once per unordered pair. */
    if (a < b)
        for (int i = 0; i < ctx->nsizes; i++)
            measure_size(ctx, experiment, method, a, b, 1, peer, ctx->sizes[i]);
}

void lab05_run_ce_bandwidth(lab05_ctx *ctx)
{
    for (int p = 0; p < ctx->npairs; p++) {
        const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
        if (ctx->link[a * ctx->n + b].p2p) {
            lab05_set_peer(a, b, true);
            sweep(ctx, "ce_bandwidth", LAB05_CE, a, b, 1);
        }
        /* Without peer access the driver stages the copy through host memory. */
        lab05_set_peer(a, b, false);
        sweep(ctx, "ce_bandwidth", LAB05_CE, a, b, 0);
    }
}

void lab05_run_sm_bandwidth(lab05_ctx *ctx)
{
    for (int p = 0; p < ctx->npairs; p++) {
        const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
        if (!ctx->link[a * ctx->n + b].p2p) {
            char why[96];
            snprintf(why, sizeof why, "no peer access between GPU %d and GPU %d", a, b);
            lab05_add_value(ctx, "sm_bandwidth", "skipped", a, b, "", why);
            continue;
        }
        lab05_set_peer(a, b, true);
        sweep(ctx, "sm_bandwidth", LAB05_SM_PULL, a, b, 1);
        sweep(ctx, "sm_bandwidth", LAB05_SM_PUSH, a, b, 1);
    }
}
