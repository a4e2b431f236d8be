/**
 * @file experiments.c
 * @brief Lab 01's registry: chapter 4.1's questions asked through the student's functions on
 *        every GPU and ordered pair, each answer checked against the same call made here. Each
 *        experiment starts and ends with peer access off, so it can run alone (-t KEY).
 */
#include "lab.h"
#include "peer_checks.h"

#include <stdio.h>
#include <string.h>

extern const lab_host_part lab_host;

enum { ENABLE = 0, FLAGS_1 = 1, DISABLE = -1 };

/* The harness's own call from dev: enable with flags op, or disable. Its error is a result,
 * provoked on purpose, and cleared. */
static cudaError_t raw(int dev, int peer, int op)
{
    CUDA_CHECK(cudaSetDevice(dev));
    cudaError_t err = op == DISABLE ? cudaDeviceDisablePeerAccess(peer)
                                    : cudaDeviceEnablePeerAccess(peer, (unsigned)op);
    (void)cudaGetLastError();
    return err;
}

/* Both directions of a pair off again, whatever a student's call did. */
static void pair_off(int a, int b)
{
    (void)raw(a, b, DISABLE);
    (void)raw(b, a, DISABLE);
}

/* A GPU other than dev made current (where there is one), so that a function that must set
 * dev, or must leave the device alone, is caught. */
static int other_current(const lab_ctx *ctx, int dev)
{
    int other = (dev + 1) % ctx->gpus;
    CUDA_CHECK(cudaSetDevice(other));
    return other;
}

/* The clauses every contract shares: status, nothing pending, the current device. why stays
 * empty when all were kept. */
static void after_call(const char *fn, cudaError_t status, int want_dev, char *why, size_t len)
{
    cudaError_t pending = cudaGetLastError();
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    why[0] = '\0';
    if (status != cudaSuccess)
        snprintf(why, len, "%s returned %s", fn, cudaGetErrorName(status));
    else if (pending != cudaSuccess)
        snprintf(why, len, "%s left %s pending as the last error", fn, cudaGetErrorName(pending));
    else if (current != want_dev)
        snprintf(why, len, "%s left GPU %d current; its contract says GPU %d", fn, current,
                 want_dev);
}

/* One answer as a row: verified when the contract was kept (broken empty) and it equals the
 * harness's own answer; without want, an observation. */
static int record(lab_ctx *ctx, const char *exp, const char *variant, int src, int dst,
                  const char *got, const char *want, const char *broken, const char *note)
{
    lab_row row = lab_row_empty(exp, variant);
    row.src = src;
    row.dst = dst;
    if (dst >= 0)
        lab_row_set(row.route, sizeof row.route, "%s",
                    lab_route_name(src == dst ? LAB_ROUTE_LOOPBACK : LAB_ROUTE_PEER));
    lab_row_set(row.value, sizeof row.value, "%s", got);
    row.verified = want == NULL ? -1 : broken[0] == '\0' && strcmp(got, want) == 0;
    if (row.verified == 0 && broken[0] == '\0')
        lab_row_set(row.detail, sizeof row.detail, "the harness's own call answers %s", want);
    else
        lab_row_set(row.detail, sizeof row.detail, "%s", row.verified ? note : broken);
    lab_emit(ctx, &row);
    return lab_check(ctx, row.verified != 0, "%s %s %d->%d is %s: %s", exp, variant, src, dst,
                     got, row.detail);
}

static void gpu_fields(const gpu_info *g, char text[4][256])
{
    snprintf(text[0], 256, "%.255s", g->name);
    snprintf(text[1], 256, "%d.%d", g->major, g->minor);
    snprintf(text[2], 256, "%d", g->unified_addressing);
    snprintf(text[3], 256, "%.31s", g->pci_bus_id);
}

/* TODO 01.1 on every GPU. */
static int run_gpus(lab_ctx *ctx)
{
    static const char *field[4] = {"name", "compute_capability", "unified_addressing",
                                   "pci_bus_id"};
    int status = 0;
    for (int dev = 0; dev < ctx->gpus; dev++) {
        struct cudaDeviceProp prop;
        char want_s[4][256], got_s[4][256], why[256];
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        gpu_info got = {0}, want = {.major = prop.major, .minor = prop.minor,
                                    .unified_addressing = prop.unifiedAddressing};
        snprintf(want.name, sizeof want.name, "%s", prop.name);
        CUDA_CHECK(cudaDeviceGetPCIBusId(want.pci_bus_id, (int)sizeof want.pci_bus_id, dev));
        int current = other_current(ctx, dev);
        after_call("describe_gpu", describe_gpu(dev, &got), current, why, sizeof why);
        gpu_fields(&want, want_s);
        gpu_fields(&got, got_s);
        for (int k = 0; k < 4; k++)
            status |= record(ctx, "gpus", field[k], dev, -1, got_s[k], want_s[k], why,
                             k == 2 ? "the chapter says P2P needs UVA" : "");
    }
    return status;
}

