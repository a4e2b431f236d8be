/**
 * @file latency.c
 * @brief Lab 04: how long one atomic takes, locally and across a link. One thread walks a
 *        random cycle of slots, each step an atomic whose old value names the next slot, so
 *        the walk's time over its length is one atomic's round trip.
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
 * every slot before it comes back; then the host replays one walk. Each link
 * carries seeded bits above the slot index in its low 32 bits, which the
 * contract's mask (LAB04_CHAIN_SLOTS - 1) removes: a walk without it leaves
 * the slots. */
static void make_chain(chain_job *c, uint64_t seed)
{
    uint64_t state = seed ^ 0x5eed0f1a7e9c4a11ULL;
    const unsigned long long mask = LAB04_CHAIN_SLOTS - 1u;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++)
        c->initial[i] = i;
    for (unsigned int i = LAB04_CHAIN_SLOTS - 1; i > 0; i--) {
        const unsigned int j = (unsigned int)(lab_rng_next(&state) % i);
        const unsigned long long t = c->initial[i];
        c->initial[i] = c->initial[j];
        c->initial[j] = t;
    }
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++)
        c->initial[i] |= lab_rng_next(&state) & 0xffffffffULL & ~mask;
    unsigned int index = 0;
    for (int s = 0; s < c->steps; s++) {
        c->visits[index]++;
        index = (unsigned int)(c->initial[index] & mask);
    }
    c->final_index = index;
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

static int run_chain(lab_ctx *ctx, const char *key, chain_job *c, lab_route route)
{
    const char *scope = c->system_scope ? "system" : "device";
    span_plan plan = {reset, NULL, walk, NULL, NULL, c};
    lab04_runs runs = {.reps = ((const lab04_state *)ctx->lab)->reps};
    c->wrong[0] = '\0';
    lab04_repeat(c->pair, &plan, check_walk, &runs);
    lab_row row = lab04_row(key, scope, route, c->pair->a, ((const lab04_state *)ctx->lab)->a,
                            &runs);
    row.count = c->steps;
    lab_row_set(row.value, sizeof row.value, "%llu", c->seen);
    lab_row_set(row.detail, sizeof row.detail, "ns_per_atomic=%.1f slots=%u%s%s",
                runs.us.median * 1e3 / c->steps, LAB04_CHAIN_SLOTS, c->wrong[0] ? " " : "",
                c->wrong);
    lab_emit(ctx, &row);
    return lab_check(ctx, runs.wrong == 0, "%s %s (%s): %s in run %d (TODO 04.7)", key, scope,
                     row.route, c->wrong, runs.first_wrong);
}

/* Both scopes at one place: the walker is pair->a (a, or b alone), the chain in a's memory or
 * in host memory. */
int lab04_latency_at(lab_ctx *ctx, lab04_pair *pair, lab_route route)
{
    const lab04_state *s = ctx->lab;
    chain_job *c = lab_host_alloc(1, sizeof *c, "the latency chain");
    int status = 0;
    c->pair = pair;
    c->steps = s->chain_steps;
    make_chain(c, s->seed);
    CUDA_CHECK(lab_far_alloc(&c->slots, route, pair->a, s->a, chain_bytes));
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMalloc((void **)&c->final_dev, sizeof(unsigned int)));
    for (c->system_scope = 0; c->system_scope < 2; c->system_scope++)
        status |= run_chain(ctx, route == LAB_ROUTE_PEER ? "latency-peer" : "latency", c, route);
    CUDA_CHECK(cudaFree(c->final_dev));
    lab_far_free(&c->slots);
    free(c);
    return status;
}
