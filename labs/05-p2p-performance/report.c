/**
 * @file report.c
 * @brief The output for people: one section per experiment (the sweeps as
 *        size-by-variant tables), the chapter's table of link speeds, and
 *        the claims.
 */
#include "p2p_perf.h"

#include <stdio.h>
#include <string.h>

static int has_rows(const lab05_ctx *ctx, const char *experiment)
{
    return lab05_find(ctx, experiment, NULL, -1, -1, NULL, -1, 0) != NULL;
}

static void print_header(const lab05_ctx *ctx)
{
    char lo[32], hi[32];
    printf("%s: %d GPUs; %d ordered pair(s) in the sweeps; one-pair experiments on GPU %d -> "
           "GPU %d\n",
           ctx->opt.prog, ctx->n, ctx->npairs, ctx->pair_a, ctx->pair_b);
    printf("sizes %s .. %s (%d); %d timed samples after a warm-up; median [min .. max]; "
           "GB/s = 1e9 bytes/s\n",
           lab_format_size(ctx->sizes[0], lo, sizeof lo),
           lab_format_size(ctx->sizes[ctx->nsizes - 1], hi, sizeof hi), ctx->nsizes,
           ctx->opt.reps);
    for (int g = 0; g < ctx->n; g++)
        printf("GPU %d: %s, compute capability %d.%d, PCI %s\n", g, ctx->gpu[g].name,
               ctx->gpu[g].cc_major, ctx->gpu[g].cc_minor, ctx->gpu[g].pci_bus_id);
}

static void print_link(const lab05_ctx *ctx)
{
    printf("NVML: %s\n", ctx->nvml_status);
    for (int g = 0; g < ctx->n; g++) {
        const lab05_gpu *gpu = &ctx->gpu[g];
        if (!gpu->nvml)
            continue;
        printf("GPU %d: NVLink %d (NVML answered %u), %d active link(s), %d to switches; "
               "PCIe gen %d x%d (now gen %d x%d)\n",
               g, gpu->nvlink_gen, gpu->nvlink_raw, gpu->nvlink_active, gpu->switch_links,
               gpu->pcie_gen, gpu->pcie_width, gpu->pcie_gen_now, gpu->pcie_width_now);
    }
    for (int a = 0; a < ctx->n; a++)
        for (int b = 0; b < ctx->n; b++) {
            if (a == b)
                continue;
            const lab05_link *l = &ctx->link[a * ctx->n + b];
            printf("GPU %d -> GPU %d: path %s, peer access %s", a, b, l->path,
                   l->p2p ? "yes" : "no");
            if (l->nvlinks > 0 && l->rate_gbps > 0)
                printf(", %d link(s) x %.0f GB/s = %.0f GB/s per direction", l->nvlinks,
                       l->rate_gbps, l->peak_gbps);
            else if (l->peak_gbps > 0)
                printf(", peak %.1f GB/s per direction", l->peak_gbps);
            else
                printf(", peak unknown");
            if (l->pcie_peak_gbps > 0)
                printf("; PCIe path %.1f GB/s", l->pcie_peak_gbps);
            printf("\n");
        }
    printf("Per-link rates used (datasheet total / links / 2 directions):");
    for (int gen = 1; gen <= 5; gen++)
        printf(" NVLink %d: %.0f GB/s;", gen, lab05_nvlink_rate(gen));
    printf(" PCIe gen 3/4/5 per lane: %.3f/%.3f/%.3f GB/s\n", lab05_pcie_lane_rate(3),
           lab05_pcie_lane_rate(4), lab05_pcie_lane_rate(5));
}

/* One cell of a sweep table: median GB/s and the share of the peak. */
static void sweep_cell(const lab05_row *r)
{
    if (r == NULL) {
        printf(" %15s", "-");
        return;
    }
    const double g = lab05_row_gbps(r);
    if (r->peak_gbps > 0)
        printf(" %9.2f (%3.0f%%)", g, 100.0 * g / r->peak_gbps);
    else
        printf(" %15.2f", g);
}

