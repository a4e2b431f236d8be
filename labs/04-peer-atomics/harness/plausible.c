/**
 * @file plausible.c
 * @brief Lab 04's rules of its rows, for however many GPUs the run had, which the host tool's
 *        check runs on any run, live or recorded, whole or partial (plain C, no CUDA). An
 *        experiment may be absent or skipped (a run of some -t keys, one GPU, or a run recorded
 *        before it existed); what is there must be whole, exact and physical.
 */
#include "claims.h"

#include <stdlib.h>
#include <string.h>


/** @brief A check in progress: where broken rules are said, how many, and the last peer
 *         counter with a launch shape (the link whose atomics it used). */
typedef struct check {
    lab_said said;        /**< where broken rules are said, and how many */
    const lab_row *peer;  /**< a counter-peer row, or NULL */
} check;

/** @brief The number after "KEY=" in @p r's detail (at its start or after a space), else 0;
 *         @p found (unless NULL) says whether there was one. */
static double d(const lab_row *r, const char *key, int *found)
{
    const size_t n = strlen(key);
    for (const char *p = r->detail; (p = strstr(p, key)) != NULL; p++) {
        char *end;
        if ((p != r->detail && p[-1] != ' ') || p[n] != '=')
            continue;
        const double value = strtod(p + n + 1, &end);
        if (end != p + n + 1) {
            if (found != NULL)
                *found = 1;
            return value;
        }
    }
    if (found != NULL)
        *found = 0;
    return 0;
}

/** @brief Is the row's value the integer @p want? */
static int value_is(const lab_row *r, long want)
{
    char *end;
    const long value = strtol(r->value, &end, 10);
    return end != r->value && *end == '\0' && value == want;
}

/** @brief What is wrong with the row's times, or NULL when they make sense. */
static const char *time_fault(const lab_row *r)
{
    const lab_stats *t = &r->us;
    if (t->median == 0 && t->min == 0 && t->max == 0) /* empty fields */
        return "a time is not a number";
    if (t->min <= 0)
        return "a time is not positive";
    if (t->min > t->median || t->median > t->max)
        return "min <= median <= max does not hold";
    if (t->count < 1)
        return "no timed runs";
    return NULL;
}

/** @brief Do the row's times make sense? Says what is wrong when not. */
static int times_ok(check *c, const lab_row *r, const char *what)
{
    const char *fault = time_fault(r);
    if (fault != NULL)
        lab_bad(&c->said, "%s: %s", what, fault);
    return fault == NULL;
}

/** @brief A counter's verdict: exact, but device scope from two GPUs is a named data race. */
static void counted(check *c, const lab_row *r, const char *what)
{
    const int race = !strcmp(r->variant, "device") && !strcmp(r->mode, "both");
    if (race && r->verified != -1)
        lab_bad(&c->said, "%s: device scope from two GPUs is a data race, yet it is called correct "
            "(verified %d)", what, r->verified);
    if (race && strstr(r->detail, "data race") == NULL)
        lab_bad(&c->said, "%s: the race is not named in the detail", what);
    if (!race && r->verified != 1)
        lab_bad(&c->said, "%s: counted %s, expected %ld (verified %d)", what, r->value, r->count,
            r->verified);
    if (!race && !value_is(r, r->count))
        lab_bad(&c->said, "%s: counted %s, expected %ld", what, r->value, r->count);
}

/** @brief The atomics a counter's variant issues per writer: one per increment, per warp
 *         (partial warps too) and iteration, or per block; @p how says which. */
static double per_writer(const lab_row *r, const char **how)
{
    const double blocks = d(r, "blocks", NULL), threads = d(r, "threads", NULL);
    *how = "one atomic per increment";
    if (!strcmp(r->variant, "warp_aggregated")) {
        *how = "one atomic per warp (partial warps too) and iteration";
        return blocks * (double)(long)((threads + 31) / 32) * d(r, "iters", NULL);
    }
    if (strstr(r->variant, "block") != NULL || strstr(r->variant, "copy") != NULL)
        *how = "one atomic per block";
    if (!strcmp(r->variant, "block_aggregated") || !strcmp(r->variant, "local_then_copy"))
        return blocks;
    return blocks * threads * d(r, "iters", NULL);
}

/** @brief A counter's atomics: as many as its variant issues, as many across the link as
 *         are not kept local, and no faster than one address can take them. */
