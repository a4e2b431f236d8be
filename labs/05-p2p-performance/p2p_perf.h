/**
 * @file p2p_perf.h
 * @brief Lab 05 (chapter 4.4): measuring P2P performance — the run's
 *        settings, the machine, the result rows and the experiment registry.
 *
 * The program is a registry of experiments (experiments.c), in the spirit
 * of nvbandwidth: each entry has a key, a one-line description, a check
 * whether this machine can run it, and a run function. main.c parses the
 * options and runs the chosen entries; every entry appends result rows to
 * the context; report.c prints them for people (with the chapter's link
 * table and the verdicts) and results.c writes them as CSV.
 */
#ifndef P2P_PERF_H
#define P2P_PERF_H

#include "lab.h"

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most sizes one sweep can hold. */
#define LAB05_MAX_SIZES 64
/** Most streams one measurement can use. */
#define LAB05_MAX_STREAMS 8
/** Registry capacity (the bit mask of chosen experiments is 32 bits). */
#define LAB05_MAX_EXPERIMENTS 32
/** How long the launch gate holds its stream at most (nanoseconds). */
#define LAB05_GATE_TIMEOUT_NS 200000000ULL
/** Bytes the pitfall experiments move per copy. */
#define LAB05_PITFALL_BYTES ((size_t)256 << 20)

/** @brief How one transfer moves its bytes. */
typedef enum lab05_method {
    LAB05_CE = 0,      /**< copy engine: cudaMemcpyPeerAsync on the source GPU's stream */
    LAB05_SM_PULL = 1, /**< a kernel on the destination GPU reads the peer's memory */
    LAB05_SM_PUSH = 2  /**< a kernel on the source GPU writes the peer's memory */
} lab05_method;

/** @brief What the command line asked for. */
typedef struct lab05_options {
    const char *prog;     /**< program name for messages */
    int want_a;           /**< -a, or -1 */
    int want_b;           /**< -b, or -1 */
    bool quick;           /**< --quick: fewer sizes, fewer samples */
    bool csv;             /**< --csv: CSV on stdout */
    const char *out_dir;  /**< --out DIR, or NULL */
    bool progress;        /**< --progress: name each experiment on stderr */
    int reps;             /**< timed samples per measurement */
    uint64_t seed;        /**< seed of the data */
    size_t min_size;      /**< smallest sweep size */
    size_t max_size;      /**< largest sweep size */
    uint32_t chosen;      /**< bit i set: registry entry i was chosen with -t (0: all) */
} lab05_options;

/** @brief One GPU: what it is, its buffers, and what NVML says about its links. */
typedef struct lab05_gpu {
    char name[256];        /**< e.g. "NVIDIA H200" */
    int cc_major;          /**< compute capability, major */
    int cc_minor;          /**< compute capability, minor */
    int sm_count;          /**< multiprocessors */
    int copy_blocks;       /**< blocks that fill the GPU with the SM copy kernel */
    char pci_bus_id[32];   /**< domain:bus:device.function */
    void *src;             /**< source buffer (seeded data), buf_bytes */
    void *dst;             /**< destination buffer, buf_bytes */
    unsigned char *ref;    /**< host copy of src, the verification reference */
    cudaStream_t stream[2]; /**< non-blocking streams */
    int nvml;              /**< 1 when NVML answered for this GPU */
    unsigned nvlink_raw;   /**< nvmlDeviceGetNvLinkVersion of the first active link */
    int nvlink_gen;        /**< NVLink generation (0: none or unknown) */
    int nvlink_active;     /**< active NVLinks */
    int switch_links;      /**< active links whose far end is not a GPU (NVSwitch) */
    int hidden_links;      /**< active links to a GPU this process does not see by its PCI id */
    int pcie_gen;          /**< PCIe generation the link can reach (max), 0 unknown */
    int pcie_width;        /**< PCIe lanes the link can reach (max), 0 unknown */
    int pcie_gen_now;      /**< PCIe generation at the moment of the query */
    int pcie_width_now;    /**< PCIe lanes at the moment of the query */
} lab05_gpu;

