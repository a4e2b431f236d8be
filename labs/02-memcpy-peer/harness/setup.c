/**
 * @file setup.c
 * @brief Lab 02's program: its registry and options, the GPUs and buffers of a run, the routes
 *        its experiments run over, and the window checks.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab02.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const lab_host_part lab_host;

/** Default --max-size. */
#define DEFAULT_CAP ((size_t)256 << 20)
/** The largest --max-size. */
#define LARGEST_CAP ((size_t)1 << 30)

static size_t opt_max_size;
static lab02 state;

static const lab_option options[] = {
    {"max-size", 0, LAB_OPT_SIZE, "SIZE", "largest copy, 1 B .. 1 GiB (default 256MiB)",
     &opt_max_size, 1, LARGEST_CAP},
};

/* From latency-bound to bandwidth-bound; a --max-size below the top is timed too. */
static void choose_sizes(lab02 *st, bool quick)
{
    static const size_t full[] = {4u << 10, 64u << 10, 1u << 20, 16u << 20, 64u << 20,
                                  256u << 20};
    static const size_t brief[] = {4u << 10, 1u << 20, 16u << 20, 64u << 20};
    const size_t *list = quick ? brief : full;
    int n = quick ? 4 : 6;
    for (int i = 0; i < n && list[i] <= st->cap; i++)
        st->sizes[st->n_sizes++] = list[i];
    if (st->cap < list[n - 1] && (st->n_sizes == 0 || st->sizes[st->n_sizes - 1] != st->cap))
        st->sizes[st->n_sizes++] = st->cap;
}

static int setup(lab_ctx *ctx)
{
    lab02 *st = &state;
    memset(st, 0, sizeof *st);
    st->cap = opt_max_size ? opt_max_size : DEFAULT_CAP;
    st->span = (st->cap > MIN_BUFFER ? st->cap : MIN_BUFFER) + MAX_OFFSET;
    st->reps = ctx->args.reps ? (int)ctx->args.reps : ctx->args.quick ? 5 : 20;
    st->delay_ms = ctx->args.quick ? 20 : 50;
    st->seed = (uint64_t)ctx->args.seed;
    choose_sizes(st, ctx->args.quick);
    st->b = st->third = -1;
    if (ctx->gpus >= 2) {
        lab_select_pair(ctx->prog, (int)ctx->args.gpu_a, (int)ctx->args.gpu_b, false, &st->a,
                        &st->b);
        st->p2p = lab_can_access_peer(st->a, st->b) && lab_can_access_peer(st->b, st->a);
    } else {
        st->a = ctx->args.gpu_a >= 0 ? (int)ctx->args.gpu_a : 0;
    }
    for (int d = 0; d < ctx->gpus && st->third < 0; d++)
        if (d != st->a && d != st->b)
            st->third = d;
    ctx->lab = st;
    return 0;
}

static void side_setup(lab02 *st, int index, int dev)
{
    lab02_side *s = &st->side[index];
    s->dev = dev;
    s->index = index;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaMalloc((void **)&s->src, st->span));
    CUDA_CHECK(cudaMalloc((void **)&s->dst, st->span + 2 * GUARD_BYTES));
    s->window = s->dst + GUARD_BYTES;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&s->aux, cudaStreamNonBlocking));
    cudaEvent_t *events[3] = {&s->fork, &s->staged, &s->mark};
    for (int i = 0; i < 3; i++)
        CUDA_CHECK(cudaEventCreateWithFlags(events[i], cudaEventDisableTiming));
    CUDA_CHECK(cudaMemcpy(s->src, st->ref[index], st->span, cudaMemcpyHostToDevice));
}

