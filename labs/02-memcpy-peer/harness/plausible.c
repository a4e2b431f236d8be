/**
 * @file plausible.c
 * @brief Lab 02's rules of physics and of the lab that every run's rows obey (the host tool's
 *        check runs them on any result file, whole or partial): each argument case once with
 *        its status, complete sweeps, stream order, sane timings, the device switch, the
 *        current-device experiment and the ordering rows.
 */
#include "claims.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/** No copy between two GPUs or over the host link moves data faster than this (GB/s, bytes
 *  counted once: NVLink 5 carries 900 GB/s each way, C2C 450). */
#define CEILING_LINK 1000.0
/** Within one GPU a copy reads and writes each byte (HBM3e: 4.8 TB/s in all). */
#define CEILING_LOCAL 5000.0
/** Copies of this size and above are "large": peer access must pay off there. */
#define LARGE ((size_t)16 << 20)
/** From this size a timed copy reaches its route's floor. */
#define FLOOR_FROM ((size_t)64 << 20)

/** @brief Is @p r a row of @p experiment that measured something (not its "skipped" row)? */
static int of(const lab_row *r, const char *experiment)
{
    return lab_is(r->experiment, experiment) && !lab_is(r->variant, "skipped");
}

/** @brief Does the text of @p value name device @p id? */
static int names(const char *value, int id)
{
    char text[16];
    snprintf(text, sizeof text, "%d", id);
    return lab_is(value, text);
}

/** @brief Is there a row of the same experiment and leg as row @p i before it? */
static int leg_seen(const lab_rows *rows, size_t i)
{
    const lab_row *r = &rows->row[i];
    for (size_t j = 0; j < i; j++)
        if (of(&rows->row[j], r->experiment) &&
            lab_row_matches(&rows->row[j], NULL, NULL, r->route, NULL, r->src, r->dst, 0))
            return 1;
    return 0;
}

/** @brief Is there a row before row @p i of its experiment and variant, and of its mode unless
 *         @p any_mode, over its leg at its size unless @p any_leg? */
static int repeated(const lab_rows *rows, size_t i, int any_leg, int any_mode)
{
    const lab_row *r = &rows->row[i];
    for (size_t j = 0; j < i; j++)
        if (lab_row_matches(&rows->row[j], r->experiment, r->variant, any_leg ? NULL : r->route,
                            any_mode ? NULL : r->mode, any_leg ? LAB_ANY : r->src,
                            any_leg ? LAB_ANY : r->dst, any_leg ? 0 : r->bytes))
            return 1;
    return 0;
}

/** @brief The ceiling of the route of @p r: local memory or a link. */
static double ceiling(const lab_row *r)
{
    return lab_is(r->route, "loopback") ? CEILING_LOCAL : CEILING_LINK;
}

/** @brief Does gbps of @p r differ from bytes / median time by more than 1%? */
static int not_bytes_per_time(const lab_row *r)
{
    const double expect = (double)r->bytes / 1e3 / r->us.median;
    return expect > 0 && (r->gbps / expect > 1.01 || r->gbps / expect < 0.99);
}

/** @brief Are min <= median <= max out of order in @p r? */
static int disordered(const lab_row *r)
{
    return r->us.min > r->us.median || r->us.median > r->us.max;
}

/** One case of an argument experiment: a call of the lab and the status it must return. */
typedef struct arg_case {
    const char *name;   /**< the case: the variant of its row */
    const char *call;   /**< p2p_copy_floats, p2p_copy or p2p_copy_async: the mode */
    const char *status; /**< the expected status: the value */
    int needs_two;      /**< 1: it needs a second GPU (skipped, with a row saying so, on one) */
} arg_case;

/** A case of both copy calls, p2p_copy and p2p_copy_async. */
#define COPY_CASE(name, status, two)                                                       \
    {name, "p2p_copy", status, two}, { name, "p2p_copy_async", status, two }

