/**
 * @file lab02.h
 * @brief Lab 02: what the program's files share: the options, the GPUs and
 *        buffers of a run, and the table of results the report prints.
 *
 * Every experiment appends rows to one result table; nothing is printed
 * until every experiment has run and verified its data.
 */
#ifndef LAB02_H
#define LAB02_H

#include "lab.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/** @brief Marks an integer field a row does not use (printed empty). */
#define NA INT_MIN
/** @brief The byte every destination is filled with before a copy. */
#define POISON_BYTE 0xA5
/** @brief Poisoned bytes kept before and after every destination window. */
#define GUARD_BYTES 64
/** @brief The largest source/destination offset the size sweep uses. */
#define MAX_OFFSET 8
/** @brief Copies of this size and above are "large" in the claims and tests. */
#define LARGE_BYTES ((size_t)16 << 20)

/** @brief The command line. */
typedef struct lab02_config {
    const char *prog;  /**< program name for messages */
    int want_a;        /**< -a, or -1 */
    int want_b;        /**< -b, or -1 */
    size_t max_size;   /**< largest copy */
    int reps;          /**< timed repetitions per measurement */
    uint64_t seed;     /**< seed of the source data */
    int quick;         /**< fewer sizes and repetitions */
    int bad_args_only; /**< --bad-args */
    lab_format format; /**< table or CSV */
} lab02_config;

/** @brief One result: a row of the CSV. Unused fields hold NA, -1 or NULL. */
typedef struct row {
    const char *section;  /**< info, bad_args, sweep, stream_order, timing, current_device, ordering, claim */
    char case_name[48];   /**< what the row is about within its section */
    const char *method;   /**< the call or copy method */
    int peer;             /**< 1 peer access on, 0 off, NA */
    int src_gpu;          /**< source device id as passed (may be invalid in bad_args) */
    int dst_gpu;          /**< destination device id as passed */
    int current_gpu;      /**< the current device when the copy was issued */
    long long bytes;      /**< bytes copied; -1 when not used */
    long long src_offset; /**< source offset in bytes; -1 when not used */
    long long dst_offset; /**< destination offset in bytes; -1 when not used */
    int reps;             /**< samples behind the times; 0 when no times */
    lab_stats ms;         /**< median, min, max in milliseconds (when reps > 0) */
    double gbps;          /**< bytes / median time, 1e9 bytes per second (when reps > 0) */
    int verified;         /**< 1 every byte matched, 0 not, NA */
    int untouched;        /**< 1 the destination kept its poison, 0 it was written, NA */
    const char *expected; /**< bad_args: the status wanted */
    char got[40];         /**< bad_args: the status returned; info: the value */
    int waited;           /**< ordering: 1 the copy waited for the pending work, 0 not, NA */
    const char *verdict;  /**< bad_args: pass, fail, skipped; claim: the verdict */
} row;

/** @brief The growing table of rows. */
typedef struct results {
    row *rows;       /**< the rows, in the order they were added */
    size_t count;    /**< rows used */
    size_t capacity; /**< rows allocated */
    int failures;    /**< checks that failed without ending the run */
} results;

/** @brief One GPU of the pair and what the run keeps on it. */
typedef struct gpu_side {
    int dev;                   /**< device id */
    unsigned char *src;        /**< device: seeded source data, cap + MAX_OFFSET bytes */
    unsigned char *dst;        /**< device: destination window, cap + MAX_OFFSET + 2 guards */
    cudaStream_t stream;       /**< non-blocking stream of this device */
    cudaStream_t poll;         /**< non-blocking stream for watching data arrive */
    cudaEvent_t staged;        /**< host staging: "the device-to-host half is done" */
} gpu_side;

/** @brief Everything a run of the experiments uses. */
typedef struct lab02_env {
    const lab02_config *cfg; /**< the options */
    int n_gpus;              /**< GPUs visible */
    int other;               /**< a third GPU, or -1 */
    int p2p;                 /**< 1 when the pair has peer access both ways */
    char name[2][256];       /**< the pair's GPU names */
    gpu_side side[2];        /**< [0] GPU a, [1] GPU b */
    size_t cap;              /**< largest copy (cfg->max_size) */
    unsigned char *ref[2];   /**< host: the source data on side[i] (seed + i) */
    unsigned char *readback; /**< host: destination windows read back */
    unsigned char *pinned;   /**< pinned host: the staging buffer, cap bytes */
    unsigned char *probe;    /**< pinned host: 8 bytes for watching data arrive */
    int delay_ms;            /**< the pending work of the ordering experiment */
    size_t timing_sizes[8];  /**< sizes timed */
    int n_timing_sizes;      /**< how many */
    int peer_on;             /**< peer access is on now */
    results *out;            /**< where rows go */
} lab02_env;

/* --- results.c ------------------------------------------------------------ */

/** @brief A row of @p section with every field unused. */
row row_blank(const char *section);

/** @brief Append a copy of @p r; exits 1 when memory runs out. */
void results_add(results *out, const row *r);

/** @brief Free the rows. */
void results_free(results *out);

/** @brief "on", "off" or "" for a peer field. */
const char *peer_word(int peer);

