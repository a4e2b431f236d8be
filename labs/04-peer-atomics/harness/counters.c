/**
 * @file counters.c
 * @brief Lab 04: one 64-bit counter in a's memory or in host memory, incremented in several
 *        ways by a, b, both GPUs, or the GPU and the CPU; each must reach the exact total,
 *        except where the CUDA memory model promises nothing (a data race).
 */
#include "lab04.h"

/** How the increments reach the counter: the index into launchers[]. */
typedef enum counter_kind { PER_THREAD, WARP, BLOCK, LOCAL_THEN_COPY } counter_kind;

/** One way to increment the counter. */
typedef struct counter_variant {
    const char *name;  /**< the rows' variant */
    counter_kind kind; /**< how the increments reach the counter */
    int system_scope;  /**< scope of the atomics on the shared counter */
    int both;          /**< 0: one GPU adds; 1: a and b; -1: the one-GPU experiment */
    const char *todo;  /**< the TODO a wrong count points at */
} counter_variant;

static const counter_variant variants[] = {
    {"device", PER_THREAD, 0, -1, "04.2"},
    {"system", PER_THREAD, 1, -1, "04.2"},
    {"warp_aggregated", WARP, 1, -1, "04.3"},
    {"block_aggregated", BLOCK, 1, -1, "04.4"},
    {"device", PER_THREAD, 0, 0, "04.2"}, /* the chapter's snippet: b alone, device scope */
    {"system", PER_THREAD, 1, 0, "04.2"},
    {"device", PER_THREAD, 0, 1, "04.2"}, /* both, device scope: a data race */
    {"system", PER_THREAD, 1, 1, "04.2"},
    {"warp_aggregated", WARP, 1, 1, "04.3"},
    {"block_aggregated", BLOCK, 1, 1, "04.4"},
    {"local_then_copy", LOCAL_THEN_COPY, 0, 1, "04.5"},
};

/* local_then_copy counts per block too, each GPU in its own memory. */
static cudaError_t (*const launchers[])(unsigned long long *, lab04_shape, int, cudaStream_t) = {
    launch_count_per_thread, launch_count_warp_aggregated, launch_count_block_aggregated,
    launch_count_block_aggregated};

/** What the steps of one counter variant need. */
typedef struct counter_job {
    const counter_variant *v;    /**< the variant being run */
    lab04_pair *pair;            /**< the GPUs (b < 0: one GPU) */
    lab04_shape shape;           /**< per GPU that adds */
    lab_far counter;             /**< the shared counter, where the route puts it */
    unsigned long long *mine[3]; /**< two GPUs: a's total, b's landing on a, b's total */
    unsigned long long expected; /**< increments per run */
    unsigned long long got;      /**< the first wrong count, else the count */
} counter_job;

static const size_t word = sizeof(unsigned long long);

/* Atomics one GPU issues on global memory in one run. */
static unsigned long long per_writer(counter_kind kind, lab04_shape s)
{
    const unsigned long long blocks = (unsigned long long)s.blocks;
    if (kind == PER_THREAD)
        return blocks * (unsigned long long)s.threads * (unsigned long long)s.iters;
    if (kind == WARP)
        return blocks * (unsigned long long)((s.threads + 31) / 32) * (unsigned long long)s.iters;
    return blocks;
}

static void reset_a(void *arg, cudaStream_t stream)
{
    const counter_job *j = arg;
    lab04_zero(&j->counter, word, stream);
    if (j->mine[0] != NULL)
        CUDA_CHECK(cudaMemsetAsync(j->mine[0], 0, 2 * word, stream)); /* total and landing */
}

static void reset_b(void *arg, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemsetAsync(((const counter_job *)arg)->mine[2], 0, word, stream));
}

static void work_a(void *arg, cudaStream_t stream)
{
    const counter_job *j = arg;
    unsigned long long *target = j->v->kind == LOCAL_THEN_COPY ? j->mine[0] : j->counter.ptr;
    if (j->v->both != 0) /* 0: b alone */
        CUDA_CHECK(launchers[j->v->kind](target, j->shape, j->v->system_scope, stream));
}

/* local_then_copy: b counts in its own memory (device scope: nothing leaves b), then its total
 * travels to a once, in stream order after the kernel; else every atomic crosses the link. */
