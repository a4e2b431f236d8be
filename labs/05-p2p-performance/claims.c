/**
 * @file claims.c
 * @brief Chapter 4.4, claim by claim: each verdict is computed from this
 *        run's rows and appended as a row (experiment "claim").
 *
 * A claim is not_testable when the experiments it needs did not run, or
 * when this machine lacks the hardware it speaks about; the detail says
 * which.
 */
#include "p2p_perf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/** The chapter's table of link speeds (section 4.4). */
typedef struct table_row {
    const char *id;          /**< claim id */
    const char *link;        /**< as the chapter names it */
    double chapter_gbps;     /**< "带宽（单向）" (one-way bandwidth) */
    double chapter_us;       /**< "延迟" (latency) */
    int nvlink_gen;          /**< 0 for PCIe */
    int links;               /**< links of that GPU (datasheet), lanes for PCIe */
} table_row;

static const table_row chapter_table[] = {
    {"nvlink_table_row_pcie3", "PCIe Gen3 x16", 12.0, 1.5, 0, 16},
    {"nvlink_table_row_nvlink2", "NVLink 2.0 (V100)", 150.0, 0.2, 2, 6},
    {"nvlink_table_row_nvlink3", "NVLink 3.0 (A100)", 600.0, 0.1, 3, 12},
};

static void claim(lab05_ctx *ctx, const char *id, const char *verdict, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void claim(lab05_ctx *ctx, const char *id, const char *verdict, const char *fmt, ...)
{
    lab05_row *row = lab05_add_row(ctx, "claim", id);
    snprintf(row->value, sizeof row->value, "%s", verdict);
    va_list args;
    va_start(args, fmt);
    vsnprintf(row->detail, sizeof row->detail, fmt, args);
    va_end(args);
    /* The detail is one CSV field and one line: no commas, no line breaks. */
    for (char *c = row->detail; *c; c++)
        if (*c == ',' || *c == '\n')
            *c = ';';
}

static double gbps_at(const lab05_ctx *ctx, const char *experiment, const char *variant, int src,
                      int dst, const char *mode, int peer, size_t bytes)
{
    return lab05_row_gbps(lab05_find(ctx, experiment, variant, src, dst, mode, peer, bytes));
}

/* The largest size with a row of this kind (0 when none). */
static size_t largest(const lab05_ctx *ctx, const char *experiment, const char *variant, int src,
                      int dst, const char *mode, int peer)
{
    size_t best = 0;
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        if (strcmp(r->experiment, experiment) || strcmp(r->variant, variant) ||
            strcmp(r->mode, mode) || r->src != src || r->dst != dst || r->peer != peer)
            continue;
        if (r->bytes > best)
            best = r->bytes;
    }
    return best;
}

static const char *size_text(size_t bytes, char *out, size_t len)
{
    return lab_format_size(bytes, out, len);
}

/* ---------------------------------------------- 小于1MB的传输，延迟占主导 -- */

static void small_transfers(lab05_ctx *ctx, int a, int b, int peer)
{
    const char *id = "small_transfers_latency_bound";
    double best = 0.0, small_best = 0.0;
    size_t best_size = 0, small_size = 0, half_size = 0, biggest = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ctx->nrows; i++) {
            const lab05_row *r = &ctx->rows[i];
            if (strcmp(r->experiment, "ce_bandwidth") || strcmp(r->mode, "one_way") ||
                r->src != a || r->dst != b || r->peer != peer)
                continue;
            const double g = lab05_row_gbps(r);
            if (pass == 0) {
                if (g > best) {
                    best = g;
                    best_size = r->bytes;
                }
                if (r->bytes > biggest)
                    biggest = r->bytes;
                if (r->bytes < 1000000 && g > small_best) {
                    small_best = g;
                    small_size = r->bytes;
                }
            } else if (g >= best / 2 && (half_size == 0 || r->bytes < half_size)) {
                half_size = r->bytes;
            }
        }
    if (small_size == 0 || biggest < ((size_t)16 << 20)) {
        claim(ctx, id, "not_testable",
              "needs ce_bandwidth one way with sizes below 1 MB and at least 16 MiB");
        return;
    }
    char s1[32], s2[32], s3[32];
    const double share = small_best / best;
    claim(ctx, id, share < 0.5 ? "holds" : "does_not_hold",
          "copy engine GPU %d -> GPU %d peer %s: below 1 MB the best is %.1f GB/s at %s = %.0f%% "
          "of the best %.1f GB/s (at %s); half of the best is first reached at %s",
          a, b, peer ? "on" : "off", small_best, size_text(small_size, s1, sizeof s1),
          100.0 * share, best, size_text(best_size, s2, sizeof s2),
          size_text(half_size, s3, sizeof s3));
}

