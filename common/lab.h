/**
 * @file lab.h
 * @brief Everything a lab program includes, and its registry of experiments (nvbandwidth's
 *        test-case shape: key, description, can-run check, run function) that one shared main,
 *        common/lab_main.c, runs: options, chosen entries, skips said once, claims, rows.
 */
#ifndef LAB_H
#define LAB_H

#include "capture.h"
#include "claims.h"
#include "cli.h"
#include "cuda_check.h"
#include "data.h"
#include "devices.h"
#include "gate.h"
#include "repeat.h"
#include "rows.h"
#include "timing.h"
#include "todo.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What every experiment of a run shares. */
typedef struct lab_ctx {
    const char *prog;      /**< short program name, for messages */
    lab_args args;         /**< the shared options */
    int gpus;              /**< GPUs this process sees (0: none) */
    char no_gpu[256];      /**< why there are none, when gpus == 0 */
    lab_rows rows;         /**< the results so far */
    void *lab;             /**< the lab's own state (set by its setup) */
} lab_ctx;

/** @brief One experiment of a lab. */
typedef struct lab_experiment {
    const char *key;         /**< for -t and the rows' experiment column */
    const char *description; /**< one line for --list */
    /** Can this machine run it? false with the reason in why. NULL: always. */
    bool (*can_run)(const lab_ctx *ctx, char *why, size_t why_len);
    /** Run it, appending rows; 0, or LAB_EXIT_FAIL after saying what failed. */
    int (*run)(lab_ctx *ctx);
} lab_experiment;

/** @brief A lab program. */
typedef struct lab_definition {
    const lab_host_part *host;            /**< name, claims, report section */
    const char *summary;                  /**< what the program does, for --help */
    const char *epilogue;                 /**< more --help text (NULL: none) */
    const lab_option *options;            /**< the lab's own options (may be NULL) */
    size_t option_count;                  /**< how many */
    const lab_experiment *experiments;    /**< the registry */
    size_t experiment_count;              /**< how many */
    /** Before the first experiment, with options parsed (NULL: nothing). 0 or an exit code. */
    int (*setup)(lab_ctx *ctx);
    /** After the last one (NULL: nothing). */
    void (*teardown)(lab_ctx *ctx);
} lab_definition;

/** Each lab program defines this, and common/lab_main.c runs it. */
extern const lab_definition lab_this;

/** @brief can_run for experiments that need one GPU. */
bool lab_need_one_gpu(const lab_ctx *ctx, char *why, size_t why_len);

/** @brief can_run for experiments that need two GPUs. */
bool lab_need_two_gpus(const lab_ctx *ctx, char *why, size_t why_len);

/** @brief Append a row to the run's results. */
lab_row *lab_emit(lab_ctx *ctx, const lab_row *row);

/**
 * @brief Emit the row saying @p experiment lacks something here (variant and value "skipped",
 *        @p route: "" or the route it lacks) with the reason as its detail; returns the row.
 */
lab_row *lab_emit_skipped(lab_ctx *ctx, const char *experiment, const char *route,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/**
 * @brief A row whose `verified` is 0 fails the run: say so on stderr once, naming the row, and
 *        return LAB_EXIT_FAIL (0 when @p ok).
 */
int lab_check(lab_ctx *ctx, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** @brief The run's main: used by common/lab_main.c, and by tests. */
int lab_run_program(const lab_definition *lab, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* LAB_H */
