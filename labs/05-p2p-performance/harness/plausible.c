/**
 * @file plausible.c
 * @brief Lab 05's rules of physics and of the lab that every run's rows obey, for however many
 *        GPUs it had (the host tool's check runs them on any result file, whole or partial):
 *        sane times and bandwidths, complete sweeps, latencies in their physical windows, the
 *        pitfalls' effects and the link rows.
 */
#include "verdicts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** From this size a copy-engine or SM copy moves at least a fifth of its link's peak. */
#define FLOOR_FROM ((size_t)64 << 20)
/** From this size peer access on beats it off. */
#define P2P_PAYS_FROM ((size_t)16 << 20)

/** @brief A row as messages name it: "experiment variant route src->dst [mode ]bytes B". */
static const char *name(const lab_row *r, char *out, size_t len)
{
    snprintf(out, len, "%s %s %s %d->%d %s%s%zu B", r->experiment, r->variant, r->route, r->src,
             r->dst, r->mode, r->mode[0] ? " " : "", r->bytes);
    return out;
}

/** @brief The copies a row's bytes count: 2 both ways, the streams' count, else 1. */
static double copies(const lab_row *r)
{
    if (lab_is(r->mode, "both_ways"))
        return 2;
    return lab_is(r->experiment, "streams") ? atof(r->value) : 1;
}

/** @brief The GB/s rules of a timed row: bytes x copies / time, never above the link's peak
 *         (the fastest sample included) except the pitfalls that time nothing, and from 64 MiB
 *         a copy sweep never below a fifth of it. */
static void rate_row(const lab_row *r, const char *row, lab_said *s)
{
    const double want = (double)r->bytes * copies(r) / (r->us.median * 1000);
    if (!isfinite(r->gbps) || r->gbps <= 0 || r->gbps / want > 1.01 || r->gbps / want < 0.99)
        lab_bad(s, "%s: %g GB/s is not bytes x copies / time (%g)", row, r->gbps, want);
    /* Timings that are wrong on purpose (the enqueue alone, CPU time) may beat any link. */
    const size_t n = strlen(r->variant);
    if (lab_is(r->experiment, "cpu_timer") &&
        ((n >= 7 && lab_is(r->variant + n - 7, "no_sync")) ||
         strncmp(r->variant, "clock_", 6) == 0))
        return;
    const double top = (double)r->bytes * copies(r) / (r->us.min * 1000), peak = r->peak_gbps;
    if (peak != 0 && top > 1.02 * peak)
        lab_bad(s, "%s: %g GB/s is above the peak %g", row, top, peak);
    /* A floor a correct copy reaches on its link: at 64 MiB or more, a copy-engine or SM copy
     * moves at least a fifth of the link peak. */
    if (peak != 0 && r->bytes >= FLOOR_FROM &&
        (lab_is(r->experiment, "ce_bandwidth") || lab_is(r->experiment, "sm_bandwidth")) &&
        !lab_is(r->route, "peer_off") && r->gbps < 0.2 * peak)
        lab_bad(s, "%s: %g GB/s is below a fifth of the link peak %g", row, r->gbps, peak);
    if (peak == 0 && top > (lab_is(r->mode, "both_ways") ? 2000 : 1000))
        lab_bad(s, "%s: %g GB/s is above any link", row, top);
}

/** @brief Every timed row: numbers, 0 < min <= median <= max, verified, and its GB/s sane. */
static void check_times(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        char row[256];
        if (r->us.count == 0)
            continue;
        name(r, row, sizeof row);
        if (!isfinite(r->us.median) || !isfinite(r->us.min) || !isfinite(r->us.max)) {
            lab_bad(s, "%s: a time is not a number", row);
            continue;
        }
        if (r->us.min <= 0)
            lab_bad(s, "%s: a time is not positive", row);
        if (r->us.min > r->us.median || r->us.median > r->us.max)
            lab_bad(s, "%s: min <= median <= max does not hold", row);
        if (r->verified != 1)
            lab_bad(s, "%s: not verified", row);
        if (r->gbps != 0)
            rate_row(r, row, s);
    }
}

