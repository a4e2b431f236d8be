/**
 * @file report.c
 * @brief Lab 04: the tables, the CSV, and the verdicts on the claims of
 *        chapter 4.3 that this run's measurements decide.
 */
#include "peer_atomics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/** The verdict on one of the chapter's claims. */
typedef enum verdict { HOLDS, DOES_NOT_HOLD, NOT_TESTABLE } verdict;

static const char *verdict_word(verdict v)
{
    return v == HOLDS ? "holds" : v == DOES_NOT_HOLD ? "does_not_hold" : "not_testable";
}

/* ------------------------------------------------------------ figures -- */

static const counter_result *counter(const lab04_results *r, const char *name)
{
    for (int i = 0; i < LAB04_COUNTER_VARIANTS; i++)
        if (strcmp(r->counters[i].name, name) == 0)
            return &r->counters[i];
    return NULL;
}

static const latency_result *latency(const lab04_results *r, const char *name)
{
    for (int i = 0; i < LAB04_LATENCY_VARIANTS; i++)
        if (strcmp(r->latency[i].name, name) == 0)
            return &r->latency[i];
    return NULL;
}

/** Increments per second at the median time. */
static double counter_rate(const counter_result *c)
{
    return (double)c->expected / (c->ms.median / 1e3);
}

static double ns_per_op(const latency_result *l, double ms)
{
    return ms * 1e6 / (double)l->steps;
}

/** Remote latency over local latency (device scope both). */
static double latency_ratio(const lab04_results *r)
{
    const latency_result *local = latency(r, "local"), *peer = latency(r, "peer");
    return peer->ms.median / local->ms.median;
}

/** Local contended rate over remote contended rate: one counter, one
 *  atomic per increment, all threads of one GPU. */
static double contention_ratio(const lab04_results *r)
{
    return counter_rate(counter(r, "local")) / counter_rate(counter(r, "peer"));
}

static double hist_speedup(const lab04_results *r)
{
    return r->hist[0].ms.median / r->hist[1].ms.median;
}

/** The chapter's advice for the counter: local totals and one copy,
 *  against per-thread system atomics from both GPUs. */
static double copy_speedup(const lab04_results *r)
{
    return counter_rate(counter(r, "both_local_then_copy")) /
           counter_rate(counter(r, "both_system"));
}

/* ------------------------------------------------------------- claims -- */

static verdict slower_claim(const lab04_results *r)
{
    return latency_ratio(r) >= 100.0 ? HOLDS : DOES_NOT_HOLD;
}

static verdict avoid_claim(const lab04_results *r)
{
    return hist_speedup(r) > 1.0 && copy_speedup(r) > 1.0 ? HOLDS : DOES_NOT_HOLD;
}

static verdict pcie_claim(const lab04_results *r)
{
    return r->link.directions_without_native > 0 ? HOLDS : NOT_TESTABLE;
}

static void claim_slower(const lab04_results *r)
{
    const latency_result *local = latency(r, "local"), *peer = latency(r, "peer");
    verdict v = slower_claim(r);
    printf("claim remote_atomics_100x_slower: %s: one remote atomic takes %.0f ns, a local "
           "one %.0f ns (%.1fx); one counter hammered by all threads: %.3g increments/s "
           "local vs %.3g across the link (%.1fx); %s\n",
           verdict_word(v), ns_per_op(peer, peer->ms.median),
           ns_per_op(local, local->ms.median), latency_ratio(r),
           counter_rate(counter(r, "local")), counter_rate(counter(r, "peer")),
           contention_ratio(r),
           v == HOLDS ? "two orders of magnitude or more"
                      : "slower, but by less than two orders of magnitude on this link");
}

static void claim_avoid(const lab04_results *r)
{
    double speedup = hist_speedup(r);
    printf("claim avoid_cross_gpu_atomics: %s: the privatized histogram is %.1fx %s than "
           "one peer atomic per byte (bar >= 10x on 2xH200: %s); per-GPU counting plus "
           "one peer copy is %.1fx %s than per-thread system atomics from both GPUs\n",
           verdict_word(avoid_claim(r)), speedup >= 1.0 ? speedup : 1.0 / speedup,
           speedup >= 1.0 ? "faster" : "slower", speedup >= 10.0 ? "met" : "not met",
           copy_speedup(r) >= 1.0 ? copy_speedup(r) : 1.0 / copy_speedup(r),
           copy_speedup(r) >= 1.0 ? "faster" : "slower");
}

