/**
 * @file verdicts.c
 * @brief Lab 02's host part: the verdicts on chapter 4.2's claims and the report section,
 *        both functions of the rows alone (no CUDA here).
 */
#include "claims.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

/** Copies of this size and above are "large" in the claims. */
#define LARGE_BYTES ((size_t)16 << 20)

static int is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/** Two timed ways compared at the largest size of a route, both directions. */
typedef struct comparison {
    double x[2];   /**< GB/s of the first way: the lower GPU id to the higher, and back */
    double y[2];   /**< GB/s of the second way */
    int ids[2];    /**< the lower GPU id and the higher */
    char size[32]; /**< the size compared */
} comparison;

/* GB/s of @p variant over @p route at @p bytes into g[] (as comparison.x). 1: both found. */
static int both_ways(const lab_rows *rows, const char *variant, const char *route,
                     size_t bytes, double g[2], int ids[2])
{
    int found = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!lab_row_matches(r, "timing", variant, route, NULL, LAB_ANY, LAB_ANY, bytes) ||
            r->src == r->dst)
            continue;
        const int back = r->src > r->dst;
        g[back] = r->gbps;
        ids[back] = r->src;
        found |= 1 << back;
    }
    return found == 3;
}

static double ratio(double x, double y)
{
    return y > 0.0 ? x / y : 0.0;
}

/* @p v1 over @p r1 against @p v2 over @p r2 at the largest size of @p r1:
 * 1 with @p c filled, or 0 with why the claim cannot be tested. */
static int compare(const lab_rows *rows, const char *v1, const char *r1, const char *v2,
                   const char *r2, comparison *c, char *said, size_t len)
{
    const lab_row *top = lab_rows_largest(rows, "timing", NULL, r1, NULL, LAB_ANY, LAB_ANY);
    const size_t big = top ? top->bytes : 0;
    lab_format_size(big, c->size, sizeof c->size);
    if (big == 0) /* one GPU: one skipped row, route "peer", stands for both peer routes */
        lab_say(LAB_UNTESTED, said, len, "no timing over the %s route: %s", r1,
                lab_rows_skip_reason(rows, "timing", is(r1, "peer_off") ? NULL : r1));
    else if (big < LARGE_BYTES)
        lab_say(LAB_UNTESTED, said, len, "the largest size timed is %s; the comparison needs "
                "16 MiB or more", c->size);
    else if (!both_ways(rows, v1, r1, big, c->x, c->ids) ||
             !both_ways(rows, v2, r2, big, c->y, c->ids))
        lab_say(LAB_UNTESTED, said, len, "%s (%s) or %s (%s) was not timed both ways at %s",
                v1, r1, v2, r2, c->size);
    else
        return 1;
    return 0;
}

static lab_verdict judge_current_device(const lab_rows *rows, char *said, size_t len)
{
    long copies = 0;
    int bad[2] = {0, 0}; /* a copy not verified: [0] another GPU current, [1] the destination */
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (is(r->experiment, "current_device") && !is(r->variant, "skipped")) {
            copies += r->count;
            bad[is(r->variant, "current_dst")] |= r->verified != 1;
        }
    }
    if (copies == 0)
        return lab_say(LAB_UNTESTED, said, len, "no copy was made: %s",
                       lab_rows_skip_reason(rows, "current_device", "peer"));
    if (bad[0] || bad[1]) {
        lab_figure("failed_with", "%s", bad[1] ? "the destination" : "another GPU");
        return lab_judge(!bad[1], said, len, "%s", bad[1]
                         ? "copies failed even with the destination current: the current "
                           "device is not what decides it"
                         : "copies made with another GPU current did not arrive; all with the "
                           "destination current did");
    }
    const char *route =
        lab_rows_find(rows, "current_device", NULL, "peer", NULL, 0) ? "peer" : "peer_off";
    const lab_row *s = lab_rows_find(rows, "current_device", "current_src", route, NULL, 0);
    const lab_row *d = lab_rows_find(rows, "current_device", "current_dst", route, NULL, 0);
    const lab_row *o = lab_rows_find(rows, "current_device", "current_other", route, NULL, 0);
    char size[32], other[64] = " (no third GPU here)";
    if (o != NULL)
        snprintf(other, sizeof other, "; a third GPU current %.3f ms", o->us.median / 1000.0);
    if (s == NULL || d == NULL)
        return lab_say(LAB_UNTESTED, said, len, "no copy over the %s route", route);
    lab_figure("copies", "%ld", copies);
    return lab_say(LAB_DOES_NOT_HOLD, said, len,
                   "the data arrived in all %ld copies whatever the current device; median time "
                   "until both GPUs were idle for %s GPU%d -> GPU%d (%s): source current %.3f "
                   "ms; destination current %.3f ms%s", copies,
                   lab_format_size(s->bytes, size, sizeof size), s->src, s->dst, route,
                   s->us.median / 1000.0, d->us.median / 1000.0, other);
}

