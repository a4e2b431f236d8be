/**
 * @file measure.c
 * @brief The measuring harness every bandwidth experiment shares.
 *
 * A series is one or more transfers, each on its own non-blocking stream,
 * timed together by CUDA events recorded on the first stream. One sample:
 *
 *   gate kernel (holds stream 0)  ->  start event  ->  other streams wait
 *   for start  ->  ops rounds of every transfer  ->  other streams record
 *   a join event, stream 0 waits for them  ->  stop event  ->  host opens
 *   the gate  ->  elapsed = stop - start.
 *
 * The gate lets the host enqueue everything before the clock starts, so
 * the measured time is the GPUs' time, not the host's launch rate. After a
 * warm-up sample and the timed ones, every destination is compared with
 * the host's copy of the source data.
 */
#include "kernels.h"
#include "p2p_perf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *lab05_method_name(lab05_method method)
{
    switch (method) {
    case LAB05_CE: return "ce";
    case LAB05_SM_PULL: return "sm_pull";
    case LAB05_SM_PUSH: return "sm_push";
    }
    return "?";
}

int lab05_transfer_device(const lab05_transfer *t)
{
    return t->method == LAB05_SM_PULL ? t->dst : t->src;
}

lab05_transfer lab05_make_transfer(const lab05_ctx *ctx, lab05_method method, int src, int dst,
                                   size_t bytes)
{
    lab05_transfer t;
    t.method = method;
    t.src = src;
    t.dst = dst;
    t.from = ctx->gpu[src].src;
    t.to = ctx->gpu[dst].dst;
    t.bytes = bytes;
    t.ref_offset = 0;
    t.blocks = ctx->gpu[lab05_transfer_device(&t)].copy_blocks;
    return t;
}

void lab05_transfer_enqueue(const lab05_transfer *t, cudaStream_t stream)
{
    /* The caller made the stream's device current: kernels go there. */
    switch (t->method) {
    case LAB05_CE:
        CUDA_CHECK(cudaMemcpyPeerAsync(t->to, t->dst, t->from, t->src, t->bytes, stream));
        break;
    case LAB05_SM_PULL:
    case LAB05_SM_PUSH:
        lab05_launch_sm_copy(t->to, t->from, t->bytes, t->blocks, stream);
        break;
    }
}

/* What this process has set, per direction, so that access is switched
 * only when it changes: enabling twice is harmless, but it is still an
 * API error, and a sanitizer rightly reports it. A fresh process starts
 * with every direction off. */
/** GPUs whose peer state is tracked; beyond them access is always switched. */
#define PEER_SLOTS 64
static bool peer_is_on[PEER_SLOTS][PEER_SLOTS];

static void set_direction(int dev, int peer, bool on)
{
    const bool known = dev < PEER_SLOTS && peer < PEER_SLOTS;
    if (known && peer_is_on[dev][peer] == on)
        return;
    CUDA_CHECK(on ? lab_enable_peer(dev, peer) : lab_disable_peer(dev, peer));
    if (known)
        peer_is_on[dev][peer] = on;
}

void lab05_set_peer(int a, int b, bool on)
{
    set_direction(a, b, on);
    set_direction(b, a, on);
}

int lab05_ops_for(size_t bytes)
{
    /* About 512 MiB per sample, between 1 and 64 operations: enough work
     * that the few microseconds of starting and joining streams vanish. */
    const size_t target = (size_t)512 << 20;
    size_t ops = target / (bytes ? bytes : 1);
    if (ops < 1)
        ops = 1;
    if (ops > 64)
        ops = 64;
    return (int)ops;
}

void lab05_stats_us(const double *ms, int count, int ops, lab_stats *us)
{
    double per_op[1024];
    int n = count < 1024 ? count : 1024;
    for (int i = 0; i < n; i++)
        per_op[i] = ms[i] * 1000.0 / (double)ops;
    if (lab_stats_compute(per_op, (size_t)n, us) != 0) {
        fprintf(stderr, "lab05: a timing sample is not a finite number\n");
        exit(LAB_EXIT_FAIL);
    }
}

void lab05_series_init(lab05_series *s, lab05_ctx *ctx, const lab05_transfer *t, int nt,
                       int ops, bool gate)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->nt = nt;
    s->ops = ops;
    s->gate = gate;
    for (int i = 0; i < nt; i++) {
        s->t[i] = t[i];
        CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&t[i])));
        CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream[i], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&s->join[i], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&t[0])));
    CUDA_CHECK(lab_timer_create(&s->timer));
}

