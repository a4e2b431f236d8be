/**
 * @file transfer.c
 * @brief Transfers and jobs: queueing, timing, verification, and rows with their rates
 *        (TODO 05.2).
 *
 * One sample of a job of n transfers: gate (holds stream 0) -> start event -> fork: streams 1..
 * wait for stream 0 -> ops rounds of every transfer -> join: stream 0 waits for the others -> stop
 * event; the host opens the gate once all is queued. Without join the other transfers only load the
 * link while transfer 0 is timed (nvbandwidth's bidirectional measurement), and each is queued
 * twice per round: its stream falls behind and stays busy through every timed sample, so the timed
 * copy never runs alone. nvbandwidth doubles the size of its interfering copy for the same reason
 * (its testcases_ce.cpp).
 */
#include "lab05.h"

#include <stdlib.h>
#include <string.h>

const char *const lab05_method_names[3] = {"ce", "sm_pull", "sm_push"};

/** Bytes after an SM copy's destination that it must leave as cleared: a kernel that writes
 *  past the end (a word count rounded up, an unrolled step one too far) changes them. */
#define GUARD_BYTES 256

int lab05_xfer_device(const lab05_xfer *t)
{
    return t->method == LAB05_SM_PULL || t->src < 0 ? t->dst : t->src;
}

lab05_xfer lab05_xfer_make(const lab05 *L, lab05_method method, int src, int dst, size_t bytes)
{
    lab05_xfer t = {.method = method, .src = src, .dst = dst, .bytes = bytes,
                    .from = src >= 0 ? L->gpu[src].src : L->hsrc.ptr,
                    .ref = src >= 0 ? L->gpu[src].ref : L->href,
                    .to = dst >= 0 ? L->gpu[dst].dst : L->hdst.ptr,
                    .to_host = dst >= 0 ? NULL : L->hdst.host};
    t.blocks = L->gpu[lab05_xfer_device(&t)].blocks;
    /* Copy engines are the driver's; SM copies start at their buffer's start. */
    if (method != LAB05_CE && bytes < L->buf_bytes)
        t.guard = L->buf_bytes - bytes < GUARD_BYTES ? L->buf_bytes - bytes : GUARD_BYTES;
    return t;
}

cudaError_t lab05_xfer_enqueue(const lab05_xfer *t, cudaStream_t stream)
{
    if (t->method != LAB05_CE)
        return lab05_launch_sm_copy(t->to, t->from, t->bytes, t->blocks, stream);
    if (t->src >= 0 && t->dst >= 0)
        return cudaMemcpyPeerAsync(t->to, t->dst, t->from, t->src, t->bytes, stream);
    return cudaMemcpyAsync(t->to, t->from, t->bytes, cudaMemcpyDefault, stream);
}

