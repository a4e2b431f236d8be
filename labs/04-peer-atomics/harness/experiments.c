/**
 * @file experiments.c
 * @brief Lab 04's registry: options, the choice of GPUs, the link's attributes, and the
 *        helpers every experiment shares.
 */
#include "lab04.h"

#include <stdlib.h>
#include <string.h>

extern const lab_host_part lab_host;

static lab04_state state;
static long opt_iters, opt_host_iters, opt_blocks, opt_threads, opt_steps;
static size_t opt_hist, opt_host_hist;
static bool opt_no_native, opt_no_host_atomics;

static const lab_option options[] = {
    {"iters", 0, LAB_OPT_INT, "N", "increments per thread, counter in GPU memory (default 32)",
     &opt_iters, 1, 65536},
    {"host-iters", 0, LAB_OPT_INT, "N",
     "increments per thread, counter in host memory (default 4)", &opt_host_iters, 1, 65536},
    {"blocks", 0, LAB_OPT_INT, "N", "blocks per GPU (default 4 per SM)", &opt_blocks, 1, 65536},
    {"threads", 0, LAB_OPT_INT, "N", "threads per block (default 244: a partial last warp)",
     &opt_threads, 1, 1024},
    {"hist-size", 0, LAB_OPT_SIZE, "SIZE", "histogram input, bins in GPU memory (default 64MiB)",
     &opt_hist, 64, 1L << 30},
    {"host-hist-size", 0, LAB_OPT_SIZE, "SIZE",
     "histogram input, bins in host memory (default 1MiB)", &opt_host_hist, 64, 1L << 30},
    {"chain-steps", 0, LAB_OPT_INT, "N", "dependent atomics per latency chain (default 4096)",
     &opt_steps, 1, 1L << 24},
    {"simulate-no-native-atomics", 0, LAB_OPT_FLAG, NULL,
     "act as if the peer link had no native atomics (its skip path)", &opt_no_native, 0, 0},
    {"no-host-atomics", 0, LAB_OPT_FLAG, NULL,
     "leave out every atomic on mapped host memory (see sanitize.conf)", &opt_no_host_atomics,
     0, 0},
};

static int p2p_native(int src, int dst)
{
    int value = 0;
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrNativeAtomicSupported, src, dst));
    return value;
}

/* Does the ordered pair suit at this level: 0 peer access both ways with
 * native atomics both ways, 1 peer access both ways, 2 any two GPUs? */
static bool suits(int i, int j, int level)
{
    return level == 2 || (lab_can_access_peer(i, j) && lab_can_access_peer(j, i) &&
                          (level == 1 || (p2p_native(i, j) && p2p_native(j, i))));
}

/* The first pair (a, b) the command line allows, the best level first. */
static void choose_gpus(const lab_ctx *ctx, lab04_state *s)
{
    const long want_a = ctx->args.gpu_a, want_b = ctx->args.gpu_b;
    s->a = want_a >= 0 ? (int)want_a : 0;
    for (int level = 0; level < 3 && ctx->gpus > 1; level++)
        for (int i = 0; i < ctx->gpus; i++)
            for (int j = 0; j < ctx->gpus; j++)
                if (i != j && (want_a < 0 || i == want_a) && (want_b < 0 || j == want_b) &&
                    suits(i, j, level)) {
                    s->a = i;
                    s->b = j;
                    return;
                }
}

/* b's atomics land in a's memory: the direction b -> a must carry them. */
static void judge_pair(lab04_state *s)
{
    const int a = s->a, b = s->b;
    if (!lab_can_access_peer(b, a) || !lab_can_access_peer(a, b)) {
        snprintf(s->peer_why, sizeof s->peer_why,
                 "GPUs %d and %d have no peer access both ways (cudaDeviceCanAccessPeer "
                 "%d->%d = %d, %d->%d = %d)", a, b, a, b, lab_can_access_peer(a, b), b, a,
                 lab_can_access_peer(b, a));
        return;
    }
    if (opt_no_native || !p2p_native(b, a))
        snprintf(s->peer_why, sizeof s->peer_why,
                 "no native atomics from GPU %d to GPU %d (cudaDevP2PAttrNativeAtomicSupported "
                 "%d->%d = 0%s): this link's hardware does not carry atomics, and the peer "
                 "experiments need them", b, a, b, a,
                 opt_no_native ? ", simulated by --simulate-no-native-atomics" : "");
}