lab02 *lab02_state(lab_ctx *ctx)
{
    lab02 *st = ctx->lab;
    if (st->readback != NULL) /* allocated already */
        return st;
    for (int i = 0; i < 2; i++) {
        st->ref[i] = lab_host_alloc(st->span, 1, "the source data");
        lab02_fill(st->ref[i], st->span, st->seed + (uint64_t)i);
    }
    st->readback = lab_host_alloc(st->span + 2 * GUARD_BYTES, 1, "the read-back window");
    st->pageable = lab_host_alloc(st->span, 1, "the pageable host buffer");
    side_setup(st, 0, st->a);
    if (st->b >= 0)
        side_setup(st, 1, st->b);
    CUDA_CHECK(cudaSetDevice(st->a));
    CUDA_CHECK(cudaMallocHost((void **)&st->pinned, st->span));
    CUDA_CHECK(cudaMallocHost((void **)&st->upload, st->span));
    CUDA_CHECK(cudaMallocHost((void **)&st->probe, 8));
    return st;
}

static void teardown(lab_ctx *ctx)
{
    lab02 *st = ctx->lab;
    if (st == NULL || st->readback == NULL)
        return;
    lab_peer_access_reset();
    for (int i = 0; i < 2 && st->side[i].src != NULL; i++) {
        lab02_side *s = &st->side[i];
        lab02_sync(s->dev);
        cudaEvent_t events[3] = {s->fork, s->staged, s->mark};
        for (int e = 0; e < 3; e++)
            CUDA_CHECK(cudaEventDestroy(events[e]));
        CUDA_CHECK(cudaStreamDestroy(s->aux));
        CUDA_CHECK(cudaStreamDestroy(s->stream));
        CUDA_CHECK(cudaFree(s->dst));
        CUDA_CHECK(cudaFree(s->src));
    }
    CUDA_CHECK(cudaFreeHost(st->probe));
    CUDA_CHECK(cudaFreeHost(st->upload));
    CUDA_CHECK(cudaFreeHost(st->pinned));
    free(st->pageable);
    free(st->readback);
    free(st->ref[0]);
    free(st->ref[1]);
    st->readback = NULL;
}

/* --- routes ------------------------------------------------------------------ */

int lab02_each_route(lab_ctx *ctx, const char *experiment, bool loopback, lab02_route_fn fn)
{
    lab02 *st = lab02_state(ctx);
    lab02_side *a = &st->side[0], *b = &st->side[1];
    int status = 0;
    if (loopback) {
        const lab02_leg leg = {LAB_ROUTE_LOOPBACK, a, a};
        status |= fn(ctx, st, &leg, 1);
    }
    if (st->b < 0) { /* one line for both peer routes */
        lab_emit_skipped(ctx, experiment, "peer", "the peer routes need 2 GPUs; this machine has "
                         "%d", ctx->gpus);
        return status;
    }
    for (int on = 0; on < 2; on++) {
        const lab_route route = on ? LAB_ROUTE_PEER : LAB_ROUTE_PEER_OFF;
        if (on && !st->p2p) {
            lab_emit_skipped(ctx, experiment, lab_route_name(route), "GPU %d and GPU %d have no "
                             "peer access both ways", st->a, st->b);
            break;
        }
        CUDA_CHECK(lab_peer_access(st->a, st->b, on));
        CUDA_CHECK(lab_peer_access(st->b, st->a, on));
        const lab02_leg legs[2] = {{route, a, b}, {route, b, a}};
        status |= fn(ctx, st, legs, 2);
    }
    return status;
}

lab_row lab02_row(const char *experiment, const char *variant, const char *mode,
                  const lab02_leg *leg, size_t bytes)
{
    lab_row row = lab_row_empty(experiment, variant);
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(leg->route));
    lab_row_set(row.mode, sizeof row.mode, "%s", mode);
    row.src = leg->src->dev;
    row.dst = leg->dst->dev;
    row.bytes = bytes;
    return row;
}

const char *lab02_what(const lab02_leg *leg, size_t bytes, const char *call, char *out,
                       size_t len)
{
    char size[32];
    snprintf(out, len, "%s GPU%d -> GPU%d, %s (%s)", call, leg->src->dev, leg->dst->dev,
             lab_format_size(bytes, size, sizeof size), lab_route_name(leg->route));
    return out;
}

