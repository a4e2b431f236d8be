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

/**
 * @brief Summarize @p count samples. The input is not modified.
 * @return 0 on success; -1 when @p count is 0, a sample is not finite, or
 *         memory runs out (then @p out is untouched)
 */
int lab_stats_compute(const double *samples, size_t count, lab_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* LAB_STATS_H */