/* Host microseconds per call of the switch experiment's @p way at @p bytes, one direction. */
static double switch_us(const lab_rows *rows, const char *way, const char *route, int src,
                        int dst, size_t bytes)
{
    const lab_row *r = lab_rows_pick(rows, "switch", way, route, NULL, src, dst, bytes);
    return r != NULL && r->us.median > 0.0 ? r->us.median : 0.0;
}

/* "prefer cudaMemcpyPeer to cudaMemcpy with a device switch": a preference is sound where it
 * never costs and sometimes gains. Holds when, on the host clock, cudaMemcpyPeer is faster by
 * more than 5 % both ways at some size and slower by more than 5 % at none. */
static lab_verdict judge_peer_vs_default(const lab_rows *rows, char *said, size_t len)
{
    const char *route = lab_rows_find(rows, "switch", "memcpy_peer", "peer", NULL, 0)
                            ? "peer" : "peer_off";
    char sizes[512] = "", faster[160] = "", size[32];
    int n = 0, wins = 0, losses = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!lab_row_matches(r, "switch", "memcpy_peer", route, NULL, LAB_ANY, LAB_ANY, 0) ||
            r->src >= r->dst) /* one entry per size: the lower id to the higher */
            continue;
        double x[2] = {0.0, 0.0};
        for (int back = 0; back < 2; back++) {
            const int s = back ? r->dst : r->src, d = back ? r->src : r->dst;
            x[back] = ratio(switch_us(rows, "set_device_memcpy", route, s, d, r->bytes),
                            switch_us(rows, "memcpy_peer", route, s, d, r->bytes));
        }
        if (x[0] == 0.0 || x[1] == 0.0)
            continue;
        lab_format_size(r->bytes, size, sizeof size);
        n++;
        const int win = x[0] > 1.05 && x[1] > 1.05;
        wins += win;
        losses += x[0] < 1 / 1.05 || x[1] < 1 / 1.05;
        if (win)
            snprintf(faster + strlen(faster), sizeof faster - strlen(faster), "%s%s",
                     wins > 1 ? ", " : "", size);
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s %.3f/%.3f us (%.2fx "
                 "and %.2fx)", n > 1 ? "; " : "", size, switch_us(rows, "memcpy_peer", route,
                 r->src, r->dst, r->bytes), switch_us(rows, "set_device_memcpy", route, r->src,
                 r->dst, r->bytes), x[0], x[1]);
    }
    if (n == 0)
        return lab_say(LAB_UNTESTED, said, len, "no host-clocked switch timing both ways over "
                       "the %s route: %s", route, lab_rows_find(rows, "switch", NULL, NULL, NULL, 0)
                       ? lab_rows_skip_reason(rows, "switch", is(route, "peer") ? route : NULL)
                       : "this recording predates the switch experiment");
    lab_figure("faster_at", "%s", wins ? faster : "none");
    lab_figure("slower", "%d", losses);
    lab_figure("sizes", "%d", n);
    return lab_judge(wins > 0 && losses == 0, said, len,
                     "host clock per call (%s), cudaMemcpyPeer / cudaSetDevice + cudaMemcpy + "
                     "cudaSetDevice back, lower GPU id to the higher; switch over peer both ways: "
                     "%s. cudaMemcpyPeer faster by more than 5%% both ways at: %s; slower by "
                     "more than 5%% at %d of %d sizes", route, sizes, wins ? faster : "none",
                     losses, n);
}

