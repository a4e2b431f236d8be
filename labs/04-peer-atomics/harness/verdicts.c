/**
 * @file verdicts.c
 * @brief Lab 04's host part: the claims of chapter 4.3 judged from the rows alone, and the
 *        report section (the atomics tables) in Markdown.
 */
#include "claims.h"
#include "cli.h"

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

/* ------------------------------------------------------------- claims -- */

/** "Two orders of magnitude": nearer 100x than 10x on a log scale (10^1.5). */
#define TWO_ORDERS 31.6
/** "Much slower": at least twice the local time. */
#define MUCH_SLOWER 2.0

/* The chapter's words on PCIe, tested on the PCIe link this machine has: the host link. */
static lab_verdict judge_pcie_latency(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *local = timed(rows, "latency", "device", "loopback", NULL);
    const lab_row *host = timed(rows, "latency", "device", "host", NULL);
    if (local == NULL || host == NULL)
        return lab_say(LAB_UNTESTED, said, len, "no chain of atomics both locally and over the "
                       "host link (PCIe): %s", lab_rows_skip_reason(rows, "latency", NULL));
    const lab_row *c_local = timed(rows, "counter", "device", "loopback", "one");
    const lab_row *c_host = timed(rows, "counter", "device", "host", "one");
    char also[200] = "";
    if (c_local && c_host) {
        const double fewer = rate(c_local) / rate(c_host);
        lab_figure("fewer_x", "%.0f", fewer);
        snprintf(also, sizeof also, "; under contention (every thread on one counter) the link "
                 "carries %.3g increments/s against %.3g locally, %.0fx fewer: the cost shows "
                 "in throughput, not in one atomic's latency", rate(c_host), rate(c_local), fewer);
    }
    const double ratio = ns_per_atomic(host) / ns_per_atomic(local);
    lab_figure("latency_x", "%.1f", ratio);
    return lab_judge(ratio >= TWO_ORDERS, said, len, "one atomic across the host link (PCIe) "
                     "takes %.0f ns against %.0f ns locally: %.1fx, %s two orders of magnitude "
                     "(bar %.1fx)%s", ns_per_atomic(host), ns_per_atomic(local), ratio,
                     ratio >= TWO_ORDERS ? "about" : "not", TWO_ORDERS, also);
}

/* "NVLink is somewhat better, but still much slower than local atomics": two halves, the peer
 * link against the host link (PCIe) and against local memory. A half that fails is enough for
 * "does not hold"; "holds" needs both measured. */
static lab_verdict judge_nvlink_latency(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *local = timed(rows, "latency", "device", "loopback", NULL);
    const lab_row *peer = timed(rows, "latency-peer", "device", "peer", NULL);
    const lab_row *host = timed(rows, "latency", "device", "host", NULL);
    if (local == NULL || peer == NULL)
        return lab_say(LAB_UNTESTED, said, len, "the claim is about a peer link: %s",
                       lab_rows_skip_reason(rows, local ? "latency-peer" : "latency", NULL));
    const double ratio = ns_per_atomic(peer) / ns_per_atomic(local);
    const int slower = ratio >= MUCH_SLOWER;
    lab_figure("local_x", "%.1f", ratio);
    char measured[200];
    snprintf(measured, sizeof measured, "one atomic across the peer link takes %.0f ns against "
             "%.0f ns locally: %.1fx (bar for much slower: %.0fx)", ns_per_atomic(peer),
             ns_per_atomic(local), ratio, MUCH_SLOWER);
    if (host == NULL && slower)
        return lab_say(LAB_UNTESTED, said, len, "half of the claim is measured: %s: \"much slower "
                       "than local\" holds; \"better than PCIe\" needs a chain of atomics over "
                       "the host link (PCIe) in the same run and this run has none", measured);
    if (host == NULL)
        return lab_say(LAB_DOES_NOT_HOLD, said, len, "%s: not much slower than local; the host "
                       "link (PCIe) was not measured in this run", measured);
    const int faster = ns_per_atomic(peer) < ns_per_atomic(host);
    return lab_judge(slower && faster, said, len, "%s; the host link (PCIe) takes %.0f ns: the "
                     "peer link is %s", measured, ns_per_atomic(host),
                     faster ? "better" : "not better");
}

/** "惨不忍睹" (dreadful) read as an order of magnitude: stronger than the chapter's own "much
 *  slower" (2x), which it keeps for NVLink. */
#define DREADFUL 10.0

/* "结果呢？性能惨不忍睹": atomicAdd(&peerCounter[0], 1) from every thread, explained by PCIe's
 * atomics. Judged on the PCIe link this machine has (the host link) by the chapter's own code:
 * every thread on one counter, increments per second against the same counter locally. */