/** @brief Is @p r a timed row of a copy sweep (copy engine or SM)? */
static int swept(const lab_row *r)
{
    return (lab_is(r->experiment, "ce_bandwidth") || lab_is(r->experiment, "sm_bandwidth")) &&
           r->us.count > 0;
}

/** @brief Is @p q a row of the same sweep as @p r: experiment, variant, route, ends and mode? */
static int same_sweep(const lab_row *q, const lab_row *r)
{
    return swept(q) &&
           lab_row_matches(q, r->experiment, r->variant, r->route, r->mode, r->src, r->dst, 0);
}

/** @brief One way, no size falls below 0.7x of a smaller size's bandwidth (the sweep of
 *         @p first, named @p k). */
static void sweep_never_falls(const lab_rows *rows, const lab_row *first, const char *k,
                              lab_said *s)
{
    const lab_row *end = rows->row + rows->count;
    for (const lab_row *x = first; x < end; x++) {
        if (!same_sweep(x, first))
            continue;
        for (const lab_row *y = x + 1; y < end; y++)
            if (same_sweep(y, first) && y->gbps < 0.7 * x->gbps)
                lab_bad(s, "%s: %g GB/s at %zu B falls below 0.7 x %g GB/s at %zu B", k, y->gbps,
                    y->bytes, x->gbps, x->bytes);
    }
}

/** @brief The sweep whose first row is @p i: 3+ sizes, ascending, rising with size and not
 *         collapsing; one way, never falling. */
static void sweep_one(const lab_rows *rows, size_t i, lab_said *s)
{
    const lab_row *first = &rows->row[i], *last = first, *prev = NULL;
    char k[160];
    snprintf(k, sizeof k, "%s %s %s %d->%d %s", first->experiment, first->variant, first->route,
             first->src, first->dst, first->mode);
    size_t n = 0;
    double best = 0;
    for (size_t j = i; j < rows->count; j++) {
        const lab_row *r = &rows->row[j];
        if (!same_sweep(r, first))
            continue;
        n++;
        if (prev != NULL && r->bytes <= prev->bytes)
            lab_bad(s, "%s: sizes are not ascending", k);
        best = r->gbps > best ? r->gbps : best;
        prev = last = r;
    }
    if (n < 3)
        lab_bad(s, "%s: only %zu sizes", k, n);
    if (last->gbps < 0.5 * best)
        lab_bad(s, "%s: bandwidth at the largest size collapses", k);
    if (first->gbps >= last->gbps)
        lab_bad(s, "%s: bandwidth does not rise with size", k);
    if (lab_is(first->mode, "one_way"))
        sweep_never_falls(rows, first, k, s);
}

/** @brief Is @p r a copy-engine row one way between two GPUs (peer access on or off)? */
static int ce_pair_row(const lab_row *r)
{
    return swept(r) && lab_is(r->experiment, "ce_bandwidth") && lab_is(r->mode, "one_way") &&
           strncmp(r->route, "peer", 4) == 0;
}

/** @brief The sizes of the copy-engine sweep one way over the route and ends of @p r equal
 *         those of @p ref. */
static int same_sizes(const lab_rows *rows, const lab_row *r, const lab_row *ref)
{
    size_t a = 0, b = 0;
    for (;; a++, b++) {
        while (a < rows->count && !(ce_pair_row(&rows->row[a]) &&
                                    lab_row_matches(&rows->row[a], NULL, NULL, r->route, NULL,
                                                    r->src, r->dst, 0)))
            a++;
        while (b < rows->count && !(ce_pair_row(&rows->row[b]) &&
                                    lab_row_matches(&rows->row[b], NULL, NULL, ref->route, NULL,
                                                    ref->src, ref->dst, 0)))
            b++;
        if (a == rows->count || b == rows->count)
            return a == rows->count && b == rows->count;
        if (rows->row[a].bytes != rows->row[b].bytes)
            return 0;
    }
}

