/**
 * @file peer_kernels.h
 * @brief Lab 03 (chapter 4.3, first half): kernels that read and write the
 *        other GPU's memory. The run's settings, the pair of GPUs, the
 *        buffers, and the records the experiments fill.
 *
 * main.c parses the options and runs the experiments in order; pair.c sets
 * up the GPUs, peer access and the buffers; measure.c times and verifies;
 * transfers.c runs the four ways to compute local = 2 x peer; strided.c
 * compares read patterns over the link; fault_child.c is the child process
 * that touches peer memory without peer access, fault_parent.c starts and
 * watches it; report.c prints everything and the verdicts.
 */
#ifndef PEER_KERNELS_H
#define PEER_KERNELS_H

#include "kernels.h"
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

/** Most sizes one run measures. */
#define LAB03_MAX_SIZES 32
/** Most timed repetitions per measurement. */
#define LAB03_MAX_REPS 1000
/** Strides of the access-pattern experiment: 1, 2, 4 ... 64 elements. */
#define LAB03_STRIDES 7
/** The largest stride; the stride experiment's size is a multiple of it. */
#define LAB03_MAX_STRIDE 64
/** Floats after every device buffer that no kernel may touch. */
#define LAB03_GUARD 256
/** Largest --max-size. */
#define LAB03_SIZE_LIMIT ((size_t)4 << 30)
/** Largest --stride-size (the strided kernel indexes with 32 bits). */
#define LAB03_STRIDE_SIZE_LIMIT ((size_t)1 << 30)
/** Below this size the pull-versus-copy question is about launch costs. */
#define LAB03_JUDGE_SIZE ((size_t)16 << 20)

/** @brief The four ways to compute local = 2 x peer, and the copy alone. */
typedef enum transfer_variant {
    VARIANT_LOCAL = 0,         /**< GPU a, source on a: the no-link reference */
    VARIANT_PULL,              /**< GPU a's kernel reads GPU b's memory */
    VARIANT_PUSH,              /**< GPU b's kernel writes into GPU a's memory */
    VARIANT_COPY_ONLY,         /**< cudaMemcpyPeerAsync b -> a, nothing else */
    VARIANT_COPY_THEN_COMPUTE, /**< that copy, then the kernel on a, local */
    LAB03_VARIANTS             /**< number of variants */
} transfer_variant;

/** @brief What the command line asked for. */
typedef struct lab03_config {
    const char *prog;       /**< program name for messages */
    const char *argv0;      /**< argv[0], handed on to the child */
    int want_a;             /**< -a, or -1 */
    int want_b;             /**< -b, or -1 */
    size_t min_bytes;       /**< smallest size of the transfer sweep */
    size_t max_bytes;       /**< largest size of the transfer sweep */
    size_t stride_bytes;    /**< size of the stride experiment */
    int reps;               /**< timed repetitions, after one warm-up */
    uint64_t seed;          /**< seed of the data */
    int fault_timeout_s;    /**< seconds before the child is killed */
    int quick;              /**< --quick */
    int fault_only;         /**< --fault-only: only the no-access demonstration */
    int no_fault_demo;      /**< --no-fault-demo */
    int simulate_hang;      /**< --simulate-child-hang (a test hook) */
    int fault_child;        /**< this process is the child (hidden option) */
    lab_format format;      /**< table or CSV */
} lab03_config;

/** @brief The two GPUs: a computes and holds the result, b holds the source. */
typedef struct lab03_pair {
    int a;                 /**< GPU a */
    int b;                 /**< GPU b, the peer */
    char name_a[256];      /**< GPU a's name */
    char name_b[256];      /**< GPU b's name */
    int blocks_a;          /**< most blocks a grid-stride kernel uses on a */
    int blocks_b;          /**< the same on b */
    cudaStream_t stream_a; /**< a stream on a */
    cudaStream_t stream_b; /**< a stream on b */
    lab_timer timer_a;     /**< events on a */
    lab_timer timer_b;     /**< events on b */
    int peer_enabled;      /**< 1 once access a -> b and b -> a are enabled */
} lab03_pair;

/** @brief Device and host buffers, each of cap_bytes plus LAB03_GUARD floats. */
typedef struct lab03_buffers {
    size_t cap_bytes;  /**< usable bytes of each buffer */
    float *src_b;      /**< on b: the source, seeded data */
    float *src_a;      /**< on a: the same data, for the local reference */
    float *stage_a;    /**< on a: where cudaMemcpyPeerAsync puts the source */
    float *dst_a;      /**< on a: the result, local = 2 x peer */
    float *host_src;   /**< the seeded data */
    float *host_want;  /**< 2 x host_src, the reference */
    float *host_got;   /**< pinned: results copied back for checking */
} lab03_buffers;

/** @brief One variant at one size. */
typedef struct transfer_result {
    size_t bytes;   /**< array size: the bytes that cross the link once */
    int reps;       /**< timed repetitions */
    lab_stats ms;   /**< time of one run */
    double gbps;    /**< bytes / median time */
    int verified;   /**< 1 when bit-exact against the host reference */
} transfer_result;

/** @brief One read pattern at one stride. */
typedef struct stride_result {
    size_t bytes;   /**< array size */
    int stride;     /**< elements between neighbouring threads' reads */
    int reps;       /**< timed repetitions */
    lab_stats ms;   /**< time of one run */
    double gbps;    /**< bytes / median time */
    int verified;   /**< 1 when bit-exact */
} stride_result;