static void claim_pcie(const lab04_results *r)
{
    const link_info *l = &r->link;
    printf("claim pcie_atomics_need_hw_support: %s: ", verdict_word(pcie_claim(r)));
    if (pcie_claim(r) == HOLDS)
        printf("GPU %d has peer access to GPU %d but its link carries no native atomics "
               "(%d of %d directions with peer access lack them): access alone does not "
               "make atomics work across a link\n",
               l->example_src, l->example_dst, l->directions_without_native,
               l->directions_with_access);
    else
        printf("all %d directions with peer access here carry native atomics (an NVLink "
               "machine, or PCIe with atomic support), so no link without the hardware "
               "support exists to show what happens; the CUDA runtime does not say "
               "whether a link is PCIe or NVLink, and a pair without native atomics "
               "makes this lab exit 77\n",
               l->directions_with_access);
}

/* -------------------------------------------------------------- table -- */

static const char *caps_text(int caps, char *out, size_t len)
{
    if (caps < 0) {
        snprintf(out, len, "unknown (driver does not answer)");
        return out;
    }
    snprintf(out, len, "%s%s%s%s", (caps & cudaAtomicCapabilityScalar32) ? " 32-bit" : "",
             (caps & cudaAtomicCapabilityScalar64) ? " 64-bit" : "",
             (caps & cudaAtomicCapabilityReduction) ? " reduction" : "",
             caps == 0 ? " none" : "");
    return out[0] == ' ' ? out + 1 : out;
}

static void print_link(const lab04_pair *p, const lab04_results *r)
{
    const link_info *l = &r->link;
    const int src[2] = {p->a, p->b}, dst[2] = {p->b, p->a};
    char caps[96];
    printf("Link between GPU %d (%s) and GPU %d (%s)\n", p->a, l->name_a, p->b, l->name_b);
    for (int k = 0; k < 2; k++)
        printf("  %d -> %d: peer access %d, native atomics %d, only partial %d, "
               "integer add natively: %s\n",
               src[k], dst[k], l->access[k], l->native[k], l->partial[k],
               caps_text(l->add_caps[k], caps, sizeof caps));
    printf("  the counter, the histogram and the latency chain live in GPU %d's memory;\n"
           "  GPU %d reaches them across the link\n",
           p->a, p->b);
}

static void print_counters(const lab04_config *cfg, const lab04_results *r)
{
    printf("\nOne counter, %d blocks x %d threads x %d increments per GPU; %d runs after a "
           "warm-up, time of a run: median [min, max]\n",
           cfg->blocks, LAB04_THREADS, cfg->iters, cfg->reps);
    printf("  %-22s %-7s %-6s %10s %10s %-18s %10s %10s %25s %12s %12s\n", "variant",
           "writers", "scope", "expected", "count", "check", "atomics", "across", "ms",
           "increments/s", "atomics/s");
    for (int i = 0; i < LAB04_COUNTER_VARIANTS; i++) {
        const counter_result *c = &r->counters[i];
        const char *check = c->defined ? "exact"
                            : c->exact ? "race, exact anyway"
                                       : "race, count lost";
        printf("  %-22s %-7s %-6s %10llu %10llu %-18s %10llu %10llu %9.3f [%6.3f, %6.3f] "
               "%12.4g %12.4g\n",
               c->name, c->writers, c->scope, c->expected, c->count, check, c->atomics,
               c->peer_ops, c->ms.median, c->ms.min, c->ms.max, counter_rate(c),
               (double)c->atomics / (c->ms.median / 1e3));
    }
    printf("  atomics: global-memory atomics of one run, both GPUs; across: those that\n"
           "  crossed the link. With one atomic per increment, increments/s = atomics/s.\n");
    printf("  both_device: device-scope atomics are atomic only among one GPU's threads;\n"
           "  two GPUs on one address are a data race under the CUDA memory model, so its\n"
           "  count is reported, never called correct. Use system scope (both_system).\n");
}

static void print_histogram(const lab04_config *cfg, const lab04_results *r)
{
    char size[32];
    printf("\nHistogram of %s of seeded bytes, %d bins, half on each GPU, result in GPU a; "
           "bit-exact against the host\n",
           lab_format_size(cfg->hist_bytes, size, sizeof size), LAB04_BINS);
    printf("  %-11s %-12s %12s %12s %25s %14s %9s\n", "variant", "scope", "bytes",
           "peer atomics", "ms", "bytes/s", "speedup");
    for (int i = 0; i < LAB04_HIST_VARIANTS; i++) {
        const hist_result *h = &r->hist[i];
        printf("  %-11s %-12s %12zu %12llu %9.3f [%6.3f, %6.3f] %14.4g %8.1fx\n", h->name,
               h->scope, h->elements, h->peer_ops, h->ms.median, h->ms.min, h->ms.max,
               (double)h->elements / (h->ms.median / 1e3),
               r->hist[0].ms.median / h->ms.median);
    }
}

