/**
 * @file counters.c
 * @brief Lab 04: one 64-bit counter in GPU a's memory, incremented in eight
 *        ways. Every way issues the same increments; each must reach the
 *        exact total, except where the CUDA memory model promises nothing.
 *
 * The ladder goes from one atomic per increment (local, then across the
 * link, then from both GPUs) down to one atomic per warp, one per block,
 * and finally none across the link at all: each GPU counts in its own
 * memory and GPU b's total is copied to GPU a once (the chapter's advice).
 */
#include "peer_atomics.h"

#include <stdio.h>
#include <stdlib.h>

/** How the increments reach the counter. */
typedef enum counter_kind {
    PER_THREAD,       /**< one atomic per increment */
    WARP_AGGREGATED,  /**< one atomic per warp and iteration */
    BLOCK_AGGREGATED, /**< one atomic per block */
    LOCAL_THEN_COPY   /**< per-GPU totals, one peer copy, one addition */
} counter_kind;

/** Who increments: GPU a, GPU b, or both (BY_A | BY_B). */
enum { BY_A = 1, BY_B = 2 };

/** One way of incrementing the counter. */
typedef struct counter_variant {
    const char *name;  /**< stable id, printed in the CSV */
    const char *about; /**< one line for people */
    int writers;       /**< BY_A, BY_B or both */
    int system_scope;  /**< scope of the atomics on the shared counter */
    counter_kind kind; /**< how the increments reach the counter */
    int defined;       /**< does the memory model guarantee the total? */
} counter_variant;

static const counter_variant variants[LAB04_COUNTER_VARIANTS] = {
    {"local", "a adds to its own counter, one atomic per increment",
     BY_A, 0, PER_THREAD, 1},
    {"peer", "b adds to a's counter across the link, device scope",
     BY_B, 0, PER_THREAD, 1},
    {"peer_system", "b adds to a's counter across the link, system scope",
     BY_B, 1, PER_THREAD, 1},
    /* Device scope orders only the threads of one GPU: two GPUs doing
     * device-scope atomics on one address is a data race, whatever the
     * count turns out to be. */
    {"both_device", "a and b at once, device scope: a data race",
     BY_A | BY_B, 0, PER_THREAD, 0},
    {"both_system", "a and b at once, system scope",
     BY_A | BY_B, 1, PER_THREAD, 1},
    {"both_warp_aggregated", "a and b, one system atomic per warp and iteration",
     BY_A | BY_B, 1, WARP_AGGREGATED, 1},
    {"both_block_aggregated", "a and b, one system atomic per block",
     BY_A | BY_B, 1, BLOCK_AGGREGATED, 1},
    {"both_local_then_copy", "a and b count locally; b's total copied once, a adds",
     BY_A | BY_B, 0, LOCAL_THEN_COPY, 1},
};

/** What the work functions of one counter variant need. */
typedef struct counter_ctx {
    const counter_variant *v;      /**< the variant being run */
    int a;                         /**< GPU a */
    int b;                         /**< GPU b */
    int blocks;                    /**< blocks per GPU */
    int iters;                     /**< increments per thread */
    unsigned long long *counter;   /**< on a: the counter every variant fills */
    unsigned long long *partial_a; /**< on a: a's own total (local_then_copy) */
    unsigned long long *landing_a; /**< on a: where b's total lands */
    unsigned long long *partial_b; /**< on b: b's own total */
} counter_ctx;

static void launch_kind(const counter_ctx *c, counter_kind kind, unsigned long long *target,
                        int system_scope, cudaStream_t stream)
{
    switch (kind) {
    case PER_THREAD:
        launch_count_per_thread(target, c->blocks, c->iters, system_scope, stream);
        break;
    case WARP_AGGREGATED:
        launch_count_warp_aggregated(target, c->blocks, c->iters, system_scope, stream);
        break;
    case BLOCK_AGGREGATED:
    case LOCAL_THEN_COPY:
        launch_count_block_aggregated(target, c->blocks, c->iters, system_scope, stream);
        break;
    }
}

static void reset_a(void *arg, cudaStream_t stream)
{
    const counter_ctx *c = arg;
    CUDA_CHECK(cudaMemsetAsync(c->counter, 0, sizeof *c->counter, stream));
    CUDA_CHECK(cudaMemsetAsync(c->partial_a, 0, sizeof *c->partial_a, stream));
    CUDA_CHECK(cudaMemsetAsync(c->landing_a, 0, sizeof *c->landing_a, stream));
}

static void reset_b(void *arg, cudaStream_t stream)
{
    const counter_ctx *c = arg;
    CUDA_CHECK(cudaMemsetAsync(c->partial_b, 0, sizeof *c->partial_b, stream));
}

static void work_a(void *arg, cudaStream_t stream)
{
    const counter_ctx *c = arg;
    if (!(c->v->writers & BY_A))
        return;
    if (c->v->kind == LOCAL_THEN_COPY)
        launch_kind(c, c->v->kind, c->partial_a, 0, stream);
    else
        launch_kind(c, c->v->kind, c->counter, c->v->system_scope, stream);
}

static void work_b(void *arg, cudaStream_t stream)
{
    const counter_ctx *c = arg;
    if (!(c->v->writers & BY_B))
        return;
    if (c->v->kind != LOCAL_THEN_COPY) {
        /* c->counter is GPU a's memory: every atomic crosses the link. */
        launch_kind(c, c->v->kind, c->counter, c->v->system_scope, stream);
        return;
    }
    /* b counts in its own memory, with device-scope atomics that never
     * leave the GPU... */
    launch_kind(c, c->v->kind, c->partial_b, 0, stream);
    /* ...then its total travels to GPU a once, in stream order after the
     * kernel. */
    LAB_TODO("04.5");
}