/* Which (dev, peer) cells: the diagonal, pairs with peer access, every pair. */
enum { SELF = 1, PEERS = 2, ALL_PAIRS = 4 };

/* fn(ctx, exp, dev, peer) on each chosen cell: 0 when all passed, else LAB_EXIT_FAIL. */
static int each(lab_ctx *ctx, const char *exp, int which,
                int (*fn)(lab_ctx *, const char *, int, int))
{
    int status = 0;
    for (int dev = 0; dev < ctx->gpus; dev++)
        for (int peer = 0; peer < ctx->gpus; peer++)
            if ((which & (dev == peer ? SELF : ALL_PAIRS)) ||
                (dev != peer && (which & PEERS) && lab_can_access_peer(dev, peer)))
                status |= fn(ctx, exp, dev, peer);
    return status;
}

/* TODO 01.2 on one cell of the matrix. */
static int matrix_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    int want = 0, can = -1;
    char why[256], got_s[16], want_s[16], note[160];
    cudaError_t want_err = cudaDeviceCanAccessPeer(&want, dev, peer);
    (void)cudaGetLastError();
    int current = other_current(ctx, dev);
    cudaError_t err = check_access(dev, peer, &can);
    after_call("check_access", cudaSuccess, current, why, sizeof why);
    if (!why[0] && err != want_err)
        snprintf(why, sizeof why, "check_access returned %s; the harness's call %s",
                 cudaGetErrorName(err), cudaGetErrorName(want_err));
    snprintf(got_s, sizeof got_s, "%d", can);
    snprintf(want_s, sizeof want_s, "%d", want_err == cudaSuccess ? want : 0);
    snprintf(note, sizeof note, "cudaDeviceCanAccessPeer returned %s%s", cudaGetErrorName(err),
             dev == peer && can == 0 ? "; the diagonal: a GPU reaches its own memory "
                                       "without P2P" : "");
    return record(ctx, exp, "can_access_peer", dev, peer, got_s, want_s, why, note);
}

/* TODO 01.3 on two distinct GPUs (the attributes describe a pair). */
static int attr_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    static const char *variant[4] = {"performance_rank", "access_supported",
                                     "native_atomic_supported", "cuda_array_access_supported"};
    static const enum cudaDeviceP2PAttr attr[4] = {
        cudaDevP2PAttrPerformanceRank, cudaDevP2PAttrAccessSupported,
        cudaDevP2PAttrNativeAtomicSupported, cudaDevP2PAttrCudaArrayAccessSupported};
    p2p_attributes got = {-1, -1, -1, -1};
    const int *value[4] = {&got.performance_rank, &got.access_supported, &got.native_atomics,
                           &got.array_access};
    char why[256], got_s[16], want_s[16];
    int status = 0, current = other_current(ctx, dev);
    after_call("query_attributes", query_attributes(dev, peer, &got), current, why, sizeof why);
    for (int k = 0; k < 4; k++) {
        int want = 0;
        CUDA_CHECK(cudaDeviceGetP2PAttribute(&want, attr[k], dev, peer));
        snprintf(want_s, sizeof want_s, "%d", want);
        snprintf(got_s, sizeof got_s, "%d", *value[k]);
        status |= record(ctx, exp, variant[k], dev, peer, got_s, want_s, why, "");
    }
    return status;
}

/* TODO 01.4 (peer may be dev): the student's call, then the harness's own from the same state
 * (access off). */
