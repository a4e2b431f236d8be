/**
 * @file sweeps.c
 * @brief Lab 03's registry and measured experiments: local = 2 x far computed four ways at
 *        every size (transfer), at odd shapes (bounds) and with strided reads (stride).
 *
 * Far memory per route: peer, GPU b's (pull runs on a; push runs on b and writes a's); host,
 * pinned mapped host memory (both run on a); loopback, another buffer on a (local memory: it
 * verifies code, it is not a link).
 */
#include "lab03.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Floats after every buffer that no kernel may write. */
#define GUARD 256
/** The largest odd shape of the bounds experiment, in floats. */
#define BOUNDS_FLOATS ((size_t)1000003)

extern const lab_host_part lab_host;

static size_t opt_min, opt_max, opt_stride; /* 0: not given */
static long opt_timeout = 20;
static bool opt_hang;
static const char *opt_child;

static lab03_state st;
/* The sweeps' sizes in bytes and samples; per GPU (a, b) a stream and the blocks that fill it. */
static size_t min_bytes, max_bytes, stride_bytes;
static int reps, grids[2];
static cudaStream_t streams[2];
static char peer_why[160]; /* why the peer route cannot run ("": it can) */
static bool peer_said;     /* that reason was said once already */
/* Buffers of floats and a guard: mapped host memory (the source, the host route's far result);
 * on a the source, results, copies, the loopback route's far result; on b the source. twice
 * holds 2 x source (NULL: nothing allocated yet), got (pinned) what is read back. */
static lab_far host_src, host_dst, src_a, dst_a, stage_a, aux_a, src_b;
static lab_far *const all[] = {&host_src, &host_dst, &src_a, &dst_a, &stage_a, &aux_a, &src_b};
static float *twice, *got;

static const lab_route routes[] = {LAB_ROUTE_PEER, LAB_ROUTE_HOST, LAB_ROUTE_LOOPBACK};
static const char *const variants[] = {"pull", "push", "copy_only", "copy_then_compute"};
static cudaError_t (*const variant_fn[])(const lab03_job *, cudaStream_t) = {
    lab03_pull, lab03_push, lab03_copy_in, lab03_copy_then_compute};
enum { PEER, HOST, LOOPBACK, ROUTES };
enum { PUSH = 1, COPY = 2, VARIANTS = 4, STRIDED = 4 };

/** @brief One checked run: what runs (fn NULL: the strided kernel), where, what it must give. */
typedef struct task {
    cudaError_t (*fn)(const lab03_job *job, cudaStream_t stream); /**< the variant, or NULL */
    lab03_job job;         /**< its arguments */
    unsigned int stride;   /**< the strided kernel's stride */
    const lab_far *result; /**< where the result lands */
    const float *want;     /**< what the result must be */
} task;

static const lab_option options[] = {
    {"min-size", 0, LAB_OPT_SIZE, "SIZE", "smallest array of the sweep (default 4K)", &opt_min,
     4, 4L << 30},
    {"max-size", 0, LAB_OPT_SIZE, "SIZE", "largest (default 1G, --quick 64M; x4 steps)", &opt_max,
     4, 4L << 30},
    {"stride-size", 0, LAB_OPT_SIZE, "SIZE", "read-pattern array (default 256M, --quick 16M)",
     &opt_stride, 256, 1L << 30}, /* 32-bit indices in the strided kernel */
    {"fault-timeout", 0, LAB_OPT_INT, "S", "seconds before the fault child is killed (20)",
     &opt_timeout, 1, 600},
    {"simulate-child-hang", 0, LAB_OPT_FLAG, NULL, "the fault child hangs (tests the timeout)",
     &opt_hang, 0, 0},
    {"fault-child", 0, LAB_OPT_TEXT, "MODE",
     "internal: be the fault child (peer, one_way, pageable, unmapped)", &opt_child, 0, 0},
};