static lab_verdict judge_dreadful(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *local = timed(rows, "counter", "device", "loopback", "one");
    const lab_row *host = timed(rows, "counter", "device", "host", "one");
    const lab_row *peer = timed(rows, "counter-peer", "device", "peer", "one");
    const lab_row *l_local = timed(rows, "latency", "device", "loopback", NULL);
    const lab_row *l_host = timed(rows, "latency", "device", "host", NULL);
    char context[200] = "";
    if (peer != NULL && local != NULL)
        snprintf(context, sizeof context, "; across the peer link (which the chapter calls "
                 "better) the same counter takes %.1fx fewer increments per second than "
                 "locally", rate(local) / rate(peer));
    if (local == NULL || host == NULL)
        return lab_say(LAB_UNTESTED, said, len, "the chapter explains it by PCIe: needs every "
                       "thread's atomics on one counter locally and over the host link (PCIe) "
                       "in one run; this run has %s%s", local ? "no host-link counter"
                       : "no local counter", context);
    const double fewer = rate(local) / rate(host);
    lab_figure("fewer_x", "%.0f", fewer);
    char latency[120] = "";
    if (l_local && l_host)
        snprintf(latency, sizeof latency, "; one atomic's latency is %.1fx the local one",
                 ns_per_atomic(l_host) / ns_per_atomic(l_local));
    return lab_judge(fewer >= DREADFUL, said, len, "every thread adding 1 to one counter (the "
                     "chapter's code) across the host link (PCIe) makes %.3g increments/s "
                     "against %.3g locally: %.0fx fewer (bar %.0fx for \"惨不忍睹\": "
                     "dreadful)%s%s", rate(host), rate(local), fewer, DREADFUL, latency, context);
}

/* Like with like: the same atomics, all across the link or none (one GPU
 * per-thread), and the same aggregation with and without remote atomics. */
static lab_verdict judge_avoid(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *local = timed(rows, "counter", "device", "loopback", "one");
    const lab_row *across = timed(rows, "counter-peer", "device", "peer", "one");
    const lab_row *agg = timed(rows, "counter-peer", "block_aggregated", "peer", "both");
    const lab_row *copy = timed(rows, "counter-peer", "local_then_copy", "peer", "both");
    if (!local || !across || !agg || !copy)
        return lab_say(LAB_UNTESTED, said, len, "the claim is about atomics between two GPUs: "
                       "%s", lab_rows_skip_reason(rows, "counter-peer", NULL));
    const double fine = across->us.median / local->us.median;
    const double coarse = agg->us.median / copy->us.median;
    lab_figure("across_x", "%.1f", fine);
    return lab_judge(fine >= 1.5, said, len, "the same %ld per-thread atomics take %.0f us when "
                     "every one crosses the peer link against %.0f us locally: %.1fx (bar 1.5x); "
                     "with block aggregation (%.0f atomics across) the cross-GPU atomics cost "
                     "%.2fx a local count plus one copy: avoiding the link matters when atomics "
                     "are many; aggregating them matters more", local->count, across->us.median,
                     local->us.median, fine, detail_num(agg, "across"), coarse);
}

/* "If you must synchronize, gather the data on one GPU with cudaMemcpyPeer, or
 * synchronize coarsely with cudaStreamSynchronize and events": local_then_copy
 * counts on each GPU, copies b's total with a peer copy, ordered by an event. */
static lab_verdict judge_gather(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *copy = timed(rows, "counter-peer", "local_then_copy", "peer", "both");
    const lab_row *agg = timed(rows, "counter-peer", "block_aggregated", "peer", "both");
    const lab_row *naive = timed(rows, "counter-peer", "system", "peer", "both");
    if (!copy || !agg || !naive)
        return lab_say(LAB_UNTESTED, said, len, "the claim is about two GPUs: %s",
                       lab_rows_skip_reason(rows, "counter-peer", NULL));
    const int exact = copy->verified == 1;
    const double vs_agg = copy->us.median / agg->us.median;
    const double faster = naive->us.median / copy->us.median;
    lab_figure("faster_x", "%.0f", faster);
    lab_figure("aggregated_x", "%.2f", vs_agg);
    return lab_judge(exact && vs_agg <= 1.2, said, len, "counting on each GPU, one peer copy "
                     "and an event before the sum: %s, %.1f us; %.0fx faster than per-thread "
                     "system atomics from both GPUs (%.0f us) and %.2fx the time of "
                     "block-aggregated atomics across the link (%.1f us; bar <= 1.2x)",
                     exact ? "exact in every run" : "a wrong count", copy->us.median, faster,
                     naive->us.median, vs_agg,
                     agg->us.median);
}

