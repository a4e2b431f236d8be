/**
 * @file plausible.c
 * @brief Lab 06's rules of its rows, which the host tool's check runs on any run, live or
 *        recorded, whole or partial (plain C, no CUDA).
 */
#include "claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/** @brief A row of what was measured (not a claim, a machine fact or a skip)? */
static int measured(const lab_row *r)
{
    return strcmp(r->experiment, "claim") != 0 && strcmp(r->experiment, "machine") != 0 &&
           r->experiment[0] != '\0' && strcmp(r->variant, "skipped") != 0;
}

/** @brief An all-reduce's bus bandwidth (gbps) is its algorithm bandwidth (value) times
 *         2(n-1)/n for n ranks (count); prints it when not, and returns 1 then. */
static int bus_bandwidth(const lab_row *r, FILE *out)
{
    const long n = r->count;
    const double alg = strtod(r->value, NULL);
    const double want = n > 0 ? alg * 2 * (double)(n - 1) / (double)n : 0;
    if (alg > 0 && fabs(r->gbps - want) <= 1e-3 * fmax(want, 1e-9) + 1e-4)
        return 0;
    fprintf(out, "busbw %.9g is not algbw %.9g x 2(n-1)/n, n %ld\n", r->gbps, alg, n);
    return 1;
}

/**
 * @brief Lab 06's rules of its rows (lab_host_part::plausible): every measurement verified
 *        where it was checked, with times that make sense (0 < min <= median <= max), and an
 *        all-reduce's bus bandwidth its algorithm bandwidth x 2(n-1)/n. Prints each broken
 *        one; returns how many.
 */
int lab06_plausible(const lab_rows *rows, FILE *out)
{
    int broken = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        const lab_stats *t = &r->us;
        if (!measured(r))
            continue;
        if (r->verified == 0) {
            fprintf(out, "not verified: %s %s %zu\n", r->experiment, r->variant, r->bytes);
            broken++;
        }
        if (t->median == 0 && t->min == 0 && t->max == 0) /* untimed: empty fields */
            continue;
        if (!(0 < t->min && t->min <= t->median && t->median <= t->max)) {
            fprintf(out, "times out of order: %s %s %zu: %.9g %.9g %.9g\n", r->experiment,
                    r->variant, r->bytes, t->min, t->median, t->max);
            broken++;
        }
        if (strcmp(r->experiment, "allreduce") == 0)
            broken += bus_bandwidth(r, out);
    }
    return broken;
}