/* A size option's value, or @p fallback; a given one must be whole multiples of @p unit. */
static size_t size_option(const char *prog, const char *name, size_t given, size_t fallback,
                          size_t unit)
{
    char text[32];
    if (given % unit != 0)
        lab_usage_error(prog, "--%s: %s is not a multiple of %zu bytes", name,
                        lab_format_size(given, text, sizeof text), unit);
    return given ? given : fallback;
}

static void read_options(const lab_ctx *ctx)
{
    const bool q = ctx->args.quick;
    const char *prog = ctx->prog;
    char lo[32], hi[32];
    min_bytes = size_option(prog, "min-size", opt_min, 4 << 10, 4);
    max_bytes = size_option(prog, "max-size", opt_max, (size_t)(q ? 64 : 1024) << 20, 4);
    /* whole rows of the widest stride */
    stride_bytes = size_option(prog, "stride-size", opt_stride, (size_t)(q ? 16 : 256) << 20, 256);
    if (min_bytes > max_bytes)
        lab_usage_error(prog, "--min-size (%s) is larger than --max-size (%s)",
                        lab_format_size(min_bytes, lo, sizeof lo),
                        lab_format_size(max_bytes, hi, sizeof hi));
    reps = ctx->args.reps ? (int)ctx->args.reps : q ? 3 : 10;
    st = (lab03_state){0, 0, (uint64_t)ctx->args.seed, opt_timeout, opt_hang};
}

/* The lowest other GPU, one with peer access both ways if there is one. */
static int partner(int gpus, int given)
{
    for (int any = 0; any < 2; any++)
        for (int j = 0; j < gpus; j++)
            if (j != given &&
                (any || (lab_can_access_peer(given, j) && lab_can_access_peer(j, given))))
                return j;
    return -1;
}

static void choose_gpus(const lab_ctx *ctx)
{
    int a = (int)ctx->args.gpu_a, b = (int)ctx->args.gpu_b;
    if (a < 0 && b < 0 && !lab_find_p2p_pair(ctx->gpus, &a, &b))
        a = 0;
    if (a < 0)
        a = partner(ctx->gpus, b);
    else if (b < 0)
        b = partner(ctx->gpus, a);
    st.a = a < 0 ? b : a; /* -b named the only GPU: it is the near one */
    st.b = a < 0 ? -1 : b;
    if (st.b < 0)
        snprintf(peer_why, sizeof peer_why, "the peer route needs two GPUs, this machine has %d",
                 ctx->gpus);
    else if (!lab_can_access_peer(st.a, st.b) || !lab_can_access_peer(st.b, st.a))
        snprintf(peer_why, sizeof peer_why, "the peer route needs peer access both ways between "
                 "GPU %d and GPU %d", st.a, st.b);
}

/* A stream of @p dev, and the blocks that fill it (its SMs' resident threads). */
static int fill_grid(int dev, cudaStream_t *stream)
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
    read_options(ctx);
    ctx->lab = &st;
    if (opt_child)
        exit(lab03_fault_child(ctx, opt_child));
    if (ctx->gpus == 0)
        return 0;
    choose_gpus(ctx);
    grids[0] = fill_grid(st.a, &streams[0]);
    if (st.b >= 0)
        grids[1] = fill_grid(st.b, &streams[1]);
    return 0;
}

static void teardown(lab_ctx *ctx)
{
    if (ctx->gpus == 0)
        return;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        lab_far_free(all[i]);
    if (got != NULL)
        CUDA_CHECK(cudaFreeHost(got));
    free(twice);
    for (int i = 0; i < 2; i++)
        if (streams[i] != NULL) {
            CUDA_CHECK(cudaSetDevice(i == 0 ? st.a : st.b));
            CUDA_CHECK(cudaStreamDestroy(streams[i]));
        }
    lab_peer_access_reset();
}

/* Every buffer, once (access to b's left off: TODO 03.1 turns it on), the reference, and a
 * pinned read-back. */