static lab_verdict judge_hw_support(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *attr = lab_rows_find(rows, "link", "host_native_atomics", "host", NULL, 0);
    const lab_row *mixed = lab_rows_find(rows, "cpu-gpu", "system", "host", NULL, 0);
    const lab_row *scan = lab_rows_find(rows, "link", "directions_without_native_atomics",
                                        NULL, NULL, 0);
    const lab_row *with = lab_rows_find(rows, "link", "directions_with_access", NULL, NULL, 0);
    const double lost = detail_num(mixed, "lost");
    const double overlapped = detail_num(mixed, "overlapped_runs");
    const int native = attr ? atoi(attr->value) : -1;
    if (native == 0 && mixed && overlapped > 0 && lost > 0) {
        lab_figure("lost", "%.0f", lost);
        lab_figure("increments", "%ld", mixed->count);
        return lab_say(LAB_HOLDS, said, len, "GPU %d's host link has no native atomics "
                       "(cudaDevAttrHostNativeAtomicSupported 0) and with the GPU (system scope) "
                       "and the CPU adding to one host counter at once %.0f of %ld increments "
                       "were lost: without that support the atomics are not atomic",
                       mixed->src, lost, mixed->count);
    }
    if (scan && atoi(scan->value) > 0) {
        const char *of = with ? with->value : "?";
        lab_figure("without", "%s", scan->value);
        lab_figure("with_access", "%s", of);
        return lab_say(LAB_HOLDS, said, len, "%s of %s directions with peer access carry no "
                       "native atomics (%s): access alone does not make atomics work across "
                       "a link", scan->value, of, scan->detail);
    }
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
    return lab_say(LAB_UNTESTED, said, len, "%s: %s", attr ? "no GPU+CPU counter on the host "
                   "link" : "no link attributes and no GPU+CPU counter",
                   lab_rows_skip_reason(rows, "cpu-gpu", NULL));
}

static const lab_claim claims[] = {
    {"pcie_atomics_100x_slower", "4.3", judge_pcie_latency},
    {"nvlink_atomics_much_slower", "4.3", judge_nvlink_latency},
    {"cross_gpu_atomics_dreadful", "4.3", judge_dreadful},
    {"avoid_cross_gpu_atomics", "4.3", judge_avoid},
    {"gather_or_coarse_sync", "4.3", judge_gather},
    {"pcie_atomics_need_hw_support", "4.3", judge_hw_support},
};

/* ------------------------------------------------------------- report -- */

/* One line of table @p t for row @p r: who reaches whose memory, then the table's cells. */
static void cells(const lab_rows *rows, size_t t, const lab_row *r, FILE *out)
{
    char w[48], size[32];
    const lab_row *naive = lab_rows_find(rows, r->experiment, "naive", r->route, NULL, 0);
    const lab_row *local = timed(rows, "latency", "device", "loopback", NULL);
    if (r->dst < 0)
        snprintf(w, sizeof w, "GPU %d -> host", r->src);
    else if (strcmp(r->mode, "both") == 0)
        snprintf(w, sizeof w, "GPUs %d+%d -> GPU %d", r->dst, r->src, r->dst);
    else
        snprintf(w, sizeof w, "GPU %d -> GPU %d", r->src, r->dst);
    if (t == 0)
        fprintf(out, "| %s | %s | %s | %ld | %.0f | %.0f | %.3f | %.3g | %s |\n", r->variant,
                r->route, w, r->count, detail_num(r, "atomics"), detail_num(r, "across"),
                r->us.median, rate(r), r->verified == 1 ? "exact" : r->verified == 0 ? "**wrong**"
                : atoll(r->value) == r->count ? "race, exact anyway" : "race, count lost");
    else if (t == 1)
        fprintf(out, "| %s | %s | %s | %s | %.0f | %.1f | %.2f | %.1fx | %s |\n", r->variant,
                r->route, w, lab_format_size(r->bytes, size, sizeof size),
                detail_num(r, "across"), r->us.median, r->gbps,
                naive ? naive->us.median / r->us.median : 0.0, r->verified == 1 ? "yes" : "**no**");
    else if (t == 2)
        fprintf(out, "| %s | %s | %s | %ld | %.1f [%.1f, %.1f] | %.1f |\n", r->route, r->variant,
                w, r->count, ns_per_atomic(r), r->us.min * 1e3 / r->count,
                r->us.max * 1e3 / r->count, local ? ns_per_atomic(r) / ns_per_atomic(local) : 0.0);
    else
        fprintf(out, "| %s | %ld | %s | %.0f | %.0f | %.0f | %s |\n", r->variant, r->count,
                r->value, detail_num(r, "lost"), detail_num(r, "cpu"),
                detail_num(r, "host_native_atomics"), r->verified < 0 ? "no" : "yes");
}