/** @brief What the child that touched peer memory without access reported. */
typedef struct fault_result {
    int ran;               /**< 1 when a child was started */
    char outcome[24];      /**< fault, silent_success, wrong_data, hang, crash, not_run */
    char reason[200];      /**< why it was not run (not_run only) */
    int can_access_peer;   /**< the child's cudaDeviceCanAccessPeer(a, b), -1 unknown */
    char launch[64];       /**< cudaGetLastError() after the launch */
    char sync[64];         /**< cudaDeviceSynchronize() after it */
    char data[16];         /**< correct, wrong, unread */
    char after_a[64];      /**< a later cudaMalloc on GPU a: is the error sticky? */
    char after_b[64];      /**< a later cudaMemset on GPU b: is b affected? */
    int exit_status;       /**< the child's exit status, -1 when killed */
    int signal;            /**< the signal that ended it, 0 if none */
    int timeout_s;         /**< the timeout it ran under */
    double seconds;        /**< from start to end of the child */
} fault_result;

/** @brief Everything one run measured. */
typedef struct lab03_results {
    int nsizes;                                    /**< sizes measured */
    size_t sizes[LAB03_MAX_SIZES];                 /**< the sizes, ascending */
    transfer_result transfer[LAB03_MAX_SIZES][LAB03_VARIANTS]; /**< [size][variant] */
    int transfers_run;                             /**< 1 when the sweep ran */
    stride_result stride[LAB03_STRIDES][2];        /**< [stride][0 peer, 1 local] */
    int strides_run;                               /**< 1 when the stride runs ran */
    fault_result fault;                            /**< the no-access demonstration */
} lab03_results;

/** @brief A piece of GPU work that measure_ms() runs and times. */
typedef void (*lab03_work)(void *ctx);

/**
 * @brief Describe the pair, create its streams and events, and enable peer
 *        access both ways when @p enable_peer is set (TODO 03.1).
 */
void pair_setup(lab03_pair *pair, int a, int b, int enable_peer);

/**
 * @brief Destroy the streams and events and disable the peer access that
 *        pair_setup() enabled (TODO 03.1).
 */
void pair_teardown(lab03_pair *pair);

/**
 * @brief Allocate every buffer with room for @p cap_bytes, fill the source
 *        with seeded floats, and put it on both GPUs.
 */
void buffers_create(const lab03_pair *pair, size_t cap_bytes, uint64_t seed,
                    lab03_buffers *buf);

/** @brief Free what buffers_create() allocated. */
void buffers_destroy(const lab03_pair *pair, lab03_buffers *buf);

/**
 * @brief Fill the first n floats and the guard after them of a device
 *        buffer of GPU a with 0xFF bytes (a NaN), so a stale result cannot
 *        pass; waits until done.
 */
void poison_on_a(const lab03_pair *pair, float *device_buf, size_t n);

/**
 * @brief Copy n floats and the guard of @p device_buf (on GPU a) back, compare the
 *        floats bit for bit with @p want and check that the guard is
 *        untouched. Exits 1 with the first difference.
 * @return 1 (verified)
 */
int verify_on_host(const lab03_pair *pair, const lab03_buffers *buf, const float *device_buf,
                   const float *want, size_t n, const char *what);

/**
 * @brief Run @p work once as a warm-up, then @p reps times, each between
 *        the two events of @p timer on @p stream (TODO 03.3).
 * @return median, min and max in milliseconds
 */
lab_stats measure_ms(cudaStream_t stream, lab_timer *timer, int reps, lab03_work work,
                     void *ctx, const char *what);

/** @brief Stable name of a variant, as in the CSV ("pull", "push" ...). */
const char *variant_name(transfer_variant v);

/**
 * @brief Measure and verify every variant at every size of the sweep.
 */
void run_transfers(lab03_pair *pair, const lab03_config *cfg,
                   const lab03_buffers *buf, lab03_results *results);

/**
 * @brief Measure and verify strided reads, from b's memory and from a's.
 */
void run_strided(lab03_pair *pair, const lab03_config *cfg,
                 const lab03_buffers *buf, lab03_results *results);

/** @brief The strides of the stride experiment, in order. */
int lab03_stride(int index);

/**
 * @brief Start the child that touches peer memory without access, wait for
 *        it at most cfg->fault_timeout_s seconds, and record what it said.
 *        Exits 1 when the child could not run its steps (a broken build or
 *        an unfinished TODO, whose message the child prints).
 */
void run_fault_demo(const lab03_config *cfg, int a, int b, fault_result *out);

/**
 * @brief The child's side (hidden option --fault-child): launch the
 *        chapter's kernel on a reading b's memory with peer access never
 *        enabled, and print what each step returned as key=value lines.
 * @return the exit status of the child
 */
int fault_child_main(const lab03_config *cfg);

/** @brief Print the results for people, ending with the claims. */
void print_report_table(const lab03_config *cfg, const lab03_pair *pair,
                        const lab03_results *r);

/** @brief Print the results as CSV (see the handout for the columns). */
void print_report_csv(const lab03_config *cfg, const lab03_pair *pair,
                      const lab03_results *r);

#endif /* PEER_KERNELS_H */