static int flags_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    cudaError_t got = cudaErrorUnknown;
    char why[256];
    (void)other_current(ctx, dev);
    after_call("try_nonzero_flags", try_nonzero_flags(dev, peer, &got), dev, why, sizeof why);
    bool came_on = dev != peer && raw(dev, peer, DISABLE) == cudaSuccess;
    cudaError_t want = raw(dev, peer, FLAGS_1);
    if (dev != peer && want == cudaSuccess)
        (void)raw(dev, peer, DISABLE);
    if (!why[0] && came_on && want != cudaSuccess)
        snprintf(why, sizeof why, "access %d->%d came on, which flags 1 does not do", dev, peer);
    return record(ctx, exp, "enable_flags_1", dev, peer, cudaGetErrorName(got),
                  cudaGetErrorName(want), why,
                  dev == peer ? "flags 1 on the GPU itself" : "flags 1 asked before access is on");
}

/* TODO 01.5 (enable) or 01.6: the harness's two calls first, the state put back, then the
 * student's two calls and the state their contract promises. */
static int twice(lab_ctx *ctx, const char *exp, int dev, int peer, bool enable)
{
    const char *fn = enable ? "enable_twice" : "disable_twice";
    peer_calls want, got = {cudaErrorUnknown, cudaErrorUnknown};
    char why[256];
    want.first = raw(dev, peer, enable ? ENABLE : DISABLE);
    want.again = raw(dev, peer, enable ? ENABLE : DISABLE);
    if (dev != peer)
        (void)raw(dev, peer, enable ? DISABLE : ENABLE);
    (void)other_current(ctx, dev);
    after_call(fn, (enable ? enable_twice : disable_twice)(dev, peer, &got), dev, why, sizeof why);
    bool checked = !why[0] && dev != peer;
    bool on = checked && raw(dev, peer, DISABLE) == cudaSuccess; /* asked by switching it off */
    if (on)
        (void)raw(dev, peer, ENABLE); /* and back on */
    if (checked && on != enable)
        snprintf(why, sizeof why, "access %d->%d is %s after %s", dev, peer,
                 enable ? "off" : "still on", fn);
    int status = record(ctx, exp, enable ? "enable_first" : "disable_first", dev, peer,
                        cudaGetErrorName(got.first), cudaGetErrorName(want.first), why, "");
    return status | record(ctx, exp, enable ? "enable_again" : "disable_again", dev, peer,
                           cudaGetErrorName(got.again), cudaGetErrorName(want.again), why,
                           enable && dev != peer ? "harmless and cleared" : "");
}

/* TODOs 01.5 and 01.6 on a GPU itself: enable, then disable. */
static int self_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    int status = twice(ctx, exp, dev, peer, true);
    return status | twice(ctx, exp, dev, peer, false);
}

/* TODO 01.5 on a pair, then the pair is switched off. */
static int enable_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    int status = twice(ctx, exp, dev, peer, true);
    pair_off(dev, peer);
    return status;
}

/* TODO 01.6 on a pair whose access the harness switched on. */
static int disable_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    CUDA_CHECK(lab_enable_peer(dev, peer));
    int status = twice(ctx, exp, dev, peer, false);
    pair_off(dev, peer);
    return status;
}

/* Enabling is one-way: right after dev -> peer comes on (through the student's enable_twice),
 * peer disables its access to dev. One per pair. */
static int one_way_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    if (dev > peer && lab_can_access_peer(peer, dev))
        return 0;
    char note[160];
    int status = twice(ctx, exp, dev, peer, true);
    snprintf(note, sizeof note, "GPU %d disabling its access to GPU %d right after %d->%d "
             "came on", peer, dev, dev, peer);
    status |= record(ctx, exp, "reverse_disable", peer, dev,
                     cudaGetErrorName(raw(peer, dev, DISABLE)), NULL, "", note);
    pair_off(dev, peer);
    return status;
}

/* "Visible, but not automatic": who owns p, asked from GPU from. */
static const char *owner_of(const void *p, int from)
{
    static char text[64];
    struct cudaPointerAttributes attr;
    CUDA_CHECK(cudaSetDevice(from));
    cudaError_t err = cudaPointerGetAttributes(&attr, p);
    (void)cudaGetLastError();
    if (err != cudaSuccess)
        return cudaGetErrorName(err);
    snprintf(text, sizeof text, "device %d", attr.device);
    return attr.type == cudaMemoryTypeDevice    ? text
           : attr.type == cudaMemoryTypeManaged ? "managed"
           : attr.type == cudaMemoryTypeHost    ? "host" : "unregistered";
}

/* A buffer GPU peer allocated, seen from dev with access on, is still peer's own device memory
 * (nothing was allocated on dev or moved there); once peer frees it, dev's view of it is gone. */
