/**
 * @file sweeps.c
 * @brief Lab 03's measured experiments: local = 2 x far computed four ways
 *        at every size (transfer), at odd shapes (bounds), and with strided
 *        reads (stride), on every route this machine has.
 *
 * Far memory per route: peer, GPU b's (pull runs on a; push runs on b and
 * writes a's); host, pinned mapped host memory (both run on a); loopback,
 * another buffer on a (local memory: it verifies code, it is not a link).
 */
#include "lab03.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** @brief One checked run: what runs (fn NULL: the strided kernel), where, what it must give. */
typedef struct task {
    cudaError_t (*fn)(const lab03_job *job, cudaStream_t stream); /**< the variant, or NULL */
    lab03_job job;         /**< its arguments */
    unsigned int stride;   /**< the strided kernel's stride */
    int gpu;               /**< 0: it runs on GPU a, 1: on GPU b */
    const lab_far *result; /**< where the result lands */
    const float *want;     /**< what the result must be */
    int src,               /**< the rows' src: the source's device */
        dst;               /**< the rows' dst: the result's device */
} task;

static const lab_route routes[] = {LAB_ROUTE_PEER, LAB_ROUTE_HOST, LAB_ROUTE_LOOPBACK};
static const char *const variants[] = {"pull", "push", "copy_only", "copy_then_compute"};
static cudaError_t (*const variant_fn[])(const lab03_job *, cudaStream_t) = {
    lab03_pull, lab03_push, lab03_copy_in, lab03_copy_then_compute};
enum { ROUTES = 3, PUSH = 1, COPY = 2, VARIANTS = 4, STRIDED = 4 };

/* Every buffer, once: 4 on a, the source on b (access left off: TODO 03.1
 * turns it on), two mapped host buffers, the reference and a read-back. */
static void buffers(lab03_state *st)
{
    if (st->cap)
        return;
    size_t cap = (st->max_bytes > st->stride_bytes ? st->max_bytes : st->stride_bytes) / 4;
    st->cap = cap > LAB03_BOUNDS_FLOATS ? cap : LAB03_BOUNDS_FLOATS;
    const size_t count = st->cap + LAB03_GUARD, bytes = count * sizeof(float);
    CUDA_CHECK(lab_far_alloc(&st->host_src, LAB_ROUTE_HOST, st->a, -1, bytes));
    CUDA_CHECK(lab_far_alloc(&st->host_dst, LAB_ROUTE_HOST, st->a, -1, bytes));
    const float *src = st->host_src.host;
    lab_fill_floats(st->host_src.host, count, st->seed);
    st->want = lab_host_alloc(count, sizeof(float), "the reference results");
    for (size_t i = 0; i < count; i++)
        st->want[i] = 2.0f * src[i]; /* exact: the values are in [1, 2) */
    CUDA_CHECK(cudaMallocHost((void **)&st->got, bytes));
    lab_far *on_a[] = {&st->src_a, &st->dst_a, &st->stage_a, &st->aux_a};
    for (int i = 0; i < 4; i++)
        CUDA_CHECK(lab_far_alloc(on_a[i], LAB_ROUTE_LOOPBACK, st->a, st->a, bytes));
    CUDA_CHECK(cudaMemcpy(st->src_a.ptr, src, bytes, cudaMemcpyHostToDevice));
    if (st->peer_why[0] == '\0') {
        CUDA_CHECK(lab_far_alloc(&st->src_b, LAB_ROUTE_PEER_OFF, st->a, st->b, bytes));
        CUDA_CHECK(cudaSetDevice(st->b));
        CUDA_CHECK(cudaMemcpy(st->src_b.ptr, src, bytes, cudaMemcpyHostToDevice));
    }
}

