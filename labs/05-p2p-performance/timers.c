/**
 * @file timers.c
 * @brief Pitfalls of timing: no warm-up, CPU timers around an asynchronous
 *        copy, and a host synchronize after every copy.
 *
 * All three time the same copy (GPU a -> GPU b, the copy engine) in a
 * right and a wrong way, so that the numbers can be set side by side.
 */
#include "kernels.h"
#include "p2p_perf.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/** Bytes the warm-up experiment copies. */
#define WARMUP_BYTES ((size_t)4 << 20)

/* A row for one variant of a one-pair pitfall. */
static lab05_row *pitfall_row(lab05_ctx *ctx, const char *experiment, const char *variant,
                              const char *mode, const lab05_transfer *t, int peer, int ops,
                              const double *ms, int samples)
{
    lab05_row *row = lab05_add_row(ctx, experiment, variant);
    row->src = t->src;
    row->dst = t->dst;
    snprintf(row->mode, sizeof row->mode, "%s", mode);
    row->peer = peer;
    row->bytes = t->bytes;
    row->ops = ops;
    lab05_stats_us(ms, samples, ops, &row->us);
    row->counted = (double)t->bytes;
    const lab05_link *l = &ctx->link[t->src * ctx->n + t->dst];
    row->peak_gbps = peer ? l->peak_gbps : l->pcie_peak_gbps;
    row->verified = 1;
    return row;
}

/* Peer access on where the pair has it; returns whether it is on. */
static int pair_peer_on(lab05_ctx *ctx, int a, int b)
{
    const int on = ctx->link[a * ctx->n + b].p2p;
    lab05_set_peer(a, b, on != 0);
    return on;
}

/* --------------------------------------------------------------- warm-up -- */

/* One call timed twice: by events (GPU time) and by the host clock around
 * the launch and the synchronize (everything the program waits for). */
