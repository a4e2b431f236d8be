/**
 * @file rows.h
 * @brief The one result-row type every lab writes (the report, tests, plots and verdicts read
 *        rows, never printed text), its CSV and table writers and reader, result files written
 *        whole or not at all (renamed into place), and sample statistics. Host-only.
 */
#ifndef LAB_ROWS_H
#define LAB_ROWS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Summary of a set of samples. */
typedef struct lab_stats {
    size_t count;  /**< number of samples */
    double median; /**< middle value (mean of the two middle ones for even counts) */
    double min;    /**< smallest sample */
    double max;    /**< largest sample */
    double mean;   /**< arithmetic mean */
} lab_stats;

/** @brief Summarize @p count samples: 0, or -1 (@p out untouched) for none, NaN/inf, no memory. */
int lab_stats_compute(const double *samples, size_t count, lab_stats *out);

/** The CSV header every lab's result file starts with. */
#define LAB_ROWS_HEADER                                                          \
    "experiment,variant,route,src,dst,mode,bytes,count,reps,median_us,min_us,max_us," \
    "gbps,peak_gbps,verified,value,detail"

/** @brief One result. Text fields hold no commas or newlines. */
typedef struct lab_row {
    char experiment[32]; /**< registry key of the experiment, or "claim" */
    char variant[48];    /**< what was measured: method, kernel, claim id ... */
    char route[16];      /**< far side: "peer", "peer_off", "host", "loopback", "" */
    int src;             /**< source device (-1: host or none) */
    int dst;             /**< destination device (-1: host or none) */
    char mode[24];       /**< one_way, both_ways, first, steady ... ("" none) */
    size_t bytes;        /**< bytes per operation and direction (0: none) */
    long count;          /**< operations, elements or iterations per sample (0: none) */
    lab_stats us;        /**< microseconds per operation (count 0: no times) */
    double gbps;         /**< 1e9 bytes per second of the counted bytes (0: none) */
    double peak_gbps;    /**< the link's peak for the counted bytes (0: unknown) */
    int verified;        /**< 1 data verified, 0 verification failed, -1 not applicable */
    char value[64];      /**< a value that is not a time (an error name, a flag, a verdict) */
    char detail[768];    /**< free text for people */
} lab_row;

/** @brief A growing array of rows. */
typedef struct lab_rows {
    lab_row *row;  /**< count entries */
    size_t count;  /**< rows in use */
    size_t cap;    /**< rows allocated */
    int recorded;  /**< 1: a recording read on another machine (lab_rows_mark_recorded()) */
} lab_rows;

/** @brief A row with every field empty, ready to fill. */
lab_row lab_row_empty(const char *experiment, const char *variant);

/** @brief Append a copy of @p row (text fields are cleaned of commas); exits on no memory. */
lab_row *lab_rows_add(lab_rows *rows, const lab_row *row);

/** @brief Free the rows and leave @p rows empty. */
void lab_rows_free(lab_rows *rows);

/** @brief printf into a row's text field, replacing commas and newlines. */
void lab_row_set(char *field, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** @brief Write the header and every row as CSV. */
void lab_rows_write_csv(const lab_rows *rows, FILE *out);

/** @brief Write the rows as aligned text for people, one block per experiment. */
void lab_rows_write_table(const lab_rows *rows, FILE *out);

/** @brief Read what lab_rows_write_csv() wrote: 0, or -1 with the reason in @p why. */
int lab_rows_read_csv(FILE *in, lab_rows *rows, char *why, size_t why_len);

/** src/dst wildcard of lab_row_matches. */
#define LAB_ANY (-2)

/** @brief Does the row match? NULL text and LAB_ANY ids match anything, @p bytes 0 any size. */
int lab_row_matches(const lab_row *r, const char *experiment, const char *variant,
                    const char *route, const char *mode, int src, int dst, size_t bytes);

/** @brief The first row that lab_row_matches(), or NULL. */
const lab_row *lab_rows_pick(const lab_rows *rows, const char *experiment, const char *variant,
                             const char *route, const char *mode, int src, int dst, size_t bytes);

/** @brief The timed matching row of the largest size, or NULL. */
const lab_row *lab_rows_largest(const lab_rows *rows, const char *experiment,
                                const char *variant, const char *route, const char *mode,
                                int src, int dst);

/** @brief lab_rows_pick() of any src and dst, where "" text also matches anything. */
const lab_row *lab_rows_find(const lab_rows *rows, const char *experiment,
                             const char *variant, const char *route, const char *mode,
                             size_t bytes);

/**
 * @brief Why @p experiment has no rows (for @p route, unless NULL): the detail of its "skipped"
 *        row whose route is "" or @p route; else that the run has none of its rows at all,
 *        or that it did not run.
 */
const char *lab_rows_skip_reason(const lab_rows *rows, const char *experiment,
                                 const char *route);

/**
 * @brief How sentences about @p rows name the machine that measured them: "this machine", or
 *        "that machine" for a recording read on another machine (lab_rows_mark_recorded()).
 */
const char *lab_rows_machine(const lab_rows *rows);

/**
 * @brief Mark @p rows as a recording read on another machine than the one that measured them
 *        (a host tool's --recording): from now on lab_rows_machine() says "that machine", and
 *        so do the details the measuring program wrote of its own machine ("this machine has
 *        1" becomes "that machine has 1"). Rows marked twice are unchanged the second time.
 */
void lab_rows_mark_recorded(lab_rows *rows);

/** @brief How many rows have this experiment key (and variant, unless NULL). */
size_t lab_rows_count(const lab_rows *rows, const char *experiment, const char *variant);

/** @brief A result file being written: its final path and its temporary one. */
typedef struct lab_outfile {
    FILE *stream;        /**< write here */
    char path[4096];     /**< where the file goes once complete */
    char tmp_path[4160]; /**< where it is written meanwhile: path.tmp.PID */
} lab_outfile;

/** @brief Open @p path under a temporary name; else "prog: cannot write ..." and exit 1. */
void lab_outfile_open(lab_outfile *file, const char *prog, const char *path);

/**
 * @brief Close the file and rename it into place. On failure (a full disk shows up here)
 *        remove it, print "prog: cannot write ..." and exit 1, leaving the old file as it was.
 */
void lab_outfile_commit(lab_outfile *file, const char *prog);

#ifdef __cplusplus
}
#endif

#endif /* LAB_ROWS_H */
