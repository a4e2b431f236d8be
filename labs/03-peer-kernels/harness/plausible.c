/**
 * @file plausible.c
 * @brief Lab 03's rules of its rows, of physics and of the lab, which the host tool's check
 *        runs on any run, live or recorded, whole or partial (plain C, no CUDA).
 */
#include "claims.h"

#include <math.h>
#include <string.h>

/** GB/s of array bytes over a link (peer or host): above NVLink 4 (450 GB/s one way),
 *  NVLink 5 (900) and NVLink-C2C. */
#define LINK_CEILING 1500.0
/** Loopback is local memory: the kernel reads and writes each byte once, and small arrays
 *  may sit in L2. */
#define LOCAL_CEILING 20000.0

static const char *const VARIANTS[] = {"pull", "push", "copy_only", "copy_then_compute", NULL};
static const char *const ROUTES[] = {"peer", "peer_off", "host", "loopback", "", NULL};
static const char *const OUTCOMES[] = {"fault", "silent_success", "wrong_data",
                                       "hang",  "crash",          "not_run", NULL};
/** The fault rows whose value is a CUDA error name. */
static const char *const CALLS[] = {"launch", "sync", "waited", "after_a", "after_b",
                                    "reverse_enabled", NULL};

/** @brief A check in progress: where broken rules are said, how many, the run's repetitions. */
typedef struct check {
    lab_said said; /**< where broken rules are said, and how many */
    long reps;     /**< the first timed row's repetitions (-1: none yet) */
} check;

/** @brief Is @p word one of @p list (NULL-terminated)? */
static int one_of(const char *word, const char *const *list)
{
    while (*list != NULL)
        if (strcmp(word, *list++) == 0)
            return 1;
    return 0;
}


/** @brief The rules of a timed row (transfer, stride); @p what names it. */
static void timed(check *c, const lab_row *r, const char *what)
{
    const double ceiling = strcmp(r->route, "loopback") == 0 ? LOCAL_CEILING : LINK_CEILING;
    if (r->verified != 1)
        lab_bad(&c->said, "%s: not verified (verified=%d)", what, r->verified);
    if ((r->us.median == 0 && r->us.min == 0 && r->us.max == 0) || r->gbps == 0.0) {
        lab_bad(&c->said, "%s: a time or rate is not a number", what);
        return;
    }
    if (r->us.min <= 0)
        lab_bad(&c->said, "%s: a time is not positive", what);
    if (r->us.min > r->us.median || r->us.median > r->us.max)
        lab_bad(&c->said, "%s: min <= median <= max does not hold", what);
    if (c->reps < 0)
        c->reps = (long)r->us.count;
    else if ((long)r->us.count != c->reps)
        lab_bad(&c->said, "%s: %zu repetitions, other rows have %ld", what, r->us.count, c->reps);
    const double want = (double)r->bytes / 1e3 / r->us.median;
    if (fabs(r->gbps - want) > 0.02 * want + 0.01)
        lab_bad(&c->said, "%s: %.9g GB/s does not match %zu bytes in %.9g us", what, r->gbps,
                r->bytes,
            r->us.median);
    if (r->gbps > ceiling)
        lab_bad(&c->said, "%s: %.9g GB/s is above the physical ceiling of %.0f GB/s", what, r->gbps,
            ceiling);
}

/** @brief The rules of one row by itself (the sweeps are judged whole, later). */
static void row_rules(check *c, const lab_row *r)
{
    char what[160];
    const char *e = r->experiment;
    if (!one_of(r->route, ROUTES)) {
        lab_bad(&c->said, "%s %s: unknown route %s", e, r->variant, r->route);
        return;
    }
    if (!strcmp(e, "machine") || !strcmp(e, "claim") || !strcmp(r->variant, "skipped") ||
        !strcmp(e, "fault"))
        return;
    if (!strcmp(e, "transfer")) {
        snprintf(what, sizeof what, "transfer %s on %s at %zu bytes", r->variant, r->route,
                 r->bytes);
        timed(c, r, what);
    } else if (!strcmp(e, "stride")) {
        snprintf(what, sizeof what, "stride %s on %s", r->variant, r->route);
        timed(c, r, what);
    } else if (!strcmp(e, "bounds")) {
        if (r->verified != 1)
            lab_bad(&c->said, "bounds %s on %s (%ld floats, %s): not verified", r->variant,
                    r->route,
                r->count, r->mode);
    } else {
        lab_bad(&c->said, "unknown experiment %s", e);
    }
}

/** @brief A row the whole-run rules count: of a known route, not a skip. */
static int counted(const lab_row *r)
{
    return one_of(r->route, ROUTES) && strcmp(r->variant, "skipped") != 0;
}

