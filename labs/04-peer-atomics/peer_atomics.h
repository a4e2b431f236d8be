/**
 * @file peer_atomics.h
 * @brief Lab 04 (chapter 4.3): cross-GPU atomics — the run's settings, the
 *        two-GPU timing harness, and the records the experiments fill.
 *
 * main.c parses the options and sets up the pair; link.c asks what the
 * link supports; span.c times work that runs on both GPUs at once;
 * counters.c, histogram.c and latency.c run the experiments and verify
 * them; report.c prints the results and the verdicts.
 */
#ifndef PEER_ATOMICS_H
#define PEER_ATOMICS_H

#include "kernels.h"
#include "lab.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

/** Number of counter variants (see counters.c). */
#define LAB04_COUNTER_VARIANTS 8
/** Number of latency variants: local, peer, peer_system. */
#define LAB04_LATENCY_VARIANTS 3
/** Number of histogram variants: naive, privatized. */
#define LAB04_HIST_VARIANTS 2

/** @brief What the command line asked for. */
typedef struct lab04_config {
    int want_a;           /**< -a, or -1 */
    int want_b;           /**< -b, or -1 */
    int reps;             /**< timed repetitions per variant (after one warm-up) */
    int iters;            /**< increments per thread in the counter experiments */
    int blocks;           /**< blocks per GPU; 0 until chosen from the SM count */
    size_t hist_bytes;    /**< bytes of histogram input, split over the two GPUs */
    int chain_steps;      /**< dependent atomics per latency measurement */
    uint64_t seed;        /**< seed of the histogram data and the chain */
    int quick;            /**< --quick: small sizes for tests */
    int simulate_no_native; /**< --simulate-no-native-atomics */
    lab_format format;    /**< table or CSV */
} lab04_config;

/** @brief The two GPUs, a stream on each, and the events that time both. */
typedef struct lab04_pair {
    int a;                 /**< GPU a: owns the counter, the histogram and the chain */
    int b;                 /**< GPU b: the peer that reaches into a's memory */
    cudaStream_t stream_a; /**< stream on GPU a */
    cudaStream_t stream_b; /**< stream on GPU b */
    lab_timer timer_a;     /**< start and stop, both recorded on GPU a */
    cudaEvent_t done_b;    /**< recorded on GPU b when b's part is done */
} lab04_pair;

/** @brief Work enqueued on one stream; @p arg is the experiment's context. */
typedef void (*span_work)(void *arg, cudaStream_t stream);

/**
 * @brief One run of an experiment over both GPUs. Any step may be NULL.
 *
 * prepare_a and prepare_b are not timed (resets). work_a and work_b run
 * concurrently, one on each GPU; finish_a runs on GPU a once both are done.
 */
typedef struct span_plan {
    span_work prepare_a; /**< untimed, on GPU a, before the start event */
    span_work prepare_b; /**< untimed, on GPU b, before it waits for the start */
    span_work work_a;    /**< timed, on GPU a */
    span_work work_b;    /**< timed, on GPU b, at the same time as work_a */
    span_work finish_a;  /**< timed, on GPU a, after both works */
    void *arg;           /**< passed to every step */
} span_plan;

/** @brief What the runtime says about the link and the machine. */
typedef struct link_info {
    int n;                 /**< GPUs on the machine */
    char name_a[256];      /**< GPU a's name */
    char name_b[256];      /**< GPU b's name */
    int access[2];         /**< cudaDeviceCanAccessPeer: [0] a->b, [1] b->a */
    int native[2];         /**< cudaDevP2PAttrNativeAtomicSupported, same order */
    int partial[2];        /**< cudaDevP2PAttrOnlyPartialNativeAtomicSupported */
    int add_caps[2];       /**< cudaDeviceGetP2PAtomicCapabilities(IntegerAdd), -1 unknown */
    int simulated;         /**< 1 when --simulate-no-native-atomics hid native atomics */
    int directions_with_access;    /**< ordered pairs of the machine with peer access */
    int directions_without_native; /**< of those, how many lack native atomics */
    int example_src;       /**< one such direction (source), or -1 */
    int example_dst;       /**< its destination, or -1 */
} link_info;