static void atomics(check *c, const lab_row *r, const char *what, double writers)
{
    const char *how;
    const double per = per_writer(r, &how), n = d(r, "atomics", NULL);
    const int local = !strcmp(r->route, "loopback") || !strcmp(r->variant, "local_then_copy");
    const double across = d(r, "across", NULL), want = local ? 0 : per;
    if (n != per * writers)
        lab_bad(&c->said, "%s: %.0f atomics, but %s makes %.0f", what, n, how, per * writers);
    if (across != want)
        lab_bad(&c->said, "%s: %.0f atomics crossed the link, expected %.0f%s", what, across, want,
            local ? " (a variant that keeps them local)" : "");
    if (!times_ok(c, r, what))
        return;
    const double rate = n / (r->us.median / 1e6);
    if (rate > 1e12)
        lab_bad(&c->said, "%s: %.6g atomics/s on one address is beyond any GPU", what, rate);
    /* One address: its atomics queue at one L2 slice, about one per clock (1.4e9/s measured
     * on the recorded GPUs). */
    if ((!strcmp(r->variant, "device") || !strcmp(r->variant, "system")) && rate > 2e10)
        lab_bad(&c->said, "%s: %.6g atomics/s on one address: the time cannot cover the whole run",
                what,
            rate);
}

/** @brief A counter: exact (or a named race), its count blocks x threads x iters per writer,
 *         its atomics. */
static void counter(check *c, const lab_row *r, const char *what)
{
    const double writers = strcmp(r->mode, "both") == 0 ? 2 : 1;
    int shape[3];
    counted(c, r, what);
    const double blocks = d(r, "blocks", &shape[0]), threads = d(r, "threads", &shape[1]);
    const double iters = d(r, "iters", &shape[2]);
    if (!shape[0] || !shape[1] || !shape[2]) {
        lab_bad(&c->said, "%s: no launch shape in the detail", what);
        return;
    }
    if ((double)r->count != blocks * threads * iters * writers)
        lab_bad(&c->said, "%s: expected %ld != blocks x threads x iters x %.0f writer(s)", what,
                r->count,
            writers);
    if (!strcmp(r->experiment, "counter-peer"))
        c->peer = r;
    atomics(c, r, what, writers);
}

/** @brief A histogram: bit-exact, its bins summing to its bytes, atomics across the link
 *         where they should cross, a time no memory beats, and gbps that is bytes / time. */
static void histogram(check *c, const lab_row *r, const char *what)
{
    const int local = !strcmp(r->variant, "privatized") || !strcmp(r->route, "loopback");
    const double want = local ? 0 : !strcmp(r->route, "host") ? (double)r->bytes : -1;
    const double across = d(r, "across", NULL);
    if (r->verified != 1)
        lab_bad(&c->said, "%s: not bit-exact against the host histogram (verified %d)", what,
                r->verified);
    if (!value_is(r, r->count) || (long)r->bytes != r->count)
        lab_bad(&c->said, "%s: the bins sum to %s for %zu bytes", what, r->value, r->bytes);
    if ((want >= 0 && across != want) || (want < 0 && across <= 0)) {
        if (want < 0)
            lab_bad(&c->said, "%s: %.0f atomics crossed the link, expected some", what, across);
        else
            lab_bad(&c->said, "%s: %.0f atomics crossed the link, expected %.0f", what, across,
                    want);
    }
    if (!times_ok(c, r, what))
        return;
    const double rate = (double)r->bytes / r->us.median / 1e3;
    if ((double)r->bytes / (r->us.median / 1e6) > 5e13)
        lab_bad(&c->said, "%s: %zu bytes in %.9g us is faster than any memory", what, r->bytes,
            r->us.median);
    if (r->gbps == 0 || r->gbps < 0.99 * rate || r->gbps > 1.01 * rate)
        lab_bad(&c->said, "%s: gbps %.9g is not bytes / median time", what, r->gbps);
}

/** @brief A latency walk's nanoseconds per atomic (median time / steps). */
static double ns_per_step(const lab_row *r)
{
    return r->us.median * 1e3 / (double)r->count;
}

/** @brief A latency walk: it ended where the host says after one visit per step, and its
 *         ns_per_atomic is median time / steps, and physical. */