/** @brief The pairs: copy-engine sweeps cover the config's ordered pairs over the same sizes. */
static void sweep_pairs(const lab_rows *rows, lab_said *s)
{
    const lab_row *ref = NULL;
    int pairs = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!ce_pair_row(r))
            continue;
        if (lab_rows_pick(rows, "ce_bandwidth", NULL, NULL, "one_way", r->src, r->dst, 0) == r)
            pairs++; /* (the first row of each ordered pair) */
        if (ref == NULL)
            ref = r;
        else if (lab_rows_pick(rows, "ce_bandwidth", NULL, r->route, "one_way", r->src, r->dst,
                               0) == r && !same_sizes(rows, r, ref))
            lab_bad(s, "the pairs were swept over different sizes: %s %d->%d", r->route, r->src,
                r->dst);
    }
    const int config = lab05_config(rows, "pairs", -1);
    if (pairs && config >= 0 && pairs != config)
        lab_bad(s, "ce_bandwidth covers %d ordered pairs, config says %d", pairs, config);
}

/** @brief Each sweep sane; the pairs covered alike; P2P on beats off from 16 MiB. */
static void check_sweeps(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!swept(r))
            continue;
        size_t j = 0;
        while (!same_sweep(&rows->row[j], r))
            j++;
        if (j == i)
            sweep_one(rows, i, s);
        if (!lab_is(r->experiment, "ce_bandwidth") || !lab_is(r->route, "peer") ||
            r->bytes < P2P_PAYS_FROM)
            continue;
        const lab_row *off = lab_rows_pick(rows, "ce_bandwidth", NULL, "peer_off", r->mode,
                                           r->src, r->dst, r->bytes);
        if (off != NULL && r->gbps <= off->gbps)
            lab_bad(s, "P2P on (%g GB/s) does not beat P2P off (%g GB/s) for %d->%d %s at %zu B",
                r->gbps, off->gbps, r->src, r->dst, r->mode, r->bytes);
    }
    sweep_pairs(rows, s);
}

/** @brief A timed row of @p experiment outside @p lo .. @p hi microseconds is said. */
static void within(const lab_row *r, const char *experiment, double lo, double hi, lab_said *s)
{
    char row[256];
    if (lab_is(r->experiment, experiment) && r->us.count > 0 &&
        (r->us.median < lo || r->us.median > hi))
        lab_bad(s, "%s: %g us is outside %g .. %g us", name(r, row, sizeof row), r->us.median, lo,
            hi);
}

/** @brief A far pointer chase beyond L2 is slower than a local one on the reading GPU (within
 *         L2 a cache may serve far memory as fast as local: no order there). */
static void far_chase(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    const lab_row *local = NULL;
    for (size_t i = 0; i < rows->count; i++) /* the last local chase on the reader */
        if (lab_row_matches(&rows->row[i], "pointer_chase", NULL, "loopback", r->mode, LAB_ANY,
                            r->dst, 0))
            local = &rows->row[i];
    if (local == NULL)
        lab_bad(s, "pointer chase %s %d->%d %s: no local chase on GPU %d", r->route, r->src, r->dst,
            r->mode, r->dst);
    else if (r->us.median <= local->us.median)
        lab_bad(s, "pointer chase %s %d->%d %s: a far load (%g us) is not slower than a local one "
            "(%g us)", r->route, r->src, r->dst, r->mode, r->us.median, local->us.median);
}

/** @brief The first timed ping-pong of @p variant, or NULL. */
static const lab_row *pingpong(const lab_rows *rows, const char *variant)
{
    for (size_t i = 0; i < rows->count; i++)
        if (lab_row_matches(&rows->row[i], "pingpong", variant, NULL, NULL, LAB_ANY, LAB_ANY,
                            0) &&
            rows->row[i].us.count > 0)
            return &rows->row[i];
    return NULL;
}

/** @brief The ping-pongs are there where their links were measured, and the two host ones
 *         (GPU clock, host clock) agree (where the pingpong experiment ran). */
