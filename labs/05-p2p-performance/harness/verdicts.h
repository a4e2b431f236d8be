/**
 * @file verdicts.h
 * @brief Lab 05's host part (claims and report, plain C): reading rows.
 */
#ifndef LAB05_VERDICTS_H
#define LAB05_VERDICTS_H

#include "claims.h"
#include "cli.h" /* lab_format_size */

/** @brief One row of the chapter's table of link speeds. */
typedef struct lab05_table_row {
    const char *id;   /**< claim id */
    const char *link; /**< as the chapter names it */
    double gbps;      /**< "带宽（单向）" (one-way bandwidth) */
    double us;        /**< "延迟" (latency) */
    int nvlink_gen;   /**< 0 for PCIe */
    int links;        /**< links of that GPU (datasheet), lanes for PCIe */
    const char *latency_id; /**< the claim that judges the row's latency */
} lab05_table_row;

/** @brief The chapter's table of link speeds (section 4.4), lab05_table_rows rows. */
extern const lab05_table_row lab05_table[];
/** @brief The number of rows in lab05_table. */
extern const size_t lab05_table_rows;

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

/** @brief The report section: the bandwidth and latency summary as Markdown (report.c). */
void lab05_report(const lab_rows *rows, FILE *out);

/**
 * @brief The rules every run's rows obey (plausible.c; lab_host_part.plausible): prints each
 *        broken one to @p out, a line each, and returns how many.
 */
int lab05_plausible(const lab_rows *rows, FILE *out);

#endif /* LAB05_VERDICTS_H */