static void print_latency(const lab04_config *cfg, const lab04_results *r)
{
    printf("\nLatency of one atomic: one thread, a chain of %d dependent atomics on GPU a's "
           "memory\n",
           cfg->chain_steps);
    printf("  %-12s %-4s %-6s %30s\n", "variant", "GPU", "scope", "ns per atomic");
    for (int i = 0; i < LAB04_LATENCY_VARIANTS; i++) {
        const latency_result *l = &r->latency[i];
        printf("  %-12s %-4d %-6s %10.1f [%8.1f, %8.1f]\n", l->name, l->gpu, l->scope,
               ns_per_op(l, l->ms.median), ns_per_op(l, l->ms.min), ns_per_op(l, l->ms.max));
    }
    printf("  remote / local: %.1fx (device scope), %.1fx (system scope)\n", latency_ratio(r),
           latency(r, "peer_system")->ms.median / latency(r, "local")->ms.median);
}

void print_report_table(const lab04_config *cfg, const lab04_pair *pair,
                        const lab04_results *r)
{
    print_link(pair, r);
    print_counters(cfg, r);
    print_histogram(cfg, r);
    print_latency(cfg, r);
    printf("\nChapter 4.3, claim by claim\n");
    claim_slower(r);
    claim_avoid(r);
    claim_pcie(r);
}

/* ---------------------------------------------------------------- CSV -- */

enum { COLUMNS = 19 };

static const char *const header[COLUMNS] = {
    "section", "name",    "writers", "target",    "scope",  "expected",
    "count",   "exact",   "defined", "peer_ops",  "atomics", "reps",
    "median_ms", "min_ms", "max_ms", "per_s",  "ns_per_op", "speedup", "value",
};

/** One CSV record; a field that was never put stays empty. */
typedef struct row {
    char f[COLUMNS][160]; /**< the fields' text */
    int set[COLUMNS];     /**< 1 where a field was put */
} row;

static void csv_record(const row *w)
{
    for (int i = 0; i < COLUMNS; i++) {
        if (i > 0)
            putchar(',');
        if (w->set[i])
            lab_csv_field(stdout, w->f[i]);
    }
    putchar('\n');
}