static lab_verdict judge_p2p_vs_staging(const lab_rows *rows, char *said, size_t len)
{
    comparison c;
    if (!compare(rows, "memcpy_peer", "peer", "host_staged", "peer", &c, said, len))
        return LAB_UNTESTED;
    const double *p = c.x, *h = c.y;
    const double forth = ratio(p[0], h[0]), back = ratio(p[1], h[1]); /* ids low to high, back */
    lab_figure("forth_x", "%.1f", forth);
    lab_figure("back_x", "%.1f", back);
    return lab_judge(p[0] > h[0] && p[1] > h[1], said, len,
                     "at %s: cudaMemcpyPeer with peer access %.1f and %.1f GB/s (GPU%d -> GPU%d "
                     "and back); through pinned host memory %.1f and %.1f GB/s: %.1fx and %.1fx",
                     c.size, p[0], p[1], c.ids[0], c.ids[1], h[0], h[1], forth, back);
}

static lab_verdict judge_peer_access(const lab_rows *rows, char *said, size_t len)
{
    comparison c;
    if (!compare(rows, "memcpy_peer", "peer", "memcpy_peer", "peer_off", &c, said, len))
        return LAB_UNTESTED;
    const double *on = c.x, *off = c.y;
    lab_figure("on_gbps", "%.1f", on[0]); /* the lower GPU id to the higher */
    lab_figure("off_gbps", "%.1f", off[0]);
    return lab_judge(on[0] > 1.2 * off[0] && on[1] > 1.2 * off[1], said, len,
                     "cudaMemcpyPeer at %s: %.1f and %.1f GB/s with peer access; %.1f and %.1f "
                     "GB/s without (holds needs 1.2x both ways); the copies without peer access "
                     "were verified too: enabling changes the path and the speed but not the "
                     "result", c.size, on[0], on[1], off[0], off[1]);
}

static lab_verdict judge_default_sync(const lab_rows *rows, char *said, size_t len)
{
    static const char *const calls[] = {"memcpy_peer", "memcpy_peer_async", "memcpy_default"};
    int cases = 0, waited[3] = {0, 0, 0}, delay = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!is(r->experiment, "ordering") || is(r->variant, "skipped") ||
            is(r->value, "not_seen"))
            continue;
        if (delay == 0 && sscanf(r->detail, "%d ms", &delay) != 1)
            delay = 0;
        cases += is(r->variant, calls[0]);
        for (int k = 0; k < 3; k++)
            waited[k] += is(r->value, "waited") && is(r->variant, calls[k]);
    }
    if (cases == 0)
        return lab_say(LAB_UNTESTED, said, len, "the ordering experiment did not run: %s",
                       lab_rows_skip_reason(rows, "ordering", "peer"));
    lab_figure("cases", "%d", cases);
    lab_figure("peer_waited", "%d", waited[0]);
    lab_figure("default_waited", "%d", waited[2]);
    return lab_judge(waited[2] > waited[0], said, len,
                     "with %d ms of work pending in one GPU's legacy default stream: "
                     "cudaMemcpyPeer waited for it in %d of %d cases; cudaMemcpy(Default) in %d "
                     "of %d; cudaMemcpyPeerAsync on a non-blocking stream in %d of %d",
                     delay, waited[0], cases, waited[2], cases, waited[1], cases);
}

static const lab_claim claims[] = {
    {"current_device_required", "4.2", judge_current_device},
    {"memcpypeer_beats_memcpy_default", "4.2", judge_peer_vs_default},
    {"p2p_beats_host_staging", "4.1", judge_p2p_vs_staging},
    {"peer_access_makes_copy_direct", "4.2", judge_peer_access},
    {"memcpy_default_adds_sync", "4.2", judge_default_sync},
};

/* --- the report section -------------------------------------------------------- */

