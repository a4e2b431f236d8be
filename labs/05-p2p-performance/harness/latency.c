/**
 * @file latency.c
 * @brief Three latencies, each a different thing:
 *
 * - memcpy_latency: one 4-byte copy, queued back to back (the cost per copy) and with a host
 *   synchronize after each (what a program that waits for every copy sees).
 * - pointer_chase (TODO 05.4): one thread follows a chain of pointers; each node is a new
 *   128-byte line, in a shuffled order within each 4 KiB page and page after page
 *   (nvbandwidth's pattern walks the same lines in address order). "beyond_l2": 256 MiB, every
 *   sample going on where the last stopped, so no line is read twice: the far memory's own
 *   latency. "in_l2": 1 MiB read over and over: what a cache serves.
 * - pingpong (TODO 05.5): two GPUs, or a GPU and the CPU, answer each other through flags;
 *   half a round trip is the one-way latency.
 */
#include "lab05.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/** Bytes of one chain node: one cache line. */
#define NODE_BYTES 128u
/** Nodes per shuffled window (4 KiB). */
#define WINDOW 32u
/** How long a ping-pong side waits for the other at most. */
#define PINGPONG_TIMEOUT_NS 5000000000ULL
/** How late the CPU answers round 1: far more than 64 polls of host memory (about 1 us each). */
#define PINGPONG_LATE_S 0.005
/** How far a GPU's ping clock may stray from the host's over the same rounds, beyond a few round
 *  trips: room for a preemption of the host thread at either end, well under PINGPONG_LATE_S. */
#define CLOCKS_AGREE_S 0.002

/* One 4-byte copy: queued back to back (timed by events), then host-clocked with a
 * synchronize after each. */
static void memcpy_latency(lab_ctx *ctx, int src, int dst, lab_route route)
{
    const lab05 *L = ctx->lab;
    lab05_job job = lab05_job_one(L, lab05_xfer_make(L, LAB05_CE, src, dst, 4), route, 64);
    lab_row row = lab05_row("memcpy_latency", "ce_queued", &job.t[0], route, "one_way");
    lab_row_set(row.detail, sizeof row.detail, "64 copies queued back to back; time per copy");
    lab05_run_job(ctx, &job, &row, 0, 0);
    row = lab05_row("memcpy_latency", "ce_synced", &job.t[0], route, "one_way");
    lab_row_set(row.detail, sizeof row.detail,
                "host clock around one copy and cudaStreamSynchronize");
    lab05_emit_host_clocked(ctx, &row, &job.t[0], 4 * L->reps, -1.0);
}

int lab05_run_memcpy_latency(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    for (int p = 0; p < L->npairs; p++) {
        const int a = L->pairs[2 * p], b = L->pairs[2 * p + 1];
        for (int peer = lab_links_pair(&L->links, a, b)->p2p; peer >= 0; peer--) {
            lab05_set_peer(a, b, peer != 0);
            memcpy_latency(ctx, a, b, peer ? LAB_ROUTE_PEER : LAB_ROUTE_PEER_OFF);
        }
    }
    for (int way = 0; L->hsrc.ptr != NULL && way < 2; way++)
        memcpy_latency(ctx, way ? L->a : -1, way ? -1 : L->a, LAB_ROUTE_HOST);
    return 0;
}

/** A chain: the order its nodes are visited in. */
typedef struct chain {
    size_t nodes;     /**< nodes (bytes / NODE_BYTES) */
    uint32_t *seq;    /**< seq[i]: the i-th node visited */
    const char *mode; /**< beyond_l2 or in_l2 */
} chain;

static void chain_order(chain *c, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < c->nodes; i++)
        c->seq[i] = (uint32_t)i;
    for (size_t w = 0; w < c->nodes; w += WINDOW) /* shuffle inside each window */
        for (size_t i = (c->nodes - w < WINDOW ? c->nodes - w : WINDOW) - 1; i > 0; i--) {
            const size_t j = (size_t)(lab_rng_next(&state) % (i + 1));
            const uint32_t t = c->seq[w + i];
            c->seq[w + i] = c->seq[w + j];
            c->seq[w + j] = t;
        }
}