/** @brief One counter variant: its count and its speed. */
typedef struct counter_result {
    const char *name;      /**< stable id, e.g. "both_system" */
    const char *about;     /**< one line for people */
    char writers[16];      /**< GPU ids that increment, e.g. "0+1" */
    const char *scope;     /**< "device" or "system" */
    unsigned long long expected;  /**< increments issued */
    unsigned long long count;     /**< what the counter held (a wrong one if any) */
    int exact;             /**< 1 when every repetition counted exactly */
    int defined;           /**< 1 when the CUDA memory model guarantees the count */
    unsigned long long peer_ops;  /**< atomics that crossed the link per run */
    unsigned long long atomics;   /**< global-memory atomics per run, all GPUs */
    lab_stats ms;          /**< time of one run, both GPUs included */
} counter_result;

/** @brief One histogram variant. */
typedef struct hist_result {
    const char *name;      /**< "naive" or "privatized" */
    const char *scope;     /**< scope of the atomics on the shared histogram */
    size_t elements;       /**< bytes histogrammed */
    unsigned long long total; /**< sum of the bins */
    int exact;             /**< 1 when bit-exact against the host histogram */
    unsigned long long peer_ops; /**< atomics that crossed the link per run */
    lab_stats ms;          /**< time of one run */
} hist_result;

/** @brief One latency variant. */
typedef struct latency_result {
    const char *name;      /**< "local", "peer" or "peer_system" */
    int gpu;               /**< the GPU that runs the chain */
    const char *scope;     /**< "device" or "system" */
    int steps;             /**< atomics in the chain */
    unsigned long long visits; /**< visits the slots recorded */
    int exact;             /**< 1 when the chain ended where the host says */
    lab_stats ms;          /**< time of one chain */
} latency_result;

/** @brief Everything one run measured. */
typedef struct lab04_results {
    link_info link;                                  /**< the link */
    counter_result counters[LAB04_COUNTER_VARIANTS]; /**< counter table */
    hist_result hist[LAB04_HIST_VARIANTS];           /**< histogram table */
    latency_result latency[LAB04_LATENCY_VARIANTS];  /**< latency table */
} lab04_results;

/**
 * @brief Ask what the link between a and b supports, and scan every ordered
 *        pair of the machine for peer access without native atomics.
 */
void link_query(const lab04_config *cfg, int a, int b, link_info *link);

/**
 * @brief Choose the pair: the command line's wish, else the first pair with
 *        peer access and native atomics both ways, else lab_select_pair's.
 *        Exits 2 or 77 as lab_select_pair() does.
 */
void link_choose_pair(const char *prog, const lab04_config *cfg, int *a, int *b);

/**
 * @brief Create the streams and events of the pair and enable peer access
 *        both ways.
 */
void pair_setup(lab04_pair *pair, int a, int b);

/**
 * @brief Destroy what pair_setup() made and disable peer access again.
 */
void pair_teardown(lab04_pair *pair);

/**
 * @brief Run @p plan once on both GPUs (TODO 04.1).
 * @return milliseconds from the start event on GPU a until the work of
 *         both GPUs (and finish_a) is done
 */
float span_run(lab04_pair *pair, const span_plan *plan);

/**
 * @brief Run and verify every counter variant; exits 1 when a count the
 *        memory model guarantees is wrong.
 */
void run_counters(lab04_pair *pair, const lab04_config *cfg,
                  counter_result out[LAB04_COUNTER_VARIANTS]);

/**
 * @brief Run and verify the two histogram variants against a host
 *        histogram; exits 1 on any difference.
 */
void run_histogram(lab04_pair *pair, const lab04_config *cfg,
                   hist_result out[LAB04_HIST_VARIANTS]);

/**
 * @brief Measure the latency of one atomic, local and remote, with a chain
 *        of dependent atomics; exits 1 when the chain went wrong.
 */
void run_latency(lab04_pair *pair, const lab04_config *cfg,
                 latency_result out[LAB04_LATENCY_VARIANTS]);

/**
 * @brief Summarize @p count samples in milliseconds; exits 1 when they
 *        cannot be summarized (a non-finite time).
 */
lab_stats summarize_ms(const double *samples, int count, const char *what);

/**
 * @brief Print the results as tables, ending with the claim verdicts.
 */
void print_report_table(const lab04_config *cfg, const lab04_pair *pair,
                        const lab04_results *r);

/**
 * @brief Print the results as CSV (see the handout for the columns).
 */
void print_report_csv(const lab04_config *cfg, const lab04_pair *pair,
                      const lab04_results *r);

#endif /* PEER_ATOMICS_H */