/* ------------------------------------------ 多个stream同时做P2P，可能互相争抢 -- */

static void streams_contend(lab05_ctx *ctx)
{
    const char *id = "concurrent_streams_contend";
    const lab05_row *one = lab05_find(ctx, "streams", "ce", -1, -1, "one_way", -1, 0);
    const lab05_row *many = NULL;
    int count = 1;
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        int k = 0;
        if (strcmp(r->experiment, "streams") || sscanf(r->value, "%d", &k) != 1)
            continue;
        if (k == 1)
            one = r;
        if (k > count) {
            count = k;
            many = r;
        }
    }
    if (one == NULL || many == NULL) {
        claim(ctx, id, "not_testable", "needs the streams experiment with 2 or more streams");
        return;
    }
    const double g1 = lab05_row_gbps(one), gk = lab05_row_gbps(many);
    const int shared = gk <= 1.15 * g1;
    claim(ctx, id, shared ? "holds" : "does_not_hold",
          "GPU %d -> GPU %d: 1 stream %.1f GB/s; %d streams %.1f GB/s in total = %.1f GB/s each: "
          "%s",
          one->src, one->dst, g1, count, gk, gk / count,
          shared ? "they share one link's bandwidth"
                 : "more streams found bandwidth one stream left unused");
}

/* ---------------------------------- cudaFuncCachePreferL1 之后，带宽直接翻倍 -- */

static void prefer_l1(lab05_ctx *ctx)
{
    const char *id = "preferl1_doubles_bandwidth";
    double ratio[2] = {0, 0}, none[2] = {0, 0}, l1[2] = {0, 0};
    const char *methods[2] = {"sm_pull", "sm_push"};
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < ctx->nrows; i++) {
            const lab05_row *r = &ctx->rows[i];
            if (strcmp(r->experiment, "preferl1") || strcmp(r->variant, methods[m]))
                continue;
            if (strcmp(r->value, "prefer_none") == 0)
                none[m] = lab05_row_gbps(r);
            else if (strcmp(r->value, "prefer_l1") == 0)
                l1[m] = lab05_row_gbps(r);
        }
    if (none[0] <= 0 || none[1] <= 0 || l1[0] <= 0 || l1[1] <= 0) {
        claim(ctx, id, "not_testable", "needs the preferl1 experiment (peer access)");
        return;
    }
    for (int m = 0; m < 2; m++)
        ratio[m] = l1[m] / none[m];
    const int doubles = ratio[0] >= 1.8 && ratio[1] >= 1.8;
    claim(ctx, id, doubles ? "holds" : "does_not_hold",
          "SM pull %.1f -> %.1f GB/s (x%.2f); SM push %.1f -> %.1f GB/s (x%.2f) with "
          "cudaFuncCachePreferL1; the setting only splits on-chip memory between L1 and shared "
          "memory and has nothing to do with CPU cache coherence",
          none[0], l1[0], ratio[0], none[1], l1[1], ratio[1]);
}

/* ------------------------------------ 别用clock()或gettimeofday() ... 对不上 -- */

static void cpu_timers(lab05_ctx *ctx)
{
    const char *id = "cpu_timers_mislead";
    const lab05_row *event = lab05_find(ctx, "cpu_timer", "event", -1, -1, NULL, -1, 0);
    const lab05_row *nosync = lab05_find(ctx, "cpu_timer", "host_no_sync", -1, -1, NULL, -1, 0);
    const lab05_row *sync = lab05_find(ctx, "cpu_timer", "host_sync", -1, -1, NULL, -1, 0);
    const lab05_row *clk = lab05_find(ctx, "cpu_timer", "clock_sync", -1, -1, NULL, -1, 0);
    if (!event || !nosync || !sync || !clk) {
        claim(ctx, id, "not_testable", "needs the cpu_timer experiment");
        return;
    }
    const double ge = lab05_row_gbps(event), gn = lab05_row_gbps(nosync);
    const double gs = lab05_row_gbps(sync), gc = lab05_row_gbps(clk);
    char s1[32];
    claim(ctx, id, gn > 2.0 * ge ? "holds" : "does_not_hold",
          "%s copy: events %.1f GB/s; host clock without a synchronize %.1f GB/s (it timed the "
          "enqueue: %.1f us); host clock with cudaStreamSynchronize %.1f GB/s (%+.0f%% time "
          "against events); clock() with the synchronize %.1f GB/s (CPU time of the process)",
          size_text(event->bytes, s1, sizeof s1), ge, gn, nosync->us.median, gs,
          100.0 * (sync->us.median / event->us.median - 1.0), gc);
}