/* Zero @p image, then node seq[i] holds the address of node seq[i + 1] (the last: the first). */
static void chain_image(const chain *c, unsigned long long base, unsigned long long *image)
{
    memset(image, 0, c->nodes * NODE_BYTES);
    for (size_t i = 0; i < c->nodes; i++)
        image[(size_t)c->seq[i] * (NODE_BYTES / 8)] =
            base + (unsigned long long)c->seq[(i + 1) % c->nodes] * NODE_BYTES;
}

/** The chase as lab_work_fn: each launch on another SM. */
typedef struct chase_run {
    unsigned long long *cursor; /**< device: the address the next launch starts from */
    long long steps;            /**< dependent loads per launch */
    int blocks;                 /**< blocks per launch (the reader's SM count) */
    int stride;                 /**< how many SMs the working block moves per launch */
    int calls;                  /**< launches so far */
} chase_run;

static cudaError_t chase_work(cudaStream_t stream, void *arg)
{
    chase_run *r = arg;
    const int target = (r->calls++ * r->stride) % r->blocks;
    return lab05_launch_chase(r->cursor, r->steps, target, r->blocks, stream);
}

/* A chase of 0 steps (allowed) makes no load: 1 when it left the cursor at @p start, and a
 * launch is r->blocks blocks of one thread (captured, not run: the block that works picks the
 * SM). */