static void work_b(void *arg, cudaStream_t stream)
{
    const counter_job *j = arg;
    const int local = j->v->kind == LOCAL_THEN_COPY;
    CUDA_CHECK(launchers[j->v->kind](local ? j->mine[2] : j->counter.ptr, j->shape,
                                     j->v->system_scope, stream));
    if (local)
        CUDA_CHECK(gather_peer(j->mine[1], j->pair->a, j->mine[2], j->pair->b, word, stream));
}

static void finish_a(void *arg, cudaStream_t stream)
{
    const counter_job *j = arg;
    CUDA_CHECK(lab04_sum_u64(j->counter.ptr, j->mine[0], j->mine[1], stream));
}

static int check_count(void *arg)
{
    counter_job *j = arg;
    unsigned long long got = 0;
    lab04_read(&j->counter, &got, word, j->pair->stream_a);
    if (j->got == j->expected)
        j->got = got; /* keep the first wrong count */
    return got == j->expected;
}

static int run_variant(lab_ctx *ctx, const char *key, counter_job *j, lab_route route)
{
    const counter_variant *v = j->v;
    const int both = v->both > 0, race = both && !v->system_scope && v->kind != LOCAL_THEN_COPY;
    const unsigned long long one = per_writer(v->kind, j->shape);
    const int local = route == LAB_ROUTE_LOOPBACK || v->kind == LOCAL_THEN_COPY;
    span_plan plan = {reset_a, j->mine[2] ? reset_b : NULL, work_a, work_b,
                      v->kind == LOCAL_THEN_COPY ? finish_a : NULL, j};
    lab04_runs runs = {.reps = ((const lab04_state *)ctx->lab)->reps};
    j->expected = per_writer(PER_THREAD, j->shape) * (unsigned long long)(1 + both);
    j->got = j->expected;
    lab04_repeat(j->pair, &plan, check_count, &runs);

    const int src = j->pair->b >= 0 ? j->pair->b : j->pair->a;
    lab_row row = lab04_row(key, v->name, route, src, j->pair->a, &runs);
    lab_row_set(row.mode, sizeof row.mode, "%s", both ? "both" : "one");
    row.count = (long)j->expected;
    row.verified = race ? -1 : row.verified;
    lab_row_set(row.value, sizeof row.value, "%llu", j->got);
    lab_row_set(row.detail, sizeof row.detail,
                "atomics=%llu across=%llu blocks=%d threads=%d iters=%d exact_runs=%d/%d%s",
                one * (unsigned long long)(1 + both), local ? 0ULL : one, j->shape.blocks,
                j->shape.threads, j->shape.iters, runs.reps + 1 - runs.wrong, runs.reps + 1,
                race ? " a data race under the CUDA memory model (device scope from two GPUs)"
                     : "");
    lab_emit(ctx, &row);
    return race ? 0 : lab_check(ctx, runs.wrong == 0, "%s %s (%s, %s): counted %llu, expected "
                                "%llu in run %d (TODO %s)", key, v->name, row.route, row.mode,
                                j->got, j->expected, runs.first_wrong, v->todo);
}

/* Every variant of this experiment at one place; with two GPUs b's total lives on b, a's
 * total and b's landing on a. */
int lab04_counters_at(lab_ctx *ctx, lab04_pair *pair, lab_route route)
{
    const lab04_state *s = ctx->lab;
    const int two = pair->b >= 0;
    counter_job j = {.pair = pair, .shape = route == LAB_ROUTE_HOST ? s->host_shape : s->gpu_shape};
    int status = 0;
    CUDA_CHECK(lab_far_alloc(&j.counter, route, two ? pair->b : pair->a, pair->a, word));
    if (two) {
        CUDA_CHECK(cudaMalloc((void **)&j.mine[2], word));
        CUDA_CHECK(cudaSetDevice(pair->a));
        CUDA_CHECK(cudaMalloc((void **)&j.mine[0], 2 * word));
        j.mine[1] = j.mine[0] + 1;
    }
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        j.v = &variants[k];
        if ((j.v->both >= 0) == two)
            status |= run_variant(ctx, two ? "counter-peer" : "counter", &j, route);
    }
    if (two) {
        CUDA_CHECK(cudaFree(j.mine[0]));
        CUDA_CHECK(cudaFree(j.mine[2]));
    }
    lab_far_free(&j.counter);
    return status;
}

/* ---------------------------------------------- the GPU and the CPU -- */