/* ------------------------------ 如果中间有CPU参与同步，性能会断崖式下跌 -- */

static void cpu_sync(lab05_ctx *ctx)
{
    const char *id = "cpu_sync_cliff";
    size_t smallest = 0;
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        if (strcmp(r->experiment, "cpu_sync") == 0 && (smallest == 0 || r->bytes < smallest))
            smallest = r->bytes;
    }
    if (smallest == 0) {
        claim(ctx, id, "not_testable", "needs the cpu_sync experiment");
        return;
    }
    char detail[320] = "";
    size_t used = 0;
    double first_ratio = 0.0;
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *q = &ctx->rows[i];
        if (strcmp(q->experiment, "cpu_sync") || strcmp(q->variant, "queued"))
            continue;
        const lab05_row *e = lab05_find(ctx, "cpu_sync", "sync_each", -1, -1, NULL, -1, q->bytes);
        if (e == NULL)
            continue;
        const double ratio = lab05_row_gbps(q) / lab05_row_gbps(e);
        if (q->bytes == smallest)
            first_ratio = ratio;
        char s1[32];
        int w = snprintf(detail + used, sizeof detail - used, "%s%s: %.1f -> %.1f GB/s (x%.2f)",
                         used ? "; " : "", size_text(q->bytes, s1, sizeof s1), lab05_row_gbps(q),
                         lab05_row_gbps(e), ratio);
        if (w > 0 && (size_t)w < sizeof detail - used)
            used += (size_t)w;
    }
    claim(ctx, id, first_ratio >= 2.0 ? "holds" : "does_not_hold",
          "queued against a synchronize after each copy: %s", detail);
}

/* ------------------------------------------- NVLink比PCIe快了一个数量级 -- */

static void order_of_magnitude(lab05_ctx *ctx, int a, int b)
{
    const char *id = "nvlink_order_of_magnitude";
    const lab05_link *l = &ctx->link[a * ctx->n + b];
    if (strcmp(l->path, "nvlink") != 0) {
        claim(ctx, id, "not_testable", "GPU %d and GPU %d are not connected by NVLink here (%s)",
              a, b, l->path);
        return;
    }
    const size_t on = largest(ctx, "ce_bandwidth", "ce", a, b, "one_way", 1);
    const size_t off = largest(ctx, "ce_bandwidth", "ce", a, b, "one_way", 0);
    const size_t size = on < off ? on : off;
    if (size < ((size_t)16 << 20)) {
        claim(ctx, id, "not_testable",
              "needs ce_bandwidth with peer access on and off at 16 MiB or more");
        return;
    }
    const double g_on = gbps_at(ctx, "ce_bandwidth", "ce", a, b, "one_way", 1, size);
    const double g_off = gbps_at(ctx, "ce_bandwidth", "ce", a, b, "one_way", 0, size);
    const double ratio = g_on / g_off;
    const int orders = (int)lround(log10(ratio));
    char s1[32];
    claim(ctx, id, orders >= 1 ? "holds" : "does_not_hold",
          "GPU %d -> GPU %d at %s: NVLink (peer access on) %.1f GB/s against the PCIe path "
          "through host memory (peer access off) %.1f GB/s: x%.1f = %d order(s) of magnitude "
          "rounded on a log scale",
          a, b, size_text(size, s1, sizeof s1), g_on, g_off, ratio, orders);
}

/* ------------------------------------------------ the chapter's table -- */

/* This pair's one-way copy-engine bandwidth at its largest size (>= 64 MiB). */
static double best_one_way(const lab05_ctx *ctx, int a, int b, size_t *size)
{
    *size = largest(ctx, "ce_bandwidth", "ce", a, b, "one_way", 1);
    if (*size < ((size_t)64 << 20))
        return 0.0;
    return gbps_at(ctx, "ce_bandwidth", "ce", a, b, "one_way", 1, *size);
}

