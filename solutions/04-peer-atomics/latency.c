/**
 * @file latency.c
 * @brief Lab 04: how long one atomic takes, locally and across the link.
 *
 * One thread walks a random cycle through 1024 slots in GPU a's memory.
 * Each step is an atomic add whose old value names the next slot, so no
 * atomic can start before the previous one has returned: the chain's time
 * divided by its length is the latency of one atomic. GPU a walks it for
 * the local figure, GPU b (through the link) for the remote one.
 */
#include "peer_atomics.h"

#include <stdio.h>
#include <stdlib.h>

/** Who walks the chain, with which scope. */
typedef struct latency_variant {
    const char *name; /**< stable id */
    int on_b;         /**< 0: GPU a runs the chain (local), 1: GPU b (remote) */
    int system_scope; /**< 1: atomicAdd_system, 0: atomicAdd */
} latency_variant;

static const latency_variant variants[LAB04_LATENCY_VARIANTS] = {
    {"local", 0, 0},
    {"peer", 1, 0},
    {"peer_system", 1, 1},
};

/* Sattolo's shuffle: a random permutation that is one single cycle, so
 * the walk visits every slot before it comes back. */
static void make_cycle(unsigned int next[LAB04_CHAIN_SLOTS], uint64_t seed)
{
    uint64_t state = seed;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++)
        next[i] = i;
    for (unsigned int i = LAB04_CHAIN_SLOTS - 1; i > 0; i--) {
        unsigned int j = (unsigned int)(lab_rng_next(&state) % i);
        unsigned int t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

/** The host's replay of one walk. */
typedef struct chain_expect {
    unsigned long long initial[LAB04_CHAIN_SLOTS]; /**< slots before a walk */
    unsigned int visits[LAB04_CHAIN_SLOTS];        /**< visits of one walk */
    unsigned int final_index;                      /**< where one walk ends */
} chain_expect;

static void expect_walk(const unsigned int next[LAB04_CHAIN_SLOTS], int steps, chain_expect *e)
{
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++) {
        e->initial[i] = next[i];
        e->visits[i] = 0;
    }
    unsigned int index = 0;
    for (int s = 0; s < steps; s++) {
        e->visits[index]++;
        index = next[index];
    }
    e->final_index = index;
}

static unsigned long long check_walk(const char *variant, const chain_expect *e,
                                     const unsigned long long *slots, unsigned int final_index)
{
    if (final_index != e->final_index) {
        fprintf(stderr, "latency '%s': the chain ended at slot %u, the host says %u\n",
                variant, final_index, e->final_index);
        exit(LAB_EXIT_FAIL);
    }
    unsigned long long visits = 0;
    for (unsigned int i = 0; i < LAB04_CHAIN_SLOTS; i++) {
        unsigned long long link = slots[i] & 0xffffffffULL, seen = slots[i] >> 32;
        if (link != (e->initial[i] & 0xffffffffULL) || seen != e->visits[i]) {
            fprintf(stderr,
                    "latency '%s': slot %u holds link %llu and %llu visits, "
                    "expected link %llu and %u visits\n",
                    variant, i, link, seen, e->initial[i], e->visits[i]);
            exit(LAB_EXIT_FAIL);
        }
        visits += seen;
    }
    return visits;
}

void run_latency(lab04_pair *pair, const lab04_config *cfg,
                 latency_result out[LAB04_LATENCY_VARIANTS])
{
    unsigned int next[LAB04_CHAIN_SLOTS];
    static chain_expect expect;
    static unsigned long long slots_host[LAB04_CHAIN_SLOTS];
    make_cycle(next, cfg->seed ^ 0x5eed0f1a7e9c4a11ULL);
    expect_walk(next, cfg->chain_steps, &expect);
    const size_t slot_bytes = sizeof slots_host;

    unsigned long long *slots = NULL;
    unsigned int *final_dev[2] = {NULL, NULL};
    lab_timer timers[2];
    const int gpus[2] = {pair->a, pair->b};
    const cudaStream_t streams[2] = {pair->stream_a, pair->stream_b};
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMalloc((void **)&slots, slot_bytes));
    for (int g = 0; g < 2; g++) {
        CUDA_CHECK(cudaSetDevice(gpus[g]));
        CUDA_CHECK(cudaMalloc((void **)&final_dev[g], sizeof(unsigned int)));
        CUDA_CHECK(lab_timer_create(&timers[g]));
    }

    double *samples = calloc((size_t)cfg->reps, sizeof *samples);
    if (samples == NULL) {
        fprintf(stderr, "latency: out of memory\n");
        exit(LAB_EXIT_FAIL);
    }
    for (int k = 0; k < LAB04_LATENCY_VARIANTS; k++) {
        const latency_variant *v = &variants[k];
        const int g = v->on_b;
        latency_result *r = &out[k];
        r->name = v->name;
        r->gpu = gpus[g];
        r->scope = v->system_scope ? "system" : "device";
        r->steps = cfg->chain_steps;
        for (int rep = -1; rep < cfg->reps; rep++) { /* rep -1 is the warm-up */
            /* A fresh chain; the copy is complete before b's stream starts. */
            CUDA_CHECK(cudaSetDevice(pair->a));
            CUDA_CHECK(cudaMemcpyAsync(slots, expect.initial, slot_bytes,
                                       cudaMemcpyHostToDevice, pair->stream_a));
            CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));

            CUDA_CHECK(cudaSetDevice(gpus[g]));
            CUDA_CHECK(lab_timer_start(&timers[g], streams[g]));
            launch_atomic_chain(slots, cfg->chain_steps, v->system_scope, final_dev[g],
                                streams[g]);
            CUDA_CHECK(lab_timer_stop(&timers[g], streams[g]));
            float ms = 0.0f;
            CUDA_CHECK(lab_timer_elapsed_ms(&timers[g], &ms));

            unsigned int final_index = 0;
            CUDA_CHECK(cudaMemcpyAsync(&final_index, final_dev[g], sizeof final_index,
                                       cudaMemcpyDeviceToHost, streams[g]));
            CUDA_CHECK(cudaStreamSynchronize(streams[g]));
            CUDA_CHECK(cudaSetDevice(pair->a));
            CUDA_CHECK(cudaMemcpyAsync(slots_host, slots, slot_bytes, cudaMemcpyDeviceToHost,
                                       pair->stream_a));
            CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
            r->visits = check_walk(v->name, &expect, slots_host, final_index);
            if (rep >= 0)
                samples[rep] = ms;
        }
        r->exact = 1;
        r->ms = summarize_ms(samples, cfg->reps, v->name);
    }
    free(samples);

    for (int g = 1; g >= 0; g--) {
        CUDA_CHECK(cudaSetDevice(gpus[g]));
        lab_timer_destroy(&timers[g]);
        CUDA_CHECK(cudaFree(final_dev[g]));
    }
    CUDA_CHECK(cudaFree(slots)); /* GPU a is current */
}
