/**
 * @file histogram.c
 * @brief Lab 04: one 256-bin histogram of seeded bytes, naive (every byte an atomic on the
 *        shared bins) against privatized (per-block bins, merged, moved once); the bins in
 *        a's memory or in host memory, or half the data on each of two GPUs.
 */
#include "lab04.h"

#include <stdlib.h>

static const size_t bin_bytes = LAB04_BINS * sizeof(unsigned int);

/** What the steps of one histogram variant need. */
typedef struct hist_job {
    int privatized;              /**< 0: naive, 1: privatized */
    lab04_pair *pair;            /**< the GPUs (b < 0: one GPU) */
    lab04_shape shape;           /**< blocks and threads per GPU */
    const unsigned char *data_a; /**< on a: a's part of the input */
    const unsigned char *data_b; /**< on b: b's part */
    size_t n_a;                  /**< bytes on a */
    size_t n_b;                  /**< bytes on b (0: one GPU) */
    lab_far hist;                /**< the shared bins, where the route puts them */
    unsigned int *partial_a;     /**< on a: a's own bins */
    unsigned int *landing_a;     /**< on a: where b's bins land */
    unsigned int *partial_b;     /**< on b: b's own bins */
    const unsigned int *want;    /**< the host's histogram */
    unsigned long long total;    /**< sum of the bins of the last run */
    char wrong[96];              /**< the first wrong bin seen, "" none */
} hist_job;

static void reset_a(void *arg, cudaStream_t stream)
{
    const hist_job *h = arg;
    lab04_zero(&h->hist, bin_bytes, stream);
    CUDA_CHECK(cudaMemsetAsync(h->partial_a, 0, bin_bytes, stream));
}

static void reset_b(void *arg, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemsetAsync(((const hist_job *)arg)->partial_b, 0, bin_bytes, stream));
}

static void work_a(void *arg, cudaStream_t stream)
{
    const hist_job *h = arg;
    if (!h->privatized) {
        CUDA_CHECK(lab04_histogram_naive(h->data_a, h->n_a, h->hist.ptr, h->shape, stream));
        return;
    }
    CUDA_CHECK(launch_histogram_privatized(h->data_a, h->n_a, h->partial_a, h->shape, stream));
    if (h->pair->b < 0) /* one GPU: its 1 KiB of bins go where the result lives, once */
        CUDA_CHECK(cudaMemcpyAsync(h->hist.host ? h->hist.host : h->hist.ptr, h->partial_a,
                                   bin_bytes, cudaMemcpyDefault, stream));
}

/* Privatized, b's 1 KiB of bins reach a by one peer copy. */
static void work_b(void *arg, cudaStream_t stream)
{
    const hist_job *h = arg;
    if (!h->privatized) {
        CUDA_CHECK(lab04_histogram_naive(h->data_b, h->n_b, h->hist.ptr, h->shape, stream));
        return;
    }
    CUDA_CHECK(launch_histogram_privatized(h->data_b, h->n_b, h->partial_b, h->shape, stream));
    CUDA_CHECK(gather_peer(h->landing_a, h->pair->a, h->partial_b, h->pair->b, bin_bytes, stream));
}

static void finish_a(void *arg, cudaStream_t stream)
{
    const hist_job *h = arg;
    CUDA_CHECK(lab04_sum_bins(h->hist.ptr, h->partial_a, h->landing_a, stream));
}

static int check_bins(void *arg)
{
    hist_job *h = arg;
    unsigned int got[LAB04_BINS];
    int ok = 1;
    lab04_read(&h->hist, got, bin_bytes, h->pair->stream_a);
    h->total = 0;
    for (int bin = 0; bin < LAB04_BINS; bin++) {
        h->total += got[bin];
        if (got[bin] == h->want[bin])
            continue;
        if (ok && h->wrong[0] == '\0')
            snprintf(h->wrong, sizeof h->wrong, "bin %d holds %u, the host counted %u", bin,
                     got[bin], h->want[bin]);
        ok = 0;
    }
    return ok;
}

