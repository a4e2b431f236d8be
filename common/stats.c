/* Median, min, max and mean of a sample set. */
#include "rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int lab_stats_compute(const double *samples, size_t count, lab_stats *out)
{
    double sum = 0.0, *sorted;
    if (samples == NULL || count == 0 || out == NULL)
        return -1;
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(samples[i]))
            return -1;
        sum += samples[i];
    }
    if ((sorted = malloc(count * sizeof *sorted)) == NULL)
        return -1;
    memcpy(sorted, samples, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    out->count = count;
    out->min = sorted[0];
    out->max = sorted[count - 1];
    out->median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    out->mean = sum / (double)count;
    free(sorted);
    return 0;
}
