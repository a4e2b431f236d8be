/**
 * @file experiments.c
 * @brief Lab 03's registry: its options, the choice of GPUs, setup and
 *        teardown.
 */
#include "lab03.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const lab_host_part lab_host;

static size_t opt_min, opt_max, opt_stride; /* 0: not given */
static long opt_timeout = 20;
static bool opt_hang;
static const char *opt_child;

static const lab_option options[] = {
    {"min-size", 0, LAB_OPT_SIZE, "SIZE", "smallest array of the sweep (default 4K)", &opt_min,
     0, 0},
    {"max-size", 0, LAB_OPT_SIZE, "SIZE", "largest (default 1G, --quick 64M; x4 steps)", &opt_max,
     0, 0},
    {"stride-size", 0, LAB_OPT_SIZE, "SIZE", "read-pattern array (default 256M, --quick 16M)",
     &opt_stride, 0, 0},
    {"fault-timeout", 0, LAB_OPT_INT, "S", "seconds before the fault child is killed (20)",
     &opt_timeout, 1, 600},
    {"simulate-child-hang", 0, LAB_OPT_FLAG, NULL, "the fault child hangs (tests the timeout)",
     &opt_hang, 0, 0},
    {"fault-child", 0, LAB_OPT_TEXT, "MODE", "internal: be the fault child (peer, one_way, pageable, "
     "unmapped)", &opt_child, 0, 0},
};

/* A size option: whole multiples of @p unit, at most @p limit. */
static size_t size_option(const char *prog, const char *name, size_t given, size_t fallback,
                          size_t unit, size_t limit)
{
    char text[32], max[32];
    const size_t bytes = given ? given : fallback;
    lab_format_size(bytes, text, sizeof text);
    if (bytes % unit != 0)
        lab_usage_error(prog, "--%s: %s is not a multiple of %zu bytes", name, text, unit);
    if (bytes > limit)
        lab_usage_error(prog, "--%s: %s is out of range (at most %s)", name, text,
                        lab_format_size(limit, max, sizeof max));
    return bytes;
}

static void read_options(const lab_ctx *ctx, lab03_state *st)
{
    const bool q = ctx->args.quick;
    const char *prog = ctx->prog;
    char lo[32], hi[32];
    st->min_bytes = size_option(prog, "min-size", opt_min, 4 << 10, 4, (size_t)4 << 30);
    st->max_bytes = size_option(prog, "max-size", opt_max, (size_t)(q ? 64 : 1024) << 20, 4,
                                (size_t)4 << 30);
    /* 32-bit indices in the strided kernel; whole rows of the widest stride */
    st->stride_bytes = size_option(prog, "stride-size", opt_stride, (size_t)(q ? 16 : 256) << 20,
                                   64 * 4, (size_t)1 << 30);
    if (st->min_bytes > st->max_bytes)
        lab_usage_error(prog, "--min-size (%s) is larger than --max-size (%s)",
                        lab_format_size(st->min_bytes, lo, sizeof lo),
                        lab_format_size(st->max_bytes, hi, sizeof hi));
    if (opt_child && strcmp(opt_child, "peer") && strcmp(opt_child, "one_way") &&
        strcmp(opt_child, "pageable") && strcmp(opt_child, "unmapped"))
        lab_usage_error(prog, "--fault-child: '%s' is not peer, one_way, pageable or unmapped",
                        opt_child);
    if (opt_child && (ctx->args.gpu_a < 0 || (lab03_fault_needs_b(opt_child) && ctx->args.gpu_b < 0)))
        lab_usage_error(prog, "--fault-child needs -a (and -b for peer and one_way)");
    st->reps = ctx->args.reps ? (int)ctx->args.reps : q ? 3 : 10;
    st->seed = (uint64_t)ctx->args.seed;
    st->timeout_s = opt_timeout;
    st->hang = opt_hang;
}

/* The lowest other GPU, one with peer access both ways if there is one. */
static int partner(int gpus, int given)
{
    for (int j = 0; j < gpus; j++)
        if (j != given && lab_can_access_peer(given, j) && lab_can_access_peer(j, given))
            return j;
    for (int j = 0; j < gpus; j++)
        if (j != given)
            return j;
    return -1;
}

static void choose_gpus(const lab_ctx *ctx, lab03_state *st)
{
    int a = (int)ctx->args.gpu_a, b = (int)ctx->args.gpu_b;
    if (a < 0 && b < 0 && !lab_find_p2p_pair(ctx->gpus, &a, &b))
        a = 0;
    if (a < 0)
        a = partner(ctx->gpus, b);
    else if (b < 0)
        b = partner(ctx->gpus, a);
    if (a < 0) { /* -b named the only GPU: it is the near one */
        a = b;
        b = -1;
    }
    st->a = a;
    st->b = b;
    if (b < 0)
        snprintf(st->peer_why, sizeof st->peer_why,
                 "the peer route needs two GPUs, this machine has %d", ctx->gpus);
    else if (!lab_can_access_peer(a, b) || !lab_can_access_peer(b, a))
        snprintf(st->peer_why, sizeof st->peer_why,
                 "the peer route needs peer access both ways between GPU %d and GPU %d", a, b);
}

/* A stream of @p dev, and the blocks that fill it (its SMs' resident threads). */
static int full_grid(int dev, cudaStream_t *stream)
{
    int sms = 0, threads = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking));
    const int per_sm = threads / LAB03_THREADS;
    return (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
}

static int setup(lab_ctx *ctx)
{
    static lab03_state st;
    memset(&st, 0, sizeof st);
    read_options(ctx, &st);
    if (opt_child)
        exit(lab03_fault_child(ctx, &st, opt_child));
    ctx->lab = &st;
    if (ctx->gpus == 0)
        return 0;
    choose_gpus(ctx, &st);
    st.blocks[0] = full_grid(st.a, &st.stream[0]);
    if (st.b >= 0)
        st.blocks[1] = full_grid(st.b, &st.stream[1]);
    return 0;
}

static void teardown(lab_ctx *ctx)
{
    lab03_state *st = ctx->lab;
    if (st == NULL || ctx->gpus == 0)
        return;
    lab03_free_buffers(st);
    for (int i = 0; i < 2; i++)
        if (st->stream[i] != NULL) {
            CUDA_CHECK(cudaSetDevice(i == 0 ? st->a : st->b));
            CUDA_CHECK(cudaStreamDestroy(st->stream[i]));
        }
    lab_peer_access_reset();
}

static const lab_experiment experiments[] = {
    {"transfer", "local = 2 x far by pull, push, copy_only, copy_then_compute: every size "
     "and route", lab_need_one_gpu, lab03_run_transfer},
    {"bounds", "the same kernels at odd sizes and small grids (partial warps and blocks)",
     lab_need_one_gpu, lab03_run_bounds},
    {"stride", "coalesced against strided reads, stride 1 ... 64, every route", lab_need_one_gpu,
     lab03_run_stride},
    {"fault", "a child touches memory its GPU was never given; the parent names the error",
     lab_need_one_gpu, lab03_run_fault},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary = "Lab 03 (chapter 4.3): GPU a computes local = 2 x far by pulling, pushing or\n"
               "copying first, far being another GPU's memory (peer), mapped host memory (host)\n"
               "or its own (loopback); then coalesced against strided reads, and a child that\n"
               "touches memory its GPU was never given. Every result is checked bit for bit.",
    .epilogue = "--min-size and --max-size are whole floats (4-byte multiples), at most 4G;\n"
                "--stride-size is a multiple of 256 bytes, at most 1G.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
    .setup = setup,
    .teardown = teardown,
};
