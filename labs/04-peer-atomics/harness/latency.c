/**
 * @file latency.c
 * @brief Lab 04: how long one atomic takes, locally and across a link.
 *
 * One thread walks a random cycle through LAB04_CHAIN_SLOTS slots; each
 * step is an atomic whose old value names the next slot, so no atomic can
 * start before the previous one returned: the chain's time over its length
 * is one atomic's round trip. GPU a walks a chain in its own memory (the
 * local figure) and in mapped host memory (the host link); GPU b walks one
 * in a's memory (the peer link).
 */
#include "lab04.h"

#include <stdlib.h>
#include <string.h>

static const size_t chain_bytes = LAB04_CHAIN_SLOTS * sizeof(unsigned long long);

/** The chain, the host's replay of one walk, and what the last walk did. */
typedef struct chain_job {
    lab04_pair *pair;                              /**< the walker is pair->a */
    lab_far slots;                                 /**< the chain, where the route puts it */
    unsigned int *final_dev;                       /**< on the walker: where the walk ended */
    int steps;                                     /**< atomics per walk */
    int system_scope;                              /**< the atomics' scope */
    unsigned long long initial[LAB04_CHAIN_SLOTS]; /**< the slots before a walk */
    unsigned int visits[LAB04_CHAIN_SLOTS];        /**< visits of one walk */
    unsigned int final_index;                      /**< where one walk ends */
    unsigned long long seen;                       /**< visits the slots recorded */
    char wrong[96];                                /**< the first difference, "" none */
} chain_job;

/* Sattolo's shuffle: a permutation that is one cycle, so a walk visits
 * every slot before it comes back; then the host replays one walk. */
static void make_chain(chain_job *c, uint64_t seed)
{
    unsigned int next[LAB04_CHAIN_SLOTS];
    uint64_t state = seed ^ 0x5eed0f1a7e9c4a11ULL;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++)
        next[i] = i;
    for (unsigned int i = LAB04_CHAIN_SLOTS - 1; i > 0; i--) {
        unsigned int j = (unsigned int)(lab_rng_next(&state) % i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    memset(c->visits, 0, sizeof c->visits);
    unsigned int index = 0;
    for (int s = 0; s < c->steps; s++) {
        c->visits[index]++;
        index = next[index];
    }
    c->final_index = index;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++)
        c->initial[i] = next[i];
}

static void reset(void *arg, cudaStream_t stream)
{
    const chain_job *c = arg;
    (void)stream; /* idle: the previous walk was synchronized */
    if (c->slots.host != NULL)
        memcpy(c->slots.host, c->initial, chain_bytes);
    else
        CUDA_CHECK(cudaMemcpy(c->slots.ptr, c->initial, chain_bytes, cudaMemcpyDefault));
}

static void walk(void *arg, cudaStream_t stream)
{
    const chain_job *c = arg;
    CUDA_CHECK(launch_atomic_chain(c->slots.ptr, c->steps, c->system_scope, c->final_dev, stream));
}

static int check_walk(void *arg)
{
    chain_job *c = arg;
    unsigned long long slots[LAB04_CHAIN_SLOTS];
    unsigned int final_index = 0;
    lab04_read(&c->slots, slots, chain_bytes, c->pair->stream_a);
    CUDA_CHECK(cudaMemcpy(&final_index, c->final_dev, sizeof final_index, cudaMemcpyDeviceToHost));
    c->seen = 0;
    if (final_index != c->final_index && c->wrong[0] == '\0')
        snprintf(c->wrong, sizeof c->wrong, "the walk ended at slot %u, the host says %u",
                 final_index, c->final_index);
    int ok = final_index == c->final_index;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++) {
        c->seen += slots[i] >> 32;
        if ((slots[i] >> 32) == c->visits[i] && (slots[i] & 0xffffffffULL) == c->initial[i])
            continue;
        if (ok && c->wrong[0] == '\0')
            snprintf(c->wrong, sizeof c->wrong, "slot %u holds %llu visits, the host says %u", i,
                     slots[i] >> 32, c->visits[i]);
        ok = 0;
    }
    return ok;
}

static int run_chain(lab_ctx *ctx, const char *key, chain_job *c, lab_route route, int owner)
{
    const lab04_state *s = ctx->lab;
    const char *scope = c->system_scope ? "system" : "device";
    span_plan plan = {reset, NULL, walk, NULL, NULL, c};
    lab04_runs runs = {.reps = s->reps};
    c->wrong[0] = '\0';
    lab04_repeat(c->pair, &plan, check_walk, &runs);
    lab_row row = lab04_row(key, scope, route, c->pair->a, owner, &runs);
    row.count = c->steps;
    lab_row_set(row.value, sizeof row.value, "%llu", c->seen);
    lab_row_set(row.detail, sizeof row.detail, "ns_per_atomic=%.1f slots=%u%s%s",
                runs.us.median * 1e3 / c->steps, LAB04_CHAIN_SLOTS, c->wrong[0] ? " " : "",
                c->wrong);
    lab_emit(ctx, &row);
    return lab_check(ctx, runs.wrong == 0, "%s %s (%s): %s in run %d (TODO 04.7)", key, scope,
                     row.route, c->wrong, runs.first_wrong);
}

/* Walk the chain with both scopes, the walker being pair->a. */
static int walk_both_scopes(lab_ctx *ctx, const char *key, chain_job *c, lab_route route,
                            int owner)
{
    int status = 0;
    CUDA_CHECK(cudaSetDevice(c->pair->a));
    CUDA_CHECK(cudaMalloc((void **)&c->final_dev, sizeof(unsigned int)));
    for (c->system_scope = 0; c->system_scope < 2; c->system_scope++)
        status |= run_chain(ctx, key, c, route, owner);
    CUDA_CHECK(cudaFree(c->final_dev));
    return status;
}

int lab04_run_latency(lab_ctx *ctx)
{
    const lab04_state *s = ctx->lab;
    lab_route routes[2];
    const size_t route_count = lab04_far_routes(s, routes);
    chain_job *c = lab_host_alloc(1, sizeof *c, "the latency chain");
    lab04_pair pair;
    int status = 0;
    lab04_pair_setup(&pair, s->a, -1);
    c->pair = &pair;
    c->steps = s->chain_steps;
    make_chain(c, s->seed);
    for (size_t r = 0; r < route_count; r++) {
        CUDA_CHECK(lab_far_alloc(&c->slots, routes[r], s->a, s->a, chain_bytes));
        status |= walk_both_scopes(ctx, "latency", c, routes[r], s->a);
        lab_far_free(&c->slots);
    }
    lab04_pair_teardown(&pair);
    free(c);
    return status;
}

int lab04_run_latency_peer(lab_ctx *ctx)
{
    const lab04_state *s = ctx->lab;
    chain_job *c = lab_host_alloc(1, sizeof *c, "the latency chain");
    lab04_pair walker; /* b alone walks, the chain is in a's memory */
    int status = 0;
    lab04_pair_setup(&walker, s->b, -1);
    c->pair = &walker;
    c->steps = s->chain_steps;
    make_chain(c, s->seed);
    CUDA_CHECK(lab_far_alloc(&c->slots, LAB_ROUTE_PEER, s->b, s->a, chain_bytes));
    status |= walk_both_scopes(ctx, "latency-peer", c, LAB_ROUTE_PEER, s->a);
    lab_far_free(&c->slots);
    lab04_pair_teardown(&walker);
    free(c);
    return status;
}