/** @brief What groups a row for the whole-run rules: its route, or a fault's child (mode). */
static const char *group(const lab_row *r)
{
    return strcmp(r->experiment, "fault") == 0 ? r->mode : r->route;
}

/** @brief Is row @p i the first counted row of its experiment and group? */
static int first_of_group(const lab_rows *rows, size_t i)
{
    const lab_row *r = &rows->row[i];
    if (!counted(r))
        return 0;
    for (size_t j = 0; j < i; j++) {
        const lab_row *p = &rows->row[j];
        if (counted(p) && !strcmp(p->experiment, r->experiment) && !strcmp(group(p), group(r)))
            return 0;
    }
    return 1;
}

/** @brief The first row of @p experiment and @p variant over @p route (NULL: any) for @p mode
 *         (NULL: any) of @p bytes (0: any), else a row of zeros and empty text. */
static const lab_row *at(const lab_rows *rows, const char *experiment, const char *variant,
                         const char *route, const char *mode, size_t bytes)
{
    static const lab_row none;
    const lab_row *r =
        lab_rows_pick(rows, experiment, variant, route, mode, LAB_ANY, LAB_ANY, bytes);
    return r != NULL ? r : &none;
}

/** @brief How many rows of @p experiment and @p variant over @p route of @p bytes (0: any). */
static size_t rows_of(const lab_rows *rows, const char *experiment, const char *variant,
                      const char *route, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++)
        n += lab_row_matches(&rows->row[i], experiment, variant, route, NULL, LAB_ANY, LAB_ANY,
                             bytes);
    return n;
}

/** @brief The smallest transfer size over @p route above @p above, or 0 when none is. */
static size_t next_size(const lab_rows *rows, const char *route, size_t above)
{
    size_t next = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!strcmp(r->experiment, "transfer") && !strcmp(r->route, route) && counted(r) &&
            r->bytes > above && (next == 0 || r->bytes < next))
            next = r->bytes;
    }
    return next;
}

/** @brief Each variant of the transfers over @p route: one row at each size of the sweep
 *         from @p lo to @p hi bytes, and a bandwidth that rises over a wide sweep. */
static void variants(check *c, const lab_rows *rows, const char *route, size_t lo, size_t hi)
{
    for (const char *const *v = VARIANTS; *v != NULL; v++) {
        if (rows_of(rows, "transfer", *v, route, 0) == 0)
            continue;
        for (size_t s = lo; s != 0; s = next_size(rows, route, s)) {
            const size_t n = rows_of(rows, "transfer", *v, route, s);
            if (n != 1)
                lab_bad(&c->said, "transfer %s on %s at %zu bytes: expected one row, found %zu", *v,
                    route, s, n);
        }
        const double low = at(rows, "transfer", *v, route, NULL, lo)->gbps;
        const double high = at(rows, "transfer", *v, route, NULL, hi)->gbps;
        if (hi >= 64 * lo && high <= low)
            lab_bad(&c->said,
                    "transfer %s on %s: bandwidth does not rise with size (%.9g GB/s at %zu "
                "bytes, %.9g at %zu)", *v, route, low, lo, high, hi);
    }
}

/** @brief The transfers over @p route: sizes a x4 sweep (the largest aside), every variant at
 *         each, and copy_then_compute no faster than its own copy at a large size. */
static void sweep(check *c, const lab_rows *rows, const char *route)
{
    const size_t lo = next_size(rows, route, 0);
    size_t hi = lo;
    for (size_t s = lo, n; s != 0 && (n = next_size(rows, route, s)) != 0; s = n) {
        if (next_size(rows, route, n) != 0 && n != 4 * s)
            lab_bad(&c->said, "transfer sizes on %s are not a x4 sweep (%zu then %zu)", route, s,
                    n);
        hi = n;
    }
    variants(c, rows, route, lo, hi);
    const double both = at(rows, "transfer", "copy_then_compute", route, NULL, hi)->us.median;
    const double copy = at(rows, "transfer", "copy_only", route, NULL, hi)->us.median;
    if (hi >= ((size_t)16 << 20) && rows_of(rows, "transfer", "copy_only", route, 0) > 0 &&
        both < 0.9 * copy)
        lab_bad(&c->said,
                "copy_then_compute on %s at %zu bytes (%.9g us) is faster than its own copy "
            "(%.9g us)", route, hi, both, copy);
}

/** @brief The strided reads over @p route: one row per stride, and coalesced reads over a link
 *         clearly faster than stride 32 (peer reads cost a sector each; over PCIe the L2 may
 *         keep host lines). */