/** Every case of every call; the float cases go through p2p_copy_floats. */
static const arg_case arg_cases[] = {
    {"size_overflow", "p2p_copy_floats", "P2P_ERR_SIZE_OVERFLOW", 0},
    {"zero_count", "p2p_copy_floats", "P2P_ERR_ZERO_SIZE", 0},
    {"valid_count", "p2p_copy_floats", "P2P_OK", 0},
    COPY_CASE("null_dst", "P2P_ERR_NULL_DST", 0),
    COPY_CASE("null_src", "P2P_ERR_NULL_SRC", 0),
    COPY_CASE("zero_bytes", "P2P_ERR_ZERO_SIZE", 0),
    COPY_CASE("dst_device_negative", "P2P_ERR_BAD_DST_DEVICE", 0),
    COPY_CASE("dst_device_too_large", "P2P_ERR_BAD_DST_DEVICE", 0),
    COPY_CASE("src_device_negative", "P2P_ERR_BAD_SRC_DEVICE", 0),
    COPY_CASE("src_device_too_large", "P2P_ERR_BAD_SRC_DEVICE", 0),
    COPY_CASE("dst_is_host_memory", "P2P_ERR_DST_NOT_ON_DEVICE", 0),
    COPY_CASE("dst_is_pinned_host_memory", "P2P_ERR_DST_NOT_ON_DEVICE", 0),
    COPY_CASE("src_is_host_memory", "P2P_ERR_SRC_NOT_ON_DEVICE", 0),
    COPY_CASE("dst_on_other_gpu", "P2P_ERR_DST_NOT_ON_DEVICE", 1),
    COPY_CASE("src_on_other_gpu", "P2P_ERR_SRC_NOT_ON_DEVICE", 1),
    COPY_CASE("valid_copy", "P2P_OK", 0),
#undef COPY_CASE
};

/** How many cases arg_cases has. */
#define ARG_CASES (sizeof arg_cases / sizeof arg_cases[0])

/** @brief The case of an args row, or NULL when it is none of the lab's. */
static const arg_case *arg_case_of(const lab_row *r)
{
    for (size_t k = 0; k < ARG_CASES; k++)
        if (lab_is(arg_cases[k].name, r->variant) && lab_is(arg_cases[k].call, r->mode))
            return &arg_cases[k];
    return NULL;
}

/** @brief One args row: a case of the lab, once, with its status; verified; a refused call
 *         wrote nothing, a valid one exactly its bytes. */
static void args_row(const lab_rows *rows, size_t i, lab_said *s)
{
    const lab_row *r = &rows->row[i];
    const arg_case *c = arg_case_of(r);
    if (c == NULL) {
        lab_bad(s, "args %s/%s is not a case of the lab", r->variant, r->mode);
        return;
    }
    if (repeated(rows, i, 1, 0))
        lab_bad(s, "args %s/%s appears twice", c->name, c->call);
    if (!lab_is(r->value, c->status))
        lab_bad(s, "args %s/%s: expected %s, got %s", c->name, c->call, c->status, r->value);
    if (r->verified != 1)
        lab_bad(s, "args %s/%s: not verified (%s)", c->name, c->call, r->detail);
    if (lab_is(c->status, "P2P_OK") && strstr(r->detail, "exactly the copy") == NULL)
        lab_bad(s, "args %s/%s: the valid copy did not write exactly its bytes", c->name, c->call);
    if (!lab_is(c->status, "P2P_OK") && strstr(r->detail, "nothing written") == NULL)
        lab_bad(s, "args %s/%s: a refused call wrote to a destination", c->name, c->call);
}

/** @brief Every case of every call once, with the status of arg_cases (where the args
 *         experiment ran: a run of other experiments alone has none of its rows). */
static void check_args(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++)
        if (of(&rows->row[i], "args"))
            args_row(rows, i, s);
    if (lab_rows_count(rows, "args", NULL) == 0)
        return;
    const int one_gpu = lab_rows_pick(rows, "args", "skipped", "peer", NULL, LAB_ANY, LAB_ANY,
                                      0) != NULL;
    for (size_t k = 0; k < ARG_CASES; k++)
        if (lab_rows_pick(rows, "args", arg_cases[k].name, NULL, arg_cases[k].call, LAB_ANY,
                          LAB_ANY, 0) == NULL &&
            !(arg_cases[k].needs_two && one_gpu))
            lab_bad(s, "args %s/%s is missing", arg_cases[k].name, arg_cases[k].call);
}

/** What the sweep of one call did on one leg. */
typedef struct sweep_leg {
    size_t rows;   /**< its rows */
    size_t top;    /**< its largest size */
    int one;       /**< 1: it copied 1 byte */
    int odd;       /**< 1: it copied an odd size above 1 */
    int unaligned; /**< 1: it copied from an unaligned address */
} sweep_leg;