static void put(row *w, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void put(row *w, int col, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(w->f[col], sizeof w->f[col], fmt, args);
    va_end(args);
    w->set[col] = 1;
}

enum { C_SECTION, C_NAME, C_WRITERS, C_TARGET, C_SCOPE, C_EXPECTED, C_COUNT, C_EXACT,
       C_DEFINED, C_PEER_OPS, C_ATOMICS, C_REPS, C_MEDIAN, C_MIN, C_MAX, C_PER_S, C_NS,
       C_SPEEDUP, C_VALUE };

static void kv(const char *section, const char *name, const char *value)
{
    row w;
    memset(&w, 0, sizeof w);
    put(&w, C_SECTION, "%s", section);
    put(&w, C_NAME, "%s", name);
    put(&w, C_VALUE, "%s", value);
    csv_record(&w);
}

static void kv_int(const char *section, const char *name, long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    kv(section, name, text);
}

static void kv_num(const char *section, const char *name, double value)
{
    char text[32];
    snprintf(text, sizeof text, "%.6g", value);
    kv(section, name, text);
}

static void link_row(const char *name, int src, int dst, int value)
{
    row w;
    memset(&w, 0, sizeof w);
    put(&w, C_SECTION, "link");
    put(&w, C_NAME, "%s", name);
    put(&w, C_WRITERS, "%d", src);
    put(&w, C_TARGET, "%d", dst);
    put(&w, C_VALUE, "%d", value);
    csv_record(&w);
}

static void timing(row *w, const lab_stats *ms, int reps)
{
    put(w, C_REPS, "%d", reps);
    put(w, C_MEDIAN, "%.6f", ms->median);
    put(w, C_MIN, "%.6f", ms->min);
    put(w, C_MAX, "%.6f", ms->max);
}

void print_report_csv(const lab04_config *cfg, const lab04_pair *p, const lab04_results *r)
{
    for (int i = 0; i < COLUMNS; i++)
        printf("%s%s", i ? "," : "", header[i]);
    putchar('\n');

    kv_int("config", "gpu_a", p->a);
    kv_int("config", "gpu_b", p->b);
    kv("config", "gpu_a_name", r->link.name_a);
    kv("config", "gpu_b_name", r->link.name_b);
    kv_int("config", "blocks", cfg->blocks);
    kv_int("config", "threads_per_block", LAB04_THREADS);
    kv_int("config", "iters", cfg->iters);
    kv_int("config", "hist_bytes", (long long)cfg->hist_bytes);
    kv_int("config", "chain_steps", cfg->chain_steps);
    kv_int("config", "reps", cfg->reps);
    kv_int("config", "seed", (long long)cfg->seed);

    const int src[2] = {p->a, p->b}, dst[2] = {p->b, p->a};
    for (int k = 0; k < 2; k++) {
        link_row("can_access_peer", src[k], dst[k], r->link.access[k]);
        link_row("native_atomics", src[k], dst[k], r->link.native[k]);
        link_row("partial_native_atomics", src[k], dst[k], r->link.partial[k]);
        link_row("int_add_capabilities", src[k], dst[k], r->link.add_caps[k]);
    }
    kv_int("link", "directions_with_access", r->link.directions_with_access);
    kv_int("link", "directions_without_native_atomics", r->link.directions_without_native);

    for (int i = 0; i < LAB04_COUNTER_VARIANTS; i++) {
        const counter_result *c = &r->counters[i];
        row w;
        memset(&w, 0, sizeof w);
        put(&w, C_SECTION, "counter");
        put(&w, C_NAME, "%s", c->name);
        put(&w, C_WRITERS, "%s", c->writers);
        put(&w, C_TARGET, "%d", p->a);
        put(&w, C_SCOPE, "%s", c->scope);
        put(&w, C_EXPECTED, "%llu", c->expected);
        put(&w, C_COUNT, "%llu", c->count);
        put(&w, C_EXACT, "%d", c->exact);
        put(&w, C_DEFINED, "%d", c->defined);
        put(&w, C_PEER_OPS, "%llu", c->peer_ops);
        put(&w, C_ATOMICS, "%llu", c->atomics);
        timing(&w, &c->ms, cfg->reps);
        put(&w, C_PER_S, "%.6g", counter_rate(c));
        csv_record(&w);
    }

    for (int i = 0; i < LAB04_HIST_VARIANTS; i++) {
        const hist_result *h = &r->hist[i];
        row w;
        memset(&w, 0, sizeof w);
        put(&w, C_SECTION, "histogram");
        put(&w, C_NAME, "%s", h->name);
        put(&w, C_WRITERS, "%d+%d", p->a, p->b);
        put(&w, C_TARGET, "%d", p->a);
        put(&w, C_SCOPE, "%s", h->scope);
        put(&w, C_EXPECTED, "%zu", h->elements);
        put(&w, C_COUNT, "%llu", h->total);
        put(&w, C_EXACT, "%d", h->exact);
        put(&w, C_DEFINED, "1");
        put(&w, C_PEER_OPS, "%llu", h->peer_ops);
        timing(&w, &h->ms, cfg->reps);
        put(&w, C_PER_S, "%.6g", (double)h->elements / (h->ms.median / 1e3));
        put(&w, C_SPEEDUP, "%.4f", r->hist[0].ms.median / h->ms.median);
        csv_record(&w);
    }

    for (int i = 0; i < LAB04_LATENCY_VARIANTS; i++) {
        const latency_result *l = &r->latency[i];
        row w;
        memset(&w, 0, sizeof w);
        put(&w, C_SECTION, "latency");
        put(&w, C_NAME, "%s", l->name);
        put(&w, C_WRITERS, "%d", l->gpu);
        put(&w, C_TARGET, "%d", p->a);
        put(&w, C_SCOPE, "%s", l->scope);
        put(&w, C_EXPECTED, "%d", l->steps);
        put(&w, C_COUNT, "%llu", l->visits);
        put(&w, C_EXACT, "%d", l->exact);
        put(&w, C_DEFINED, "1");
        put(&w, C_PEER_OPS, "%d", l->gpu == p->a ? 0 : l->steps);
        put(&w, C_ATOMICS, "%d", l->steps);
        timing(&w, &l->ms, cfg->reps);
        put(&w, C_PER_S, "%.6g", (double)l->steps / (l->ms.median / 1e3));
        put(&w, C_NS, "%.3f", ns_per_op(l, l->ms.median));
        csv_record(&w);
    }

    kv_num("summary", "latency_ratio", latency_ratio(r));
    kv_num("summary", "latency_ratio_system",
           latency(r, "peer_system")->ms.median / latency(r, "local")->ms.median);
    kv_num("summary", "contended_throughput_ratio", contention_ratio(r));
    kv_num("summary", "histogram_speedup", hist_speedup(r));
    kv_int("summary", "histogram_bar_10x_met", hist_speedup(r) >= 10.0);
    kv_num("summary", "local_then_copy_speedup", copy_speedup(r));

    kv("claim", "remote_atomics_100x_slower", verdict_word(slower_claim(r)));
    kv("claim", "avoid_cross_gpu_atomics", verdict_word(avoid_claim(r)));
    kv("claim", "pcie_atomics_need_hw_support", verdict_word(pcie_claim(r)));
}
