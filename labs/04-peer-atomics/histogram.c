/**
 * @file histogram.c
 * @brief Lab 04: a realistic use of cross-GPU atomics — one 256-bin
 *        histogram of seeded bytes, half of them on each GPU, the result in
 *        GPU a's memory. Naive (every byte an atomic on the shared
 *        histogram) against privatized (per-GPU histograms, merged once).
 */
#include "peer_atomics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** What the work functions of one histogram variant need. */
typedef struct hist_ctx {
    int privatized;              /**< 0: naive, 1: privatized */
    int a;                       /**< GPU a */
    int b;                       /**< GPU b */
    int blocks;                  /**< blocks per GPU */
    const unsigned char *data_a; /**< on a: the first half */
    const unsigned char *data_b; /**< on b: the second half */
    size_t n_a;                  /**< bytes on a */
    size_t n_b;                  /**< bytes on b */
    unsigned int *hist;          /**< on a: the result */
    unsigned int *partial_a;     /**< on a: a's private histogram */
    unsigned int *landing_a;     /**< on a: where b's histogram lands */
    unsigned int *partial_b;     /**< on b: b's private histogram */
} hist_ctx;

static const size_t hist_bytes = LAB04_BINS * sizeof(unsigned int);

static void reset_a(void *arg, cudaStream_t stream)
{
    const hist_ctx *h = arg;
    CUDA_CHECK(cudaMemsetAsync(h->hist, 0, hist_bytes, stream));
    CUDA_CHECK(cudaMemsetAsync(h->partial_a, 0, hist_bytes, stream));
    CUDA_CHECK(cudaMemsetAsync(h->landing_a, 0, hist_bytes, stream));
}

static void reset_b(void *arg, cudaStream_t stream)
{
    const hist_ctx *h = arg;
    CUDA_CHECK(cudaMemsetAsync(h->partial_b, 0, hist_bytes, stream));
}

static void work_a(void *arg, cudaStream_t stream)
{
    const hist_ctx *h = arg;
    if (h->privatized)
        launch_histogram_privatized(h->data_a, h->n_a, h->partial_a, h->blocks, stream);
    else
        launch_histogram_naive(h->data_a, h->n_a, h->hist, h->blocks, stream);
}

static void work_b(void *arg, cudaStream_t stream)
{
    const hist_ctx *h = arg;
    if (!h->privatized) {
        launch_histogram_naive(h->data_b, h->n_b, h->hist, h->blocks, stream);
        return;
    }
    launch_histogram_privatized(h->data_b, h->n_b, h->partial_b, h->blocks, stream);
    /* 256 counters, 1 KiB, cross the link once. */
    CUDA_CHECK(cudaMemcpyPeerAsync(h->landing_a, h->a, h->partial_b, h->b, hist_bytes, stream));
}

static void finish_a(void *arg, cudaStream_t stream)
{
    const hist_ctx *h = arg;
    launch_sum_u32(h->hist, h->partial_a, h->landing_a, LAB04_BINS, stream);
}

static void check_bins(const char *variant, const unsigned int *got, const unsigned int *want)
{
    for (int bin = 0; bin < LAB04_BINS; bin++)
        if (got[bin] != want[bin]) {
            fprintf(stderr, "histogram '%s': bin %d holds %u, the host counted %u\n",
                    variant, bin, got[bin], want[bin]);
            exit(LAB_EXIT_FAIL);
        }
}

static void run_variant(lab04_pair *pair, hist_ctx *h, const unsigned int *want, int reps,
                        hist_result *out)
{
    out->name = h->privatized ? "privatized" : "naive";
    out->scope = h->privatized ? "block+device" : "system";
    out->elements = h->n_a + h->n_b;
    out->peer_ops = h->privatized ? 0 : h->n_b;
    out->exact = 0;

    span_plan plan = {reset_a, reset_b, work_a, work_b, h->privatized ? finish_a : NULL, h};
    double *samples = calloc((size_t)reps, sizeof *samples);
    if (samples == NULL) {
        fprintf(stderr, "histogram: out of memory\n");
        exit(LAB_EXIT_FAIL);
    }
    unsigned int got[LAB04_BINS];
    for (int rep = -1; rep < reps; rep++) { /* rep -1 is the warm-up */
        float ms = span_run(pair, &plan);
        CUDA_CHECK(cudaSetDevice(h->a));
        CUDA_CHECK(cudaMemcpyAsync(got, h->hist, hist_bytes, cudaMemcpyDeviceToHost,
                                   pair->stream_a));
        CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
        check_bins(out->name, got, want); /* exits on any difference */
        if (rep >= 0)
            samples[rep] = ms;
    }
    out->exact = 1;
    out->total = 0;
    for (int bin = 0; bin < LAB04_BINS; bin++)
        out->total += got[bin];
    out->ms = summarize_ms(samples, reps, out->name);
    free(samples);
}

void run_histogram(lab04_pair *pair, const lab04_config *cfg,
                   hist_result out[LAB04_HIST_VARIANTS])
{
    const size_t n = cfg->hist_bytes;
    unsigned char *host = malloc(n);
    if (host == NULL) {
        fprintf(stderr, "histogram: cannot allocate %zu bytes on the host\n", n);
        exit(LAB_EXIT_FAIL);
    }
    lab_fill_bytes(host, n, cfg->seed);
    unsigned int want[LAB04_BINS] = {0};
    for (size_t i = 0; i < n; i++)
        want[host[i]]++;

    hist_ctx h = {0};
    h.a = pair->a;
    h.b = pair->b;
    h.blocks = cfg->blocks;
    h.n_a = (n / 2) & ~(size_t)3; /* a's half in whole words */
    h.n_b = n - h.n_a;

    unsigned char *data_a = NULL, *data_b = NULL;
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMalloc((void **)&data_a, h.n_a));
    CUDA_CHECK(cudaMemcpyAsync(data_a, host, h.n_a, cudaMemcpyHostToDevice, pair->stream_a));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_a)); /* complete, not just staged */
    CUDA_CHECK(cudaMalloc((void **)&h.hist, hist_bytes));
    CUDA_CHECK(cudaMalloc((void **)&h.partial_a, hist_bytes));
    CUDA_CHECK(cudaMalloc((void **)&h.landing_a, hist_bytes));
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaMalloc((void **)&data_b, h.n_b));
    CUDA_CHECK(cudaMemcpyAsync(data_b, host + h.n_a, h.n_b, cudaMemcpyHostToDevice,
                               pair->stream_b));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_b));
    CUDA_CHECK(cudaMalloc((void **)&h.partial_b, hist_bytes));
    h.data_a = data_a;
    h.data_b = data_b;
    free(host);

    h.privatized = 0;
    run_variant(pair, &h, want, cfg->reps, &out[0]);
    h.privatized = 1;
    run_variant(pair, &h, want, cfg->reps, &out[1]);

    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaFree(h.partial_b));
    CUDA_CHECK(cudaFree(data_b));
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaFree(h.landing_a));
    CUDA_CHECK(cudaFree(h.partial_a));
    CUDA_CHECK(cudaFree(h.hist));
    CUDA_CHECK(cudaFree(data_a));
}