/* --- windows ----------------------------------------------------------------- */

void lab02_fill(unsigned char *buf, size_t bytes, uint64_t seed)
{
    lab_fill_bytes(buf, bytes, seed);
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] == POISON_BYTE)
            buf[i] = (unsigned char)~POISON_BYTE;
}

void lab02_poison(const lab02_side *side, size_t bytes, size_t offset)
{
    CUDA_CHECK(cudaSetDevice(side->dev));
    CUDA_CHECK(cudaMemset(side->dst, POISON_BYTE, 2 * GUARD_BYTES + offset + bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

bool lab02_all_poison(const unsigned char *buf, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != POISON_BYTE)
            return false;
    return true;
}

int lab02_verify(lab02 *st, const lab02_side *side, size_t offset, const unsigned char *want,
                 size_t bytes, const char *what)
{
    const size_t before = GUARD_BYTES + offset;
    CUDA_CHECK(cudaSetDevice(side->dev));
    CUDA_CHECK(cudaMemcpy(st->readback, side->dst, before + bytes + GUARD_BYTES,
                          cudaMemcpyDeviceToHost));
    if (!lab02_all_poison(st->readback, before) ||
        !lab02_all_poison(st->readback + before + bytes, GUARD_BYTES)) {
        fprintf(stderr, "verification failed: %s: a guard byte around the copy was written\n",
                what);
        return 0;
    }
    return lab_verify_bytes(what, st->readback + before, want, bytes) == 0;
}

void lab02_sync(int dev)
{
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* Runs on a runtime thread when the stream reaches it (no CUDA calls there). */
static void CUDART_CB sleep_host_fn(void *arg)
{
    const int ms = *(const int *)arg;
    struct timespec pause = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
}

void lab02_delay(cudaStream_t stream, const int *ms)
{
    CUDA_CHECK(cudaLaunchHostFunc(stream, sleep_host_fn, (void *)ms));
}

/* --- the program ------------------------------------------------------------ */

static const lab_experiment experiments[] = {
    {"args", "the wrapper's every check through the real calls; refused calls write nothing",
     lab_need_one_gpu, lab02_run_args},
    {"sweep", "both wrappers at every size 1 B .. max, aligned and not, every byte checked",
     lab_need_one_gpu, lab02_run_sweep},
    {"stream_order", "p2p_copy_async and p2p_copy_staged run in their stream's order",
     lab_need_one_gpu, lab02_run_stream_order},
    {"timing", "four ways to copy, and pinned and pageable host copies, timed and verified",
     lab_need_one_gpu, lab02_run_timing},
    {"switch", "cudaMemcpyPeer against cudaSetDevice + cudaMemcpy, per call on the host clock",
     lab_need_one_gpu, lab02_run_switch},
    {"current_device", "cudaMemcpyPeer with the source, the destination, a third GPU current",
     lab_need_two_gpus, lab02_run_current_device},
    {"ordering", "which pending legacy-stream work each copy waits for",
     lab_need_two_gpus, lab02_run_ordering},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary = "Lab 02 (chapter 4.2): a checked cudaMemcpyPeer wrapper. Refuses every bad\n"
               "argument, copies every size 1 B .. --max-size with every byte verified, times\n"
               "four ways to copy (cudaMemcpyPeer, cudaMemcpyPeerAsync, cudaMemcpy with\n"
               "cudaMemcpyDefault, staging through pinned host memory) beside pinned and\n"
               "pageable host copies, and tests what the chapter says about the current device.",
    .epilogue = "Routes: loopback (GPU a to itself: local memory, never a link) runs on one GPU;\n"
                "peer_off and peer (GPU a <-> GPU b, peer access off and on) need two; host\n"
                "(pinned and pageable host memory) is the host link. Defaults: --reps 20\n"
                "(--quick 5), --max-size 256MiB.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
    .setup = setup,
    .teardown = teardown,
};