static int setup(lab_ctx *ctx)
{
    const bool quick = ctx->args.quick;
    const int threads = opt_threads ? (int)opt_threads : 244;
    lab04_state *s = &state;
    *s = (lab04_state){
        .a = -1, .b = -1, .seed = (uint64_t)ctx->args.seed,
        .reps = ctx->args.reps ? (int)ctx->args.reps : quick ? 3 : 5,
        .gpu_shape = {0, threads, opt_iters ? (int)opt_iters : quick ? 4 : 32},
        .host_shape = {0, threads, opt_host_iters ? (int)opt_host_iters : quick ? 1 : 4},
        .chain_steps = opt_steps ? (int)opt_steps : quick ? 512 : 4096};
    s->hist_bytes = opt_hist ? opt_hist : (size_t)(quick ? 4u : 64u) << 20;
    s->host_hist_bytes = opt_host_hist ? opt_host_hist : (size_t)(quick ? 256u : 1024u) << 10;
    ctx->lab = s;
    if (ctx->gpus == 0)
        return 0;
    choose_gpus(ctx, s);
    if (s->b >= 0)
        judge_pair(s);
    int sms = 0, sms_b = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s->a));
    if (s->b >= 0)
        CUDA_CHECK(cudaDeviceGetAttribute(&sms_b, cudaDevAttrMultiProcessorCount, s->b));
    if (s->b >= 0 && sms_b < sms)
        sms = sms_b;
    s->gpu_shape.blocks = s->host_shape.blocks = opt_blocks ? (int)opt_blocks : 4 * sms;
    return 0;
}

static void teardown(lab_ctx *ctx)
{
    (void)ctx;
    lab_peer_access_reset();
}

/* ------------------------------------------------------------ helpers -- */

static void pair_setup(lab04_pair *pair, int a, int b)
{
    *pair = (lab04_pair){.a = a, .b = b};
    if (b >= 0) {
        CUDA_CHECK(lab_peer_access(a, b, true)); /* a's copies reach b directly */
        CUDA_CHECK(lab_peer_access(b, a, true)); /* b's kernels reach a's memory */
        CUDA_CHECK(cudaSetDevice(b));
        CUDA_CHECK(cudaStreamCreateWithFlags(&pair->stream_b, cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&pair->done_b, cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaStreamCreateWithFlags(&pair->stream_a, cudaStreamNonBlocking));
    CUDA_CHECK(lab_timer_create(&pair->timer_a));
}

static void pair_teardown(lab04_pair *pair)
{
    if (pair->b >= 0) {
        CUDA_CHECK(cudaSetDevice(pair->b));
        CUDA_CHECK(cudaEventDestroy(pair->done_b));
        CUDA_CHECK(cudaStreamDestroy(pair->stream_b));
    }
    CUDA_CHECK(cudaSetDevice(pair->a));
    lab_timer_destroy(&pair->timer_a);
    CUDA_CHECK(cudaStreamDestroy(pair->stream_a));
}

/* One GPU: the plan's a-steps between the timer's two events. */
static float run_on_a(lab04_pair *pair, const span_plan *plan)
{
    float ms = 0.0f;
    lab04_step(plan->prepare_a, plan->arg, pair->a, pair->stream_a);
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(lab_timer_start(&pair->timer_a, pair->stream_a));
    lab04_step(plan->work_a, plan->arg, pair->a, pair->stream_a);
    lab04_step(plan->finish_a, plan->arg, pair->a, pair->stream_a);
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(lab_timer_stop(&pair->timer_a, pair->stream_a));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
    CUDA_CHECK(lab_timer_elapsed_ms(&pair->timer_a, &ms));
    return ms;
}

/* TODO 04.1 on two GPUs: span_run, which leaves GPU a current (checked: a run that goes on
 * with another GPU current is no longer the run the harness set up). */
static float span_run_checked(lab04_pair *pair, const span_plan *plan)
{
    int current = -1;
    const float ms = span_run(pair, plan);
    CUDA_CHECK(cudaGetDevice(&current));
    if (current != pair->a) {
        fprintf(stderr, "04-peer-atomics: error: TODO 04.1: span_run returned with GPU %d "
                "current; its contract leaves GPU a (%d) current\n", current, pair->a);
        exit(LAB_EXIT_FAIL);
    }
    return ms;
}

void lab04_repeat(lab04_pair *pair, const span_plan *plan, int (*check)(void *arg),
                  lab04_runs *out)
{
    double *us = lab_host_alloc((size_t)out->reps, sizeof *us, "the run times");
    out->wrong = 0;
    out->first_wrong = -1;
    for (int run = 0; run <= out->reps; run++) { /* run 0 is the warm-up */
        float ms = pair->b >= 0 ? span_run_checked(pair, plan) : run_on_a(pair, plan);
        if (!check(plan->arg) && out->wrong++ == 0)
            out->first_wrong = run;
        if (run > 0)
            us[run - 1] = 1000.0 * (double)ms;
    }
    if (lab_stats_compute(us, (size_t)out->reps, &out->us) != 0)
        memset(&out->us, 0, sizeof out->us); /* a time that is not finite: no times */
    free(us);
}

void lab04_zero(const lab_far *far, size_t bytes, cudaStream_t stream)
{
    if (far->host != NULL)
        memset(far->host, 0, bytes);
    else
        CUDA_CHECK(cudaMemsetAsync(far->ptr, 0, bytes, stream));
}

void lab04_read(const lab_far *far, void *out, size_t bytes, cudaStream_t stream)
{
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (far->host != NULL)
        memcpy(out, far->host, bytes);
    else
        CUDA_CHECK(cudaMemcpy(out, far->ptr, bytes, cudaMemcpyDeviceToHost));
}

lab_row lab04_row(const char *experiment, const char *variant, lab_route route, int src,
                  int dst, const lab04_runs *runs)
{
    lab_row row = lab_row_empty(experiment, variant);
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(route));
    row.src = src;
    row.dst = route == LAB_ROUTE_HOST ? -1 : dst;
    if (runs != NULL) {
        row.us = runs->us;
        row.verified = runs->wrong == 0;
    }
    return row;
}

/* ------------------------------------------------------------ the link -- */

static void attr_row(lab_ctx *ctx, const char *variant, lab_route route, int src, int dst,
                     int value, const char *detail)
{
    lab_row row = lab04_row("link", variant, route, src, dst, NULL);
    lab_row_set(row.value, sizeof row.value, "%d", value);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail);
    lab_emit(ctx, &row);
}

