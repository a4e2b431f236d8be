/**
 * @file latency.c
 * @brief Three latencies, each a different thing:
 *
 * - memcpy_latency: the time of one small cudaMemcpyPeerAsync, queued back
 *   to back (API and copy-engine overhead per copy) and with a host
 *   synchronize after each (what a program that waits for every copy sees).
 * - pointer_chase: one thread follows a chain of pointers laid at random
 *   through 256 MiB of local or peer memory: the load latency of the link.
 * - pingpong: kernels on two GPUs answer each other through flags with
 *   system-scope ordering; half a round trip is the link's one-way latency.
 */
#include "kernels.h"
#include "p2p_perf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Bytes of one pointer-chase chain. */
#define CHAIN_BYTES ((size_t)256 << 20)
/** Distance between two nodes of the chain. */
#define NODE_BYTES ((size_t)256)
/** How long a ping-pong kernel waits for the other side at most. */
#define PINGPONG_TIMEOUT_NS 5000000000ULL

/* ------------------------------------------------------ memcpy latency -- */

static void memcpy_queued(lab05_ctx *ctx, int a, int b, int peer)
{
    lab05_transfer t = lab05_make_transfer(ctx, LAB05_CE, a, b, 4);
    lab05_series s;
    lab05_series_init(&s, ctx, &t, 1, 64, !ctx->no_gate[LAB05_CE][peer]);
    lab_stats us;
    lab05_series_measure(&s, ctx->opt.reps, &us);
    if (s.gate_timeouts)
        ctx->no_gate[LAB05_CE][peer] = 1;
    lab05_row *row = lab05_add_row(ctx, "memcpy_latency", "ce_queued");
    row->src = a;
    row->dst = b;
    snprintf(row->mode, sizeof row->mode, "one_way");
    row->peer = peer;
    row->bytes = 4;
    row->ops = s.ops;
    row->us = us;
    row->gated = s.gate_timeouts == 0 && !ctx->no_gate[LAB05_CE][peer];
    row->verified = 1;
    snprintf(row->detail, sizeof row->detail, "64 copies queued back to back; time per copy");
    lab05_series_destroy(&s);
}