static int explicit_cell(lab_ctx *ctx, const char *exp, int dev, int peer)
{
    void *buf = NULL;
    char want[32], note[160];
    CUDA_CHECK(cudaSetDevice(peer));
    CUDA_CHECK(cudaMalloc(&buf, (size_t)1 << 20));
    CUDA_CHECK(lab_enable_peer(dev, peer));
    snprintf(want, sizeof want, "device %d", peer);
    snprintf(note, sizeof note, "GPU %d's 1 MiB cudaMalloc buffer, asked from GPU %d with "
             "access %d->%d on", peer, dev, dev, peer);
    int status = record(ctx, exp, "owner_with_access", peer, dev, owner_of(buf, dev), want, "",
                        note);
    CUDA_CHECK(cudaSetDevice(peer));
    CUDA_CHECK(cudaFree(buf));
    snprintf(note, sizeof note, "the same address asked from GPU %d after GPU %d freed it",
             dev, peer);
    status |= record(ctx, exp, "after_owner_free", peer, dev, owner_of(buf, dev), NULL, "", note);
    pair_off(dev, peer);
    return status;
}

static int run_matrix(lab_ctx *ctx) { return each(ctx, "matrix", SELF | ALL_PAIRS, matrix_cell); }
static int run_attributes(lab_ctx *ctx) { return each(ctx, "attributes", ALL_PAIRS, attr_cell); }
static int run_flags(lab_ctx *ctx) { return each(ctx, "flags", SELF | PEERS, flags_cell); }
static int run_self(lab_ctx *ctx) { return each(ctx, "self_access", SELF, self_cell); }
static int run_enable(lab_ctx *ctx) { return each(ctx, "enable_twice", PEERS, enable_cell); }
static int run_one_way(lab_ctx *ctx) { return each(ctx, "one_way", PEERS, one_way_cell); }
static int run_disable(lab_ctx *ctx) { return each(ctx, "disable_twice", PEERS, disable_cell); }
static int run_explicit(lab_ctx *ctx) { return each(ctx, "explicit_memory", PEERS, explicit_cell); }

/* Pair experiments need a direction with peer access. */
static bool need_p2p(const lab_ctx *ctx, char *why, size_t len)
{
    if (!lab_need_two_gpus(ctx, why, len))
        return false;
    for (int dev = 0; dev < ctx->gpus; dev++)
        for (int peer = 0; peer < ctx->gpus; peer++)
            if (dev != peer && lab_can_access_peer(dev, peer))
                return true;
    snprintf(why, len, "needs peer access: cudaDeviceCanAccessPeer is 0 for every pair of "
             "the %d GPUs", ctx->gpus);
    return false;
}

static const lab_experiment experiments[] = {
    {"gpus", "each GPU: name, compute capability, UVA, PCI id (TODO 01.1)", lab_need_one_gpu,
     run_gpus},
    {"matrix", "the N x N cudaDeviceCanAccessPeer matrix, diagonal included (TODO 01.2)",
     lab_need_one_gpu, run_matrix},
    {"attributes", "the four P2P attributes of every ordered pair (TODO 01.3)",
     lab_need_two_gpus, run_attributes},
    {"flags", "enabling with flags 1: on each GPU itself, on each pair (TODO 01.4)",
     lab_need_one_gpu, run_flags},
    {"self_access", "enabling and disabling a GPU's access to itself (TODOs 01.5, 01.6)",
     lab_need_one_gpu, run_self},
    {"enable_twice", "enabling access with flags 0, then again (TODO 01.5)", need_p2p,
     run_enable},
    {"one_way", "after a -> b is enabled, is b -> a? (TODO 01.5 and a probe)", need_p2p,
     run_one_way},
    {"disable_twice", "disabling access, then again (TODO 01.6)", need_p2p, run_disable},
    {"explicit_memory", "a peer's buffer with access on: still the peer's, gone when freed",
     need_p2p, run_explicit},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary = "Lab 01 (chapter 4.1): which GPUs can reach each other, and what the\n"
               "peer-access API answers, errors included. Every GPU and every ordered pair\n"
               "is asked; each answer of the student's functions is checked against the\n"
               "same call made by the harness.",
    .epilogue = "One GPU runs gpus, matrix, flags and self_access; the other experiments\n"
                "need two GPUs with peer access. -a/-b are not used: every pair is asked;\n"
                "-q, -r and -s change nothing: the lab times nothing and generates no data.",
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
};