static void print_sweep(const lab05_ctx *ctx, const char *experiment)
{
    static const char *const ce_cols[][3] = {
        {"ce", "one_way", "1"}, {"ce", "one_way", "0"}, {"ce", "both_ways", "1"},
        {"ce", "both_ways", "0"}};
    static const char *const sm_cols[][3] = {{"sm_pull", "one_way", "1"},
                                             {"sm_push", "one_way", "1"},
                                             {"sm_pull", "both_ways", "1"},
                                             {"sm_push", "both_ways", "1"}};
    static const char *const ce_names[] = {"1 way, P2P on", "1 way, P2P off", "2 ways, P2P on",
                                           "2 ways, P2P off"};
    static const char *const sm_names[] = {"pull, 1 way", "push, 1 way", "pull, 2 ways",
                                           "push, 2 ways"};
    const int ce = strcmp(experiment, "ce_bandwidth") == 0;
    for (int p = 0; p < ctx->npairs; p++) {
        const int a = ctx->pairs[2 * p], b = ctx->pairs[2 * p + 1];
        if (!lab05_find(ctx, experiment, NULL, a, b, NULL, -1, 0))
            continue;
        printf("GPU %d -> GPU %d (both ways: also GPU %d -> GPU %d), GB/s (%% of peak)\n", a, b,
               b, a);
        printf("  %-10s", "size");
        for (int c = 0; c < 4; c++)
            printf(" %15s", ce ? ce_names[c] : sm_names[c]);
        printf("\n");
        for (int i = 0; i < ctx->nsizes; i++) {
            char size[32];
            printf("  %-10s", lab_format_size(ctx->sizes[i], size, sizeof size));
            for (int c = 0; c < 4; c++) {
                const char *const *col = ce ? ce_cols[c] : sm_cols[c];
                sweep_cell(lab05_find(ctx, experiment, col[0], a, b, col[1], col[2][0] - '0',
                                      ctx->sizes[i]));
            }
            printf("\n");
        }
    }
}

static void print_generic(const lab05_ctx *ctx, const char *experiment)
{
    printf("  %-14s %-7s %-18s %-4s %-9s %-11s %-32s %9s %6s\n", "variant", "pair", "mode",
           "peer", "size", "value", "us per op: median [min .. max]", "GB/s", "%peak");
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        if (strcmp(r->experiment, experiment) != 0)
            continue;
        char pair[32] = "", size[32] = "", times[64] = "", gbps[16] = "", pct[16] = "";
        if (r->src >= 0 && r->dst >= 0)
            snprintf(pair, sizeof pair, "%d->%d", r->src, r->dst);
        else if (r->src >= 0)
            snprintf(pair, sizeof pair, "%d", r->src);
        if (r->bytes)
            lab_format_size(r->bytes, size, sizeof size);
        if (r->us.count)
            snprintf(times, sizeof times, "%.3f [%.3f .. %.3f]", r->us.median, r->us.min,
                     r->us.max);
        const double g = lab05_row_gbps(r);
        if (g > 0)
            snprintf(gbps, sizeof gbps, "%.2f", g);
        if (g > 0 && r->peak_gbps > 0)
            snprintf(pct, sizeof pct, "%.0f%%", 100.0 * g / r->peak_gbps);
        printf("  %-14s %-7s %-18s %-4s %-9s %-11s %-32s %9s %6s\n", r->variant, pair, r->mode,
               r->peer < 0 ? "" : (r->peer ? "on" : "off"), size, r->value, times, gbps, pct);
        if (r->detail[0])
            printf("      %s\n", r->detail);
    }
}

void lab05_print_report(const lab05_ctx *ctx)
{
    print_header(ctx);
    for (int i = 0; i < lab05_experiment_count; i++) {
        const lab05_experiment *e = &lab05_experiments[i];
        if (!has_rows(ctx, e->key))
            continue;
        printf("\n== %s: %s ==\n", e->key, e->description);
        const lab05_row *skipped = lab05_find(ctx, e->key, "skipped", -1, -1, NULL, -1, 0);
        if (skipped && skipped->src < 0) {
            printf("skipped: %s\n", skipped->detail);
            continue;
        }
        if (strcmp(e->key, "link") == 0)
            print_link(ctx);
        else if (strcmp(e->key, "ce_bandwidth") == 0 || strcmp(e->key, "sm_bandwidth") == 0)
            print_sweep(ctx, e->key);
        else
            print_generic(ctx, e->key);
    }
    lab05_print_chapter_table(ctx);
    printf("\nChapter 4.4, claim by claim\n");
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        if (strcmp(r->experiment, "claim") == 0)
            printf("claim %s: %s: %s\n", r->variant, r->value, r->detail);
    }
}