static void allocate(void)
{
    if (twice != NULL)
        return;
    size_t cap = (max_bytes > stride_bytes ? max_bytes : stride_bytes) / 4;
    cap = cap > BOUNDS_FLOATS ? cap : BOUNDS_FLOATS;
    const size_t count = cap + GUARD, bytes = count * sizeof(float);
    for (int i = 0; i < 6; i++) /* the host route's two, then a's four */
        CUDA_CHECK(lab_far_alloc(all[i], i < 2 ? LAB_ROUTE_HOST : LAB_ROUTE_LOOPBACK, st.a,
                                 i < 2 ? -1 : st.a, bytes));
    const float *src = host_src.host;
    lab_fill_floats(host_src.host, count, st.seed);
    twice = lab_host_alloc(count, sizeof(float), "the reference results");
    for (size_t i = 0; i < count; i++)
        twice[i] = 2.0f * src[i]; /* exact: the values are in [1, 2) */
    CUDA_CHECK(cudaMallocHost((void **)&got, bytes));
    CUDA_CHECK(cudaMemcpy(src_a.ptr, src, bytes, cudaMemcpyHostToDevice));
    if (peer_why[0] == '\0') {
        CUDA_CHECK(lab_far_alloc(&src_b, LAB_ROUTE_PEER_OFF, st.a, st.b, bytes));
        CUDA_CHECK(cudaSetDevice(st.b));
        CUDA_CHECK(cudaMemcpy(src_b.ptr, src, bytes, cudaMemcpyHostToDevice));
    }
}

/* Peer access both ways by the student's TODO 03.1, checked against the record. */
static int peer_access(lab_ctx *ctx, bool on)
{
    const cudaError_t err = lab03_peer_both(st.a, st.b, on);
    const bool ab = lab_peer_access_is_on(st.a, st.b), ba = lab_peer_access_is_on(st.b, st.a);
    if (err != cudaSuccess)
        return lab_check(ctx, 0, "lab03_peer_both(%d, %d, %d) returned %s", st.a, st.b, on,
                         cudaGetErrorName(err));
    return lab_check(ctx, ab == on && ba == on, "after lab03_peer_both(%d, %d, %d) access "
                     "%d -> %d is %s and %d -> %d is %s", st.a, st.b, on, st.a, st.b,
                     ab ? "on" : "off", st.b, st.a, ba ? "on" : "off");
}

/* Which routes run: every one this machine has, the peer one with access on. A route it lacks
 * gets a skipped row, the peer route's reason once a run. */
static int begin_routes(lab_ctx *ctx, const char *key, bool *ready)
{
    allocate();
    for (int r = 0; r < ROUTES; r++) {
        char why[256] = "";
        ready[r] = r == PEER ? peer_why[0] == '\0'
                             : lab_route_possible(routes[r], st.a, st.a, why, sizeof why);
        if (ready[r] || (r == PEER && peer_said))
            continue;
        peer_said |= r == PEER;
        lab_emit_skipped(ctx, key, lab_route_name(routes[r]), "%s", r == PEER ? peer_why : why);
    }
    if (!ready[PEER] || peer_access(ctx, true) == 0)
        return 0;
    ready[PEER] = false; /* TODO 03.1 failed: the peer route cannot run */
    return LAB_EXIT_FAIL;
}