/* --- buffers.c ------------------------------------------------------------ */

/**
 * @brief Seeded source data with no byte equal to POISON_BYTE, so that even a
 *        1-byte copy that wrote nothing shows as a mismatch.
 */
void fill_source(unsigned char *buf, size_t bytes, uint64_t seed);

/** @brief Allocate buffers and streams on both GPUs and upload the source data. */
void env_setup(lab02_env *env, int a, int b);

/** @brief Free everything env_setup() made and turn peer access off. */
void env_teardown(lab02_env *env);

/** @brief Turn peer access on or off in both directions between the pair. */
void env_set_peer(lab02_env *env, int on);

/** @brief Make @p dev current and wait for all its work. */
void sync_device(int dev);

/** @brief Fill the first @p bytes of @p side's destination window with POISON_BYTE
 *         and wait until that is done. */
void poison_window(const gpu_side *side, size_t bytes);

/** @brief Where a copy into @p side's window at @p offset starts. */
unsigned char *window_at(const gpu_side *side, size_t offset);

/** @brief Bytes of a window holding a copy of @p bytes at @p offset, guards included. */
size_t window_bytes(size_t bytes, size_t offset);

/**
 * @brief Read @p side's window back and check it: guards and the bytes around
 *        the copy still poisoned, the copy equal to @p want.
 * @return 0 when all is right; 1 after a message on stderr
 */
int verify_window(const lab02_env *env, const gpu_side *side, size_t offset,
                  const unsigned char *want, size_t bytes, const char *what);

/**
 * @brief Put @p ms milliseconds of pending work into @p stream: a host
 *        function that sleeps. Work queued after it in that stream waits.
 * @param stream a stream of the current device, or cudaStreamLegacy
 * @param ms     the delay; must stay valid until the stream has run it
 */
void enqueue_delay(cudaStream_t stream, const int *ms);

/** @brief 1 when all @p bytes of @p buf equal @p value; else 0, with its first
 *         differing byte in @p where. */
int all_bytes_are(const unsigned char *buf, size_t bytes, unsigned char value, size_t *where);

/* --- bad_args.c ----------------------------------------------------------- */

/**
 * @brief Call the wrapper with every kind of bad argument and check that each
 *        is rejected with the right status and writes nothing.
 * @param n_gpus GPUs visible (0 and 1 run the cases that need fewer)
 * @param a      first GPU (ignored without GPUs)
 * @param b      second GPU (equal to @p a with one GPU)
 * @param seed   seed of the source data
 * @param out    one row per case and call; a failed case counts in out->failures
 */
void run_bad_args(int n_gpus, int a, int b, uint64_t seed, results *out);

/* --- sweep.c -------------------------------------------------------------- */

/** @brief Copy every size of the sweep both ways with both wrappers; verify all. */
void run_sweep(lab02_env *env);

/** @brief Check that p2p_copy_async runs in its stream's order. */
void run_stream_order(lab02_env *env);

/* --- methods.c ------------------------------------------------------------ */

/** @brief One copy of @p bytes from side src to side dst, the way a method does it. */
typedef struct copy_job {
    const gpu_side *src;   /**< source side: data at src->src */
    const gpu_side *dst;   /**< destination side: data to window_at(dst, 0) */
    size_t bytes;          /**< bytes to copy */
    unsigned char *pinned; /**< pinned host buffer for staging (>= bytes) */
} copy_job;

/** @brief A way to copy: a key, a description, how to issue one copy, and the
 *         stream its copies are ordered in (events go there). */
typedef struct copy_method {
    const char *key;                          /**< CSV name, e.g. memcpy_peer */
    const char *label;                        /**< for the table */
    cudaError_t (*issue)(const copy_job *job); /**< enqueue one copy */
    int on_dst_stream;                        /**< 1: dst->stream; 0: dst's legacy stream */
} copy_method;

/** @brief The four methods, in the table's order. */
extern const copy_method copy_methods[];
/** @brief How many entries copy_methods has. */
extern const int n_copy_methods;

/**
 * @brief Time @p method: a warm-up copy, then @p reps copies each between two
 *        events. The destination device must be current.
 * @param method     the way to copy
 * @param job        what to copy, from where to where
 * @param reps       how many timed copies
 * @param samples_ms @p reps times in milliseconds (written)
 */
void time_method(const copy_method *method, const copy_job *job, int reps,
                 double *samples_ms);

/** @brief Time every method at every size, both ways; verify each. */
void run_timing(lab02_env *env);

/* --- current_device.c ----------------------------------------------------- */

/** @brief cudaMemcpyPeer with the current device set to the source, the
 *         destination and a third GPU; the data is checked every time. */
void run_current_device(lab02_env *env);

/** @brief Which pending work a copy waits for, by method and current device. */
void run_ordering(lab02_env *env);

/* --- report.c ------------------------------------------------------------- */

/** @brief Add the claim rows, computed from the other rows. */
void add_claims(const lab02_env *env, results *out);

/** @brief Print the results as tables, ending with the claims. */
void print_table(const lab02_env *env, const results *out);

/** @brief Print the results as CSV (one header, one row per result). */
void print_csv(const results *out);

#endif /* LAB02_H */
