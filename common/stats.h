/**
 * @file stats.h
 * @brief Summaries of repeated measurements: median, min, max, mean.
 */
#ifndef LAB_STATS_H
#define LAB_STATS_H

#include <stddef.h>

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

#ifdef __cplusplus
}
#endif

#endif /* LAB_STATS_H */
