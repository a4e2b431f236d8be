/**
 * @file verdicts.c
 * @brief Lab 04's host part: the claims of chapter 4.3 judged from the rows
 *        alone, and the report section (the atomics tables) in Markdown.
 */
#include "claims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number after "key=" in a row's detail, or -1 when it is absent. */
static double detail_num(const lab_row *r, const char *key)
{
    char pattern[40];
    snprintf(pattern, sizeof pattern, "%s=", key);
    const char *at = r ? strstr(r->detail, pattern) : NULL;
    return at ? strtod(at + strlen(pattern), NULL) : -1.0;
}

static const lab_row *timed(const lab_rows *rows, const char *experiment, const char *variant,
                            const char *route, const char *mode)
{
    const lab_row *r = lab_rows_find(rows, experiment, variant, route, mode, 0);
    return r != NULL && r->us.count > 0 && r->us.median > 0.0 && r->count > 0 ? r : NULL;
}

static double ns_per_atomic(const lab_row *chain)
{
    return chain->us.median * 1e3 / (double)chain->count;
}

/* Increments per second of a counter row. */
static double rate(const lab_row *counter)
{
    return (double)counter->count / (counter->us.median * 1e-6);
}

/* Why the rows of an experiment are missing: its skip reason, or that it did not run. */
static const char *missing(const lab_rows *rows, const char *experiment)
{
    const lab_row *skip = lab_rows_find(rows, experiment, "skipped", NULL, NULL, 0);
    return skip ? skip->detail : "the experiment did not run";
}

/* ------------------------------------------------------------- claims -- */

static lab_verdict judge_slower(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *local = timed(rows, "latency", "device", "loopback", NULL);
    const lab_row *host = timed(rows, "latency", "device", "host", NULL);
    const lab_row *peer = timed(rows, "latency-peer", "device", "peer", NULL);
    const lab_row *c_local = timed(rows, "counter", "device", "loopback", "one");
    const lab_row *c_far = host ? timed(rows, "counter", "device", "host", "one")
                                : timed(rows, "counter-peer", "device", "peer", "one");
    char also[160] = "";
    if (local == NULL || (host == NULL && peer == NULL))
        return lab_say(LAB_UNTESTED, said, len, "no local and remote chain of atomics: %s",
                       missing(rows, local ? "latency-peer" : "latency"));
    if (c_local && c_far)
        snprintf(also, sizeof also, "; one counter hammered by all threads: %.3g increments/s "
                 "locally against %.3g across the link (%.1fx)", rate(c_local), rate(c_far),
                 rate(c_local) / rate(c_far));
    const lab_row *far = host ? host : peer;
    const double ratio = ns_per_atomic(far) / ns_per_atomic(local);
    char nvlink[80] = "";
    if (host && peer)
        snprintf(nvlink, sizeof nvlink, " (peer link %.0f ns: %.1fx)", ns_per_atomic(peer),
                 ns_per_atomic(peer) / ns_per_atomic(local));
    return lab_judge(ratio >= 100.0, said, len,
                     "one atomic across the %s takes %.0f ns against %.0f ns locally: %.1fx%s%s%s",
                     host ? "host link" : "peer link (the chapter's 100x is about PCIe)",
                     ns_per_atomic(far), ns_per_atomic(local), ratio, nvlink, also,
                     ratio >= 100.0 ? "" : "; slower but by less than two orders of magnitude");
}

static lab_verdict judge_avoid(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *naive = timed(rows, "histogram-peer", "naive", "peer", NULL);
    const lab_row *priv = timed(rows, "histogram-peer", "privatized", "peer", NULL);
    const lab_row *atomics = timed(rows, "counter-peer", "system", "peer", "both");
    const lab_row *copy = timed(rows, "counter-peer", "local_then_copy", "peer", "both");
    if (!naive || !priv || !atomics || !copy)
        return lab_say(LAB_UNTESTED, said, len, "the claim is about atomics between two GPUs: "
                       "%s", missing(rows, naive ? "counter-peer" : "histogram-peer"));
    const double hist = naive->us.median / priv->us.median;
    const double gather = atomics->us.median / copy->us.median;
    return lab_judge(hist > 1.0 && gather > 1.0, said, len,
                     "the privatized histogram is %.1fx faster than one peer atomic per byte "
                     "(bar >= 10x on 2xH200: %s); per-GPU counting plus one peer copy is %.1fx "
                     "faster than per-thread system atomics from both GPUs",
                     hist, hist >= 10.0 ? "met" : "not met", gather);
}

