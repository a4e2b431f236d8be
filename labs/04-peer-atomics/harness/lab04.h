/**
 * @file lab04.h
 * @brief Lab 04's harness: the run's settings, the helpers the experiments share, the
 *        harness's own kernels and the experiments.
 */
#ifndef LAB04_H
#define LAB04_H

#include "atomics.h"
#include "lab.h"

/** @brief What the command line asked for, with the defaults applied. */
typedef struct lab04_state {
    int a;                  /**< GPU a: owns the shared data (-1: no GPU) */
    int b;                  /**< GPU b: the peer (-1: none) */
    char peer_why[256];     /**< why the peer experiments cannot run ("" they can) */
    lab04_shape gpu_shape;  /**< counters in GPU memory (loopback, peer) */
    lab04_shape host_shape; /**< counters in host memory (fewer iterations) */
    size_t hist_bytes;      /**< histogram input, bins in GPU memory */
    size_t host_hist_bytes; /**< histogram input, bins in host memory */
    int chain_steps;        /**< dependent atomics per chain */
    int reps;               /**< timed runs after one warm-up */
    uint64_t seed;          /**< seed of the data and the chain */
} lab04_state;

/** @brief What lab04_repeat measured. */
typedef struct lab04_runs {
    int reps;        /**< timed runs (after one untimed warm-up) */
    int wrong;       /**< runs, warm-up included, whose check failed */
    int first_wrong; /**< the first of them (0: the warm-up), -1 none */
    lab_stats us;    /**< microseconds per timed run */
} lab04_runs;

#ifdef __cplusplus
extern "C" {
#endif

/** @brief One warm-up and out->reps timed runs of @p plan, each followed by @p check (1: the
 *         result is right): span_run on two GPUs, the same steps on a alone when pair->b < 0. */
void lab04_repeat(lab04_pair *pair, const span_plan *plan, int (*check)(void *arg),
                  lab04_runs *out);

/** @brief Zero far memory: the host's side directly (the stream is idle), else a memset. */
void lab04_zero(const lab_far *far, size_t bytes, cudaStream_t stream);
/** @brief Read far memory into @p out after the work on @p stream is done. */
void lab04_read(const lab_far *far, void *out, size_t bytes, cudaStream_t stream);

/** @brief A row of @p route (dst -1 on the host's); a timed run's fields too, unless
 *         @p runs is NULL. */
lab_row lab04_row(const char *experiment, const char *variant, lab_route route, int src,
                  int dst, const lab04_runs *runs);

/** @brief Harness kernels (launch.cu): the naive histogram, one system-scope atomic per
 *         byte on @p hist; one 64-bit and LAB04_BINS 32-bit additions out = x + y;
 *         *flag = 1 once the stream gets there. */
cudaError_t lab04_histogram_naive(const unsigned char *data, size_t n, unsigned int *hist,
                                  lab04_shape shape, cudaStream_t stream);
/** @copydoc lab04_histogram_naive */
cudaError_t lab04_sum_u64(unsigned long long *out, const unsigned long long *x,
                          const unsigned long long *y, cudaStream_t stream);
/** @copydoc lab04_histogram_naive */
cudaError_t lab04_sum_bins(unsigned int *out, const unsigned int *x, const unsigned int *y,
                           cudaStream_t stream);
/** @copydoc lab04_histogram_naive */
cudaError_t lab04_raise_flag(volatile unsigned int *flag, cudaStream_t stream);

/** @brief An experiment at one place of a's shared data, @p pair set up (counters.c,
 *         histogram.c, latency.c): every variant, its rows and checks. */
int lab04_counters_at(lab_ctx *ctx, lab04_pair *pair, lab_route route);
/** @copydoc lab04_counters_at */
int lab04_histograms_at(lab_ctx *ctx, lab04_pair *pair, lab_route route);
/** @copydoc lab04_counters_at */
int lab04_latency_at(lab_ctx *ctx, lab04_pair *pair, lab_route route);
/** @brief The cpu-gpu experiment (counters.c). */
int lab04_run_cpu_gpu(lab_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LAB04_H */