static int run_variant(lab_ctx *ctx, const char *key, hist_job *h, lab_route route)
{
    const char *name = h->privatized ? "privatized" : "naive";
    const int two = h->pair->b >= 0;
    const size_t n = h->n_a + h->n_b;
    const size_t across = h->privatized || route == LAB_ROUTE_LOOPBACK ? 0
                          : route == LAB_ROUTE_HOST ? n : h->n_b;
    span_plan plan = {reset_a, two ? reset_b : NULL, work_a, work_b,
                      two && h->privatized ? finish_a : NULL, h};
    lab04_runs runs = {.reps = ((const lab04_state *)ctx->lab)->reps};
    h->wrong[0] = '\0';
    lab04_repeat(h->pair, &plan, check_bins, &runs);

    lab_row row = lab04_row(key, name, route, two ? h->pair->b : h->pair->a, h->pair->a, &runs);
    lab_row_set(row.mode, sizeof row.mode, "%s", two ? "both" : "one");
    row.bytes = n;
    row.count = (long)n;
    row.gbps = runs.us.median > 0.0 ? (double)n / runs.us.median / 1e3 : 0.0;
    lab_row_set(row.value, sizeof row.value, "%llu", h->total);
    lab_row_set(row.detail, sizeof row.detail, "across=%zu blocks=%d threads=%d%s%s", across,
                h->shape.blocks, h->shape.threads, h->wrong[0] ? " " : "", h->wrong);
    lab_emit(ctx, &row);
    return lab_check(ctx, runs.wrong == 0, "%s %s (%s): %s in run %d%s", key, name, row.route,
                     h->wrong, runs.first_wrong, h->privatized ? " (TODO 04.6)" : "");
}

/** An input no row shows: @p n bytes from @p offset of a's data (0: all of it but the first
 *  @p offset and the last byte), with blocks and threads of its own (0 blocks: the run's
 *  shape). One that does not fit the input (--hist-size is at least 64 bytes) is left out. */
typedef struct hist_edge {
    size_t offset;     /**< bytes from the start: 4 is 4-byte aligned, not 16 */
    size_t n;          /**< bytes counted */
    lab04_shape shape; /**< the launch */
} hist_edge;

/* Tails of 1 to 3 bytes, data 4 bytes past a 16-byte boundary, one or a few blocks of odd
 * sizes, and nearly the whole input; the bins hold counts already (added to, not overwritten). */
static const hist_edge edges[] = {
    {0, 1, {1, 33, 0}},    {0, 3, {2, 33, 0}},        {4, 59, {1, 244, 0}},
    {0, 4099, {3, 64, 0}}, {4, 65537, {5, 1024, 0}}, {4, 0, {0, 0, 0}},
};

/** One launch of the privatized histogram whose shape is checked (captured, not run). */
typedef struct hist_call {
    const unsigned char *data; /**< the input */
    size_t n;                  /**< its bytes */
    unsigned int *partial;     /**< the bins */
    lab04_shape shape;         /**< the launch asked for */
} hist_call;

static cudaError_t hist_call_work(cudaStream_t stream, void *arg)
{
    const hist_call *c = arg;
    return launch_histogram_privatized(c->data, c->n, c->partial, c->shape, stream);
}

/* The launch enqueues one kernel of shape.blocks blocks of shape.threads threads (any threads
 * per block work; a kernel written for 256 would need its own): 0, or LAB_EXIT_FAIL. */
static int check_edge_launch(lab_ctx *ctx, const hist_call *c)
{
    lab_launches seen;
    const cudaError_t err = lab_capture_launches(hist_call_work, (void *)c, &seen);
    return lab_check(ctx, err == cudaSuccess && seen.kernels == 1 &&
                     seen.grid.x == (unsigned)c->shape.blocks && seen.grid.y == 1 &&
                     seen.grid.z == 1 && seen.block.x == (unsigned)c->shape.threads &&
                     seen.block.y == 1 && seen.block.z == 1, "TODO 04.6: "
                     "launch_histogram_privatized(%d blocks of %d threads) returned %s and "
                     "launched %d kernel(s), the first on %u x %u x %u blocks of %u x %u x %u "
                     "threads", c->shape.blocks, c->shape.threads, cudaGetErrorName(err),
                     seen.kernels, seen.grid.x, seen.grid.y, seen.grid.z, seen.block.x,
                     seen.block.y, seen.block.z);
}

/* One edge on a: launch_histogram_privatized onto bins that start at seeded counts, against the
 * host's count, and its launch's shape. 0, or LAB_EXIT_FAIL after saying what differs. */
