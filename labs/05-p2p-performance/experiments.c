/**
 * @file experiments.c
 * @brief The registry: every measurement of the lab is one entry with a
 *        key, a one-line description, a "can this machine run it" check
 *        and a run function (the pattern of nvbandwidth's test cases).
 *
 * A full run goes through the entries in this order; `-t KEY` picks some.
 * The warm-up entry comes early on purpose: it wants the first P2P copy
 * and the first kernel launch of the process.
 */
#include "p2p_perf.h"

#include <stdio.h>

static bool always(const lab05_ctx *ctx, char *why, size_t why_len)
{
    (void)ctx;
    (void)why;
    (void)why_len;
    return true;
}

/* Some pair of the sweeps has peer access. */
static bool any_p2p(const lab05_ctx *ctx, char *why, size_t why_len)
{
    for (int p = 0; p < ctx->npairs; p++)
        if (ctx->link[ctx->pairs[2 * p] * ctx->n + ctx->pairs[2 * p + 1]].p2p)
            return true;
    snprintf(why, why_len, "no measured pair of GPUs has peer access both ways");
    return false;
}

/* The pair of the one-pair experiments has peer access. */
static bool pair_p2p(const lab05_ctx *ctx, char *why, size_t why_len)
{
    if (ctx->link[ctx->pair_a * ctx->n + ctx->pair_b].p2p)
        return true;
    snprintf(why, why_len, "no peer access both ways between GPU %d and GPU %d", ctx->pair_a,
             ctx->pair_b);
    return false;
}

const lab05_experiment lab05_experiments[] = {
    {"link", "the link of every pair and its theoretical peak (NVML, datasheets)", always,
     lab05_run_link},
    {"warmup", "pitfall: the first copy and the first kernel launch against steady state",
     always, lab05_run_warmup},
    {"ce_bandwidth",
     "copy engine (cudaMemcpyPeerAsync) sweep, every pair, one and both ways, peer on and off",
     always, lab05_run_ce_bandwidth},
    {"sm_bandwidth", "SM copy kernels sweep, pull (read the peer) and push (write the peer)",
     any_p2p, lab05_run_sm_bandwidth},
    {"memcpy_latency", "time of one 4-byte cudaMemcpyPeerAsync, queued and synchronized", always,
     lab05_run_memcpy_latency},
    {"pointer_chase", "load latency: a random pointer chain in local and in peer memory",
     any_p2p, lab05_run_pointer_chase},
    {"pingpong", "one-way latency: kernels on two GPUs answer each other through flags",
     any_p2p, lab05_run_pingpong},
    {"cpu_timer", "pitfall: host clocks around an asynchronous copy, with and without a sync",
     always, lab05_run_cpu_timer},
    {"cpu_sync", "pitfall: a host synchronize after every copy against one at the end", always,
     lab05_run_cpu_sync},
    {"default_stream", "pitfall: the legacy default stream against non-blocking streams",
     always, lab05_run_default_stream},
    {"streams", "pitfall: 1, 2, 4 and 8 streams sharing one link", always, lab05_run_streams},
    {"preferl1", "the chapter's tip: cudaFuncCachePreferL1 on and off for the SM copy",
     pair_p2p, lab05_run_preferl1},
};

const int lab05_experiment_count =
    (int)(sizeof lab05_experiments / sizeof lab05_experiments[0]);