void lab03_free_buffers(lab03_state *st)
{
    lab_far *all[] = {&st->src_a, &st->dst_a, &st->stage_a, &st->aux_a,
                      &st->src_b, &st->host_src, &st->host_dst};
    for (int i = 0; i < 7; i++)
        lab_far_free(all[i]);
    if (st->got != NULL)
        CUDA_CHECK(cudaFreeHost(st->got));
    free(st->want);
    st->got = st->want = NULL;
    st->cap = 0;
}

/* Can this experiment use @p route? The peer route's reason is said once a run. */
static bool route_ready(lab_ctx *ctx, lab03_state *st, lab_route route, const char *key)
{
    char why[256] = "";
    if (route != LAB_ROUTE_PEER && lab_route_possible(route, st->a, st->a, why, sizeof why))
        return true;
    if (route == LAB_ROUTE_PEER && (st->peer_why[0] == '\0' || st->peer_said))
        return st->peer_why[0] == '\0';
    st->peer_said |= route == LAB_ROUTE_PEER;
    lab_row row = lab_row_empty(key, "skipped");
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(route));
    lab_row_set(row.value, sizeof row.value, "skipped");
    lab_row_set(row.detail, sizeof row.detail, "%s", route == LAB_ROUTE_PEER ? st->peer_why : why);
    lab_emit(ctx, &row);
    return false;
}

/* Peer access both ways by the student's TODO 03.1, checked against the record. */
static int peer_access(lab_ctx *ctx, lab03_state *st, bool on)
{
    const cudaError_t err = lab03_peer_both(st->a, st->b, on);
    const bool ab = lab_peer_access_is_on(st->a, st->b), ba = lab_peer_access_is_on(st->b, st->a);
    if (err != cudaSuccess)
        return lab_check(ctx, 0, "lab03_peer_both(%d, %d, %d) returned %s", st->a, st->b, on,
                         cudaGetErrorName(err));
    return lab_check(ctx, ab == on && ba == on, "after lab03_peer_both(%d, %d, %d) access "
                     "%d -> %d is %s and %d -> %d is %s", st->a, st->b, on, st->a, st->b,
                     ab ? "on" : "off", st->b, st->a, ba ? "on" : "off");
}

/* Which routes run: every one this machine has, the peer one with access on. */
static int begin_routes(lab_ctx *ctx, lab03_state *st, const char *key, bool *ready)
{
    buffers(st);
    for (int r = 0; r < ROUTES; r++)
        ready[r] = route_ready(ctx, st, routes[r], key);
    if (!ready[0] || peer_access(ctx, st, true) == 0)
        return 0;
    ready[0] = false; /* TODO 03.1 failed: the peer route cannot run */
    return LAB_EXIT_FAIL;
}