/* A P2P attribute, -1 when the driver does not answer (a newer query). */
static int p2p_value(enum cudaDeviceP2PAttr attr, int src, int dst)
{
    int value = 0;
    if (cudaDeviceGetP2PAttribute(&value, attr, src, dst) == cudaSuccess)
        return value;
    (void)cudaGetLastError();
    return -1;
}

static void peer_link(lab_ctx *ctx, int src, int dst)
{
    const enum cudaAtomicOperation add = cudaAtomicOperationIntegerAdd;
    unsigned int caps = 0;
    const int sim = opt_no_native; /* hide the link's atomics: the skip path */
    const char *why = sim ? "simulated by --simulate-no-native-atomics" : "";
    int caps_known = cudaDeviceGetP2PAtomicCapabilities(&caps, &add, 1, src, dst) == cudaSuccess;
    (void)cudaGetLastError();
    attr_row(ctx, "can_access_peer", LAB_ROUTE_PEER, src, dst, lab_can_access_peer(src, dst), "");
    attr_row(ctx, "native_atomics", LAB_ROUTE_PEER, src, dst, sim ? 0 : p2p_native(src, dst), why);
    attr_row(ctx, "partial_native_atomics", LAB_ROUTE_PEER, src, dst,
             sim ? 0 : p2p_value(cudaDevP2PAttrOnlyPartialNativeAtomicSupported, src, dst), why);
    attr_row(ctx, "int_add_capabilities", LAB_ROUTE_PEER, src, dst,
             sim ? 0 : caps_known ? (int)caps : -1, why);
}

/* The host link, both directions of the pair, and the machine as a whole: a direction with
 * peer access but no native atomics shows that access alone does not make atomics work. */
static int run_link(lab_ctx *ctx)
{
    int native = 0, with = 0, without = 0;
    char example[64] = "";
    CUDA_CHECK(cudaDeviceGetAttribute(&native, cudaDevAttrHostNativeAtomicSupported, state.a));
    attr_row(ctx, "host_native_atomics", LAB_ROUTE_HOST, state.a, -1, native,
             native ? "1: the GPU and the CPU may update one host object at once with "
                      "system-scope atomics"
                    : "0: the GPU and the CPU must not update one host object at once "
                      "(libcu++ cuda::atomic: a data race without this attribute)");
    if (state.b >= 0) {
        peer_link(ctx, state.a, state.b);
        peer_link(ctx, state.b, state.a);
    }
    for (int i = 0; i < ctx->gpus; i++)
        for (int j = 0; j < ctx->gpus; j++) {
            if (i == j || !lab_can_access_peer(i, j))
                continue;
            with++;
            if (!p2p_native(i, j) && without++ == 0)
                snprintf(example, sizeof example, "for example GPU %d -> GPU %d", i, j);
        }
    attr_row(ctx, "directions_with_access", LAB_ROUTE_PEER, -1, -1, with, "");
    attr_row(ctx, "directions_without_native_atomics", LAB_ROUTE_PEER, -1, -1, without, example);
    return 0;
}

/* ---------------------------------------------------------- registry -- */