static lab_verdict judge_hw_support(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *attr = lab_rows_find(rows, "link", "host_native_atomics", "host", NULL, 0);
    const lab_row *mixed = lab_rows_find(rows, "cpu-gpu", "system", "host", NULL, 0);
    const lab_row *scan = lab_rows_find(rows, "link", "directions_without_native_atomics",
                                        NULL, NULL, 0);
    const lab_row *with = lab_rows_find(rows, "link", "directions_with_access", NULL, NULL, 0);
    const double lost = detail_num(mixed, "lost"), overlapped = detail_num(mixed, "overlapped_runs");
    const int native = attr ? atoi(attr->value) : -1;
    if (native == 0 && mixed && overlapped > 0 && lost > 0)
        return lab_say(LAB_HOLDS, said, len, "GPU %d's host link has no native atomics "
                       "(cudaDevAttrHostNativeAtomicSupported 0) and with the GPU (system scope) "
                       "and the CPU adding to one host counter at once %.0f of %ld increments "
                       "were lost: without that support the atomics are not atomic",
                       mixed->src, lost, mixed->count);
    if (scan && atoi(scan->value) > 0)
        return lab_say(LAB_HOLDS, said, len, "%s of %s directions with peer access carry no "
                       "native atomics (%s): access alone does not make atomics work across "
                       "a link", scan->value, with ? with->value : "?", scan->detail);
    if (native == 0 && mixed && overlapped > 0)
        return lab_say(LAB_UNTESTED, said, len, "cudaDevAttrHostNativeAtomicSupported is 0 "
                       "yet the GPU and the CPU lost none of %ld increments on one host counter "
                       "in %.0f overlapping runs: the link may carry atomics that CUDA does not "
                       "promise; no link here is shown to lack the support", mixed->count,
                       overlapped);
    if (native == 1 || (scan && with && atoi(with->value) > 0))
        return lab_say(LAB_UNTESTED, said, len, "every link measured here carries native "
                       "atomics (host link: %s; peer directions with access: %s): none lacks "
                       "the support to show what happens", native == 1 ? "1" : "not measured",
                       with ? with->value : "0");
    return lab_say(LAB_UNTESTED, said, len, "no link attributes and no GPU+CPU counter: %s",
                   missing(rows, "cpu-gpu"));
}

static const lab_claim claims[] = {
    {"remote_atomics_100x_slower", "4.3", judge_slower},
    {"avoid_cross_gpu_atomics", "4.3", judge_avoid},
    {"pcie_atomics_need_hw_support", "4.3", judge_hw_support},
};

/* ------------------------------------------------------------- report -- */

static const char *where(const lab_row *r, char *out, size_t len)
{
    if (r->dst < 0)
        snprintf(out, len, "GPU %d -> host", r->src);
    else if (strcmp(r->mode, "both") == 0)
        snprintf(out, len, "GPUs %d+%d -> GPU %d", r->dst, r->src, r->dst);
    else
        snprintf(out, len, "GPU %d -> GPU %d", r->src, r->dst);
    return out;
}

static void counter_cells(const lab_rows *rows, const lab_row *r, FILE *out)
{
    char w[48];
    (void)rows;
    fprintf(out, "| %s | %s | %s | %ld | %.0f | %.0f | %.3f | %.3g | %s |\n", r->variant,
            r->route, where(r, w, sizeof w), r->count, detail_num(r, "atomics"),
            detail_num(r, "across"), r->us.median, rate(r),
            r->verified == 1 ? "exact" : r->verified == 0 ? "**wrong**"
            : atoll(r->value) == r->count ? "race, exact anyway" : "race, count lost");
}

static void histogram_cells(const lab_rows *rows, const lab_row *r, FILE *out)
{
    char w[48];
    const lab_row *naive = lab_rows_find(rows, r->experiment, "naive", r->route, NULL, 0);
    fprintf(out, "| %s | %s | %s | %zu | %.0f | %.1f | %.2f | %.1fx | %s |\n", r->variant,
            r->route, where(r, w, sizeof w), r->bytes, detail_num(r, "across"), r->us.median,
            r->gbps, naive ? naive->us.median / r->us.median : 0.0,
            r->verified == 1 ? "yes" : "**no**");
}