/* n floats and the guard after them become 0xFF bytes (a NaN), so stale data cannot pass. */
static void poison(const lab_far *buf, size_t n)
{
    const size_t bytes = (n + GUARD) * sizeof(float);
    if (buf->host != NULL) {
        memset(buf->host, 0xFF, bytes);
        return;
    }
    CUDA_CHECK(cudaSetDevice(buf->far_dev));
    CUDA_CHECK(cudaMemset(buf->ptr, 0xFF, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* 1 when @p buf holds @p want bit for bit and its guard is untouched, else 0 after saying why. */
static int verify(const lab_far *buf, const float *want, size_t n, const char *what)
{
    const size_t bytes = (n + GUARD) * sizeof(float);
    if (buf->host == NULL)
        CUDA_CHECK(cudaSetDevice(buf->far_dev));
    CUDA_CHECK(cudaMemcpy(got, buf->ptr, bytes, cudaMemcpyDefault));
    if (lab_verify_floats(what, got, want, n) != 0)
        return 0;
    const unsigned char *guard = (const unsigned char *)(got + n);
    for (size_t i = 0; i < GUARD * sizeof(float); i++)
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

/* Variant v (or STRIDED, by @p stride against @p ref) over route r with n floats; blocks 0:
 * a full grid. */
static task make_task(int r, int v, size_t n, int blocks, unsigned int stride, const float *ref)
{
    const lab_far *src = r == PEER ? &src_b : r == HOST ? &host_src : &src_a;
    task t = {v < VARIANTS ? variant_fn[v] : NULL,
              {st.a, src->far_dev, dst_a.ptr, src->ptr, stage_a.ptr, n, blocks ? blocks : grids[0]},
              stride, &dst_a, ref ? ref : twice};
    if (v == COPY) { /* the staging buffer holds the source itself */
        t.result = &stage_a;
        t.want = host_src.host;
    } else if (v == PUSH && r == PEER) { /* b's stores into a's memory */
        t.job = (lab03_job){st.b, st.a, src_b.ptr, dst_a.ptr, NULL, n, blocks ? blocks : grids[1]};
    } else if (v == PUSH) { /* a's stores into far memory */
        t.result = r == HOST ? &host_dst : &aux_a;
        t.job.near = src_a.ptr;
        t.job.far = t.result->ptr;
    }
    return t;
}

/* Run @p t once (plan NULL) or timed, and verify it: 1 when its result is right. */
static int execute(const char *key, const char *variant, int r, task *t, const lab_plan *plan,
                   lab_timing *timing)
{
    char what[128];
    const size_t n = t->job.n;
    const int gpu = t->job.near_dev != st.a; /* 1: GPU b runs it (peer push) */
    poison(t->result, n);
    poison(&stage_a, n); /* a copy left out must not find old data */
    CUDA_CHECK(cudaSetDevice(t->job.near_dev));
    CUDA_CHECK(plan ? lab_time_work(streams[gpu], plan, run, t, timing) : run(streams[gpu], t));
    CUDA_CHECK(cudaStreamSynchronize(streams[gpu]));
    snprintf(what, sizeof what, "%s %s, %s route, %zu floats", key, variant,
             lab_route_name(routes[r]), n);
    return verify(t->result, t->want, n, what);
}

/* Run @p t once (plan NULL) or timed, verify it, and emit its row (src: where the source is,
 * dst: where the result is). */
static lab_row *run_task(lab_ctx *ctx, const char *key, const char *variant, int r, task t,
                         const lab_plan *plan)
{
    lab_timing timing;
    const size_t n = t.job.n;
    const bool push = t.fn == lab03_push;
    const int verified = execute(key, variant, r, &t, plan, &timing);
    lab_row row = lab_row_empty(key, variant);
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(routes[r]));
    row.src = push ? t.job.near_dev : t.job.far_dev;
    row.dst = push ? t.result->far_dev : t.job.near_dev;
    row.bytes = n * sizeof(float);
    row.count = (long)n;
    row.verified = verified;
    if (plan != NULL) {
        row.us = timing.us;
        row.gbps = lab_gbps((double)row.bytes, timing.us.median / 1000.0);
    }
    return lab_emit(ctx, &row);
}

/* The sweep: min, 4 x min, 16 x min ... and max itself; 0 after max. */
static size_t next_size(size_t bytes)
{
    return bytes >= max_bytes ? 0 : bytes > max_bytes / 4 ? max_bytes : bytes * 4;
}

static int run_transfer(lab_ctx *ctx)
{
    bool ready[ROUTES];
    const int status = begin_routes(ctx, "transfer", ready);
    const lab_plan plan = {1, reps, 1, false};
    for (int r = 0; r < ROUTES; r++)
        for (size_t bytes = min_bytes; ready[r] && bytes; bytes = next_size(bytes))
            for (int v = 0; v < VARIANTS; v++)
                run_task(ctx, "transfer", variants[v], r, make_task(r, v, bytes / 4, 0, 1, NULL),
                         &plan);
    return ready[PEER] && peer_access(ctx, false) != 0 ? LAB_EXIT_FAIL : status;
}

/* Host reference of the strided map: thread t reads (t % rows) * stride + t / rows. */
static void strided_want(float *want, const float *src, size_t n, size_t stride)
{
    const size_t rows = n / stride;
    for (size_t t = 0; t < n; t++)
        want[t] = 2.0f * src[(t % rows) * stride + t / rows];
}

/* Odd shapes: floats and grid cap (0: a full grid); strided ones with their stride. */
static const struct { size_t n; int blocks; } shapes[] = {
    {1, 1}, {31, 1}, {257, 1}, {1000, 3}, {BOUNDS_FLOATS, 7}, {BOUNDS_FLOATS, 0}};
static const struct { unsigned int n, stride; int blocks; } strided_shapes[] = {
    {259, 7, 1}, {64 * 1001, 64, 3}, {999999, 3, 0}};

/** One launch of TODO 03.2 or 03.6 whose shape is checked (captured, not run). */
typedef struct launch_call {
    bool strided;       /**< lab03_launch_strided (stride 1), else lab03_launch_scale */
    size_t n;           /**< elements */
    int max_blocks;     /**< the cap passed */
} launch_call;

static const launch_call launch_calls[] = {
    {false, 1, 1024}, {false, 1000, 3}, {false, BOUNDS_FLOATS, 1 << 20}, {false, BOUNDS_FLOATS, 7},
    {true, 1, 1024},  {true, 1000, 3},  {true, BOUNDS_FLOATS, 1 << 20},  {true, BOUNDS_FLOATS, 7},
};

static cudaError_t launch_work(cudaStream_t stream, void *arg)
{
    const launch_call *c = arg;
    if (c->strided)
        return lab03_launch_strided(dst_a.ptr, src_a.ptr, (unsigned int)c->n, 1, c->max_blocks,
                                    stream);
    return lab03_launch_scale(dst_a.ptr, src_a.ptr, c->n, c->max_blocks, stream);
}

/* Each launch above enqueues one kernel of lab03_grid(n, LAB03_THREADS, max_blocks) blocks of
 * LAB03_THREADS threads: 0, or LAB_EXIT_FAIL after saying which did not. */
static int check_launches(lab_ctx *ctx)
{
    int status = 0;
    CUDA_CHECK(cudaSetDevice(st.a));
    for (size_t i = 0; i < sizeof launch_calls / sizeof launch_calls[0]; i++) {
        const launch_call *c = &launch_calls[i];
        const int want = lab03_grid(c->n, LAB03_THREADS, c->max_blocks);
        lab_launches seen;
        const cudaError_t err = lab_capture_launches(launch_work, (void *)c, &seen);
        const bool ok = err == cudaSuccess && seen.kernels == 1 && seen.grid.x == (unsigned)want &&
                        seen.grid.y == 1 && seen.grid.z == 1 && seen.block.x == LAB03_THREADS &&
                        seen.block.y == 1 && seen.block.z == 1;
        status |= lab_check(ctx, ok, "TODO %s: %s(n = %zu, max_blocks = %d) returned %s and "
                            "launched %d kernel(s), the first on %u x %u x %u blocks of %u x %u "
                            "x %u threads; the contract: one kernel on lab03_grid's %d blocks of "
                            "%d", c->strided ? "03.6" : "03.2", c->strided ?
                            "lab03_launch_strided" : "lab03_launch_scale", c->n, c->max_blocks,
                            cudaGetErrorName(err), seen.kernels, seen.grid.x, seen.grid.y,
                            seen.grid.z, seen.block.x, seen.block.y, seen.block.z, want,
                            LAB03_THREADS);
    }
    return status ? LAB_EXIT_FAIL : 0;
}

/* Strided shapes no row shows: n x stride beyond 2^32 (the read index must not be formed from
 * t x stride in 32 bits; n + 2^32 / n stays inside the buffers), and one row of stride n. */
static const struct { unsigned int n, stride; } edge_shapes[] = {{120u * 8192u, 8192u},
                                                                  {4096u, 4096u}};

/* The edge shapes on every route here, checked but not recorded: 0, or LAB_EXIT_FAIL after
 * saying which failed. */
static int check_edges(lab_ctx *ctx, const bool *ready, float *ref)
{
    int status = 0;
    for (size_t s = 0; s < sizeof edge_shapes / sizeof edge_shapes[0]; s++) {
        const unsigned int n = edge_shapes[s].n, stride = edge_shapes[s].stride;
        strided_want(ref, host_src.host, n, stride);
        for (int r = 0; r < ROUTES; r++) {
            if (!ready[r])
                continue;
            task t = make_task(r, STRIDED, n, 0, stride, ref);
            status |= lab_check(ctx, execute("bounds", "strided", r, &t, NULL, NULL),
                                "TODO 03.6: the strided kernel at %u floats, stride %u, on the %s "
                                "route", n, stride, lab_route_name(routes[r]));
        }
    }
    return status ? LAB_EXIT_FAIL : 0;
}

static int run_bounds(lab_ctx *ctx)
{
    bool ready[ROUTES];
    const int status = begin_routes(ctx, "bounds", ready);
    float *ref = lab_host_alloc(BOUNDS_FLOATS, sizeof(float), "strided references");
    for (int r = 0; r < ROUTES; r++) {
        for (size_t s = 0; ready[r] && s < sizeof shapes / sizeof shapes[0]; s++)
            for (int v = 0; v < VARIANTS; v++) {
                if (v == COPY)
                    continue; /* it launches nothing; copy_then_compute copies too */
                task t = make_task(r, v, shapes[s].n, shapes[s].blocks, 1, NULL);
                lab_row *row = run_task(ctx, "bounds", variants[v], r, t, NULL);
                lab_row_set(row->mode, sizeof row->mode, "grid_%d", shapes[s].blocks);
            }
        for (size_t s = 0; ready[r] && s < sizeof strided_shapes / sizeof strided_shapes[0]; s++) {
            const unsigned int n = strided_shapes[s].n, stride = strided_shapes[s].stride;
            const int blocks = strided_shapes[s].blocks;
            strided_want(ref, host_src.host, n, stride);
            task t = make_task(r, STRIDED, n, blocks, stride, ref);
            lab_row *row = run_task(ctx, "bounds", "strided", r, t, NULL);
            lab_row_set(row->mode, sizeof row->mode, "stride_%u_grid_%d", stride, blocks);
        }
    }
    const int edges = check_edges(ctx, ready, ref) | check_launches(ctx);
    free(ref);
    return (ready[PEER] && peer_access(ctx, false) != 0) || edges ? LAB_EXIT_FAIL : status;
}

static int run_stride(lab_ctx *ctx)
{
    bool ready[ROUTES];
    const int status = begin_routes(ctx, "stride", ready);
    const unsigned int n = (unsigned int)(stride_bytes / sizeof(float));
    const lab_plan plan = {1, reps, 1, false};
    float *ref = lab_host_alloc(n, sizeof(float), "strided references");
    for (unsigned int stride = 1; stride <= 64; stride *= 2) {
        char variant[16];
        snprintf(variant, sizeof variant, "stride_%u", stride);
        strided_want(ref, host_src.host, n, stride);
        for (int r = 0; r < ROUTES; r++)
            if (ready[r])
                run_task(ctx, "stride", variant, r, make_task(r, STRIDED, n, 0, stride, ref),
                         &plan);
    }
    free(ref);
    return ready[PEER] && peer_access(ctx, false) != 0 ? LAB_EXIT_FAIL : status;
}

static const lab_experiment experiments[] = {
    {"transfer", "local = 2 x far by pull, push, copy_only, copy_then_compute: every size "
     "and route", lab_need_one_gpu, run_transfer},
    {"bounds", "the same kernels at odd sizes and small grids (partial warps and blocks)",
     lab_need_one_gpu, run_bounds},
    {"stride", "coalesced against strided reads, stride 1 ... 64, every route", lab_need_one_gpu,
     run_stride},
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