/** One table of the report: the rows of two experiments, one line each (cells()). */
typedef struct table {
    const char *title; /**< its heading */
    const char *e1;    /**< the one-GPU experiment */
    const char *e2;    /**< its two-GPU twin */
    const char *head;  /**< the header line */
} table;

static const table tables[] = {
    {"Counters: every variant issues the same increments", "counter", "counter-peer",
     "| variant | route | who adds | increments | atomics | across the link | median us | "
     "increments/s | count |"},
    {"Histogram: naive vs privatized", "histogram", "histogram-peer",
     "| variant | route | who counts | data | atomics across the link | median us | GB/s | "
     "speedup over naive | exact |"},
    {"Latency of one atomic (a chain of dependent atomics)", "latency", "latency-peer",
     "| route | scope | walker -> memory | steps | ns per atomic [min, max] | x local |"},
    {"The GPU and the CPU on one host counter", "cpu-gpu", "cpu-gpu",
     "| GPU scope | increments | counted | lost | CPU's share | host native atomics | promised |"},
};

/* The measured rows of the table's experiments (the cpu-gpu rows have no times). */
static void draw(const lab_rows *rows, size_t t, FILE *out)
{
    int n = 0;
    fprintf(out, "### %s\n\n", tables[t].title);
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if ((strcmp(r->experiment, tables[t].e1) && strcmp(r->experiment, tables[t].e2)) ||
            strcmp(r->variant, "skipped") == 0 || (r->us.count == 0 && t != 3))
            continue;
        if (n++ == 0) {
            fprintf(out, "%s\n|", tables[t].head);
            for (const char *c = tables[t].head + 1; *c; c++)
                fputs(*c == '|' ? "---|" : "", out);
            fputc('\n', out);
        }
        cells(rows, t, r, out);
    }
    fprintf(out, "%s\n", n ? "" : "Not measured in this run.\n");
}

/* The newer per-operation query can answer 0 where the older attribute says 1:
 * say which one the measurements side with, instead of printing both bare. */
static void capabilities_note(const lab_rows *rows, FILE *out)
{
    const lab_row *count = lab_rows_find(rows, "counter-peer", "device", "peer", "one", 0);
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *caps = &rows->row[i];
        const lab_row *native = lab_rows_pick(rows, "link", "native_atomics", NULL, NULL,
                                              caps->src, caps->dst, 0); /* the same direction */
        if (strcmp(caps->experiment, "link") || strcmp(caps->variant, "int_add_capabilities") ||
            native == NULL || atoi(caps->value) != 0 || atoi(native->value) != 1)
            continue;
        fprintf(out, "\nGPU %d -> GPU %d: cudaDeviceGetP2PAtomicCapabilities reports no native "
                "capability bit for integer add (0) while cudaDevP2PAttrNativeAtomicSupported "
                "is 1. The two queries disagree here; %s\n", caps->src, caps->dst,
                count == NULL ? "no peer counter ran to decide between them."
                : count->verified == 1 ? "the peer counters, exact in every run, side with the "
                                         "attribute."
                                       : "the peer counters came out wrong.");
    }
}

static void report(const lab_rows *rows, FILE *out)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        draw(rows, t, out);
    fprintf(out, "Native atomics:");
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (strcmp(r->experiment, "link") == 0 && strcmp(r->variant, "host_native_atomics") == 0)
            fprintf(out, " GPU %d with the host: %s (cudaDevAttrHostNativeAtomicSupported);",
                    r->src, r->value);
        if (strcmp(r->experiment, "link") == 0 && strcmp(r->variant, "native_atomics") == 0)
            fprintf(out, " GPU %d -> GPU %d: %s (cudaDevP2PAttrNativeAtomicSupported);", r->src,
                    r->dst, r->value);
    }
    fputc('\n', out);
    capabilities_note(rows, out);
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].variant, "skipped") == 0)
            fprintf(out, "\nSkipped `%s`: %s.\n", rows->row[i].experiment, rows->row[i].detail);
}

/* The rules of the rows (plausible.c). */
int lab04_plausible(const lab_rows *rows, FILE *out);

const lab_host_part lab_host = {"04-peer-atomics", claims, sizeof claims / sizeof claims[0],
                                report, lab04_plausible};