static void timed_call(const lab05_transfer *t, cudaStream_t stream, lab_timer *timer,
                       double *event_ms, double *host_ms)
{
    float elapsed = 0.0f;
    const double t0 = lab_host_seconds();
    CUDA_CHECK(lab_timer_start(timer, stream));
    lab05_transfer_enqueue(t, stream);
    CUDA_CHECK(lab_timer_stop(timer, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const double t1 = lab_host_seconds();
    CUDA_CHECK(lab_timer_elapsed_ms(timer, &elapsed));
    *event_ms = elapsed;
    *host_ms = (t1 - t0) * 1e3;
}

static void warmup_method(lab05_ctx *ctx, lab05_method method, int a, int b, int peer)
{
    lab05_transfer t = lab05_make_transfer(ctx, method, a, b, WARMUP_BYTES);
    const int dev = lab05_transfer_device(&t);
    CUDA_CHECK(cudaSetDevice(t.dst));
    CUDA_CHECK(cudaMemset(t.to, 0, t.bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(dev));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    lab_timer timer;
    CUDA_CHECK(lab_timer_create(&timer));

    double first_event = 0.0, first_host = 0.0;
    timed_call(&t, stream, &timer, &first_event, &first_host); /* the very first call */
    double event_ms[1024], host_ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = 0; r < reps; r++)
        timed_call(&t, stream, &timer, &event_ms[r], &host_ms[r]);
    lab05_verify_transfers(ctx, &t, 1);
    lab_timer_destroy(&timer);
    CUDA_CHECK(cudaStreamDestroy(stream));

    const char *name = lab05_method_name(method);
    char variant[32];
    snprintf(variant, sizeof variant, "%s_event", name);
    pitfall_row(ctx, "warmup", variant, "first", &t, peer, 1, &first_event, 1);
    pitfall_row(ctx, "warmup", variant, "steady", &t, peer, 1, event_ms, reps);
    snprintf(variant, sizeof variant, "%s_host", name);
    pitfall_row(ctx, "warmup", variant, "first", &t, peer, 1, &first_host, 1);
    pitfall_row(ctx, "warmup", variant, "steady", &t, peer, 1, host_ms, reps);
}

void lab05_run_warmup(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = pair_peer_on(ctx, a, b);
    warmup_method(ctx, LAB05_CE, a, b, peer);
    if (peer)
        warmup_method(ctx, LAB05_SM_PUSH, a, b, peer); /* the kernel's first launch */
}

/* ------------------------------------------------------------ CPU timers -- */

void lab05_run_cpu_timer(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = pair_peer_on(ctx, a, b);
    lab05_transfer t = lab05_make_transfer(ctx, LAB05_CE, a, b, LAB05_PITFALL_BYTES);
    CUDA_CHECK(cudaSetDevice(a));
    cudaStream_t stream = ctx->gpu[a].stream[0];
    lab_timer timer;
    CUDA_CHECK(lab_timer_create(&timer));
    lab05_transfer_enqueue(&t, stream); /* warm-up */
    CUDA_CHECK(cudaStreamSynchronize(stream));

    double event_ms[1024], nosync_ms[1024], sync_ms[1024], clock_ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = 0; r < reps; r++) {
        /* Right: events on the stream, read after the stop event completed. */
        float elapsed = 0.0f;
        CUDA_CHECK(lab_timer_start(&timer, stream));
        lab05_transfer_enqueue(&t, stream);
        CUDA_CHECK(lab_timer_stop(&timer, stream));
        CUDA_CHECK(lab_timer_elapsed_ms(&timer, &elapsed));
        event_ms[r] = elapsed;

        LAB_TODO("05.6");

        /* clock() counts the CPU time of this process, not wall time. */
        const clock_t c0 = clock();
        lab05_transfer_enqueue(&t, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        const clock_t c1 = clock();
        clock_ms[r] = (double)(c1 - c0) * 1e3 / (double)CLOCKS_PER_SEC;
        if (clock_ms[r] <= 0.0)
            clock_ms[r] = 1e-6; /* below clock()'s resolution; keep it positive */
    }
    lab05_verify_transfers(ctx, &t, 1);
    lab_timer_destroy(&timer);

    lab05_row *row = pitfall_row(ctx, "cpu_timer", "event", "one_way", &t, peer, 1, event_ms, reps);
    snprintf(row->detail, sizeof row->detail, "cudaEventRecord before and after the copy");
    row = pitfall_row(ctx, "cpu_timer", "host_no_sync", "one_way", &t, peer, 1, nosync_ms, reps);
    snprintf(row->detail, sizeof row->detail,
             "host clock around cudaMemcpyPeerAsync alone: measures the enqueue");
    row = pitfall_row(ctx, "cpu_timer", "host_sync", "one_way", &t, peer, 1, sync_ms, reps);
    snprintf(row->detail, sizeof row->detail,
             "host clock around the copy and cudaStreamSynchronize");
    row = pitfall_row(ctx, "cpu_timer", "clock_sync", "one_way", &t, peer, 1, clock_ms, reps);
    snprintf(row->detail, sizeof row->detail,
             "clock() around the copy and cudaStreamSynchronize: CPU time of the process");
}

/* ------------------------------------------------------ CPU in the loop -- */

static void cpu_sync_size(lab05_ctx *ctx, int a, int b, int peer, size_t bytes)
{
    lab05_transfer t = lab05_make_transfer(ctx, LAB05_CE, a, b, bytes);
    const int ops = bytes <= ((size_t)1 << 20) ? 64 : (bytes <= ((size_t)16 << 20) ? 16 : 4);
    CUDA_CHECK(cudaSetDevice(a));
    cudaStream_t stream = ctx->gpu[a].stream[0];
    double queued_ms[1024], each_ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = -1; r < reps; r++) { /* r = -1 warms up */
        double t0 = lab_host_seconds();
        for (int i = 0; i < ops; i++)
            lab05_transfer_enqueue(&t, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        double t1 = lab_host_seconds();
        if (r >= 0)
            queued_ms[r] = (t1 - t0) * 1e3;
        t0 = lab_host_seconds();
        for (int i = 0; i < ops; i++) {
            lab05_transfer_enqueue(&t, stream);
            CUDA_CHECK(cudaStreamSynchronize(stream)); /* the CPU waits for each copy */
        }
        t1 = lab_host_seconds();
        if (r >= 0)
            each_ms[r] = (t1 - t0) * 1e3;
    }
    lab05_verify_transfers(ctx, &t, 1);
    lab05_row *row = pitfall_row(ctx, "cpu_sync", "queued", "one_way", &t, peer, ops, queued_ms,
                                 reps);
    snprintf(row->detail, sizeof row->detail, "%d copies queued; one synchronize at the end",
             ops);
    row = pitfall_row(ctx, "cpu_sync", "sync_each", "one_way", &t, peer, ops, each_ms, reps);
    snprintf(row->detail, sizeof row->detail,
             "%d copies; cudaStreamSynchronize after each", ops);
}

void lab05_run_cpu_sync(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = pair_peer_on(ctx, a, b);
    static const size_t sizes[] = {(size_t)64 << 10, (size_t)1 << 20, (size_t)16 << 20,
                                   (size_t)256 << 20};
    const int count = ctx->opt.quick ? 3 : 4;
    for (int i = 0; i < count; i++)
        if (sizes[i] <= ctx->buf_bytes)
            cpu_sync_size(ctx, a, b, peer, sizes[i]);
}