/** @brief The sweep of @p call over the leg of @p leg; the largest size of any sweep in @p top. */
static sweep_leg sweep_of(const lab_rows *rows, const lab_row *leg, const char *call,
                          size_t *top)
{
    sweep_leg w = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "sweep"))
            continue;
        *top = r->bytes > *top ? r->bytes : *top;
        if (!lab_row_matches(r, NULL, call, leg->route, NULL, leg->src, leg->dst, 0))
            continue;
        w.rows++;
        w.top = r->bytes > w.top ? r->bytes : w.top;
        w.one |= r->bytes == 1;
        w.odd |= r->bytes > 1 && r->bytes % 2 == 1;
        w.unaligned |= lab_is(r->mode, "unaligned");
    }
    return w;
}

/** @brief One leg of the sweep: both directions, both calls, from 1 byte to the largest size,
 *         odd sizes and unaligned copies among them. */
static void sweep_leg_check(const lab_rows *rows, const lab_row *leg, lab_said *s)
{
    static const char *const calls[] = {"p2p_copy", "p2p_copy_async"};
    if (!lab_is(leg->route, "loopback") &&
        lab_rows_pick(rows, "sweep", NULL, leg->route, NULL, leg->dst, leg->src, 0) == NULL)
        lab_bad(s, "sweep %s/%d->%d is missing", leg->route, leg->dst, leg->src);
    for (int m = 0; m < 2; m++) {
        size_t top = 0;
        const sweep_leg w = sweep_of(rows, leg, calls[m], &top);
        const char *route = leg->route, *call = calls[m];
        if (w.rows == 0) {
            lab_bad(s, "sweep %s/%d->%d/%s is missing", route, leg->src, leg->dst, call);
            continue;
        }
        if (!w.one)
            lab_bad(s, "sweep %s/%d->%d/%s has no 1-byte copy", route, leg->src, leg->dst, call);
        if (w.top != top)
            lab_bad(s, "sweep %s/%d->%d/%s does not reach the largest size %zu", route, leg->src,
                leg->dst, call, top);
        if (top > 3 && !w.odd)
            lab_bad(s, "sweep %s/%d->%d/%s has no odd size", route, leg->src, leg->dst, call);
        if (top > 1 && !w.unaligned)
            lab_bad(s, "sweep %s/%d->%d/%s has no unaligned copy", route, leg->src, leg->dst, call);
    }
}

/** @brief Every size from 1 byte to the largest, aligned and not, both calls, each leg of each
 *         route; verified, and the source GPU still current afterwards. */
static void check_sweep(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "sweep"))
            continue;
        if (r->verified != 1)
            lab_bad(s, "sweep %s/%d->%d/%s %zu B: not verified", r->route, r->src, r->dst,
                r->variant, r->bytes);
        if (!names(r->value, r->src))
            lab_bad(s, "sweep %s/%d->%d/%s %zu B: the wrapper changed the current device to %s",
                r->route, r->src, r->dst, r->variant, r->bytes, r->value);
        if (!leg_seen(rows, i))
            sweep_leg_check(rows, r, s);
    }
}

/** @brief Has @p leg a stream_order row of @p variant and @p mode? */
static int ordered(const lab_rows *rows, const lab_row *leg, const char *variant,
                   const char *mode)
{
    return lab_rows_pick(rows, "stream_order", variant, leg->route, mode, leg->src, leg->dst,
                         0) != NULL;
}

/** @brief p2p_copy_async (and, where it was run, p2p_copy_staged) in stream order on every
 *         leg the sweep copied (where the stream_order experiment ran). */
static void check_stream_order(const lab_rows *rows, lab_said *s)
{
    const int ran = lab_rows_count(rows, "stream_order", NULL) > 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (of(r, "stream_order") && r->verified != 1)
            lab_bad(s, "stream_order %s/%d->%d/%s/%s: the copy did not follow its stream", r->route,
                r->src, r->dst, r->variant, r->mode);
        if (!ran || !of(r, "sweep") || leg_seen(rows, i))
            continue;
        if (!ordered(rows, r, "p2p_copy_async", "delay_then_upload"))
            lab_bad(s, "stream_order %s/%d->%d is missing", r->route, r->src, r->dst);
        if (!ordered(rows, r, "p2p_copy_staged", NULL))
            continue;
        if (!ordered(rows, r, "p2p_copy_staged", "upload_in_timed_order"))
            lab_bad(s, "stream_order %s/%d->%d staged fork check is missing", r->route, r->src,
                r->dst);
        if (!ordered(rows, r, "p2p_copy_staged", "source_stream_held"))
            lab_bad(s, "stream_order %s/%d->%d staged wait check is missing", r->route, r->src,
                r->dst);
    }
}