static int check_edge(lab_ctx *ctx, const hist_job *h, const unsigned char *host,
                      const hist_edge *e)
{
    const size_t n = e->n ? e->n : h->n_a - e->offset - 1;
    const lab04_shape shape = e->shape.blocks ? e->shape : h->shape;
    unsigned int before[LAB04_BINS], want[LAB04_BINS], got[LAB04_BINS];
    if (e->offset + n > h->n_a)
        return 0;
    for (int bin = 0; bin < LAB04_BINS; bin++)
        want[bin] = before[bin] = 1000u + 7u * (unsigned int)bin;
    for (size_t i = 0; i < n; i++)
        want[host[e->offset + i]]++;
    const hist_call call = {h->data_a + e->offset, n, h->partial_a, shape};
    CUDA_CHECK(cudaSetDevice(h->pair->a));
    if (check_edge_launch(ctx, &call) != 0)
        return LAB_EXIT_FAIL;
    CUDA_CHECK(cudaMemcpy(h->partial_a, before, bin_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(hist_call_work(h->pair->stream_a, (void *)&call));
    CUDA_CHECK(cudaStreamSynchronize(h->pair->stream_a));
    CUDA_CHECK(cudaMemcpy(got, h->partial_a, bin_bytes, cudaMemcpyDeviceToHost));
    for (int bin = 0; bin < LAB04_BINS; bin++)
        if (got[bin] != want[bin])
            return lab_check(ctx, 0, "TODO 04.6: launch_histogram_privatized over %zu bytes at "
                             "offset %zu (%d blocks of %d threads), its bins holding counts "
                             "already: bin %d holds %u, expected %u", n, e->offset,
                             shape.blocks, shape.threads, bin, got[bin], want[bin]);
    return 0;
}

static unsigned char *upload(int dev, const unsigned char *host, size_t n)
{
    unsigned char *dev_ptr = NULL;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaMalloc((void **)&dev_ptr, n));
    CUDA_CHECK(cudaMemcpy(dev_ptr, host, n, cudaMemcpyHostToDevice));
    return dev_ptr;
}

/* Both variants at one place: the seeded bytes on a, or two GPUs' halves (a's in whole
 * words), checked against the host's histogram of them; on one GPU the privatized kernel at
 * the edges first. */
int lab04_histograms_at(lab_ctx *ctx, lab04_pair *pair, lab_route route)
{
    const lab04_state *s = ctx->lab;
    const int two = pair->b >= 0;
    const size_t n = route == LAB_ROUTE_HOST ? s->host_hist_bytes : s->hist_bytes;
    unsigned int want[LAB04_BINS] = {0};
    unsigned char *host = lab_host_alloc(n, 1, "the histogram input");
    hist_job h = {.pair = pair, .shape = s->gpu_shape, .want = want, .n_a = n};
    int status = 0;
    lab_fill_bytes(host, n, s->seed);
    for (size_t i = 0; i < n; i++)
        want[host[i]]++;
    if (two) {
        h.n_a = (n / 2) & ~(size_t)3;
        h.n_b = n - h.n_a;
        h.data_b = upload(pair->b, host + h.n_a, h.n_b);
        CUDA_CHECK(cudaMalloc((void **)&h.partial_b, bin_bytes));
    }
    h.data_a = upload(pair->a, host, h.n_a);
    CUDA_CHECK(cudaMalloc((void **)&h.partial_a, bin_bytes));
    for (size_t e = 0; !two && e < sizeof edges / sizeof edges[0]; e++)
        status |= check_edge(ctx, &h, host, &edges[e]);
    free(host);
    if (two)
        CUDA_CHECK(cudaMalloc((void **)&h.landing_a, bin_bytes));
    CUDA_CHECK(lab_far_alloc(&h.hist, route, two ? pair->b : pair->a, pair->a, bin_bytes));
    for (h.privatized = 0; h.privatized < 2; h.privatized++)
        status |= run_variant(ctx, two ? "histogram-peer" : "histogram", &h, route);
    lab_far_free(&h.hist);
    if (two) {
        CUDA_CHECK(cudaSetDevice(pair->a));
        CUDA_CHECK(cudaFree(h.landing_a));
    }
    CUDA_CHECK(cudaFree(h.partial_a));
    CUDA_CHECK(cudaFree((void *)h.data_a));
    if (two) {
        CUDA_CHECK(cudaSetDevice(pair->b));
        CUDA_CHECK(cudaFree(h.partial_b));
        CUDA_CHECK(cudaFree((void *)h.data_b));
    }
    return status;
}
