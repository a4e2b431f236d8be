/**
 * @file links.c
 * @brief The link experiment: the datasheet rates (TODO 05.1, checked against common/link.h),
 *        each GPU's PCIe link and NVLinks, and each pair's path and peak, as rows.
 */
#include "lab05.h"

#include <math.h>
#include <string.h>

/* Emit a link row whose value is @p value; the row as stored, for a number to add. */
static lab_row *text(lab_ctx *ctx, const char *variant, int src, int dst, const char *value,
                     const char *detail)
{
    lab_row row = lab_row_empty("link", variant);
    row.src = src;
    row.dst = dst;
    lab_row_set(row.value, sizeof row.value, "%s", value);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail);
    return lab_emit(ctx, &row);
}

static lab_row *number(lab_ctx *ctx, const char *variant, int src, int dst, double value,
                       const char *detail)
{
    char formatted[32];
    snprintf(formatted, sizeof formatted, "%g", value);
    return text(ctx, variant, src, dst, formatted, detail);
}

/* A datasheet rate from the student's arithmetic beside common/link.h's. */
static void datasheet(lab_ctx *ctx, const char *variant, double got, double want,
                      const char *detail)
{
    const int ok = fabs(got - want) <= 1e-9 * want;
    lab_check(ctx, ok, "TODO 05.1: %s is %g GB/s, the datasheet arithmetic gives %g", variant,
              got, want);
    number(ctx, variant, -1, -1, got, detail)->verified = ok;
}

static void datasheets(lab_ctx *ctx)
{
    char variant[32], detail[256];
    for (int gen = 1; gen <= 5; gen++) {
        const char *product = NULL;
        int links = 0;
        double total = 0.0;
        if (!lab_nvlink_datasheet(gen, &product, &links, &total))
            continue;
        snprintf(variant, sizeof variant, "datasheet_nvlink%d", gen);
        snprintf(detail, sizeof detail,
                 "NVLink %d: NVIDIA's %s datasheet gives %g GB/s over %d links counting both "
                 "directions: %g / %d / 2 per link and direction",
                 gen, product, total, links, total, links);
        datasheet(ctx, variant, lab05_nvlink_per_link_gbps(total, links), lab_nvlink_rate(gen),
                  detail);
    }
    for (int gen = 1; gen <= 6; gen++) {
        double gt = 0.0, share = 0.0;
        (void)lab_pcie_generation(gen, &gt, &share);
        snprintf(variant, sizeof variant, "datasheet_pcie%d", gen);
        snprintf(detail, sizeof detail,
                 "PCIe gen %d: %g GT/s x %.4f payload / 8 = GB/s per lane and direction", gen,
                 gt, share);
        datasheet(ctx, variant, lab05_pcie_lane_gbps(gt, share), lab_pcie_lane_rate(gen), detail);
    }
}

static void gpu_rows(lab_ctx *ctx, const lab_gpu_link *g, int dev)
{
    char from[96], peak[96];
    snprintf(from, sizeof from, "the most the link can reach (%s)",
             g->pcie_from[0] ? g->pcie_from : "unknown");
    if (g->nvml) {
        char raw[96];
        snprintf(raw, sizeof raw, "nvmlDeviceGetNvLinkVersion answered %u", g->nvlink_raw);
        number(ctx, "nvlink_gen", dev, -1, g->nvlink_gen, raw);
        number(ctx, "nvlink_active", dev, -1, g->nvlink_active, "");
        number(ctx, "nvlink_switch_links", dev, -1, g->switch_links,
               "active links whose far end is not a GPU");
    }
    number(ctx, "pcie_gen", dev, -1, g->pcie_gen, from);
    number(ctx, "pcie_width", dev, -1, g->pcie_width, from);
    number(ctx, "pcie_gen_now", dev, -1, g->pcie_gen_now,
           "at the query (an idle link trains down)");
    number(ctx, "pcie_width_now", dev, -1, g->pcie_width_now, "at the query");
    snprintf(peak, sizeof peak, "PCIe gen %d x%d: %s", g->pcie_gen, g->pcie_width,
             g->host_peak_gbps > 0 ? "the host link's peak per direction" : "unknown");
    lab_row *row = number(ctx, "host_peak_gbps", dev, -1, g->host_peak_gbps, peak);
    lab_row_set(row->route, sizeof row->route, "host");
    row->peak_gbps = g->host_peak_gbps;
}

static void pair_rows(lab_ctx *ctx, const lab05 *L, int a, int b)
{
    const lab_pair_link *l = lab_links_pair(&L->links, a, b);
    char detail[256];
    text(ctx, "path", a, b, l->path, "");
    number(ctx, "p2p", a, b, l->p2p, "cudaDeviceCanAccessPeer both ways");
    number(ctx, "nvlinks", a, b, l->nvlinks, "links that carry this pair's traffic");
    number(ctx, "nvml_p2p_nvlink", a, b, l->nvml_nvlink,
           "nvmlDeviceGetP2PStatus over NVLink: 1 ok; 0 no; -1 unknown");
    number(ctx, "rate_gbps", a, b, l->rate_gbps, "per link and direction; 0 unknown");
    if (l->peak_gbps > 0 && l->nvlinks > 0)
        snprintf(detail, sizeof detail, "%d links x %g GB/s per direction", l->nvlinks,
                 l->rate_gbps);
    else if (l->peak_gbps > 0)
        snprintf(detail, sizeof detail, "PCIe (the slower of the two GPUs' links)");
    else
        snprintf(detail, sizeof detail, "%s", L->links.nvml_status);
    number(ctx, "peak_gbps", a, b, l->peak_gbps, detail)->peak_gbps = l->peak_gbps;
    number(ctx, "pcie_peak_gbps", a, b, l->pcie_peak_gbps,
           "the host path (peer access off) is bounded by PCIe");
}

int lab05_run_link(lab_ctx *ctx)
{
    const lab05 *L = ctx->lab;
    text(ctx, "nvml", -1, -1, strcmp(L->links.nvml_status, "ok") == 0 ? "ok" : "unknown",
         L->links.nvml_status);
    datasheets(ctx);
    for (int g = 0; g < L->n; g++)
        gpu_rows(ctx, &L->links.gpu[g], g);
    for (int a = 0; a < L->n; a++)
        for (int b = 0; b < L->n; b++)
            if (a != b)
                pair_rows(ctx, L, a, b);
    return 0;
}