cudaStream_t lab05_xfer_stream(const lab05_xfer *t)
{
    cudaStream_t stream;
    CUDA_CHECK(cudaSetDevice(lab05_xfer_device(t)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
}

void lab05_zero(int dev, void *ptr, size_t bytes)
{
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaMemset(ptr, 0, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

void lab05_xfer_clear(const lab05_xfer *t)
{
    if (t->to_host != NULL)
        memset(t->to_host, 0, t->bytes + t->guard);
    else
        lab05_zero(t->dst, t->to, t->bytes + t->guard);
}

int lab05_xfer_verify(const lab05 *L, const lab05_xfer *t)
{
    char what[160], size[32];
    const unsigned char *got = t->to_host;
    if (got == NULL) {
        CUDA_CHECK(cudaSetDevice(t->dst));
        CUDA_CHECK(cudaMemcpy(L->check, t->to, t->bytes + t->guard, cudaMemcpyDeviceToHost));
        got = L->check;
    }
    snprintf(what, sizeof what, "%s %s%d -> %s%d, %s", lab05_method_names[t->method],
             t->src < 0 ? "host" : "GPU", t->src, t->dst < 0 ? "host" : "GPU", t->dst,
             lab_format_size(t->bytes, size, sizeof size));
    if (lab_verify_bytes(what, got, t->ref, t->bytes) != 0)
        return 0;
    for (size_t i = 0; i < t->guard; i++)
        if (got[t->bytes + i] != 0) {
            fprintf(stderr, "verification failed: %s: byte %zu, past the last of %zu, was "
                    "written (a copy past the end?)\n", what, t->bytes + i, t->bytes);
            return 0;
        }
    return 1;
}

void lab05_set_peer(int a, int b, bool on)
{
    CUDA_CHECK(lab_peer_access(a, b, on));
    CUDA_CHECK(lab_peer_access(b, a, on));
}

double lab05_peak(const lab05 *L, const lab05_xfer *t, lab_route route)
{
    const lab_pair_link *pair = lab_links_pair(&L->links, t->src, t->dst);
    switch (route) {
    case LAB_ROUTE_HOST: return L->links.gpu[t->src >= 0 ? t->src : t->dst].host_peak_gbps;
    case LAB_ROUTE_PEER: return pair ? pair->peak_gbps : 0.0;
    case LAB_ROUTE_PEER_OFF: return pair ? pair->pcie_peak_gbps : 0.0;
    default: return 0.0; /* loopback: local memory, not a link */
    }
}

/** A job's streams and events while it is timed. */
typedef struct job_run {
    const lab05_job *job;                /**< the transfers timed */
    cudaStream_t s[LAB05_MAX_STREAMS];   /**< one stream per transfer, on its GPU (s[0] is timed) */
    cudaEvent_t fork;                    /**< recorded on s[0]; the other streams wait for it */
    cudaEvent_t done[LAB05_MAX_STREAMS]; /**< recorded on s[i] when done; s[0] waits for them */
    long calls; /**< rounds queued so far: fork on a sample's first, join on its last */
} job_run;

/* One round: every transfer once, a load (no join) twice (lab_work_fn). */
static cudaError_t job_round(cudaStream_t s0, void *arg)
{
    job_run *r = arg;
    const lab05_job *job = r->job;
    const int dev0 = lab05_xfer_device(&job->t[0]);
    const bool first = r->calls % job->ops == 0, last = (r->calls + 1) % job->ops == 0;
    r->calls++;
    if (job->legacy) { /* one stream, the transfers one after the other */
        for (int i = 0; i < job->n; i++)
            CUDA_TRY(lab05_xfer_enqueue(&job->t[i], s0));
        return cudaSuccess;
    }
    if (first && job->n > 1)
        CUDA_TRY(cudaEventRecord(r->fork, s0));
    for (int i = 0; i < job->n; i++) {
        CUDA_TRY(cudaSetDevice(lab05_xfer_device(&job->t[i])));
        if (first && i > 0)
            CUDA_TRY(cudaStreamWaitEvent(r->s[i], r->fork, 0));
        for (int k = i > 0 && !job->join ? 2 : 1; k > 0; k--)
            CUDA_TRY(lab05_xfer_enqueue(&job->t[i], i ? r->s[i] : s0));
        if (last && i > 0 && job->join)
            CUDA_TRY(cudaEventRecord(r->done[i], r->s[i]));
    }
    CUDA_TRY(cudaSetDevice(dev0));
    for (int i = 1; last && job->join && i < job->n; i++)
        CUDA_TRY(cudaStreamWaitEvent(s0, r->done[i], 0));
    return cudaSuccess;
}

static void job_streams(job_run *r, bool create)
{
    for (int i = r->job->legacy ? 0 : r->job->n - 1; i >= 0; i--) {
        CUDA_CHECK(cudaSetDevice(lab05_xfer_device(&r->job->t[i])));
        if (r->job->legacy) {
            r->s[0] = cudaStreamLegacy;
        } else if (create) {
            CUDA_CHECK(cudaStreamCreateWithFlags(&r->s[i], cudaStreamNonBlocking));
            CUDA_CHECK(cudaEventCreateWithFlags(&r->done[i], cudaEventDisableTiming));
        } else {
            CUDA_CHECK(cudaStreamSynchronize(r->s[i]));
            CUDA_CHECK(cudaStreamDestroy(r->s[i]));
            CUDA_CHECK(cudaEventDestroy(r->done[i]));
        }
    }
    /* The loop ends on t[0]'s GPU: the fork event and the timer live there. */
    if (create)
        CUDA_CHECK(cudaEventCreateWithFlags(&r->fork, cudaEventDisableTiming));
    else
        CUDA_CHECK(cudaEventDestroy(r->fork));
}

/* Clear, time (one sample's worth of rounds warms up: first touches, clocks, lazy set-up)
 * and verify; 1 when every destination holds its source data. */
static int time_job(lab_ctx *ctx, const lab05_job *job, lab_timing *timing)
{
    lab05 *L = ctx->lab;
    job_run r = {.job = job};
    for (int i = 0; i < job->n; i++)
        lab05_xfer_clear(&job->t[i]);
    job_streams(&r, true);
    const lab_plan plan = {job->ops, L->reps, job->ops, job->gate};
    CUDA_CHECK(lab_time_work(r.s[0], &plan, job_round, &r, timing));
    if (job->legacy)
        CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    job_streams(&r, false);
    if (job->gate && timing->gated == 0) /* the host could not queue ahead: stop gating */
        L->ungated[job->route][job->t[0].method] = true;
    int verified = 1;
    for (int i = 0; i < job->n; i++)
        verified &= lab05_xfer_verify(L, &job->t[i]);
    lab_check(ctx, verified, "%s: a destination does not hold the source data",
              lab05_method_names[job->t[0].method]);
    return verified;
}

lab05_job lab05_job_one(const lab05 *L, lab05_xfer t, lab_route route, int ops)
{
    /* Without peer access the driver stages the copy through host memory and the enqueue may
     * wait for it: behind a gate it would stall. */
    lab05_job job = {.t = {t}, .n = 1, .ops = ops, .route = route,
                     .gate = route != LAB_ROUTE_PEER_OFF && !L->ungated[route][t.method]};
    return job;
}

lab_row lab05_row(const char *experiment, const char *variant, const lab05_xfer *t,
                  lab_route route, const char *mode)
{
    lab_row row = lab_row_empty(experiment, variant);
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(route));
    lab_row_set(row.mode, sizeof row.mode, "%s", mode);
    row.src = t->src;
    row.dst = t->dst;
    row.bytes = t->bytes;
    return row;
}

/* Emit the row, with its rate through TODO 05.2 unless @p copies is 0 (a latency). */
static void emit_rate(lab_ctx *ctx, lab_row *row, int copies, int directions, double link_gbps)
{
    lab05_rate rate;
    char size[32];
    if (copies == 0) {
        lab_emit(ctx, row);
        return;
    }
    if (lab05_count_rate(row->bytes, copies, directions, row->us.median, link_gbps, &rate) != 0) {
        lab_check(ctx, 0, "TODO 05.2: lab05_count_rate refused %s x %d copies over %d "
                  "direction(s) in %g us", lab_format_size(row->bytes, size, sizeof size), copies,
                  directions, row->us.median);
        row->verified = 0;
    } else {
        row->gbps = rate.gbps;
        row->peak_gbps = rate.peak_gbps;
    }
    lab_emit(ctx, row);
}

void lab05_run_job(lab_ctx *ctx, const lab05_job *job, lab_row *row, int copies, int directions)
{
    lab_timing timing;
    const int verified = time_job(ctx, job, &timing);
    row->us = timing.us;
    row->count = job->ops;
    row->verified = verified && row->verified != 0;
    if (timing.gated == 0) {
        const size_t used = strlen(row->detail);
        lab_row_set(row->detail + used, sizeof row->detail - used, "%sungated: the host could not "
                    "queue ahead of the GPU", used ? "; " : "");
    }
    emit_rate(ctx, row, copies, directions, lab05_peak(ctx->lab, &job->t[0], job->route));
}

void lab05_emit_samples(lab_ctx *ctx, lab_row *row, const double *us, int count, int ops,
                        int verified, double link_gbps)
{
    row->count = ops;
    row->verified = verified;
    if (lab_stats_compute(us, (size_t)count, &row->us) != 0)
        row->verified = lab_check(ctx, 0, "%s %s: a sample is not a finite number",
                                  row->experiment, row->variant) == 0;
    emit_rate(ctx, row, link_gbps < 0.0 ? 0 : 1, 1, link_gbps);
}

void lab05_emit_host_clocked(lab_ctx *ctx, lab_row *row, const lab05_xfer *t, int count,
                             double link_gbps)
{
    double *us = lab_host_alloc((size_t)count, sizeof *us, "samples");
    lab05_xfer_clear(t);
    cudaStream_t stream = lab05_xfer_stream(t);
    for (int i = -1; i < count; i++) { /* i = -1 warms up */
        const double t0 = lab_host_seconds();
        CUDA_CHECK(lab05_xfer_enqueue(t, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        if (i >= 0)
            us[i] = (lab_host_seconds() - t0) * 1e6;
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    lab05_emit_samples(ctx, row, us, count, 1, lab05_xfer_verify(ctx->lab, t), link_gbps);
    free(us);
}