static void pingpongs(const lab_rows *rows, lab_said *s)
{
    if (lab_rows_count(rows, "pingpong", NULL) == 0)
        return;
    const lab_row *g = pingpong(rows, "gpu_cpu"), *c = pingpong(rows, "cpu_gpu");
    if (lab_rows_find(rows, "sm_bandwidth", NULL, "peer", NULL, 0) &&
        (!pingpong(rows, "write_remote") || !pingpong(rows, "poll_remote")))
        lab_bad(s, "pingpong: both peer variants must be reported where P2P exists");
    if (lab_rows_find(rows, "ce_bandwidth", NULL, "host", NULL, 0) && (!g || !c))
        lab_bad(s, "pingpong: both host variants (gpu_cpu, cpu_gpu) must be reported where the "
            "host link was measured");
    /* The same round trip over the same flags, timed by the GPU clock and by the host clock:
     * they agree closely. A ping clock that also counts the warm-up (whose round 1 the host
     * plays 5 ms late) adds 5 ms and 100 round trips to the timed rounds: in the quick form
     * the tests run (2000 rounds) more than 1.25x wherever a round trip takes under about
     * 12 us; over the 20000 rounds of a full run it may stay within. The run itself also
     * compares the two clocks over the same rounds of every gpu_cpu run, which sees the 5 ms
     * at any speed (a failed row). */
    const double gu = g && lab_is(g->route, "host") ? g->us.median : 0;
    const double cu = c && lab_is(c->route, "host") ? c->us.median : 0;
    if (gu > 0 && cu > 0 && (gu > 1.25 * cu || cu > 1.25 * gu))
        lab_bad(s, "pingpong: the GPU-timed host ping-pong (%g us) and the host-timed one (%g us) "
            "differ by more than 1.25x", gu, cu);
}

/** @brief Far loads beyond L2 slower than local ones; every queued small copy has a
 *         synchronized one; the ping-pongs there and agreeing. Every latency lies in a physical
 *         range: no load or round trip beats a local L2 hit (~0.1 us) by much, and none across
 *         any link takes milliseconds. */
static void check_latency(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        const int local = lab_is(r->route, "loopback");
        within(r, "pointer_chase", local ? 0.03 : 0.2, local ? 2 : 10, s);
        within(r, "pingpong", 0.2, 20, s);
        within(r, "memcpy_latency", 0.5, 100, s);
        if (lab_is(r->experiment, "pointer_chase") && !local && !lab_is(r->mode, "in_l2"))
            far_chase(rows, r, s);
        if (lab_row_matches(r, "memcpy_latency", "ce_queued", NULL, NULL, LAB_ANY, LAB_ANY, 0) &&
            !lab_rows_pick(rows, "memcpy_latency", "ce_synced", r->route, NULL, r->src, r->dst,
                           0))
            lab_bad(s, "memcpy_latency %s %d->%d: no ce_synced row", r->route, r->src, r->dst);
    }
    pingpongs(rows, s);
}

/** @brief The last row of @p experiment and @p variant over @p route, of @p mode unless NULL
 *         and of @p bytes unless 0, or NULL. */
static const lab_row *last(const lab_rows *rows, const char *experiment, const char *variant,
                           const char *route, const char *mode, size_t bytes)
{
    const lab_row *found = NULL;
    for (size_t i = 0; i < rows->count; i++)
        if (lab_row_matches(&rows->row[i], experiment, variant, route, mode, LAB_ANY, LAB_ANY,
                            bytes))
            found = &rows->row[i];
    return found;
}

/** @brief Is @p r the first row of its experiment over its route? */
static int first_of_route(const lab_rows *rows, const lab_row *r)
{
    return lab_rows_pick(rows, r->experiment, NULL, r->route, NULL, LAB_ANY, LAB_ANY, 0) == r;
}

/** @brief The host clock without a synchronize times the enqueue, with one (or any wall clock
 *         read after the copy ended) the copy, over the route of @p r. */