/** @brief The name of a timing row's key and size, as messages say it:
 *         "timing variant/route/src->dst[/mode]/bytes". */
static const char *timing_name(const lab_row *r, char *name, size_t len)
{
    snprintf(name, len, "timing %s/%s/%d->%d%s%s/%zu", r->variant, r->route, r->src, r->dst,
             r->mode[0] ? "/" : "", r->mode, r->bytes);
    return name;
}

/** @brief The rules of one timing row alone; 1 when its times and bandwidth are numbers. */
static int timing_row(const lab_rows *rows, size_t i, lab_said *s)
{
    const lab_row *r = &rows->row[i];
    char what[256];
    timing_name(r, what, sizeof what);
    if (repeated(rows, i, 0, 0))
        lab_bad(s, "%s appears twice", what);
    if (r->verified != 1)
        lab_bad(s, "%s: not verified", what);
    if (!isfinite(r->us.median) || !isfinite(r->us.min) || !isfinite(r->us.max) ||
        !isfinite(r->gbps)) {
        lab_bad(s, "%s: a time or a bandwidth is not a number", what);
        return 0;
    }
    if (r->us.count < 1)
        lab_bad(s, "%s: no samples", what);
    if (r->us.min <= 0)
        lab_bad(s, "%s: a time is not positive", what);
    if (disordered(r))
        lab_bad(s, "%s: min <= median <= max does not hold", what);
    if (r->gbps <= 0)
        lab_bad(s, "%s: bandwidth is not positive", what);
    if (r->gbps > ceiling(r))
        lab_bad(s, "%s: %g GB/s is above the %g GB/s ceiling", what, r->gbps, ceiling(r));
    /* Floors no working link misses from 64 MiB (PCIe Gen3 pageable copies reach several
     * GB/s, the memory of a GPU hundreds, a copy staged through the host what the host link
     * gives): timing the wrong thing (allocations, a unit slip) falls below them. */
    const double floor =
        lab_is(r->route, "loopback") && !lab_is(r->variant, "host_staged") ? 50 : 1;
    if (r->bytes >= FLOOR_FROM && r->gbps < floor)
        lab_bad(s, "%s: %g GB/s is below the %g GB/s floor", what, r->gbps, floor);
    if (not_bytes_per_time(r))
        lab_bad(s, "%s: gbps %g is not bytes / median time", what, r->gbps);
    return 1;
}

/** @brief Every way at every size of its route on the leg of timing row @p leg. */
static void timing_leg(const lab_rows *rows, const lab_row *leg, lab_said *s)
{
    static const char *const ways[] = {"memcpy_peer", "memcpy_peer_async", "memcpy_default",
                                       "host_staged"};
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "timing") || !lab_is(r->route, leg->route) ||
            lab_rows_pick(rows, "timing", NULL, r->route, NULL, LAB_ANY, LAB_ANY, r->bytes) != r)
            continue; /* the first row of each size of the route */
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
            if (lab_rows_pick(rows, "timing", ways[w], leg->route, "", leg->src, leg->dst,
                              r->bytes) == NULL)
                lab_bad(s, "timing %s/%s/%d->%d/%zu is missing", ways[w], leg->route, leg->src,
                    leg->dst, r->bytes);
    }
}

/** @brief The host route at the size of @p r: the 4 pinned and pageable copies. */
static void timing_host(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++)
        n += of(&rows->row[i], "timing") &&
             lab_row_matches(&rows->row[i], NULL, NULL, "host", NULL, LAB_ANY, LAB_ANY, r->bytes);
    if (n != 4)
        lab_bad(s, "timing host %zu B: %zu of the 4 pinned and pageable copies", r->bytes, n);
}

/** @brief The timed copy of @p r's way, leg and mode at its smallest size (@p largest 0) or its
 *         largest (1); the first such row where several are. */
static const lab_row *timing_end(const lab_rows *rows, const lab_row *r, int largest)
{
    const lab_row *end = NULL;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *q = &rows->row[i];
        if (lab_row_matches(q, "timing", r->variant, r->route, r->mode, r->src, r->dst, 0) &&
            (end == NULL || (largest ? q->bytes > end->bytes : q->bytes < end->bytes)))
            end = q;
    }
    return end;
}