static void latency(check *c, const lab_row *r, const char *what)
{
    if (r->verified != 1)
        lab_bad(&c->said, "%s: the walk did not end where the host says (verified %d)", what,
                r->verified);
    if (!value_is(r, r->count))
        lab_bad(&c->said, "%s: %s visits for %ld steps", what, r->value, r->count);
    if (!times_ok(c, r, what))
        return;
    const double ns = ns_per_step(r), said = d(r, "ns_per_atomic", NULL);
    if (said < 0.99 * ns - 0.1 || said > 1.01 * ns + 0.1)
        lab_bad(&c->said, "%s: ns_per_atomic %.9g is not median time / steps", what, said);
    if (ns < 10 || ns > 1e6)
        lab_bad(&c->said, "%s: %.6g ns per atomic is not physical", what, ns);
}

/** @brief The CPU and a GPU adding to one counter: the CPU added while the GPU ran, the
 *         increments and the lost ones add up, and only native host atomics promise a count. */
static void mixed(check *c, const lab_row *r, const char *what)
{
    const double gpu = d(r, "gpu", NULL), cpu = d(r, "cpu", NULL);
    const double lost = d(r, "lost", NULL), value = strtod(r->value, NULL);
    const int native = !strcmp(r->variant, "system") && d(r, "host_native_atomics", NULL) == 1;
    if (cpu <= 0 || d(r, "overlapped_runs", NULL) <= 0)
        lab_bad(&c->said, "%s: the CPU never added while the GPU ran", what);
    if ((double)r->count != gpu + cpu)
        lab_bad(&c->said, "%s: %ld increments, not gpu %.0f + cpu %.0f", what, r->count, gpu, cpu);
    if ((double)r->count - value != lost)
        lab_bad(&c->said, "%s: lost %.0f is not %ld - %s", what, lost, r->count, r->value);
    if (native && (r->verified != 1 || !value_is(r, r->count)))
        lab_bad(&c->said, "%s: counted %s of %ld though the link has native host atomics", what,
                r->value,
            r->count);
    if (!native && r->verified != -1)
        lab_bad(&c->said, "%s: the count is called correct without the documentation promising it",
                what);
}

/** @brief The rules of one row by itself, by its experiment. */
static void row_rules(check *c, const lab_row *r)
{
    const char *e = r->experiment;
    char what[160];
    if (!strcmp(r->variant, "skipped")) {
        if (r->detail[0] == '\0')
            lab_bad(&c->said, "skipped %s without a reason", e);
        return;
    }
    snprintf(what, sizeof what, "%s %s %s%s%s", e, r->variant, r->route, r->mode[0] ? " " : "",
             r->mode);
    if (!strcmp(e, "counter") || !strcmp(e, "counter-peer"))
        counter(c, r, what);
    else if (!strcmp(e, "histogram") || !strcmp(e, "histogram-peer"))
        histogram(c, r, what);
    else if (!strcmp(e, "latency") || !strcmp(e, "latency-peer"))
        latency(c, r, what);
    else if (!strcmp(e, "cpu-gpu"))
        mixed(c, r, what);
}

/** @brief The rows an experiment has over a route it measured: each variant once. */
typedef struct expected {
    const char *experiment; /**< its key */
    const char *route;      /**< the route */
    const char *mode;       /**< the mode of the rows ("" none) */
    const char *variants[6]; /**< each once (NULL ends them) */
} expected;

/** The rows of each experiment over each route it measured (the local baselines are what
 *  every run has had since the first one recorded). */
static const expected EXPECTED[] = {
    {"counter", "loopback", "one", {"device"}},
    {"counter", "host", "one", {"device", "system", "warp_aggregated", "block_aggregated"}},
    {"counter-peer", "peer", "one", {"device", "system"}},
    {"counter-peer", "peer", "both",
     {"device", "system", "warp_aggregated", "block_aggregated", "local_then_copy"}},
    {"histogram", "loopback", "one", {"naive", "privatized"}},
    {"histogram", "host", "one", {"naive", "privatized"}},
    {"histogram-peer", "peer", "both", {"naive", "privatized"}},
    {"latency", "loopback", "", {"device"}},
    {"latency", "host", "", {"device", "system"}},
    {"latency-peer", "peer", "", {"device", "system"}},
};

/** @brief How many rows (not skips) of @p experiment over @p route, of @p variant and
 *         @p mode unless NULL. */