static void strides(check *c, const lab_rows *rows, const char *route)
{
    char variant[32];
    for (int stride = 1; stride <= 64; stride *= 2) {
        snprintf(variant, sizeof variant, "stride_%d", stride);
        const size_t n = rows_of(rows, "stride", variant, route, 0);
        if (n != 1)
            lab_bad(&c->said, "%s on %s: expected one row, found %zu", variant, route, n);
    }
    const double factor = strcmp(route, "peer") == 0 ? 2 : 1;
    const double one = at(rows, "stride", "stride_1", route, NULL, 0)->gbps;
    const double wide = at(rows, "stride", "stride_32", route, NULL, 0)->gbps;
    if (strcmp(route, "loopback") != 0 && one <= factor * wide)
        lab_bad(&c->said,
                "coalesced reads over %s (stride 1, %.9g GB/s) are not clearly faster than "
            "stride 32 (%.9g GB/s)", route, one, wide);
}

/** @brief Is @p value "-", cudaSuccess or a cudaError name? */
static int error_name(const char *value)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if (!strcmp(value, "-") || !strcmp(value, "cudaSuccess"))
        return 1;
    if (strncmp(value, "cudaError", 9) != 0)
        return 0;
    const size_t n = strspn(value + 9, letters);
    return n > 0 && value[9 + n] == '\0';
}

/** @brief The value of the fault child @p mode's row @p variant ("" without one). */
static const char *said(const lab_rows *rows, const char *mode, const char *variant)
{
    return at(rows, "fault", variant, NULL, mode, 0)->value;
}

/** @brief Has the fault child @p mode a row @p variant? */
static int has(const lab_rows *rows, const char *mode, const char *variant)
{
    return lab_rows_pick(rows, "fault", variant, NULL, mode, LAB_ANY, LAB_ANY, 0) != NULL;
}

/** @brief The fault child @p mode: a known outcome, CUDA error names, and an outcome that
 *         agrees with what the calls returned. */
static void fault(check *c, const lab_rows *rows, const char *mode)
{
    if (!has(rows, mode, "outcome")) {
        lab_bad(&c->said, "fault %s: no outcome", mode);
        return;
    }
    const char *o = said(rows, mode, "outcome"), *sync = said(rows, mode, "sync");
    if (!one_of(o, OUTCOMES))
        lab_bad(&c->said, "fault outcome %s is not one of the known outcomes", o);
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!strcmp(r->experiment, "fault") && !strcmp(r->mode, mode) &&
            one_of(r->variant, CALLS) && !error_name(r->value))
            lab_bad(&c->said, "fault %s is %s, not a CUDA error name", r->variant, r->value);
    }
    if (!strcmp(o, "fault") && !strcmp(said(rows, mode, "launch"), "cudaSuccess") &&
        !strcmp(sync, "cudaSuccess"))
        lab_bad(&c->said, "fault outcome is fault, yet launch and synchronize both succeeded");
    if (!strcmp(o, "silent_success") &&
        (strcmp(sync, "cudaSuccess") || strcmp(said(rows, mode, "data"), "correct")))
        lab_bad(&c->said,
                "fault outcome is silent_success, yet synchronize said %s and the data was %s",
            sync, said(rows, mode, "data"));
    if (!strcmp(o, "hang") && strcmp(said(rows, mode, "signal"), "9"))
        lab_bad(&c->said, "fault outcome is hang, yet the child was not killed");
    if (!strcmp(o, "not_run") && !has(rows, mode, "reason"))
        lab_bad(&c->said, "fault outcome is not_run without a reason");
    if (!strcmp(mode, "one_way") && strcmp(said(rows, mode, "reverse_enabled"), "cudaSuccess"))
        lab_bad(&c->said, "fault one_way: enabling access the other way returned %s",
            said(rows, mode, "reverse_enabled"));
}

/**
 * @brief Lab 03's rules of its rows (lab_host_part::plausible): timed rows verified, with
 *        ordered positive times, one repetition count, a rate that is bytes over time and under
 *        the link's ceiling; whole x4 size sweeps of every variant; strides; bounds verified;
 *        fault outcomes that agree with the calls. Prints each broken one; returns how many.
 */
int lab03_plausible(const lab_rows *rows, FILE *out)
{
    check c = {{out, 0}, -1};
    for (size_t i = 0; i < rows->count; i++)
        row_rules(&c, &rows->row[i]);
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!first_of_group(rows, i))
            continue;
        if (!strcmp(r->experiment, "transfer"))
            sweep(&c, rows, r->route);
        else if (!strcmp(r->experiment, "stride"))
            strides(&c, rows, r->route);
        else if (!strcmp(r->experiment, "fault"))
            fault(&c, rows, r->mode);
    }
    return c.said.count;
}