static void latency_cells(const lab_rows *rows, const lab_row *r, FILE *out)
{
    char w[48];
    const lab_row *local = timed(rows, "latency", "device", "loopback", NULL);
    fprintf(out, "| %s | %s | %s | %ld | %.1f [%.1f, %.1f] | %.1f |\n", r->route, r->variant,
            where(r, w, sizeof w), r->count, ns_per_atomic(r), r->us.min * 1e3 / r->count,
            r->us.max * 1e3 / r->count, local ? ns_per_atomic(r) / ns_per_atomic(local) : 0.0);
}

static void mixed_cells(const lab_rows *rows, const lab_row *r, FILE *out)
{
    (void)rows;
    fprintf(out, "| %s | %ld | %s | %.0f | %.0f | %.0f | %s |\n", r->variant, r->count, r->value,
            detail_num(r, "lost"), detail_num(r, "cpu"), detail_num(r, "host_native_atomics"),
            r->verified < 0 ? "no" : "yes");
}

/** One table of the report: the rows of two experiments, one line each. */
typedef struct table {
    const char *title; /**< its heading */
    const char *e1;    /**< the one-GPU experiment */
    const char *e2;    /**< its two-GPU twin */
    const char *head;  /**< the header line */
    void (*cells)(const lab_rows *rows, const lab_row *r, FILE *out); /**< one row's line */
} table;

static const table tables[] = {
    {"Counters: every variant issues the same increments", "counter", "counter-peer",
     "| variant | route | who adds | increments | atomics | across the link | median us | "
     "increments/s | count |", counter_cells},
    {"Histogram: naive vs privatized", "histogram", "histogram-peer",
     "| variant | route | who counts | bytes | atomics across the link | median us | GB/s | "
     "speedup over naive | exact |", histogram_cells},
    {"Latency of one atomic (a chain of dependent atomics)", "latency", "latency-peer",
     "| route | scope | walker -> memory | steps | ns per atomic [min, max] | x local |",
     latency_cells},
    {"The GPU and the CPU on one host counter", "cpu-gpu", "cpu-gpu",
     "| GPU scope | increments | counted | lost | CPU's share | host native atomics | promised |",
     mixed_cells},
};

/* A measured row of the table's experiments (the cpu-gpu rows have no times). */
static int shown(const table *t, const lab_row *r)
{
    return (strcmp(r->experiment, t->e1) == 0 || strcmp(r->experiment, t->e2) == 0) &&
           strcmp(r->variant, "skipped") != 0 &&
           (r->us.count > 0 || strcmp(r->experiment, "cpu-gpu") == 0);
}

static void draw(const lab_rows *rows, const table *t, FILE *out)
{
    int n = 0;
    fprintf(out, "### %s\n\n", t->title);
    for (size_t i = 0; i < rows->count; i++) {
        if (!shown(t, &rows->row[i]))
            continue;
        if (n++ == 0) {
            fprintf(out, "%s\n|", t->head);
            for (const char *c = t->head + 1; *c; c++)
                fputs(*c == '|' ? "---|" : "", out);
            fputc('\n', out);
        }
        t->cells(rows, &rows->row[i], out);
    }
    if (n == 0)
        fprintf(out, "Not measured in this run.\n");
    fputc('\n', out);
}

static void report(const lab_rows *rows, FILE *out)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        draw(rows, &tables[t], out);
    fprintf(out, "Native atomics:");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (strcmp(r->experiment, "link") == 0 && strcmp(r->variant, "host_native_atomics") == 0)
            fprintf(out, " GPU %d with the host: %s (cudaDevAttrHostNativeAtomicSupported);", r->src,
                    r->value);
        if (strcmp(r->experiment, "link") == 0 && strcmp(r->variant, "native_atomics") == 0)
            fprintf(out, " GPU %d -> GPU %d: %s (cudaDevP2PAttrNativeAtomicSupported);", r->src,
                    r->dst, r->value);
    }
    fputc('\n', out);
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].variant, "skipped") == 0)
            fprintf(out, "\nSkipped `%s`: %s.\n", rows->row[i].experiment, rows->row[i].detail);
}

const lab_host_part lab_host = {"04-peer-atomics", claims, sizeof claims / sizeof claims[0],
                                report};