static size_t rows_of(const lab_rows *rows, const char *experiment, const char *variant,
                      const char *route, const char *mode)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++)
        n += lab_row_matches(&rows->row[i], experiment, variant, route, mode, LAB_ANY, LAB_ANY,
                             0) && strcmp(rows->row[i].variant, "skipped") != 0;
    return n;
}

/** @brief Each experiment over each route it measured has each of its variants once. */
static void whole(check *c, const lab_rows *rows)
{
    for (size_t k = 0; k < sizeof EXPECTED / sizeof EXPECTED[0]; k++) {
        const expected *x = &EXPECTED[k];
        if (rows_of(rows, x->experiment, NULL, x->route, NULL) == 0)
            continue;
        for (const char *const *v = x->variants; *v != NULL; v++) {
            const size_t n = rows_of(rows, x->experiment, *v, x->route, x->mode);
            if (n != 1)
                lab_bad(&c->said, "%s %s %s%s%s: expected one row, found %zu", x->experiment, *v,
                    x->route, x->mode[0] ? " " : "", x->mode, n);
        }
    }
}

/** @brief The first row of @p experiment and @p variant over @p route with sane times, or
 *         NULL. */
static const lab_row *timed(const lab_rows *rows, const char *experiment, const char *variant,
                            const char *route)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (lab_row_matches(r, experiment, variant, route, NULL, LAB_ANY, LAB_ANY, 0) &&
            time_fault(r) == NULL)
            return r;
    }
    return NULL;
}

/** @brief A privatized histogram beats the naive one of its experiment and route; a far
 *         atomic's latency is above a local one's of the same variant. */
static void orders(check *c, const lab_rows *rows)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i], *base;
        if (time_fault(r) != NULL)
            continue;
        if (strncmp(r->experiment, "histogram", 9) == 0 && !strcmp(r->variant, "privatized") &&
            (base = timed(rows, r->experiment, "naive", r->route)) != NULL &&
            r->us.median >= base->us.median)
            lab_bad(&c->said, "%s privatized %s: %.9g us is not faster than naive (%.9g us)",
                    r->experiment,
                r->route, r->us.median, base->us.median);
        if (strncmp(r->experiment, "latency", 7) != 0 || !strcmp(r->route, "loopback"))
            continue;
        if ((base = timed(rows, "latency", r->variant, "loopback")) == NULL)
            base = timed(rows, "latency-peer", r->variant, "loopback");
        if (base != NULL && ns_per_step(r) <= ns_per_step(base))
            lab_bad(&c->said,
                    "latency %s %s: a far atomic (%.6g ns) cannot beat a local one (%.6g ns)",
                r->variant, r->route, ns_per_step(r), ns_per_step(base));
    }
}

/** @brief The peer experiments ran over a link with native atomics; a mixed CPU-GPU run has
 *         a system and a device row. */
static void run_rules(check *c, const lab_rows *rows)
{
    const lab_row *link =
        c->peer == NULL ? NULL
                        : lab_rows_pick(rows, "link", "native_atomics", NULL, NULL,
                                        c->peer->src, c->peer->dst, 0);
    if (link != NULL && strcmp(link->value, "1") != 0)
        lab_bad(&c->said,
                "link: the peer experiments ran although GPU %d -> %d has no native atomics",
            c->peer->src, c->peer->dst);
    if (rows_of(rows, "cpu-gpu", NULL, "host", NULL) > 0 &&
        (lab_rows_count(rows, "cpu-gpu", "system") == 0 ||
         lab_rows_count(rows, "cpu-gpu", "device") == 0))
        lab_bad(&c->said, "cpu-gpu: expected a system and a device row");
}

/**
 * @brief Lab 04's rules of its rows (lab_host_part::plausible): counters exact (or a named
 *        race) with the atomics their variant issues, histograms bit-exact with the right
 *        atomics across the link, latency walks whole, mixed CPU-GPU counts that add up, times
 *        that make sense, each experiment whole over each route it measured, privatizing and
 *        locality paying. Prints each broken one; returns how many.
 */
int lab04_plausible(const lab_rows *rows, FILE *out)
{
    check c = {{out, 0}, NULL};
    for (size_t i = 0; i < rows->count; i++)
        row_rules(&c, &rows->row[i]);
    whole(&c, rows);
    orders(&c, rows);
    run_rules(&c, rows);
    return c.said.count;
}