/* "n of m verified" over the measured rows of each experiment in @p keys. */
static void tally(const lab_rows *rows, const char *const *keys, int n_keys, FILE *out)
{
    for (int k = 0; k < n_keys; k++) {
        size_t n = 0, ok = 0;
        for (size_t i = 0; i < rows->count; i++) {
            const lab_row *r = &rows->row[i];
            n += is(r->experiment, keys[k]) && !is(r->variant, "skipped");
            ok += is(r->experiment, keys[k]) && !is(r->variant, "skipped") && r->verified == 1;
        }
        const lab_row *skip = lab_rows_find(rows, keys[k], "skipped", NULL, NULL, 0);
        fprintf(out, "- `%s`: %zu of %zu checks passed%s%s\n", keys[k], ok, n,
                skip ? "; skipped: " : "", skip ? skip->detail : "");
    }
}

static void timing_table(const lab_rows *rows, FILE *out)
{
    static const char *const ways[] = {"memcpy_peer", "memcpy_peer_async", "memcpy_default",
                                       "host_staged"};
    fprintf(out, "\nGB/s of the median event time (bytes counted once):\n\n"
                 "| size | route | direction | cudaMemcpyPeer | cudaMemcpyPeerAsync | "
                 "cudaMemcpy(Default) | host-staged |\n|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        char size[32];
        if (!is(r->experiment, "timing") || !is(r->variant, "memcpy_peer"))
            continue;
        fprintf(out, "| %s | %s | GPU%d -> GPU%d |", lab_format_size(r->bytes, size, sizeof size),
                r->route, r->src, r->dst);
        for (int w = 0; w < 4; w++) {
            const lab_row *c = lab_rows_pick(rows, "timing", ways[w], r->route, NULL, r->src,
                                             r->dst, r->bytes);
            fprintf(out, c ? " %.2f |" : " - |", c ? c->gbps : 0.0);
        }
        fputc('\n', out);
    }
}

static void host_table(const lab_rows *rows, FILE *out)
{
    if (lab_rows_find(rows, "timing", NULL, "host", NULL, 0) == NULL)
        return;
    fprintf(out, "\nThe host link, GPU and host memory (GB/s):\n\n| variant | direction | size | "
                 "GB/s | median us |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        char size[32];
        if (is(r->experiment, "timing") && is(r->route, "host"))
            fprintf(out, "| %s | %s | %s | %.2f | %.2f |\n", r->variant, r->mode,
                    lab_format_size(r->bytes, size, sizeof size), r->gbps, r->us.median);
    }
}

static void switch_table(const lab_rows *rows, FILE *out)
{
    if (lab_rows_count(rows, "switch", NULL) == lab_rows_count(rows, "switch", "skipped"))
        return;
    fprintf(out, "\nMicroseconds per call on the host clock, the destination current (median):\n\n"
                 "| size | route | direction | cudaMemcpyPeer | cudaSetDevice + cudaMemcpy |\n"
                 "|---|---|---|---|---|\n");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        char size[32];
        if (!is(r->experiment, "switch") || !is(r->variant, "memcpy_peer"))
            continue;
        const lab_row *c = lab_rows_pick(rows, "switch", "set_device_memcpy", r->route, NULL,
                                         r->src, r->dst, r->bytes);
        fprintf(out, "| %s | %s | GPU%d -> GPU%d | %.2f |", lab_format_size(r->bytes, size,
                sizeof size), r->route, r->src, r->dst, r->us.median);
        fprintf(out, c ? " %.2f |\n" : " - |\n", c ? c->us.median : 0.0);
    }
}

static void report(const lab_rows *rows, FILE *out)
{
    static const char *const wrapper[] = {"args", "sweep", "stream_order"};
    static const char *const current[] = {"current_device", "ordering"};
    fprintf(out, "Checks of the wrapper (every row verified against the source data):\n\n");
    tally(rows, wrapper, 3, out);
    if (lab_rows_count(rows, "timing", NULL) > lab_rows_count(rows, "timing", "skipped"))
        timing_table(rows, out);
    switch_table(rows, out);
    host_table(rows, out);
    fprintf(out, "\nThe current device and what it orders (two GPUs):\n\n");
    tally(rows, current, 2, out);
}

/** The rules every run's rows obey (plausible.c). */
int lab02_plausible(const lab_rows *rows, FILE *out);

const lab_host_part lab_host = {"02-memcpy-peer", claims, sizeof claims / sizeof claims[0],
                                report, lab02_plausible};