static int chase_edges_ok(lab_ctx *ctx, chase_run *r, unsigned long long start,
                          cudaStream_t stream)
{
    unsigned long long after = 0;
    lab_launches seen;
    const cudaError_t err = lab_capture_launches(chase_work, r, &seen);
    r->calls = 0;
    const int shaped = lab_check(ctx, err == cudaSuccess && seen.kernels == 1 &&
                                 seen.grid.x == (unsigned)r->blocks && seen.grid.y == 1 &&
                                 seen.grid.z == 1 && seen.block.x == 1 && seen.block.y == 1 &&
                                 seen.block.z == 1, "TODO 05.4: lab05_launch_chase(blocks %d) "
                                 "returned %s and launched %d kernel(s), the first on %u blocks "
                                 "of %u threads; the contract: one kernel of %d blocks of one "
                                 "thread", r->blocks, cudaGetErrorName(err), seen.kernels,
                                 seen.grid.x, seen.block.x * seen.block.y * seen.block.z,
                                 r->blocks) == 0;
    CUDA_CHECK(lab05_launch_chase(r->cursor, 0, 0, r->blocks, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(&after, r->cursor, sizeof after, cudaMemcpyDeviceToHost));
    return lab_check(ctx, after == start, "TODO 05.4: a chase of 0 steps moved the cursor from "
                     "0x%llx to 0x%llx", start, after) == 0 && shaped;
}

/* GPU @p reader follows the chain at @p base (owned by GPU @p owner, -1: the host). */
static void chase(lab_ctx *ctx, const chain *c, int reader, int owner, lab_route route,
                  const void *base_ptr)
{
    const lab05 *L = ctx->lab;
    const unsigned long long base = (unsigned long long)(uintptr_t)base_ptr;
    chase_run r = {NULL, L->quick ? 20000 : 50000, L->gpu[reader].sms, 1, 0};
    r.stride = r.blocks / (L->reps + 1) > 0 ? r.blocks / (L->reps + 1) : 1;
    unsigned long long got = base + (unsigned long long)c->seq[0] * NODE_BYTES;
    cudaStream_t stream;
    lab_timing timing;
    CUDA_CHECK(cudaSetDevice(reader));
    CUDA_CHECK(cudaMalloc((void **)&r.cursor, sizeof got));
    CUDA_CHECK(cudaMemcpy(r.cursor, &got, sizeof got, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const int edges_ok = chase_edges_ok(ctx, &r, got, stream);
    const lab_plan plan = {1, L->reps, 1, false};
    CUDA_CHECK(lab_time_work(stream, &plan, chase_work, &r, &timing));
    CUDA_CHECK(cudaMemcpy(&got, r.cursor, sizeof got, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(r.cursor));
    const size_t steps = (size_t)r.calls * (size_t)r.steps;
    const unsigned long long want =
        base + (unsigned long long)c->seq[steps % c->nodes] * NODE_BYTES;
    const lab05_xfer ends = {.src = owner, .dst = reader, .bytes = c->nodes * NODE_BYTES};
    lab_row row = lab05_row("pointer_chase", "chase", &ends, route, c->mode);
    char whose[16] = "the host";
    if (owner >= 0)
        snprintf(whose, sizeof whose, "GPU %d", owner);
    lab_row_set(row.detail, sizeof row.detail, "GPU %d follows a chain in %s's memory; "
                "time per load", reader, whose);
    row.count = r.steps;
    row.us = timing.us;
    row.us.median /= (double)r.steps;
    row.us.min /= (double)r.steps;
    row.us.max /= (double)r.steps;
    row.us.mean /= (double)r.steps;
    row.verified = lab_check(ctx, got == want, "TODO 05.4: the chase on GPU %d ended at 0x%llx, "
                             "the chain says 0x%llx", reader, got, want) == 0 && edges_ok;
    lab_emit(ctx, &row);
}

/* One chain in GPU g's memory: read by g itself and by each P2P partner. */
static void chase_gpu(lab_ctx *ctx, const chain *c, int g, unsigned long long *image)
{
    const lab05 *L = ctx->lab;
    void *base = NULL;
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaMalloc(&base, c->nodes * NODE_BYTES));
    chain_image(c, (unsigned long long)(uintptr_t)base, image);
    CUDA_CHECK(cudaMemcpy(base, image, c->nodes * NODE_BYTES, cudaMemcpyHostToDevice));
    chase(ctx, c, g, g, LAB_ROUTE_LOOPBACK, base);
    for (int p = 0; p < L->npairs; p++) {
        const int owner = L->pairs[2 * p], reader = L->pairs[2 * p + 1];
        if (owner != g || !lab_links_pair(&L->links, owner, reader)->p2p)
            continue;
        lab05_set_peer(owner, reader, true);
        chase(ctx, c, reader, owner, LAB_ROUTE_PEER, base);
    }
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaFree(base));
}

int lab05_run_pointer_chase(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    static const struct { const char *mode; size_t bytes; } sets[] = {
        {"beyond_l2", (size_t)256 << 20}, {"in_l2", (size_t)1 << 20}};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        chain c = {sets[s].bytes / NODE_BYTES, NULL, sets[s].mode};
        c.seq = lab_host_alloc(c.nodes, sizeof *c.seq, "the chain's order");
        unsigned long long *image = lab_host_alloc(sets[s].bytes, 1, "the chain");
        chain_order(&c, L->seed + s);
        for (int g = 0; g < L->n; g++)
            if (L->gpu[g].ref != NULL) /* a GPU in use */
                chase_gpu(ctx, &c, g, image);
        if (L->hsrc.ptr != NULL) { /* one chain in pinned host memory, read by GPU a */
            lab_far far;
            CUDA_CHECK(lab_far_alloc(&far, LAB_ROUTE_HOST, L->a, -1, sets[s].bytes));
            chain_image(&c, (unsigned long long)(uintptr_t)far.ptr, far.host);
            chase(ctx, &c, L->a, -1, LAB_ROUTE_HOST, far.ptr);
            lab_far_free(&far);
        }
        free(image);
        free(c.seq);
    }
    return 0;
}

/* The host waits until *flag == r: false once past the deadline. */
static bool host_waits(volatile unsigned int *flag, unsigned int r, double deadline)
{
    unsigned int spins = 0;
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != r)
        if ((++spins & 1023u) == 0u && lab_host_seconds() > deadline)
            return false;
    return true;
}

/* The host's side of a ping-pong, 0 or the round whose wait passed the deadline. As ping
 * (@p pings) it writes round r and waits for the answer; as pong it waits for round r and answers
 * it. *seconds is the host's clock over the timed rounds: as ping from its write of round
 * warmup + 1 (it stands in for ping's elapsed_ns), as pong from seeing that write, one way later;
 * a failed round leaves it untouched.
 * Its round-1 write comes PINGPONG_LATE_S late: a wait (TODO 05.5) that gives up before its
 * deadline fails there on every machine, not only where polls are fast. */
