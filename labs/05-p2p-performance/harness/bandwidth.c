/**
 * @file bandwidth.c
 * @brief The bandwidth sweeps: every ordered pair one and both ways (copy engine with peer
 *        access on and off, the SM copy of TODO 05.3 pulling and pushing) and GPU a's host link.
 *
 * Counted bytes (TODO 05.2): one way, the bytes of one copy; both ways, the bytes of both copies
 * over the time both take; each way, the bytes of the timed direction over its own time while the
 * other direction runs.
 */
#include "lab05.h"

/* Every size of one configuration: about 512 MiB per sample (1..64 rounds); t[0] is timed,
 * t[1] (both or each way) runs the other direction between the other two buffers (each way:
 * twice per round, so that it lasts while t[0] is timed). */
static void sweep(lab_ctx *ctx, const char *experiment, lab05_method method, int src, int dst,
                  lab_route route, const char *mode)
{
    const lab05 *L = ctx->lab;
    const bool both = mode[0] == 'b';
    for (int i = 0; i < L->nsizes; i++) {
        const size_t bytes = L->sizes[i], ops = ((size_t)512 << 20) / bytes;
        const lab05_xfer t = lab05_xfer_make(L, method, src, dst, bytes);
        lab05_job job = lab05_job_one(L, t, route, ops < 1 ? 1 : ops > 64 ? 64 : (int)ops);
        if (mode[0] != 'o') {
            job.t[1] = lab05_xfer_make(L, method, dst, src, bytes);
            job.n = 2;
            job.join = both;
        }
        lab_row row = lab05_row(experiment, lab05_method_names[method], &t, route, mode);
        lab05_run_job(ctx, &job, &row, both ? 2 : 1, both ? 2 : 1);
    }
}

/* Pair a -> b one way, and both ways once per unordered pair. */
static void pair_sweeps(lab_ctx *ctx, const char *experiment, lab05_method method, int a,
                        int b, lab_route route)
{
    sweep(ctx, experiment, method, a, b, route, "one_way");
    if (a < b)
        sweep(ctx, experiment, method, a, b, route, "both_ways");
}

int lab05_run_ce_bandwidth(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    for (int p = 0; p < L->npairs; p++) {
        const int a = L->pairs[2 * p], b = L->pairs[2 * p + 1];
        if (lab_links_pair(&L->links, a, b)->p2p) {
            lab05_set_peer(a, b, true);
            pair_sweeps(ctx, "ce_bandwidth", LAB05_CE, a, b, LAB_ROUTE_PEER);
        }
        /* Without peer access the driver stages the copy through host memory. */
        lab05_set_peer(a, b, false);
        pair_sweeps(ctx, "ce_bandwidth", LAB05_CE, a, b, LAB_ROUTE_PEER_OFF);
    }
    for (int k = 0; L->hsrc.ptr != NULL && k < 4; k++) /* to and from GPU a, alone, each way */
        sweep(ctx, "ce_bandwidth", LAB05_CE, k % 2 ? L->a : -1, k % 2 ? -1 : L->a,
              LAB_ROUTE_HOST, k < 2 ? "one_way" : "each_way");
    return 0;
}

/** One call of TODO 05.3's launcher whose shape is checked (captured, not run). */
typedef struct copy_call {
    void *dst;         /**< GPU a's destination buffer */
    const void *src;   /**< and its source */
    size_t bytes;      /**< bytes asked for */
    int max_blocks;    /**< the cap passed */
} copy_call;

static cudaError_t copy_call_work(cudaStream_t stream, void *arg)
{
    const copy_call *c = arg;
    return lab05_launch_sm_copy(c->dst, c->src, c->bytes, c->max_blocks, stream);
}

/* The SM copy's launch on GPU a, captured, not run: nothing for 0 bytes (allowed), else one
 * kernel of 1 to max_blocks blocks of LAB05_COPY_THREADS threads, at sizes a tail alone, an odd
 * size, and one that the cap must cut. 0, or LAB_EXIT_FAIL after saying which call did not. */
static int check_copy_launches(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    static const size_t sizes[] = {0, 4, 1000003, (size_t)16 << 20};
    const int caps[] = {1, 3, L->gpu[L->a].blocks};
    int status = 0;
    CUDA_CHECK(cudaSetDevice(L->a));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            copy_call call = {L->gpu[L->a].dst, L->gpu[L->a].src, sizes[s], caps[k]};
            lab_launches seen;
            const cudaError_t err = lab_capture_launches(copy_call_work, &call, &seen);
            const bool shaped = seen.kernels == 1 && seen.grid.x >= 1 &&
                                seen.grid.x <= (unsigned)caps[k] && seen.grid.y == 1 &&
                                seen.grid.z == 1 && seen.block.x == LAB05_COPY_THREADS &&
                                seen.block.y == 1 && seen.block.z == 1;
            status |= lab_check(ctx, err == cudaSuccess && (sizes[s] ? shaped : !seen.kernels),
                                "TODO 05.3: lab05_launch_sm_copy(%zu bytes, max_blocks %d) "
                                "returned %s and launched %d kernel(s), the first on %u x %u x "
                                "%u blocks of %u x %u x %u threads; the contract: %s", sizes[s],
                                caps[k], cudaGetErrorName(err), seen.kernels, seen.grid.x,
                                seen.grid.y, seen.grid.z, seen.block.x, seen.block.y,
                                seen.block.z, sizes[s] ? "one kernel of at least one and at "
                                "most max_blocks blocks of LAB05_COPY_THREADS (512) threads"
                                : "nothing launched for 0 bytes");
        }
    return status ? LAB_EXIT_FAIL : 0;
}

int lab05_run_sm_bandwidth(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    const int status = check_copy_launches(ctx);
    for (int p = 0; p < L->npairs; p++) {
        const int a = L->pairs[2 * p], b = L->pairs[2 * p + 1];
        if (!lab_links_pair(&L->links, a, b)->p2p)
            continue; /* a kernel cannot reach a peer without peer access (said once) */
        lab05_set_peer(a, b, true);
        pair_sweeps(ctx, "sm_bandwidth", LAB05_SM_PULL, a, b, LAB_ROUTE_PEER);
        pair_sweeps(ctx, "sm_bandwidth", LAB05_SM_PUSH, a, b, LAB_ROUTE_PEER);
    }
    if (L->hsrc.ptr == NULL)
        return status;
    /* Zero-copy: GPU a's kernel reads host memory (pull) or writes it (push). */
    sweep(ctx, "sm_bandwidth", LAB05_SM_PULL, -1, L->a, LAB_ROUTE_HOST, "one_way");
    sweep(ctx, "sm_bandwidth", LAB05_SM_PUSH, L->a, -1, LAB_ROUTE_HOST, "one_way");
    return status;
}