/* n floats and the guard after them become 0xFF bytes (a NaN), so stale data cannot pass. */
static void poison(const lab_far *buf, size_t n)
{
    const size_t bytes = (n + LAB03_GUARD) * sizeof(float);
    if (buf->host != NULL) {
        memset(buf->host, 0xFF, bytes);
        return;
    }
    CUDA_CHECK(cudaSetDevice(buf->far_dev));
    CUDA_CHECK(cudaMemset(buf->ptr, 0xFF, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* 1 when @p buf holds @p want bit for bit and its guard is untouched, else 0 after saying why. */
static int verify(lab03_state *st, const lab_far *buf, const float *want, size_t n,
                  const char *what)
{
    const size_t bytes = (n + LAB03_GUARD) * sizeof(float);
    if (buf->host == NULL)
        CUDA_CHECK(cudaSetDevice(buf->far_dev));
    CUDA_CHECK(cudaMemcpy(st->got, buf->ptr, bytes, cudaMemcpyDefault));
    if (lab_verify_floats(what, st->got, want, n) != 0)
        return 0;
    const unsigned char *guard = (const unsigned char *)(st->got + n);
    for (size_t i = 0; i < LAB03_GUARD * sizeof(float); i++)
        if (guard[i] != 0xFF) {
            fprintf(stderr, "verification failed: %s: element %zu, past the last of %zu, was "
                    "written (a missing bound check?)\n", what, n + i / sizeof(float), n);
            return 0;
        }
    return 1;
}

static cudaError_t run(cudaStream_t stream, void *arg)
{
    const task *t = arg;
    if (t->fn != NULL)
        return t->fn(&t->job, stream);
    return lab03_launch_strided(t->job.near, t->job.far, (unsigned int)t->job.n, t->stride,
                                t->job.max_blocks, stream);
}

/* Variant v (or STRIDED) over @p route with n floats; blocks 0: a full grid. */
static task make_task(const lab03_state *st, lab_route route, int v, size_t n, int blocks)
{
    const lab_far *src = route == LAB_ROUTE_PEER ? &st->src_b
                         : route == LAB_ROUTE_HOST ? &st->host_src : &st->src_a;
    task t = {v < VARIANTS ? variant_fn[v] : NULL,
              {st->a, src->far_dev, st->dst_a.ptr, src->ptr, st->stage_a.ptr, n,
               blocks ? blocks : st->blocks[0]},
              1, 0, &st->dst_a, st->want, src->far_dev, st->a};
    if (v == COPY) { /* the staging buffer holds the source itself */
        t.result = &st->stage_a;
        t.want = st->host_src.host;
    } else if (v == PUSH && route == LAB_ROUTE_PEER) { /* b's stores into a's memory */
        t.job = (lab03_job){st->b, st->a, st->src_b.ptr, st->dst_a.ptr, NULL, n,
                            blocks ? blocks : st->blocks[1]};
        t.gpu = 1;
    } else if (v == PUSH) { /* a's stores into far memory */
        t.result = route == LAB_ROUTE_HOST ? &st->host_dst : &st->aux_a;
        t.job.near = st->src_a.ptr;
        t.job.far = t.result->ptr;
        t.src = st->a;
        t.dst = t.result->far_dev;
    }
    return t;
}

/* Run @p t once (plan NULL) or timed, verify it, and emit its row. */
static lab_row *run_task(lab_ctx *ctx, const char *key, const char *variant, lab_route route,
                         task *t, const lab_plan *plan)
{
    lab03_state *st = ctx->lab;
    lab_timing timing;
    char what[128];
    const size_t n = t->job.n;
    poison(t->result, n);
    poison(&st->stage_a, n); /* a copy left out must not find old data */
    CUDA_CHECK(cudaSetDevice(t->gpu ? st->b : st->a));
    if (plan != NULL)
        CUDA_CHECK(lab_time_work(st->stream[t->gpu], plan, run, t, &timing));
    else
        CUDA_CHECK(run(st->stream[t->gpu], t));
    CUDA_CHECK(cudaStreamSynchronize(st->stream[t->gpu]));
    snprintf(what, sizeof what, "%s %s, %s route, %zu floats", key, variant,
             lab_route_name(route), n);
    lab_row row = lab_row_empty(key, variant);
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(route));
    row.src = t->src;
    row.dst = t->dst;
    row.bytes = n * sizeof(float);
    row.count = (long)n;
    row.verified = verify(st, t->result, t->want, n, what);
    if (plan != NULL) {
        row.us = timing.us;
        row.gbps = lab_gbps((double)row.bytes, timing.us.median / 1000.0);
    }
    return lab_emit(ctx, &row);
}

/* The sweep: min, 4 x min, 16 x min ... and max itself; 0 after max. */
static size_t next_size(const lab03_state *st, size_t bytes)
{
    if (bytes >= st->max_bytes)
        return 0;
    return bytes > st->max_bytes / 4 ? st->max_bytes : bytes * 4;
}

int lab03_run_transfer(lab_ctx *ctx)
{
    lab03_state *st = ctx->lab;
    bool ready[ROUTES];
    const int status = begin_routes(ctx, st, "transfer", ready);
    const lab_plan plan = {1, st->reps, 1, false};
    for (int r = 0; r < ROUTES; r++)
        for (size_t bytes = st->min_bytes; ready[r] && bytes; bytes = next_size(st, bytes))
            for (int v = 0; v < VARIANTS; v++) {
                task t = make_task(st, routes[r], v, bytes / sizeof(float), 0);
                run_task(ctx, "transfer", variants[v], routes[r], &t, &plan);
            }
    return ready[0] && peer_access(ctx, st, false) != 0 ? LAB_EXIT_FAIL : status;
}

/* Host reference of the strided map: thread t reads (t % rows) * stride + t / rows. */
static void strided_want(float *want, const float *src, size_t n, size_t stride)
{
    const size_t rows = n / stride;
    for (size_t t = 0; t < n; t++)
        want[t] = 2.0f * src[(t % rows) * stride + t / rows];
}

/** Odd shapes: floats and grid cap (0: a full grid); strided ones with their stride. */
static const struct { size_t n; int blocks; } shapes[] = {
    {1, 1}, {31, 1}, {257, 1}, {1000, 3}, {LAB03_BOUNDS_FLOATS, 7}, {LAB03_BOUNDS_FLOATS, 0}};
static const struct { unsigned int n, stride; int blocks; } strided_shapes[] = {
    {259, 7, 1}, {64 * 1001, 64, 3}, {999999, 3, 0}};

int lab03_run_bounds(lab_ctx *ctx)
{
    lab03_state *st = ctx->lab;
    bool ready[ROUTES];
    const int status = begin_routes(ctx, st, "bounds", ready);
    float *want = lab_host_alloc(LAB03_BOUNDS_FLOATS, sizeof(float), "strided references");
    for (int r = 0; r < ROUTES; r++) {
        for (size_t s = 0; ready[r] && s < sizeof shapes / sizeof shapes[0]; s++)
            for (int v = 0; v < VARIANTS; v++) {
                task t = make_task(st, routes[r], v, shapes[s].n, shapes[s].blocks);
                if (v == COPY)
                    continue; /* it launches nothing; copy_then_compute copies too */
                lab_row *row = run_task(ctx, "bounds", variants[v], routes[r], &t, NULL);
                lab_row_set(row->mode, sizeof row->mode, "grid_%d", shapes[s].blocks);
            }
        for (size_t s = 0; ready[r] && s < sizeof strided_shapes / sizeof strided_shapes[0]; s++) {
            const int blocks = strided_shapes[s].blocks;
            task t = make_task(st, routes[r], STRIDED, strided_shapes[s].n, blocks);
            t.stride = strided_shapes[s].stride;
            t.want = want;
            strided_want(want, st->host_src.host, t.job.n, t.stride);
            lab_row *row = run_task(ctx, "bounds", "strided", routes[r], &t, NULL);
            lab_row_set(row->mode, sizeof row->mode, "stride_%u_grid_%d", t.stride, blocks);
        }
    }
    free(want);
    return ready[0] && peer_access(ctx, st, false) != 0 ? LAB_EXIT_FAIL : status;
}

int lab03_run_stride(lab_ctx *ctx)
{
    lab03_state *st = ctx->lab;
    bool ready[ROUTES];
    const int status = begin_routes(ctx, st, "stride", ready);
    const unsigned int n = (unsigned int)(st->stride_bytes / sizeof(float));
    const lab_plan plan = {1, st->reps, 1, false};
    float *want = lab_host_alloc(n, sizeof(float), "strided references");
    for (unsigned int stride = 1; stride <= 64; stride *= 2) {
        char variant[16];
        snprintf(variant, sizeof variant, "stride_%u", stride);
        strided_want(want, st->host_src.host, n, stride);
        for (int r = 0; r < ROUTES; r++) {
            task t = make_task(st, routes[r], STRIDED, n, 0);
            t.stride = stride;
            t.want = want;
            if (ready[r])
                run_task(ctx, "stride", variant, routes[r], &t, &plan);
        }
    }
    free(want);
    return ready[0] && peer_access(ctx, st, false) != 0 ? LAB_EXIT_FAIL : status;
}