/** Totals of the runs of one GPU scope. */
typedef struct mixed_totals {
    unsigned long long expected; /**< increments made, the GPU's and the CPU's */
    unsigned long long got;      /**< what the counter held at the ends of the runs */
    unsigned long long gpu;      /**< the GPU's share */
    unsigned long long cpu;      /**< the CPU's share */
    int overlapped;              /**< runs where the CPU added while the GPU ran */
} mixed_totals;

static int stream_busy(void *arg)
{
    if (cudaStreamQuery(*(cudaStream_t *)arg) != cudaErrorNotReady)
        return 0; /* done (or failed: the synchronize after says so) */
    (void)cudaGetLastError();
    return 1;
}

/* The GPU raises the flag just before its counting kernel starts. */
static bool flag_raised(volatile const unsigned int *flag)
{
    const double give_up = lab_host_seconds() + 10.0;
    while (*flag == 0u)
        if (lab_host_seconds() > give_up)
            return false;
    return true;
}

/* Increments the CPU makes between two looks at the GPU. */
static const unsigned long long cpu_batch = 64;

/* One run: word 0 of @p far is the counter, word 1 the GPU's start flag. */
static bool mixed_run(const lab04_state *s, const lab_far *far, int scope, cudaStream_t stream,
                      mixed_totals *t)
{
    unsigned long long *host = far->host;
    volatile unsigned int *raised = (volatile unsigned int *)(host + 1);
    *host = 0; /* the stream is idle: the previous run was synchronized */
    *raised = 0u;
    CUDA_CHECK(lab04_raise_flag((volatile unsigned int *)((unsigned long long *)far->ptr + 1),
                                stream));
    CUDA_CHECK(launch_count_per_thread(far->ptr, s->host_shape, scope, stream));
    const bool started = flag_raised(raised);
    const unsigned long long cpu =
        started ? cpu_add_while(host, cpu_batch, stream_busy, &stream) : 0;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const unsigned long long gpu = per_writer(PER_THREAD, s->host_shape);
    t->gpu += gpu;
    t->cpu += cpu;
    t->expected += gpu + cpu;
    t->got += __atomic_load_n(host, __ATOMIC_SEQ_CST);
    t->overlapped += cpu > 0;
    return started;
}

static int emit_mixed(lab_ctx *ctx, int scope, int native, const mixed_totals *t, int runs)
{
    const int defined = scope && native;
    lab_row row = lab04_row("cpu-gpu", scope ? "system" : "device", LAB_ROUTE_HOST,
                            ((const lab04_state *)ctx->lab)->a, -1, NULL);
    lab_row_set(row.mode, sizeof row.mode, "gpu_and_cpu");
    row.count = (long)t->expected;
    row.verified = defined ? t->got == t->expected : -1;
    lab_row_set(row.value, sizeof row.value, "%llu", t->got);
    lab_row_set(row.detail, sizeof row.detail,
                "runs=%d gpu=%llu cpu=%llu lost=%lld overlapped_runs=%d host_native_atomics=%d %s",
                runs, t->gpu, t->cpu, (long long)(t->expected - t->got), t->overlapped, native,
                defined ? "promised exact"
                : scope ? "not promised: the link has no native host atomics"
                        : "a data race: device scope is atomic among the GPU's threads only");
    lab_emit(ctx, &row);
    return lab_check(ctx, row.verified != 0, "cpu-gpu %s: counted %llu, expected %llu although "
                     "the link has native host atomics (TODO 04.2 / 04.8)", row.variant, t->got,
                     t->expected);
}

int lab04_run_cpu_gpu(lab_ctx *ctx)
{
    const lab04_state *s = ctx->lab;
    lab_far far;
    cudaStream_t stream;
    int native = 0, status = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&native, cudaDevAttrHostNativeAtomicSupported, s->a));
    CUDA_CHECK(lab_far_alloc(&far, LAB_ROUTE_HOST, s->a, -1, 2 * word));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int scope = 1; scope >= 0; scope--) {
        mixed_totals t = {0};
        bool started = true;
        for (int run = 0; run < s->reps && started; run++)
            started = mixed_run(s, &far, scope, stream, &t);
        if (!started)
            status |= lab_check(ctx, 0, "cpu-gpu: the GPU did not start within 10 s");
        status |= emit_mixed(ctx, scope, native, &t, s->reps);
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    lab_far_free(&far);
    return status;
}