/** @brief One ordered pair of GPUs: the path between them and its peak. */
typedef struct lab05_link {
    int p2p;               /**< peer access possible both ways */
    int nvlinks;           /**< NVLinks that carry this pair's traffic (0: none known) */
    int nvml_nvlink;       /**< NVML's P2P status over NVLink: 1 ok, 0 not, -1 unknown */
    double rate_gbps;      /**< NVLink rate per link and direction, 0 unknown */
    double peak_gbps;      /**< peak of the P2P path per direction, 0 unknown */
    double pcie_peak_gbps; /**< peak of the PCIe path per direction, 0 unknown */
    char path[16];         /**< "nvlink", "pcie" or "unknown" */
} lab05_link;

/** @brief One result: a row of the CSV. Empty fields are -1, 0 or "". */
typedef struct lab05_row {
    char experiment[24];  /**< registry key, "config" or "claim" */
    char variant[40];     /**< what was measured (method, timer, claim id ...) */
    int src;              /**< source GPU, -1 none */
    int dst;              /**< destination GPU, -1 none */
    char mode[24];        /**< one_way, both_ways, first, steady ... */
    int peer;             /**< peer access on (1) or off (0), -1 not applicable */
    size_t bytes;         /**< bytes per operation and direction, 0 none */
    int ops;              /**< operations per sample, 0 none */
    lab_stats us;         /**< microseconds per operation (count 0: no times) */
    double counted;       /**< bytes counted for GB/s per operation, 0: no GB/s */
    double peak_gbps;     /**< peak for the counted bytes, 0 unknown */
    int gated;            /**< 1 all samples queued behind the gate, 0 not, -1 n/a */
    int verified;         /**< 1 data verified, -1 n/a */
    char value[48];       /**< a value that is not a time (link facts, verdicts) */
    char detail[512];     /**< free text, no commas */
} lab05_row;

/** @brief Everything the experiments share. */
typedef struct lab05_ctx {
    lab05_options opt;      /**< the command line */
    int n;                  /**< GPUs */
    lab05_gpu *gpu;         /**< n entries */
    lab05_link *link;       /**< n*n entries, link[a*n+b] */
    int pair_a;             /**< the pair for one-pair experiments */
    int pair_b;             /**< the pair for one-pair experiments */
    int *pairs;             /**< ordered pairs of the sweeps: (pairs[2i], pairs[2i+1]) */
    int npairs;             /**< number of such pairs */
    size_t sizes[LAB05_MAX_SIZES]; /**< sweep sizes, ascending */
    int nsizes;             /**< number of sweep sizes */
    size_t buf_bytes;       /**< bytes of every src and dst buffer */
    unsigned char *check;   /**< pinned host buffer for verification, buf_bytes */
    volatile unsigned int *gate; /**< host-mapped: [0] open, [1] timed out */
    char nvml_status[200];  /**< how NVML went ("ok" or why not) */
    int no_gate[3][2];      /**< [method][peer]: the gate timed out once, do without it */
    lab05_row *rows;        /**< results so far */
    size_t nrows;           /**< rows used */
    size_t cap;             /**< rows allocated */
} lab05_ctx;

/** @brief One entry of the registry. */
typedef struct lab05_experiment {
    const char *key;         /**< what -t takes */
    const char *description; /**< one line for --list */
    /** Can this machine run it? On no, write the reason. */
    bool (*can_run)(const lab05_ctx *ctx, char *why, size_t why_len);
    /** Run it, appending rows; failures exit 1. */
    void (*run)(lab05_ctx *ctx);
} lab05_experiment;

/** @brief The registry, in the order a full run uses. */
extern const lab05_experiment lab05_experiments[];
/** @brief Number of registry entries. */
extern const int lab05_experiment_count;

/* ------------------------------------------------------------ link.c -- */

