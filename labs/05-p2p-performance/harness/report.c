/**
 * @file report.c
 * @brief Lab 05's report section from the rows alone (Markdown): the links, the bandwidth
 *        summary, the host link beside nvbandwidth's figures, the latencies, the chapter's table.
 */
#include "verdicts.h"

#include <string.h>

/** The host-link transfers held to nvbandwidth: lab 05's rows beside nvbandwidth's testcase
 *  of the same transfer (tools/report/nvbandwidth_rows.py gives its rows). */
static const struct {
    const char *what, *experiment, *variant, *mode, *testcase;
    int to_gpu; /* 1 host -> GPU, 0 GPU -> host */
} bars[] = {
    {"host -> GPU, copy engine", "ce_bandwidth", "ce", "one_way", "host_to_device_memcpy_ce", 1},
    {"GPU -> host, copy engine", "ce_bandwidth", "ce", "one_way", "device_to_host_memcpy_ce", 0},
    {"host -> GPU, copy engine, while GPU -> host runs", "ce_bandwidth", "ce", "each_way",
     "host_to_device_bidirectional_memcpy_ce", 1},
    {"GPU -> host, copy engine, while host -> GPU runs", "ce_bandwidth", "ce", "each_way",
     "device_to_host_bidirectional_memcpy_ce", 0},
    {"host -> GPU, SM kernel (zero-copy loads)", "sm_bandwidth", "sm_pull", "one_way",
     "host_to_device_memcpy_sm", 1},
    {"GPU -> host, SM kernel (zero-copy stores)", "sm_bandwidth", "sm_push", "one_way",
     "device_to_host_memcpy_sm", 0},
};

static void links(const lab_rows *rows, FILE *out)
{
    const int n = lab05_config(rows, "gpus", 0);
    fprintf(out, "| GPU | PCIe now | PCIe max | host link peak per direction | NVLink |\n"
                 "| --- | --- | --- | --- | --- |\n");
    for (int g = 0; g < n; g++) {
        const double gen = lab05_link_number(rows, "nvlink_gen", g, -1);
        const double pcie = lab05_link_number(rows, "pcie_gen", g, -1);
        const double width = lab05_link_number(rows, "pcie_width", g, -1);
        double peak = lab05_link_number(rows, "host_peak_gbps", g, -1);
        char v[32];
        snprintf(v, sizeof v, "datasheet_pcie%.0f", pcie);
        if (peak < 0) /* a run from before the row: lane rate x width */
            peak = lab05_link_number(rows, v, LAB_ANY, LAB_ANY) * width;
        fprintf(out, "| %d | gen %.0f x%.0f | gen %.0f x%.0f | %.1f GB/s |", g,
                lab05_link_number(rows, "pcie_gen_now", g, -1),
                lab05_link_number(rows, "pcie_width_now", g, -1), pcie, width, peak);
        if (gen > 0)
            fprintf(out, " %.0f active, NVLink %.0f |\n",
                    lab05_link_number(rows, "nvlink_active", g, -1), gen);
        else
            fprintf(out, " %s |\n", gen == 0 ? "none" : "unknown (no NVML)");
    }
    fputs(n > 1 ? "\n" : "", out);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b)
                fprintf(out, "- GPU %d -> GPU %d: %s, peer access %s, peak %.1f GB/s per "
                        "direction\n", a, b, lab05_path(rows, a, b),
                        lab05_link_number(rows, "p2p", a, b) > 0 ? "yes" : "no",
                        lab05_link_number(rows, "peak_gbps", a, b));
}

/* Each sweep at its largest size. */
static void bandwidth(const lab_rows *rows, FILE *out)
{
    char ends[48], size[32];
    fprintf(out, "\n| sweep | route | transfer | mode | largest size | GB/s | peak | %% of peak |\n"
                 "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if ((strcmp(r->experiment, "ce_bandwidth") && strcmp(r->experiment, "sm_bandwidth")) ||
            lab_rows_largest(rows, r->experiment, r->variant, r->route, r->mode, r->src,
                             r->dst) != r)
            continue;
        fprintf(out, "| %s %s | %s | %s | %s | %s | %.1f | %.1f | %.0f%% |\n", r->experiment,
                r->variant, r->route, lab05_ends(r, ends, sizeof ends), r->mode,
                lab_format_size(r->bytes, size, sizeof size),
                r->gbps, r->peak_gbps, r->peak_gbps > 0 ? 100.0 * r->gbps / r->peak_gbps : 0.0);
    }
}

/* The best row of one transfer on GPU a's host link at @p min_bytes or more: the most GB/s, or
 * with @p latency the least median time. */
static const lab_row *fastest(const lab_rows *rows, const char *experiment, const char *variant,
                              const char *mode, int to_gpu, int a, size_t min_bytes,
                              bool latency)
{
    const lab_row *best = NULL;
    for (size_t j = 0; j < rows->count; j++) {
        const lab_row *r = &rows->row[j];
        if (lab_row_matches(r, experiment, variant, "host", mode, to_gpu ? -1 : a,
                            to_gpu ? a : -1, 0) && r->bytes >= min_bytes &&
            (best == NULL || (latency ? r->us.median < best->us.median : r->gbps > best->gbps)))
            best = r;
    }
    return best;
}