/** @brief Bandwidth rises from the smallest size of @p r's way on its leg to the largest. */
static void timing_rises(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    const lab_row *lo = timing_end(rows, r, 0), *hi = timing_end(rows, r, 1);
    if (hi->bytes > lo->bytes && hi->gbps <= lo->gbps)
        lab_bad(s, "timing %s/%s/%d->%d%s%s: %g GB/s at %zu B is not above %g GB/s at %zu B",
            r->variant, r->route, r->src, r->dst, r->mode[0] ? "/" : "", r->mode, hi->gbps,
            hi->bytes, lo->gbps, lo->bytes);
}

/** @brief A large peer copy with peer access on beats the same with it off, and cudaMemcpyPeer
 *         beats staging through the host. */
static void timing_peer_pays(const lab_rows *rows, const lab_row *r, lab_said *s)
{
    if (!lab_is(r->route, "peer") || r->mode[0] || r->bytes < LARGE)
        return;
    const lab_row *off = lab_rows_pick(rows, "timing", r->variant, "peer_off", "", r->src,
                                       r->dst, r->bytes);
    const lab_row *staged = lab_rows_pick(rows, "timing", "host_staged", "peer", "", r->src,
                                          r->dst, r->bytes);
    if (!lab_is(r->variant, "host_staged") && off != NULL && r->gbps <= off->gbps)
        lab_bad(s, "timing %s %d->%d %zu B: peer access on (%g GB/s) does not beat off (%g GB/s)",
            r->variant, r->src, r->dst, r->bytes, r->gbps, off->gbps);
    if (lab_is(r->variant, "memcpy_peer") && staged != NULL && r->gbps <= staged->gbps)
        lab_bad(s, "timing %d->%d %zu B: P2P (%g GB/s) does not beat host staging (%g GB/s)",
            r->src, r->dst, r->bytes, r->gbps, staged->gbps);
}

/** @brief Times finite and positive, min <= median <= max, GB/s = bytes / median, below the
 *         ceiling of the route and from 64 MiB above its floor, rising from the smallest size
 *         to the largest; every way at every size on every leg; with both peer routes, peer
 *         access on beats off and a peer copy beats staging when large. */
static void check_timing(const lab_rows *rows, lab_said *s)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "timing") || !timing_row(rows, i, s))
            continue;
        if (lab_is(r->route, "host")) {
            if (lab_rows_pick(rows, "timing", NULL, "host", NULL, LAB_ANY, LAB_ANY, r->bytes) ==
                r)
                timing_host(rows, r, s);
        } else if (!leg_seen(rows, i)) {
            timing_leg(rows, r, s);
        }
        if (timing_end(rows, r, 0) == r)
            timing_rises(rows, r, s);
        timing_peer_pays(rows, r, s);
    }
}

/** @brief The rules of one switch row: a way of the experiment on the host clock, verified,
 *         positive and ordered times, bytes / median, below the ceiling. */
static void switch_row(const lab_rows *rows, size_t i, lab_said *s)
{
    const lab_row *r = &rows->row[i];
    char what[256];
    snprintf(what, sizeof what, "switch %s/%s/%d->%d/%zu", r->variant, r->route, r->src, r->dst,
             r->bytes);
    if (repeated(rows, i, 0, 1))
        lab_bad(s, "%s appears twice", what);
    if (!lab_is(r->variant, "memcpy_peer") && !lab_is(r->variant, "set_device_memcpy"))
        lab_bad(s, "%s: not a way of the experiment", what);
    if (!lab_is(r->mode, "host_clock"))
        lab_bad(s, "%s: mode %s, not host_clock", what, r->mode);
    if (r->verified != 1)
        lab_bad(s, "%s: not verified", what);
    if (r->count < 1)
        lab_bad(s, "%s: no calls per sample", what);
    if (!isfinite(r->us.median) || r->us.min <= 0) {
        lab_bad(s, "%s: no positive time", what);
        return;
    }
    if (disordered(r))
        lab_bad(s, "%s: min <= median <= max does not hold", what);
    if (r->gbps > ceiling(r))
        lab_bad(s, "%s: %g GB/s is above the %g GB/s ceiling", what, r->gbps, ceiling(r));
    if (not_bytes_per_time(r))
        lab_bad(s, "%s: gbps is not bytes / median time", what);
}