static void cpu_timer_route(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    static const char *const wallclocks[] = {"host_block", "gettimeofday_sync"};
    const char *route = r->route;
    const lab_row *ev = last(rows, "cpu_timer", "event", route, NULL, 0);
    const lab_row *no_sync = last(rows, "cpu_timer", "host_no_sync", route, NULL, 0);
    const lab_row *sync = last(rows, "cpu_timer", "host_sync", route, NULL, 0);
    if (!ev || !no_sync || !sync || !last(rows, "cpu_timer", "clock_sync", route, NULL, 0)) {
        lab_bad(s, "cpu_timer %s: a variant is missing", route);
        return;
    }
    const double event = ev->us.median;
    if (no_sync->us.median >= event)
        lab_bad(s,
                "cpu_timer %s: the host clock without a synchronize (%g us) shows no discrepancy "
            "with events (%g us)", route, no_sync->us.median, event);
    if (sync->us.median < 0.95 * event)
        lab_bad(s, "cpu_timer %s: the synchronized host clock (%g us) is shorter than the copy "
            "(%g us)", route, sync->us.median, event);
    for (int w = 0; w < 2; w++) {
        const lab_row *wall = last(rows, "cpu_timer", wallclocks[w], route, NULL, 0);
        if (wall && wall->us.median < 0.95 * event)
            lab_bad(s,
                    "cpu_timer %s: %s (%g us, a wall clock after the copy ended) is shorter than "
                "the copy (%g us)", route, wallclocks[w], wall->us.median, event);
    }
}

/** @brief Synchronizing after each small copy is no faster than queueing them (@p r: a queued
 *         row). */
static void cpu_sync_row(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    const lab_row *each = last(rows, "cpu_sync", "sync_each", r->route, NULL, r->bytes);
    if (each == NULL)
        lab_bad(s, "cpu_sync %s %zu B: no sync_each row", r->route, r->bytes);
    else if (each->us.median < 0.95 * r->us.median)
        lab_bad(s, "cpu_sync %s %zu B: synchronizing after each copy (%g us) is faster than "
            "queueing (%g us)", r->route, r->bytes, each->us.median, r->us.median);
}

/** @brief The legacy default stream serializes both ways and waits for a busy kernel; a
 *         non-blocking stream does neither (over the route of @p r). */
static void default_stream_route(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    const char *route = r->route;
    const lab_row *lb = last(rows, "default_stream", "legacy", route, "both_ways", 0);
    const lab_row *nb = last(rows, "default_stream", "nonblocking", route, "both_ways", 0);
    const lab_row *lk = last(rows, "default_stream", "legacy", route, "beside_busy_kernel", 0);
    const lab_row *nk =
        last(rows, "default_stream", "nonblocking", route, "beside_busy_kernel", 0);
    if (!lb || !nb || !lk || !nk) {
        lab_bad(s, "default_stream %s: a variant is missing", route);
        return;
    }
    if (!lab_is(route, "peer_off") && lb->gbps >= 0.8 * nb->gbps)
        lab_bad(s, "default_stream %s: both ways in the legacy stream (%g GB/s) are not serialized "
            "against non-blocking streams (%g GB/s)", route, lb->gbps, nb->gbps);
    if (lk->us.median < 1800)
        lab_bad(s, "default_stream %s: the legacy-stream copy (%g us) did not wait for the 2 ms "
            "kernel", route, lk->us.median);
    if (nk->us.median >= lk->us.median)
        lab_bad(s, "default_stream %s: the non-blocking copy is not faster beside the busy kernel",
            route);
}

/** @brief Has the streams experiment a row of @p value streams over @p route? */
static int streams_of(const lab_rows *rows, const char *route, const char *value)
{
    for (size_t i = 0; i < rows->count; i++)
        if (lab_row_matches(&rows->row[i], "streams", NULL, route, NULL, LAB_ANY, LAB_ANY, 0) &&
            lab_is(rows->row[i].value, value))
            return 1;
    return 0;
}

/** @brief Each route of the streams and warmup experiments has its rows: 1 and 2 streams, the
 *         first and the steady copy of both clocks. */