static void memcpy_synced(lab05_ctx *ctx, int a, int b, int peer)
{
    lab05_transfer t = lab05_make_transfer(ctx, LAB05_CE, a, b, 4);
    const int samples = 4 * ctx->opt.reps;
    double ms[1024];
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaMemset(t.to, 0, t.bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(a));
    cudaStream_t stream = ctx->gpu[a].stream[0];
    for (int i = -1; i < samples && i < 1024; i++) {
        const double t0 = lab_host_seconds();
        lab05_transfer_enqueue(&t, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        const double t1 = lab_host_seconds();
        if (i >= 0) /* sample -1 is the warm-up */
            ms[i] = (t1 - t0) * 1e3;
    }
    lab05_verify_transfers(ctx, &t, 1);
    lab05_row *row = lab05_add_row(ctx, "memcpy_latency", "ce_synced");
    row->src = a;
    row->dst = b;
    snprintf(row->mode, sizeof row->mode, "one_way");
    row->peer = peer;
    row->bytes = 4;
    row->ops = 1;
    lab05_stats_us(ms, samples < 1024 ? samples : 1024, 1, &row->us);
    row->verified = 1;
    snprintf(row->detail, sizeof row->detail,
             "host clock around one copy and cudaStreamSynchronize");
}

void lab05_run_memcpy_latency(lab05_ctx *ctx)
{
    for (int p = 0; p < ctx->npairs; p++) {
        const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
        for (int peer = 1; peer >= 0; peer--) {
            if (peer && !ctx->link[a * ctx->n + b].p2p)
                continue;
            lab05_set_peer(a, b, peer != 0);
            memcpy_queued(ctx, a, b, peer);
            memcpy_synced(ctx, a, b, peer);
        }
    }
}

/* ------------------------------------------------------- pointer chase -- */

/* A random cycle through every node (Sattolo's shuffle), so that the next
 * address can be neither predicted nor cached. Node k lives at
 * base + k * NODE_BYTES and holds the address of the next node. */
static void build_chain(uint64_t seed, size_t nodes, unsigned int *order, void *device_base,
                        unsigned long long *image)
{
    uint64_t state = seed;
    for (size_t i = 0; i < nodes; i++)
        order[i] = (unsigned int)i;
    for (size_t i = nodes - 1; i > 0; i--) {
        size_t j = (size_t)(lab_rng_next(&state) % i); /* j < i: one single cycle */
        unsigned int tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    const unsigned long long base = (unsigned long long)(uintptr_t)device_base;
    const size_t words_per_node = NODE_BYTES / sizeof *image;
    for (size_t i = 0; i < nodes; i++) {
        const size_t next = order[(i + 1) % nodes];
        image[(size_t)order[i] * words_per_node] = base + next * NODE_BYTES;
    }
}

static void chase_once(lab05_ctx *ctx, int reader, const void *base, const unsigned int *order,
                       size_t nodes, int owner, long long steps)
{
    CUDA_CHECK(cudaSetDevice(reader));
    cudaStream_t stream = ctx->gpu[reader].stream[0];
    unsigned long long *end = NULL;
    CUDA_CHECK(cudaMalloc((void **)&end, sizeof *end));
    lab_timer timer;
    CUDA_CHECK(lab_timer_create(&timer));
    const unsigned long long *start =
        (const unsigned long long *)((const char *)base + (size_t)order[0] * NODE_BYTES);

    lab05_launch_chase(start, steps < 1000 ? steps : 1000, end, stream); /* warm-up */
    double ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    for (int r = 0; r < reps; r++) {
        float elapsed = 0.0f;
        CUDA_CHECK(lab_timer_start(&timer, stream));
        lab05_launch_chase(start, steps, end, stream);
        CUDA_CHECK(lab_timer_stop(&timer, stream));
        CUDA_CHECK(lab_timer_elapsed_ms(&timer, &elapsed));
        ms[r] = elapsed;
    }
    unsigned long long got = 0;
    CUDA_CHECK(cudaMemcpy(&got, end, sizeof got, cudaMemcpyDeviceToHost));
    const unsigned long long want = (unsigned long long)(uintptr_t)base +
                                    (unsigned long long)order[(size_t)steps % nodes] * NODE_BYTES;
    if (got != want) {
        fprintf(stderr,
                "verification failed: pointer chase on GPU %d through GPU %d's memory ended at "
                "0x%llx, expected 0x%llx\n",
                reader, owner, got, want);
        exit(LAB_EXIT_FAIL);
    }
    lab_timer_destroy(&timer);
    CUDA_CHECK(cudaFree(end));

    lab05_row *row = lab05_add_row(ctx, "pointer_chase", "chase");
    row->src = owner;
    row->dst = reader;
    snprintf(row->mode, sizeof row->mode, "%s", owner == reader ? "local" : "peer");
    row->peer = owner == reader ? -1 : 1;
    row->bytes = CHAIN_BYTES;
    row->ops = (int)steps;
    lab05_stats_us(ms, reps, (int)steps, &row->us);
    row->verified = 1;
    snprintf(row->detail, sizeof row->detail,
             "GPU %d follows a random chain in GPU %d's memory; time per load", reader, owner);
}

void lab05_run_pointer_chase(lab05_ctx *ctx)
{
    const size_t nodes = CHAIN_BYTES / NODE_BYTES;
    const long long steps = ctx->opt.quick ? 20000 : 50000;
    unsigned int *order = malloc(nodes * sizeof *order);
    unsigned long long *image = calloc(CHAIN_BYTES / sizeof *image, sizeof *image);
    if (order == NULL || image == NULL) {
        fprintf(stderr, "%s: out of memory\n", ctx->opt.prog);
        exit(LAB_EXIT_FAIL);
    }
    for (int owner = 0; owner < ctx->n; owner++) {
        /* Only GPUs the sweeps measure: as the source of a pair. */
        int used = 0;
        for (int p = 0; p < ctx->npairs; p++)
            used |= ctx->pairs[2 * p] == owner;
        if (!used)
            continue;
        void *base = NULL;
        CUDA_CHECK(cudaSetDevice(owner));
        CUDA_CHECK(cudaMalloc(&base, CHAIN_BYTES));
        memset(image, 0, CHAIN_BYTES);
        build_chain(ctx->opt.seed + (uint64_t)owner, nodes, order, base, image);
        CUDA_CHECK(cudaMemcpy(base, image, CHAIN_BYTES, cudaMemcpyHostToDevice));

        chase_once(ctx, owner, base, order, nodes, owner, steps);
        for (int p = 0; p < ctx->npairs; p++) {
            const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
            if (a != owner || !ctx->link[a * ctx->n + b].p2p)
                continue;
            lab05_set_peer(a, b, true);
            chase_once(ctx, b, base, order, nodes, owner, steps);
        }
        CUDA_CHECK(cudaSetDevice(owner));
        CUDA_CHECK(cudaFree(base));
    }
    free(order);
    free(image);
}

/* ------------------------------------------------------------ ping-pong -- */

static void zero_device(int dev, void *ptr, size_t bytes)
{
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaMemset(ptr, 0, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* A tool such as compute-sanitizer attaches through this variable; some
 * tools run one kernel at a time, and a ping-pong needs two at once. */
static int tool_attached(void)
{
    const char *injection = getenv("CUDA_INJECTION64_PATH");
    return injection != NULL && injection[0] != '\0';
}

/* One variant on one pair: the flags live where @p remote_writes says.
 * Returns 0, or 1 when the kernels could not run at the same time. */
static int pingpong_variant(lab05_ctx *ctx, int a, int b, int remote_writes)
{
    const int warmup = 100;
    const int rounds = ctx->opt.quick ? 2000 : 20000;
    unsigned int *flags_a = NULL, *flags_b = NULL;
    lab05_pingpong_result *res_a = NULL, *res_b = NULL;
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaMalloc((void **)&flags_a, 256));
    CUDA_CHECK(cudaMalloc((void **)&res_a, sizeof *res_a));
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaMalloc((void **)&flags_b, 256));
    CUDA_CHECK(cudaMalloc((void **)&res_b, sizeof *res_b));

    /* write_remote: each side writes into the other's memory and polls its
     * own; poll_remote: each side writes its own memory and polls the other's. */
    unsigned int *to_pong = remote_writes ? flags_b : flags_a;
    unsigned int *to_ping = remote_writes ? flags_a : flags_b;

    double ms[1024];
    const int reps = ctx->opt.reps < 1024 ? ctx->opt.reps : 1024;
    double round_trip_ns = 0.0;
    const int tool = tool_attached();
    int skipped = 0;
    for (int r = -1; r < reps && !skipped; r++) { /* r = -1: a warm-up run */
        zero_device(a, flags_a, 256);
        zero_device(b, flags_b, 256);
        zero_device(a, res_a, sizeof *res_a);
        zero_device(b, res_b, sizeof *res_b);
        lab05_launch_pingpong(a, ctx->gpu[a].stream[0], b, ctx->gpu[b].stream[0], to_pong,
                              to_ping, warmup, rounds,
                              tool ? PINGPONG_TIMEOUT_NS / 5 : PINGPONG_TIMEOUT_NS, res_a, res_b);
        CUDA_CHECK(cudaSetDevice(a));
        CUDA_CHECK(cudaStreamSynchronize(ctx->gpu[a].stream[0]));
        CUDA_CHECK(cudaSetDevice(b));
        CUDA_CHECK(cudaStreamSynchronize(ctx->gpu[b].stream[0]));
        lab05_pingpong_result ping, pong;
        unsigned int last[2] = {0, 0};
        CUDA_CHECK(cudaMemcpy(&ping, res_a, sizeof ping, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(&pong, res_b, sizeof pong, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(&last[0], to_pong, sizeof last[0], cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(&last[1], to_ping, sizeof last[1], cudaMemcpyDeviceToHost));
        const unsigned int total = (unsigned int)(warmup + rounds);
        if (tool && ping.failed_round == 1 && pong.failed_round == 1) {
            /* Neither side ever saw the other: the tool ran them one after
             * the other. Not a failure of the program. */
            lab05_add_value(ctx, "pingpong", "skipped", a, b, "",
                            "the two kernels did not run at the same time under the attached "
                            "tool (CUDA_INJECTION64_PATH is set)");
            skipped = 1;
            break;
        }
        if (ping.failed_round || pong.failed_round) {
            fprintf(stderr,
                    "ping-pong GPU %d <-> GPU %d (%s) timed out: ping stuck in round %u, "
                    "pong in round %u, of %u: a flag write did not become visible\n",
                    a, b, remote_writes ? "write_remote" : "poll_remote", ping.failed_round,
                    pong.failed_round, total);
            exit(LAB_EXIT_FAIL);
        }
        if (ping.rounds != total || pong.rounds != total || last[0] != total ||
            last[1] != total) {
            fprintf(stderr,
                    "verification failed: ping-pong GPU %d <-> GPU %d: %u and %u rounds, "
                    "flags %u and %u, expected %u\n",
                    a, b, ping.rounds, pong.rounds, last[0], last[1], total);
            exit(LAB_EXIT_FAIL);
        }
        if (r >= 0) {
            /* One-way latency = half a round trip, as ms per "operation". */
            ms[r] = (double)ping.elapsed_ns / 2.0 / 1e6;
            round_trip_ns += (double)ping.elapsed_ns / rounds / reps;
        }
    }
    if (skipped)
        goto cleanup;
    lab05_row *row = lab05_add_row(ctx, "pingpong", remote_writes ? "write_remote" : "poll_remote");
    row->src = a;
    row->dst = b;
    snprintf(row->mode, sizeof row->mode, "one_way");
    row->peer = 1;
    row->bytes = sizeof(unsigned int);
    row->ops = rounds;
    lab05_stats_us(ms, reps, rounds, &row->us);
    row->verified = 1;
    snprintf(row->detail, sizeof row->detail,
             "%s; mean round trip %.3f us; one way = round trip / 2",
             remote_writes ? "flags in the receiver's memory: stores cross the link"
                           : "flags in the sender's memory: polling loads cross the link",
             round_trip_ns / 1e3);

cleanup:
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaFree(flags_a));
    CUDA_CHECK(cudaFree(res_a));
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaFree(flags_b));
    CUDA_CHECK(cudaFree(res_b));
    return skipped;
}

void lab05_run_pingpong(lab05_ctx *ctx)
{
    for (int p = 0; p < ctx->npairs; p++) {
        const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
        if (a > b || !ctx->link[a * ctx->n + b].p2p)
            continue; /* symmetric: once per unordered pair */
        lab05_set_peer(a, b, true);
        if (pingpong_variant(ctx, a, b, 1) == 0)
            (void)pingpong_variant(ctx, a, b, 0);
    }
}