/* A figure beside nvbandwidth's, with @p digits decimals: its value and ratio, or dashes without
 * nvbandwidth's row. */
static void beside(FILE *out, const char *what, double here, double peak, double theirs,
                   int digits)
{
    fprintf(out, "| %s | %.*f | ", what, digits, here);
    if (peak > 0)
        fprintf(out, "%.1f", peak);
    if (theirs > 0)
        fprintf(out, " | %.*f | %.3f |\n", digits, theirs, here / theirs);
    else
        fputs(" | - | - |\n", out);
}

/* Each transfer's best at 64 MiB or more (the plateau) on GPU a's host link, beside the best
 * of the nvbandwidth runs given with the rows (bandwidth: the most; latency: the least). */
static void host_bars(const lab_rows *rows, FILE *out)
{
    const int a = lab05_config(rows, "pair_a", 0);
    const size_t runs = lab_rows_count(rows, "nvbandwidth", "version");
    if (!lab_rows_find(rows, "ce_bandwidth", NULL, "host", NULL, 0))
        return;
    fprintf(out, "\nThe host link of GPU %d (best at 64 MiB or more)", a);
    if (runs > 0) {
        const lab_row *v = lab_rows_find(rows, "nvbandwidth", "version", NULL, NULL, 0);
        const lab_row *g = lab_rows_pick(rows, "nvbandwidth", "gpu", NULL, NULL, a, -1, 0);
        fprintf(out, " beside nvbandwidth %s on GPU %d (%s), the best of its %zu run%s (the "
                "course's bars: at least 0.98x, or its slowest run, not under 0.75x, where they "
                "differ by more than 2%%; latency at most 1.02x):\n", v->value, a,
                g ? g->value : "not in its device list", runs, runs > 1 ? "s" : "");
    } else {
        fprintf(out, ". No nvbandwidth run beside it: `make run NVBANDWIDTH=/path/to/nvbandwidth`"
                " runs nvbandwidth v0.8 before and after the labs (tools/report/nvbandwidth.sh).\n");
    }
    fprintf(out, "\n| transfer | here GB/s | peak | nvbandwidth | ratio |\n"
                 "| --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < sizeof bars / sizeof bars[0]; i++) {
        const lab_row *best = fastest(rows, bars[i].experiment, bars[i].variant, bars[i].mode,
                                      bars[i].to_gpu, a, (size_t)64 << 20, false);
        const lab_row *nvb = fastest(rows, "nvbandwidth", bars[i].testcase, bars[i].mode,
                                     bars[i].to_gpu, a, 0, false);
        if (best != NULL)
            beside(out, bars[i].what, best->gbps, best->peak_gbps, nvb ? nvb->gbps : 0, 1);
    }
    const lab_row *load = lab05_chase(rows, "host", -1, a);
    const lab_row *nvb = fastest(rows, "nvbandwidth", "host_device_latency_sm", "latency", 1, a,
                                 0, true);
    if (load != NULL)
        beside(out, "a GPU load from host memory (pointer chase, ns)", 1e3 * load->us.median, 0,
               nvb ? 1e3 * nvb->us.median : 0, 0);
}

static void latency(const lab_rows *rows, FILE *out)
{
    char ends[48];
    fprintf(out, "\n| latency | variant | route | ends | mode | median us | min | max |\n"
                 "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if ((strcmp(r->experiment, "memcpy_latency") && strcmp(r->experiment, "pointer_chase") &&
             strcmp(r->experiment, "pingpong")) || r->us.count == 0)
            continue;
        fprintf(out, "| %s | %s | %s | %s | %s | %.3f | %.3f | %.3f |\n", r->experiment,
                r->variant, r->route, lab05_ends(r, ends, sizeof ends), r->mode, r->us.median,
                r->us.min, r->us.max);
    }
}

/* A claim's verdict as the table shows it ("-" when the rows have none). */
static const char *verdict_of(const lab_rows *rows, const char *id)
{
    const lab_row *v = lab_rows_find(rows, "claim", id, NULL, NULL, 0);
    return v ? v->value : "-";
}

/* Each figure of the chapter's table beside the verdict of the claim that judges it. */
static void chapter_table(const lab_rows *rows, FILE *out)
{
    fprintf(out, "\nChapter 4.4's table beside this run:\n\n| link | chapter one way | its "
                 "verdict | chapter latency | its verdict |\n| --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < lab05_table_rows; i++) {
        const lab05_table_row *t = &lab05_table[i];
        fprintf(out, "| %s | ~%.0f GB/s | %s | ~%.1f us | %s |\n", t->link, t->gbps,
                verdict_of(rows, t->id), t->us, verdict_of(rows, t->latency_id));
    }
}

void lab05_report(const lab_rows *rows, FILE *out)
{
    if (!lab_rows_find(rows, "config", "gpus", NULL, NULL, 0)) {
        fprintf(out, "Lab 05 did not run here.\n");
        return;
    }
    if (lab_rows_find(rows, "link", "nvml", NULL, NULL, 0))
        links(rows, out);
    bandwidth(rows, out);
    host_bars(rows, out);
    latency(rows, out);
    chapter_table(rows, out);
}