static unsigned int host_side(volatile unsigned int *to_pong, volatile unsigned int *to_ping,
                              bool pings, unsigned int warmup, unsigned int total,
                              double *seconds)
{
    volatile unsigned int *mine = pings ? to_ping : to_pong, *theirs = pings ? to_pong : to_ping;
    const double deadline = lab_host_seconds() + (double)PINGPONG_TIMEOUT_NS / 1e9;
    double t0 = 0.0;
    for (unsigned int r = 1; r <= total; r++) {
        if (!pings && !host_waits(mine, r, deadline))
            return r;
        if (!pings && r == warmup + 1u)
            t0 = lab_host_seconds();
        if (r == 1) /* no clock read in the other rounds, but where the clock starts */
            for (const double late = lab_host_seconds() + PINGPONG_LATE_S;
                 lab_host_seconds() < late;)
                ;
        if (pings && r == warmup + 1u)
            t0 = lab_host_seconds();
        __atomic_store_n(theirs, r, __ATOMIC_RELEASE);
        if (pings && !host_waits(mine, r, deadline))
            return r;
    }
    *seconds = lab_host_seconds() - t0;
    return 0;
}

/* When the CPU answers, ping's clock (the GPU's) against the host's over the same rounds: they
 * differ by about a round trip. A ping clock that starts before the warm-up also counts round 1,
 * which the host answers PINGPONG_LATE_S late, so it reads that much more at any link speed. */
static bool clocks_agree(const lab05_pingpong_result *ping, double host_s, int rounds)
{
    const double gpu_s = (double)ping->elapsed_ns / 1e9, trip = host_s / rounds;
    return fabs(gpu_s - host_s) <= CLOCKS_AGREE_S + 4.0 * trip;
}

/** One ping-pong set-up: where its flags and results live. */
typedef struct pingpong_run {
    lab05_pingpong pp;           /**< what the ping-pong kernels are launched with */
    int flags_dev[2];            /**< GPU owning to_pong, to_ping (-1: host memory) */
    unsigned int *host_flags[2]; /**< their host addresses, when in host memory */
    const char *variant;         /**< write_remote, poll_remote, gpu_cpu, cpu_gpu */
} pingpong_run;

/* Flag i (0: to_pong, 1: to_ping): zero it, or read it back. */
static unsigned int flag(const pingpong_run *run, int i, bool clear)
{
    unsigned int value = 0, *dev_flag = i ? run->pp.to_ping : run->pp.to_pong;
    volatile unsigned int *host_flag = run->host_flags[i];
    if (run->flags_dev[i] < 0 && clear)
        *host_flag = 0u;
    else if (run->flags_dev[i] < 0)
        value = *host_flag;
    else if (clear)
        lab05_zero(run->flags_dev[i], dev_flag, sizeof *dev_flag);
    else
        CUDA_CHECK(cudaMemcpy(&value, dev_flag, sizeof value, cudaMemcpyDeviceToHost));
    return value;
}

static void read_result(int dev, cudaStream_t stream, const lab05_pingpong_result *where,
                        lab05_pingpong_result *got)
{
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(got, where, sizeof *got, cudaMemcpyDeviceToHost));
}