void lab05_series_destroy(lab05_series *s)
{
    for (int i = 0; i < s->nt; i++) {
        CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[i])));
        if (s->stream[i])
            CUDA_CHECK(cudaStreamDestroy(s->stream[i]));
        if (s->join[i])
            CUDA_CHECK(cudaEventDestroy(s->join[i]));
    }
    CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[0])));
    lab_timer_destroy(&s->timer);
}

/* Close the gate and queue the gate kernel on stream 0. */
static void gate_close(lab05_series *s)
{
    volatile unsigned int *gate = s->ctx->gate;
    gate[0] = 0u;
    gate[1] = 0u;
    __sync_synchronize();
    CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[0])));
    lab05_launch_gate(&gate[0], &gate[1], LAB05_GATE_TIMEOUT_NS, s->stream[0]);
}

static void gate_open(lab05_series *s)
{
    __sync_synchronize();
    s->ctx->gate[0] = 1u;
    __sync_synchronize();
}

/* Everything between the start and the stop event: the other streams wait
 * for the start, all rounds of all transfers, and the joins back. */
static void enqueue_rounds(lab05_series *s)
{
    for (int i = 1; i < s->nt; i++) {
        CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[i])));
        CUDA_CHECK(cudaStreamWaitEvent(s->stream[i], s->timer.start, 0));
    }
    for (int r = 0; r < s->ops; r++)
        for (int i = 0; i < s->nt; i++) {
            CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[i])));
            lab05_transfer_enqueue(&s->t[i], s->stream[i]);
        }
    for (int i = 1; i < s->nt; i++) {
        CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[i])));
        CUDA_CHECK(cudaEventRecord(s->join[i], s->stream[i]));
        CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[0])));
        CUDA_CHECK(cudaStreamWaitEvent(s->stream[0], s->join[i], 0));
    }
    CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[0])));
}

float lab05_series_sample(lab05_series *s)
{
    float ms = 0.0f;
    const bool gated = s->gate;
    if (gated)
        gate_close(s);
    CUDA_CHECK(cudaSetDevice(lab05_transfer_device(&s->t[0])));
    LAB_TODO("05.4");
    if (gated && s->ctx->gate[1] != 0u) {
        /* The host could not queue everything in time (the queue was full
         * or an enqueue call blocked): the sample still timed the work, but
         * with the host's gaps in it. Stop gating this series. */
        s->gate_timeouts++;
        s->gate = false;
    }
    return ms;
}

void lab05_clear_destinations(const lab05_series *s)
{
    for (int i = 0; i < s->nt; i++) {
        CUDA_CHECK(cudaSetDevice(s->t[i].dst));
        CUDA_CHECK(cudaMemset(s->t[i].to, 0, s->t[i].bytes));
    }
    for (int i = 0; i < s->nt; i++) {
        CUDA_CHECK(cudaSetDevice(s->t[i].dst));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
}

void lab05_verify_transfers(const lab05_ctx *ctx, const lab05_transfer *t, int nt)
{
    for (int i = 0; i < nt; i++) {
        CUDA_CHECK(cudaSetDevice(t[i].dst));
        CUDA_CHECK(cudaMemcpy(ctx->check, t[i].to, t[i].bytes, cudaMemcpyDeviceToHost));
        char what[160];
        char size[32];
        snprintf(what, sizeof what, "%s GPU%d -> GPU%d, %s", lab05_method_name(t[i].method),
                 t[i].src, t[i].dst, lab_format_size(t[i].bytes, size, sizeof size));
        if (lab_verify_bytes(what, ctx->check, ctx->gpu[t[i].src].ref + t[i].ref_offset,
                             t[i].bytes) != 0)
            exit(LAB_EXIT_FAIL);
    }
}

void lab05_series_measure(lab05_series *s, int reps, lab_stats *us)
{
    double ms[1024];
    if (reps > 1024)
        reps = 1024;
    lab05_clear_destinations(s);
    (void)lab05_series_sample(s); /* warm-up: first touches, lazy set-up */
    for (int r = 0; r < reps; r++)
        ms[r] = (double)lab05_series_sample(s);
    lab05_stats_us(ms, reps, s->ops, us);
    lab05_verify_transfers(s->ctx, s->t, s->nt);
}