/* a adds the two totals once both have arrived. */
static void finish_a(void *arg, cudaStream_t stream)
{
    const counter_ctx *c = arg;
    launch_sum_u64(c->counter, c->partial_a, c->landing_a, 1, stream);
}

/* span_run() has synchronized both GPUs; the read goes through a's stream
 * all the same, so that it is ordered after everything a did. */
static unsigned long long read_counter(const lab04_pair *pair, const counter_ctx *c)
{
    unsigned long long value = 0;
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMemcpyAsync(&value, c->counter, sizeof value, cudaMemcpyDeviceToHost,
                               pair->stream_a));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
    return value;
}

static unsigned long long peer_ops(const counter_ctx *c, unsigned long long per_gpu)
{
    const counter_variant *v = c->v;
    if (!(v->writers & BY_B))
        return 0;
    switch (v->kind) {
    case PER_THREAD: return per_gpu;
    case WARP_AGGREGATED:
        return (unsigned long long)c->blocks * (LAB04_THREADS / 32) * (unsigned long long)c->iters;
    case BLOCK_AGGREGATED: return (unsigned long long)c->blocks;
    case LOCAL_THEN_COPY: return 0;
    }
    return 0;
}

/* Global-memory atomics of one run, all writers together (the shared
 * counter's or, for local_then_copy, the per-GPU totals'). */
static unsigned long long atomics_issued(const counter_ctx *c, unsigned long long per_gpu,
                                         int writers)
{
    unsigned long long per_writer = per_gpu;
    switch (c->v->kind) {
    case PER_THREAD: per_writer = per_gpu; break;
    case WARP_AGGREGATED:
        per_writer = (unsigned long long)c->blocks * (LAB04_THREADS / 32) * (unsigned long long)c->iters;
        break;
    case BLOCK_AGGREGATED:
    case LOCAL_THEN_COPY: per_writer = (unsigned long long)c->blocks; break;
    }
    return per_writer * (unsigned long long)writers;
}

static void writers_text(const counter_variant *v, int a, int b, char *out, size_t len)
{
    if (v->writers == (BY_A | BY_B))
        snprintf(out, len, "%d+%d", a, b);
    else
        snprintf(out, len, "%d", v->writers == BY_A ? a : b);
}

static void run_variant(lab04_pair *pair, counter_ctx *c, int reps, counter_result *out)
{
    const counter_variant *v = c->v;
    const unsigned long long per_gpu =
        (unsigned long long)c->blocks * LAB04_THREADS * (unsigned long long)c->iters;
    const int writers = ((v->writers & BY_A) != 0) + ((v->writers & BY_B) != 0);

    out->name = v->name;
    out->about = v->about;
    writers_text(v, c->a, c->b, out->writers, sizeof out->writers);
    out->scope = v->system_scope ? "system" : "device";
    out->expected = per_gpu * (unsigned long long)writers;
    out->defined = v->defined;
    out->exact = 1;
    out->peer_ops = peer_ops(c, per_gpu);
    out->atomics = atomics_issued(c, per_gpu, writers);

    span_plan plan = {reset_a, reset_b, work_a, work_b,
                      v->kind == LOCAL_THEN_COPY ? finish_a : NULL, c};
    double *samples = calloc((size_t)reps, sizeof *samples);
    if (samples == NULL) {
        fprintf(stderr, "counters: out of memory\n");
        exit(LAB_EXIT_FAIL);
    }
    for (int rep = -1; rep < reps; rep++) { /* rep -1 is the warm-up */
        float ms = span_run(pair, &plan);
        unsigned long long count = read_counter(pair, c);
        if (count != out->expected) {
            if (v->defined) {
                fprintf(stderr,
                        "counter '%s' (%s), run %d: counted %llu, expected %llu\n",
                        v->name, v->about, rep + 2, count, out->expected);
                exit(LAB_EXIT_FAIL);
            }
            if (out->exact) /* keep the first wrong count of the race */
                out->count = count;
            out->exact = 0;
        } else if (out->exact) {
            out->count = count;
        }
        if (rep >= 0)
            samples[rep] = ms;
    }
    out->ms = summarize_ms(samples, reps, v->name);
    free(samples);
}

void run_counters(lab04_pair *pair, const lab04_config *cfg,
                  counter_result out[LAB04_COUNTER_VARIANTS])
{
    counter_ctx c = {0};
    c.a = pair->a;
    c.b = pair->b;
    c.blocks = cfg->blocks;
    c.iters = cfg->iters;
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMalloc((void **)&c.counter, sizeof *c.counter));
    CUDA_CHECK(cudaMalloc((void **)&c.partial_a, sizeof *c.partial_a));
    CUDA_CHECK(cudaMalloc((void **)&c.landing_a, sizeof *c.landing_a));
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaMalloc((void **)&c.partial_b, sizeof *c.partial_b));

    for (int i = 0; i < LAB04_COUNTER_VARIANTS; i++) {
        c.v = &variants[i];
        run_variant(pair, &c, cfg->reps, &out[i]);
    }

    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaFree(c.partial_b));
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaFree(c.landing_a));
    CUDA_CHECK(cudaFree(c.partial_a));
    CUDA_CHECK(cudaFree(c.counter));
}