static void table_row_claim(lab05_ctx *ctx, const table_row *row, int a, int b)
{
    const lab05_link *l = &ctx->link[a * ctx->n + b];
    const int nvlink_row = row->nvlink_gen > 0;
    const char *want = nvlink_row ? "nvlink" : "pcie";
    if (strcmp(l->path, want) != 0 || l->peak_gbps <= 0.0) {
        claim(ctx, row->id, "not_testable",
              "%s ~%.0f GB/s one way: GPU %d -> GPU %d runs over %s%s; this row needs a pair "
              "linked by %s with a known peak",
              row->link, row->chapter_gbps, a, b, l->path,
              l->peak_gbps > 0.0 ? "" : " (peak unknown)", nvlink_row ? "NVLink" : "PCIe alone");
        return;
    }
    size_t size = 0;
    const double measured = best_one_way(ctx, a, b, &size);
    if (measured <= 0.0) {
        claim(ctx, row->id, "not_testable",
              "%s: needs ce_bandwidth one way with peer access at 64 MiB or more", row->link);
        return;
    }
    const double efficiency = measured / l->peak_gbps;
    const double row_peak = nvlink_row ? lab05_nvlink_rate(row->nvlink_gen) * row->links
                                       : lab05_pcie_lane_rate(3) * row->links;
    const double expected = row_peak * efficiency;
    const double both = gbps_at(ctx, "ce_bandwidth", "ce", a < b ? a : b, a < b ? b : a,
                                "both_ways", 1, size);
    if (row->chapter_gbps > 1.02 * row_peak) {
        claim(ctx, row->id, "does_not_hold",
              "%s ~%.0f GB/s one way is above that link's one-way peak of %.0f GB/s (%d x %.0f "
              "GB/s): %.0f GB/s is the datasheet total over %d links counting both directions. "
              "This machine's link reaches %.0f%% of its peak one way (%.1f of %.1f GB/s) and "
              "%.1f GB/s both ways; at that share the row's link would give ~%.0f GB/s one way",
              row->link, row->chapter_gbps, row_peak, row->links,
              lab05_nvlink_rate(row->nvlink_gen), 2.0 * row_peak, row->links,
              100.0 * efficiency, measured, l->peak_gbps, both, expected);
        return;
    }
    const int holds = row->chapter_gbps <= 1.25 * expected && row->chapter_gbps >= 0.75 * expected;
    claim(ctx, row->id, holds ? "holds" : "does_not_hold",
          "%s ~%.0f GB/s one way: its peak is %.1f GB/s per direction; this machine's link "
          "reaches %.0f%% of its own peak (%.1f of %.1f GB/s) so the row's link should give "
          "~%.0f GB/s; the chapter's figure is %.0f%% of that",
          row->link, row->chapter_gbps, row_peak, 100.0 * efficiency, measured, l->peak_gbps,
          expected, 100.0 * row->chapter_gbps / expected);
}

static void table_latency(lab05_ctx *ctx, int a, int b)
{
    const char *id = "nvlink_table_latency";
    const lab05_link *l = &ctx->link[a * ctx->n + b];
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    const lab05_row *pp = lab05_find(ctx, "pingpong", "write_remote", lo, hi, NULL, -1, 0);
    if (strcmp(l->path, "nvlink") != 0 || pp == NULL) {
        claim(ctx, id, "not_testable",
              "the table's NVLink latencies (~0.1-0.2 us) need an NVLink pair and the pingpong "
              "experiment (path here: %s)",
              l->path);
        return;
    }
    const lab05_row *poll = lab05_find(ctx, "pingpong", "poll_remote", lo, hi, NULL, -1, 0);
    const lab05_row *chase = lab05_find(ctx, "pointer_chase", "chase", a, b, "peer", -1, 0);
    const lab05_row *local = lab05_find(ctx, "pointer_chase", "chase", b, b, "local", -1, 0);
    const lab05_row *copy = lab05_find(ctx, "memcpy_latency", "ce_queued", a, b, NULL, 1, 0);
    const double us = pp->us.median;
    claim(ctx, id, us <= 0.3 ? "holds" : "does_not_hold",
          "the table gives ~0.2 us (NVLink 2) and ~0.1 us (NVLink 3); on this NVLink: one-way "
          "ping-pong %.2f us (flags written across the link) and %.2f us (flags polled across "
          "it); a load from the peer %.2f us against %.2f us locally; one 4-byte "
          "cudaMemcpyPeerAsync %.2f us",
          us, poll ? poll->us.median : 0.0, chase ? chase->us.median : 0.0,
          local ? local->us.median : 0.0, copy ? copy->us.median : 0.0);
}