/**
 * @brief Per-link, per-direction NVLink rate of a generation, from the
 *        datasheet totals (total bandwidth / links / 2 directions).
 * @param gen NVLink generation 1..5
 * @return GB/s, or 0 when this lab has no datasheet figure for @p gen
 */
double lab05_nvlink_rate(int gen);

/**
 * @brief Per-lane, per-direction PCIe data rate after line coding.
 * @param gen PCIe generation 1..6
 * @return GB/s, or 0 when unknown
 */
double lab05_pcie_lane_rate(int gen);

/**
 * @brief Datasheet NVLink figures this lab knows: the GPU, its links and
 *        its total (both directions, all links) bandwidth.
 * @param gen NVLink generation 1..5
 * @param product written: the GPU the figure is for (may be NULL)
 * @param links written: links per GPU (may be NULL)
 * @param total_gbps written: the datasheet total (may be NULL)
 * @return 1 when known, 0 otherwise
 */
int lab05_nvlink_datasheet(int gen, const char **product, int *links, double *total_gbps);

/**
 * @brief Ask NVML (opened at run time) about every GPU's NVLinks and PCIe
 *        link, and fill ctx->link with each pair's path and peak.
 */
void lab05_query_links(lab05_ctx *ctx);

/** @brief The registry's "link" experiment: rows with the links and peaks. */
void lab05_run_link(lab05_ctx *ctx);

/* --------------------------------------------------------- measure.c -- */

/** @brief One transfer: @p bytes from @p from on GPU @p src to @p to on GPU @p dst. */
typedef struct lab05_transfer {
    lab05_method method; /**< copy engine or SM kernel */
    int src;             /**< GPU that holds the data */
    int dst;             /**< GPU that receives it */
    const void *from;    /**< on src */
    void *to;            /**< on dst */
    size_t bytes;        /**< bytes to move */
    size_t ref_offset;   /**< offset of @p from in the source buffer (for verification) */
    int blocks;          /**< SM copy: blocks that fill the GPU the kernel runs on */
} lab05_transfer;

/** @brief Concurrent transfers, each on its own stream, timed together. */
typedef struct lab05_series {
    lab05_ctx *ctx;                          /**< the run */
    lab05_transfer t[LAB05_MAX_STREAMS];     /**< the transfers */
    cudaStream_t stream[LAB05_MAX_STREAMS];  /**< stream of each transfer */
    cudaEvent_t join[LAB05_MAX_STREAMS];     /**< joins stream i into stream 0 */
    int nt;                                  /**< number of transfers */
    int ops;                                 /**< rounds of all transfers per sample */
    bool gate;                               /**< queue the work behind the gate */
    int gate_timeouts;                       /**< samples whose gate timed out */
    lab_timer timer;                         /**< on stream 0's device */
} lab05_series;

/** @brief The GPU a transfer runs on (source for CE and push, destination for pull). */
int lab05_transfer_device(const lab05_transfer *t);

/** @brief Enqueue one transfer on @p stream (a stream of its device). */
void lab05_transfer_enqueue(const lab05_transfer *t, cudaStream_t stream);

/**
 * @brief Prepare a series: one non-blocking stream per transfer on its
 *        device, the join events and the timer.
 */
void lab05_series_init(lab05_series *s, lab05_ctx *ctx, const lab05_transfer *t, int nt,
                       int ops, bool gate);

/** @brief Destroy the series' streams, events and timer. */
void lab05_series_destroy(lab05_series *s);

/** @brief One timed sample: milliseconds for @p ops rounds of all transfers. */
float lab05_series_sample(lab05_series *s);

/**
 * @brief Clear the destinations, run one warm-up sample and @p reps timed
 *        ones, then verify every destination.
 * @param s    the series
 * @param reps timed samples
 * @param us   written: microseconds per round (median, min, max)
 */
void lab05_series_measure(lab05_series *s, int reps, lab_stats *us);

/** @brief Set every transfer's destination to zero (and wait). */
void lab05_clear_destinations(const lab05_series *s);

/** @brief Compare every transfer's destination with the host reference; exit 1 on a mismatch. */
void lab05_verify_transfers(const lab05_ctx *ctx, const lab05_transfer *t, int nt);