/* One run: 0 done (*us one way), 1 skipped under a tool, -1 failed. */
static int pingpong_once(lab_ctx *ctx, const pingpong_run *run, double *us)
{
    const lab05_pingpong *pp = &run->pp;
    lab05_pingpong_result ping = {0, 0, 0}, pong = {0, 0, 0};
    const unsigned int total = (unsigned int)(pp->warmup + pp->rounds);
    const char *tool = getenv("CUDA_INJECTION64_PATH");
    const bool host_pings = pp->ping_dev < 0;
    double host_s = 0.0;
    for (int i = 0; i < 2; i++)
        (void)flag(run, i, true);
    if (pp->ping_dev >= 0)
        lab05_zero(pp->ping_dev, pp->ping_result, sizeof ping);
    if (pp->pong_dev >= 0)
        lab05_zero(pp->pong_dev, pp->pong_result, sizeof pong);
    int current = -1;
    CUDA_CHECK(lab05_launch_pingpong(pp));
    CUDA_CHECK(cudaGetDevice(&current));
    if (host_pings || pp->pong_dev < 0) { /* the host plays its side while the kernel runs */
        lab05_pingpong_result *host = host_pings ? &ping : &pong;
        host->failed_round = host_side(run->host_flags[0], run->host_flags[1], host_pings,
                                       (unsigned int)pp->warmup, total, &host_s);
        host->rounds = host->failed_round ? host->failed_round - 1u : total;
        if (host_pings)
            host->elapsed_ns = (unsigned long long)(host_s * 1e9);
    }
    if (pp->ping_dev >= 0)
        read_result(pp->ping_dev, pp->ping_stream, pp->ping_result, &ping);
    if (pp->pong_dev >= 0)
        read_result(pp->pong_dev, pp->pong_stream, pp->pong_result, &pong);
    /* A tool such as compute-sanitizer attaches through CUDA_INJECTION64_PATH; some run one
     * kernel at a time, and then neither side of a GPU-GPU ping-pong ever sees the other. */
    if (pp->pong_dev >= 0 && pp->ping_dev >= 0 && tool != NULL && tool[0] != '\0' &&
        ping.failed_round == 1 && pong.failed_round == 1)
        return 1;
    const unsigned int last_pong = flag(run, 0, false), last_ping = flag(run, 1, false);
    if (lab_check(ctx, !ping.failed_round && !pong.failed_round,
                  "ping-pong %s timed out: ping stuck in round %u, pong in round %u, of %u: a "
                  "flag write did not become visible", run->variant, ping.failed_round,
                  pong.failed_round, total) ||
        lab_check(ctx, ping.rounds == total && pong.rounds == total && last_pong == total &&
                  last_ping == total, "ping-pong %s: %u and %u rounds, flags %u and %u, "
                  "expected %u", run->variant, ping.rounds, pong.rounds, last_pong, last_ping,
                  total) ||
        lab_check(ctx, pp->pong_dev >= 0 || clocks_agree(&ping, host_s, pp->rounds),
                  "ping-pong %s: ping's clock reads %.3f ms for the %d timed rounds, the host's "
                  "%.3f ms: ping's clock must cover exactly the timed rounds, from the start of "
                  "round %d", run->variant, (double)ping.elapsed_ns / 1e6, pp->rounds,
                  host_s * 1e3, pp->warmup + 1) ||
        lab_check(ctx, current == (host_pings ? pp->pong_dev : pp->ping_dev), "TODO 05.5: "
                  "lab05_launch_pingpong left GPU %d current, not the GPU of the last kernel it "
                  "launched (%d)", current, host_pings ? pp->pong_dev : pp->ping_dev))
        return -1;
    *us = (double)ping.elapsed_ns / 2.0 / (double)pp->rounds / 1e3;
    return 0;
}

/* A warm-up run and reps timed ones, as one row from ping's GPU (-1: the host) to pong's; 1 when
 * skipped under a tool. */
static int pingpong_row(lab_ctx *ctx, const pingpong_run *run, const char *what)
{
    const lab05 *L = ctx->lab;
    double *us = lab_host_alloc((size_t)L->reps, sizeof *us, "samples"), one = 0.0, sum = 0.0;
    int rc = 0;
    for (int r = -1; r < L->reps && rc == 0; r++)
        if ((rc = pingpong_once(ctx, run, &one)) == 0 && r >= 0)
            sum += (us[r] = one);
    const lab05_xfer ends = {.src = run->pp.ping_dev, .dst = run->pp.pong_dev,
                             .bytes = sizeof(unsigned int)};
    const bool host = ends.src < 0 || ends.dst < 0;
    lab_row row = lab05_row("pingpong", rc == 1 ? "skipped" : run->variant, &ends,
                            host ? LAB_ROUTE_HOST : LAB_ROUTE_PEER, "one_way");
    if (rc == 1)
        lab_row_set(row.detail, sizeof row.detail, "the two kernels did not run at the same "
                    "time under the attached tool (CUDA_INJECTION64_PATH is set)");
    else if (rc < 0)
        lab_row_set(row.detail, sizeof row.detail, "%s; failed its check (the message says "
                    "which)", what);
    else
        lab_row_set(row.detail, sizeof row.detail, "%s; mean round trip %.3f us; one way = "
                    "round trip / 2", what, 2.0 * sum / L->reps);
    if (rc == 0) {
        lab05_emit_samples(ctx, &row, us, L->reps, run->pp.rounds, 1, -1.0);
    } else {
        row.verified = rc == 1 ? -1 : 0; /* a failed ping-pong fails the run */
        lab_emit(ctx, &row);
    }
    free(us);
    return rc == 1;
}