void lab05_judge_claims(lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const int peer = ctx->link[a * ctx->n + b].p2p ? 1 : 0;
    for (size_t i = 0; i < sizeof chapter_table / sizeof chapter_table[0]; i++)
        table_row_claim(ctx, &chapter_table[i], a, b);
    table_latency(ctx, a, b);
    order_of_magnitude(ctx, a, b);
    small_transfers(ctx, a, b, peer);
    streams_contend(ctx);
    cpu_sync(ctx);
    cpu_timers(ctx);
    prefer_l1(ctx);
}

void lab05_print_chapter_table(const lab05_ctx *ctx)
{
    const int a = ctx->pair_a, b = ctx->pair_b;
    const lab05_link *l = &ctx->link[a * ctx->n + b];
    printf("\nChapter 4.4's table of link speeds beside this machine (GPU %d -> GPU %d)\n", a, b);
    printf("  %-20s %-16s %-16s %-18s %s\n", "link", "chapter one way", "chapter latency",
           "peak per direction", "verdict");
    for (size_t i = 0; i < sizeof chapter_table / sizeof chapter_table[0]; i++) {
        const table_row *row = &chapter_table[i];
        const lab05_row *verdict = lab05_find(ctx, "claim", row->id, -1, -1, NULL, -1, 0);
        const double peak = row->nvlink_gen ? lab05_nvlink_rate(row->nvlink_gen) * row->links
                                            : lab05_pcie_lane_rate(3) * row->links;
        char bw[32], lat[32], pk[48];
        snprintf(bw, sizeof bw, "~%.0f GB/s", row->chapter_gbps);
        snprintf(lat, sizeof lat, "~%.1f us", row->chapter_us);
        snprintf(pk, sizeof pk, "%.2f GB/s", peak);
        printf("  %-20s %-16s %-16s %-18s %s\n", row->link, bw, lat, pk,
               verdict ? verdict->value : "-");
    }
    size_t size = 0;
    const double one = best_one_way(ctx, a, b, &size);
    const lab05_row *pp = lab05_find(ctx, "pingpong", "write_remote", a < b ? a : b,
                                     a < b ? b : a, NULL, -1, 0);
    const lab05_row *copy = lab05_find(ctx, "memcpy_latency", "ce_queued", a, b, NULL, -1, 0);
    char links[64] = "";
    if (strcmp(l->path, "nvlink") == 0)
        snprintf(links, sizeof links, " NVLink %d x%d", ctx->gpu[a].nvlink_gen, l->nvlinks);
    char peak[48] = "unknown";
    if (l->peak_gbps > 0)
        snprintf(peak, sizeof peak, "%.1f GB/s", l->peak_gbps);
    printf("  this machine: %s%s; peak %s per direction\n", l->path, links, peak);
    if (one > 0) {
        const double both = gbps_at(ctx, "ce_bandwidth", "ce", a < b ? a : b, a < b ? b : a,
                                    "both_ways", 1, size);
        char s1[32];
        printf("    measured at %s: %.1f GB/s one way", size_text(size, s1, sizeof s1), one);
        if (l->peak_gbps > 0)
            printf(" (%.0f%% of peak)", 100.0 * one / l->peak_gbps);
        if (both > 0)
            printf(", %.1f GB/s both ways", both);
        printf("\n");
    }
    if (pp || copy)
        printf("    latency: one-way ping-pong %.2f us; 4-byte cudaMemcpyPeerAsync %.2f us\n",
               pp ? pp->us.median : 0.0, copy ? copy->us.median : 0.0);
    printf("  The NVLink 3.0 row's 600 GB/s is A100's total NVLink bandwidth: 12 links x 25 GB/s\n"
           "  x 2 directions (NVIDIA A100 datasheet); one way is at most 300 GB/s.\n");
}