/** @brief Operations per sample for @p bytes, so that small sizes still take a while. */
int lab05_ops_for(size_t bytes);

/** @brief Summarize @p count samples (ms per sample, @p ops operations each) as µs per op. */
void lab05_stats_us(const double *ms, int count, int ops, lab_stats *us);

/** @brief Turn peer access between @p a and @p b on or off, both directions. */
void lab05_set_peer(int a, int b, bool on);

/** @brief A transfer between the main buffers of two GPUs. */
lab05_transfer lab05_make_transfer(const lab05_ctx *ctx, lab05_method method, int src, int dst,
                                   size_t bytes);

/** @brief Name of a method for rows: ce, sm_pull, sm_push. */
const char *lab05_method_name(lab05_method method);

/* --------------------------------------------------------- results.c -- */

/** @brief A new row with every field empty, experiment set; returns it for filling. */
lab05_row *lab05_add_row(lab05_ctx *ctx, const char *experiment, const char *variant);

/** @brief A config or link row holding one value. */
void lab05_add_value(lab05_ctx *ctx, const char *experiment, const char *variant, int src,
                     int dst, const char *value, const char *detail);

/** @brief Median GB/s of a row (0 when it has none). */
double lab05_row_gbps(const lab05_row *row);

/**
 * @brief Find the first row that matches; NULL, -1 and 0 match anything
 *        (for strings, src/dst/peer and bytes).
 */
const lab05_row *lab05_find(const lab05_ctx *ctx, const char *experiment, const char *variant,
                            int src, int dst, const char *mode, int peer, size_t bytes);

/** @brief Write every row as CSV (one header line) to @p out. */
void lab05_write_csv(const lab05_ctx *ctx, FILE *out, const char *only_experiment);

/** @brief --out DIR: DIR/lab05.csv and one DIR/KEY.csv per experiment. */
void lab05_write_out_dir(const lab05_ctx *ctx, const char *dir);

/* ---------------------------------------------------------- report.c -- */

/** @brief Compute the chapter's claims from the rows and append them as rows. */
void lab05_judge_claims(lab05_ctx *ctx);

/** @brief Print everything for people, ending with the claims. */
void lab05_print_report(const lab05_ctx *ctx);

/** @brief claims.c: the chapter's table of link speeds beside this machine's figures. */
void lab05_print_chapter_table(const lab05_ctx *ctx);

/* ------------------------------------------------------- experiments -- */

/** @brief bandwidth.c: copy-engine sweep, peer access on and off. */
void lab05_run_ce_bandwidth(lab05_ctx *ctx);
/** @brief bandwidth.c: SM copy kernels (pull and push) sweep. */
void lab05_run_sm_bandwidth(lab05_ctx *ctx);
/** @brief latency.c: time per small cudaMemcpyPeerAsync. */
void lab05_run_memcpy_latency(lab05_ctx *ctx);
/** @brief latency.c: pointer chase through local and peer memory. */
void lab05_run_pointer_chase(lab05_ctx *ctx);
/** @brief latency.c: ping-pong between kernels on two GPUs. */
void lab05_run_pingpong(lab05_ctx *ctx);
/** @brief timers.c: first call against steady state. */
void lab05_run_warmup(lab05_ctx *ctx);
/** @brief timers.c: CPU timers around an asynchronous copy. */
void lab05_run_cpu_timer(lab05_ctx *ctx);
/** @brief timers.c: a host synchronize after every copy. */
void lab05_run_cpu_sync(lab05_ctx *ctx);
/** @brief streams.c: legacy default stream against non-blocking streams. */
void lab05_run_default_stream(lab05_ctx *ctx);
/** @brief streams.c: several streams sharing one link. */
void lab05_run_streams(lab05_ctx *ctx);
/** @brief streams.c: cudaFuncCachePreferL1 on and off for the SM copy. */
void lab05_run_preferl1(lab05_ctx *ctx);

#endif /* P2P_PERF_H */