static void pingpong_peer(lab_ctx *ctx, int a, int b, int rounds)
{
    unsigned int *flags[2];
    lab05_pingpong_result *res[2];
    cudaStream_t stream[2];
    const int dev[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaSetDevice(dev[i]));
        CUDA_CHECK(cudaMalloc((void **)&flags[i], 256));
        CUDA_CHECK(cudaMalloc((void **)&res[i], sizeof *res[i]));
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream[i], cudaStreamNonBlocking));
    }
    /* write_remote: each writes into the other's memory, polls its own; poll_remote: reversed. */
    pingpong_run run = {{a, stream[0], b, stream[1], flags[1], flags[0], 100, rounds,
                         PINGPONG_TIMEOUT_NS, res[0], res[1]}, {b, a}, {NULL, NULL},
                        "write_remote"};
    if (pingpong_row(ctx, &run, "flags in the receiver's memory: stores cross the link") == 0) {
        run.pp.to_pong = flags[0];
        run.pp.to_ping = flags[1];
        run.flags_dev[0] = a;
        run.flags_dev[1] = b;
        run.variant = "poll_remote";
        (void)pingpong_row(ctx, &run, "flags in the sender's memory: polling loads cross the link");
    }
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaSetDevice(dev[i]));
        CUDA_CHECK(cudaStreamDestroy(stream[i]));
        CUDA_CHECK(cudaFree(flags[i]));
        CUDA_CHECK(cudaFree(res[i]));
    }
}

/* GPU a and the CPU, both flags in pinned host memory: the GPU pings and the CPU answers, then
 * the CPU pings (its clock keeps the time) and the pong kernel answers. First, checked but not
 * recorded, the GPU pings with no warm-up (allowed): its clock starts with round 1. Returns 0, or
 * LAB_EXIT_FAIL when that check failed. */
static int pingpong_host(lab_ctx *ctx, int a, int rounds)
{
    lab_far far;
    lab05_pingpong_result *res = NULL;
    cudaStream_t stream;
    CUDA_CHECK(lab_far_alloc(&far, LAB_ROUTE_HOST, a, -1, 512));
    CUDA_CHECK(cudaMalloc((void **)&res, sizeof *res));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    unsigned int *dev_flags = far.ptr, *host_flags = far.host;
    /* 256 bytes apart: the two flags never share a line. */
    pingpong_run run = {{a, stream, -1, NULL, dev_flags, dev_flags + 64, 100, rounds,
                         PINGPONG_TIMEOUT_NS, res, NULL}, {-1, -1},
                        {host_flags, host_flags + 64}, "gpu_cpu"};
    pingpong_run unwarmed = run;
    double one_way = 0.0;
    unwarmed.pp.warmup = 0;
    unwarmed.pp.rounds = 200;
    const int status = pingpong_once(ctx, &unwarmed, &one_way) < 0 ? LAB_EXIT_FAIL : 0;
    (void)pingpong_row(ctx, &run, "flags in pinned host memory: the GPU's stores and polls cross "
                       "the link; the CPU answers");
    run.pp = (lab05_pingpong){-1, NULL, a, stream, dev_flags, dev_flags + 64, 100, rounds,
                              PINGPONG_TIMEOUT_NS, NULL, res};
    run.variant = "cpu_gpu";
    (void)pingpong_row(ctx, &run, "flags in pinned host memory: the CPU pings and keeps the time "
                       "(host clock); the GPU's polls and stores cross the link");
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(res));
    lab_far_free(&far);
    return status;
}

int lab05_run_pingpong(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    const int rounds = L->quick ? 2000 : 20000;
    for (int p = 0; p < L->npairs; p++) {
        const int a = L->pairs[2 * p], b = L->pairs[2 * p + 1];
        if (a > b || !lab_links_pair(&L->links, a, b)->p2p)
            continue; /* symmetric: once per unordered pair */
        lab05_set_peer(a, b, true);
        pingpong_peer(ctx, a, b, rounds);
    }
    return L->hsrc.ptr != NULL ? pingpong_host(ctx, L->a, rounds) : 0;
}