static void route_rows(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    if (lab_is(r->experiment, "streams") &&
        (!streams_of(rows, r->route, "1") || !streams_of(rows, r->route, "2")))
        lab_bad(s, "streams %s: needs 1 and 2 streams at least", r->route);
    if (lab_is(r->experiment, "warmup") &&
        (!last(rows, "warmup", "ce_event", r->route, "first", 0) ||
         !last(rows, "warmup", "ce_event", r->route, "steady", 0) ||
         !last(rows, "warmup", "ce_host", r->route, "first", 0) ||
         !last(rows, "warmup", "ce_host", r->route, "steady", 0)))
        lab_bad(s, "warmup %s: a first or steady row is missing", r->route);
}

/** @brief Each pitfall shows its effect, per route, in the direction physics allows. */
static void check_pitfalls(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (lab_is(r->experiment, "cpu_timer") && first_of_route(rows, r))
            cpu_timer_route(rows, r, s);
        if (lab_is(r->experiment, "cpu_sync") && lab_is(r->variant, "queued"))
            cpu_sync_row(rows, r, s);
        if (lab_is(r->experiment, "default_stream") && first_of_route(rows, r))
            default_stream_route(rows, r, s);
        if ((lab_is(r->experiment, "streams") || lab_is(r->experiment, "warmup")) &&
            first_of_route(rows, r))
            route_rows(rows, r, s);
    }
}

/** @brief One link row: NVML's state, a known path, no negative peak, a sane NVLink
 *         generation and host peak, datasheet rates that match the arithmetic. */
static void link_row(const lab_row *r, lab_said *s)
{
    const double value = atof(r->value);
    if (lab_is(r->variant, "nvml") && !lab_is(r->value, "ok") && !lab_is(r->value, "unknown"))
        lab_bad(s, "link nvml is %s", r->value);
    if (lab_is(r->variant, "path") && !lab_is(r->value, "nvlink") && !lab_is(r->value, "pcie") &&
        !lab_is(r->value, "unknown"))
        lab_bad(s, "link path %d->%d is %s", r->src, r->dst, r->value);
    if (lab_is(r->variant, "peak_gbps") && value < 0)
        lab_bad(s, "link peak %d->%d is negative", r->src, r->dst);
    if (lab_is(r->variant, "nvlink_gen") && (value < 0 || value > 6))
        lab_bad(s, "NVLink generation %s", r->value);
    if (lab_is(r->variant, "host_peak_gbps") && (value < 0 || value > 512))
        lab_bad(s, "host link peak %s GB/s", r->value);
    if (strncmp(r->variant, "datasheet_", 10) == 0 && r->verified == 0)
        lab_bad(s, "link %s: %s does not match the datasheet arithmetic", r->variant, r->value);
}

/** @brief NVML's state, and a path and a peak row for every ordered pair of the run's GPUs
 *         (where the link experiment ran); each link row sane. */
static void check_link(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++)
        if (lab_is(rows->row[i].experiment, "link"))
            link_row(&rows->row[i], s);
    if (lab_rows_count(rows, "link", NULL) == 0)
        return;
    if (lab_rows_count(rows, "link", "nvml") == 0)
        lab_bad(s, "no link nvml row");
    const int gpus = lab05_config(rows, "gpus", 0);
    for (int i = 0; i < gpus; i++)
        for (int j = 0; j < gpus; j++) {
            if (i == j)
                continue;
            if (!lab_rows_pick(rows, "link", "path", NULL, NULL, i, j, 0))
                lab_bad(s, "no link path row for %d->%d", i, j);
            if (!lab_rows_pick(rows, "link", "peak_gbps", NULL, NULL, i, j, 0))
                lab_bad(s, "no link peak row for %d->%d", i, j);
        }
}

int lab05_plausible(const lab_rows *rows, FILE *out)
{
    lab_said s = {out, 0};
    check_times(rows, &s);
    check_sweeps(rows, &s);
    check_latency(rows, &s);
    check_pitfalls(rows, &s);
    check_link(rows, &s);
    return s.count;
}
