/**
 * @file verdicts.h
 * @brief Lab 05's host part (claims and report, plain C): reading rows.
 */
#ifndef LAB05_VERDICTS_H
#define LAB05_VERDICTS_H

#include "claims.h"
#include "cli.h" /* lab_format_size */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** src/dst wildcard for lab05_pick. */
#define LAB05_ANY (-2)

/** @brief One row of the chapter's table of link speeds. */
typedef struct lab05_table_row {
    const char *id;   /**< claim id */
    const char *link; /**< as the chapter names it */
    double gbps;      /**< "带宽（单向）" (one-way bandwidth) */
    double us;        /**< "延迟" (latency) */
    int nvlink_gen;   /**< 0 for PCIe */
    int links;        /**< links of that GPU (datasheet), lanes for PCIe */
} lab05_table_row;

/** @brief The chapter's table (@p count rows). */
const lab05_table_row *lab05_table(size_t *count);

/** @brief Does the row match? NULL text and LAB05_ANY ids match anything, bytes 0 any size. */
int lab05_match(const lab_row *r, const char *experiment, const char *variant,
                const char *route, const char *mode, int src, int dst, size_t bytes);

/** @brief The first matching row, or NULL. */
const lab_row *lab05_pick(const lab_rows *rows, const char *experiment, const char *variant,
                          const char *route, const char *mode, int src, int dst, size_t bytes);

/** @brief The timed matching row of the largest size, or NULL. */
const lab_row *lab05_largest(const lab_rows *rows, const char *experiment, const char *variant,
                             const char *route, const char *mode, int src, int dst);

/** @brief A config row's value as an integer (@p fallback when absent). */
int lab05_config(const lab_rows *rows, const char *name, int fallback);

/** @brief A link row's value as a number (-1 when absent). */
double lab05_link_number(const lab_rows *rows, const char *variant, int src, int dst);

/** @brief The path of pair a -> b ("unknown" when absent). */
const char *lab05_path(const lab_rows *rows, int a, int b);

/** @brief The pointer-chase row of a route (beyond L2 first), or NULL. */
const lab_row *lab05_chase(const lab_rows *rows, const char *route, int owner, int reader);

/** @brief "GPU 0 -> GPU 1", "host -> GPU 0" ... for a row. */
const char *lab05_ends(const lab_row *r, char *out, size_t len);


/** @brief The verdict of one row of the chapter's table. */
lab_verdict lab05_judge_table_row(const lab_rows *rows, const lab05_table_row *t, char *said,
                                  size_t len);

/** @brief The report section: the bandwidth and latency summary as Markdown (report.c). */
void lab05_report(const lab_rows *rows, FILE *out);

#endif /* LAB05_VERDICTS_H */