/* can_run: one GPU that maps host memory; and atomics on it, unless --no-host-atomics. */
static bool can_run_one(const lab_ctx *ctx, char *why, size_t why_len)
{
    return lab_need_one_gpu(ctx, why, why_len) &&
           lab_route_possible(LAB_ROUTE_HOST, state.a, -1, why, why_len);
}

static bool can_run_host_atomics(const lab_ctx *ctx, char *why, size_t why_len)
{
    if (!can_run_one(ctx, why, why_len))
        return false;
    snprintf(why, why_len, "--no-host-atomics: no atomics on mapped host memory");
    return !opt_no_host_atomics;
}

static bool can_run_peer(const lab_ctx *ctx, char *why, size_t why_len)
{
    if (!lab_need_two_gpus(ctx, why, why_len))
        return false;
    snprintf(why, why_len, "%s", state.peer_why);
    return state.peer_why[0] == '\0';
}

/** Who reaches a's shared data. */
typedef enum who {
    A_ALONE, /**< a alone: the data in a's memory and in host memory */
    B_ALONE, /**< b alone, across the peer link */
    BOTH     /**< a and b, b across the peer link */
} who;

/* Set up the pair (b alone: b, none; else a, and b for both) and run @p at once per place:
 * for a alone loopback, then the host link unless --no-host-atomics; else the peer route. */
static int each_place(lab_ctx *ctx, who w, int (*at)(lab_ctx *, lab04_pair *, lab_route))
{
    lab_route routes[2] = {LAB_ROUTE_LOOPBACK, LAB_ROUTE_HOST};
    size_t count = opt_no_host_atomics ? 1 : 2;
    lab04_pair pair;
    int status = 0;
    if (w != A_ALONE) {
        routes[0] = LAB_ROUTE_PEER;
        count = 1;
    }
    pair_setup(&pair, w == B_ALONE ? state.b : state.a, w == BOTH ? state.b : -1);
    for (size_t r = 0; r < count; r++)
        status |= at(ctx, &pair, routes[r]);
    pair_teardown(&pair);
    return status;
}

static int run_counter(lab_ctx *ctx)
{
    return each_place(ctx, A_ALONE, lab04_counters_at);
}

static int run_counter_peer(lab_ctx *ctx)
{
    return each_place(ctx, BOTH, lab04_counters_at);
}

static int run_histogram(lab_ctx *ctx)
{
    return each_place(ctx, A_ALONE, lab04_histograms_at);
}

static int run_histogram_peer(lab_ctx *ctx)
{
    return each_place(ctx, BOTH, lab04_histograms_at);
}

static int run_latency(lab_ctx *ctx)
{
    return each_place(ctx, A_ALONE, lab04_latency_at);
}

static int run_latency_peer(lab_ctx *ctx)
{
    return each_place(ctx, B_ALONE, lab04_latency_at);
}

/* Peer experiments sit beside their one-GPU twins; the last entry needs one
 * GPU, so a run on a machine without any says so in its closing line. */
static const lab_experiment experiments[] = {
    {"link", "what the host link and the peer link carry natively (attributes)",
     lab_need_one_gpu, run_link},
    {"counter", "one counter in GPU a's memory and in host memory, four ways to add",
     can_run_one, run_counter},
    {"counter-peer", "one counter in GPU a's memory, incremented by GPU b and by both",
     can_run_peer, run_counter_peer},
    {"histogram", "256-bin histogram, naive vs privatized, bins local and in host memory",
     can_run_one, run_histogram},
    {"histogram-peer", "256-bin histogram of data on two GPUs, naive vs privatized",
     can_run_peer, run_histogram_peer},
    {"latency", "one atomic's latency (dependent chain), local and over the host link",
     can_run_one, run_latency},
    {"latency-peer", "one atomic's latency from GPU b on GPU a's memory",
     can_run_peer, run_latency_peer},
    {"cpu-gpu", "the GPU and the CPU increment one host counter at once",
     can_run_host_atomics, lab04_run_cpu_gpu},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary =
        "Lab 04 (chapter 4.3): atomics on far memory, their scopes, correctness and cost.\n"
        "GPU a owns the shared counter, histogram and latency chain; they are placed in\n"
        "a's memory (loopback), in pinned host memory mapped into a (the host link), or\n"
        "reached by GPU b across the peer link. One GPU runs everything but the -peer\n"
        "experiments, which need two GPUs with peer access and native atomics.",
    .epilogue = "--quick: 3 runs, --iters 4, --host-iters 1, --hist-size 4MiB,\n"
                "--host-hist-size 256KiB, --chain-steps 512 (options given win).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
    .setup = setup,
    .teardown = teardown,
};