/** @brief The device-switch timing (host clock, calls with the destination current): each row
 *         sane, and both ways at every size on every leg. */
static void check_switch(const lab_rows *rows, lab_said *s)
{
    static const char *const ways[] = {"memcpy_peer", "set_device_memcpy"};
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *leg = &rows->row[i];
        if (!of(leg, "switch"))
            continue;
        switch_row(rows, i, s);
        if (leg_seen(rows, i))
            continue;
        for (size_t j = 0; j < rows->count; j++) {
            const lab_row *size = &rows->row[j];
            if (!of(size, "switch") ||
                lab_rows_pick(rows, "switch", NULL, NULL, NULL, LAB_ANY, LAB_ANY, size->bytes) !=
                    size)
                continue; /* the first row of each size */
            for (int w = 0; w < 2; w++)
                if (lab_rows_pick(rows, "switch", ways[w], leg->route, NULL, leg->src, leg->dst,
                                  size->bytes) == NULL)
                    lab_bad(s, "switch %s/%s/%d->%d/%zu is missing", ways[w], leg->route, leg->src,
                        leg->dst, size->bytes);
        }
    }
}

/** @brief One current_device row: the data arrived every time, in a positive time below the
 *         ceiling, with the GPU its variant names current. */
static void current_row(const lab_row *r, lab_said *s)
{
    char key[160];
    snprintf(key, sizeof key, "current_device %s/%d->%d/%s", r->route, r->src, r->dst,
             r->variant);
    if (r->verified != 1)
        lab_bad(s, "%s: the data did not arrive every time", key);
    if (!isfinite(r->us.median) || r->us.min <= 0)
        lab_bad(s, "%s: no positive time", key);
    if (r->gbps > CEILING_LINK)
        lab_bad(s, "%s: above the ceiling", key);
    if (lab_is(r->variant, "current_src") && !names(r->value, r->src))
        lab_bad(s, "%s: the current GPU is not the source", key);
    if (lab_is(r->variant, "current_dst") && !names(r->value, r->dst))
        lab_bad(s, "%s: the current GPU is not the destination", key);
}

/** @brief The chapter's experiment: the data checked with each GPU current, on every leg
 *         (another GPU too where the machine has more than two). */
static void check_current_device(const lab_rows *rows, lab_said *s)
{
    const int gpus = (int)lab_rows_count(rows, "machine", "gpu");
    static const char *const currents[] = {"current_src", "current_dst", "current_other"};
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "current_device"))
            continue;
        current_row(r, s);
        for (int c = 0; c < (gpus > 2 ? 3 : 2) && !leg_seen(rows, i); c++)
            if (lab_rows_pick(rows, "current_device", currents[c], r->route, NULL, r->src,
                              r->dst, 0) == NULL)
                lab_bad(s, "current_device %s/%d->%d/%s is missing", r->route, r->src, r->dst,
                    currents[c]);
    }
}

/** @brief Which pending work each copy waited for: verified; an async copy in a non-blocking
 *         stream never waits for a legacy default stream; at least 6 rows where it ran. */
static void check_ordering(const lab_rows *rows, lab_said *s)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!of(r, "ordering"))
            continue;
        n++;
        if (r->verified != 1)
            lab_bad(s, "ordering %s/%s/%s: not verified", r->route, r->mode, r->variant);
        if (!lab_is(r->value, "waited") && !lab_is(r->value, "no_wait"))
            lab_bad(s, "ordering %s/%s/%s: %s", r->route, r->mode, r->variant, r->value);
        if (lab_is(r->variant, "memcpy_peer_async") && lab_is(r->route, "peer") &&
            lab_is(r->value, "waited"))
            lab_bad(s, "ordering %s/%s/%s: cudaMemcpyPeerAsync in a non-blocking stream waited for "
                "the legacy stream", r->route, r->mode, r->variant);
    }
    if (n > 0 && n < 6)
        lab_bad(s, "ordering has %zu rows, expected at least 6", n);
}

/** @brief Lab 02's rules (lab_host_part.plausible): each broken one on a line of @p out. */
int lab02_plausible(const lab_rows *rows, FILE *out)
{
    lab_said s = {out, 0};
    check_args(rows, &s);
    check_sweep(rows, &s);
    check_stream_order(rows, &s);
    check_timing(rows, &s);
    check_switch(rows, &s);
    check_current_device(rows, &s);
    check_ordering(rows, &s);
    return s.count;
}
