/**
 * @file verdicts.c
 * @brief Lab 05's claims of chapter 4.4, each judged from the rows alone (plain C). One-pair
 *        claims read the pair's rows, else GPU a's host link; NVLink claims need an NVLink pair.
 */
#include "verdicts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const lab05_table_row lab05_table[] = {
    {"nvlink_table_row_pcie3", "PCIe Gen3 x16", 12.0, 1.5, 0, 16, "pcie_row_latency"},
    {"nvlink_table_row_nvlink2", "NVLink 2.0 (V100)", 150.0, 0.2, 2, 6, "nvlink_table_latency"},
    {"nvlink_table_row_nvlink3", "NVLink 3.0 (A100)", 600.0, 0.1, 3, 12, "nvlink_table_latency"},
};
const size_t lab05_table_rows = sizeof lab05_table / sizeof lab05_table[0];

/* A copy-engine row one way (bytes 0: any size), and the largest timed one. */
static const lab_row *ce(const lab_rows *rows, const char *route, int src, int dst, size_t bytes)
{
    return lab_rows_pick(rows, "ce_bandwidth", "ce", route, "one_way", src, dst, bytes);
}

static const lab_row *ce_largest(const lab_rows *rows, const char *route, int src, int dst)
{
    return lab_rows_largest(rows, "ce_bandwidth", "ce", route, "one_way", src, dst);
}

int lab05_config(const lab_rows *rows, const char *name, int fallback)
{
    const lab_row *r = lab_rows_find(rows, "config", name, NULL, NULL, 0);
    return r ? atoi(r->value) : fallback;
}

double lab05_link_number(const lab_rows *rows, const char *variant, int src, int dst)
{
    const lab_row *r = lab_rows_pick(rows, "link", variant, NULL, NULL, src, dst, 0);
    return r ? atof(r->value) : -1.0;
}

const char *lab05_path(const lab_rows *rows, int a, int b)
{
    const lab_row *r = lab_rows_pick(rows, "link", "path", NULL, NULL, a, b, 0);
    return r ? r->value : "unknown";
}

const lab_row *lab05_chase(const lab_rows *rows, const char *route, int owner, int reader)
{
    const lab_row *r = lab_rows_pick(rows, "pointer_chase", "chase", route, "beyond_l2", owner,
                                     reader, 0);
    return r ? r : lab_rows_pick(rows, "pointer_chase", "chase", route, NULL, owner, reader, 0);
}

const char *lab05_ends(const lab_row *r, char *out, size_t len)
{
    char s[16] = "host", d[16] = "host";
    if (r->src >= 0)
        snprintf(s, sizeof s, "GPU %d", r->src);
    if (r->dst >= 0)
        snprintf(d, sizeof d, "GPU %d", r->dst);
    snprintf(out, len, "%s -> %s", s, d);
    return out;
}

/* A row's median in us, 0 when the row is absent. */
static double median(const lab_row *r)
{
    return r ? r->us.median : 0.0;
}

/* The route a one-pair claim reads: the pair's when it ran, else the host link's. */
static const char *claim_route(const lab_rows *rows, const char *experiment)
{
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].experiment, experiment) == 0 &&
            strncmp(rows->row[i].route, "peer", 4) == 0)
            return rows->row[i].route;
    return lab_rows_find(rows, experiment, NULL, "host", NULL, 0) ? "host" : NULL;
}

/* The largest copy-engine row one way over the table row's kind of link, and its @p peak: the
 * pair a -> b's if it runs over that kind, else (PCIe) the host link's; NULL with @p why. */
static const lab_row *measure_link(const lab_rows *rows, const lab05_table_row *t, int a, int b,
                                   double *peak, char *why, size_t len)
{
    const char *path = lab05_path(rows, a, b);
    const lab_row *one = NULL, *p = NULL;
    if (b >= 0 && strcmp(path, t->nvlink_gen ? "nvlink" : "pcie") == 0) {
        p = lab_rows_pick(rows, "link", "peak_gbps", NULL, NULL, a, b, 0);
        one = ce_largest(rows, "peer", a, b);
    } else if (t->nvlink_gen == 0) {
        p = lab_rows_pick(rows, "link", "host_peak_gbps", NULL, NULL, a, -1, 0);
        one = ce_largest(rows, "host", -1, a);
    }
    if (!one || !p || p->peak_gbps <= 0.0 || one->bytes < ((size_t)64 << 20)) {
        char pair[128] = "this run had one GPU";
        if (b >= 0)
            snprintf(pair, sizeof pair, "GPU %d -> GPU %d runs over %s", a, b, path);
        snprintf(why, len, "%s ~%.0f GB/s one way: %s%s; this row needs %s with a known peak and "
                 "copy-engine rows at 64 MiB or more", t->link, t->gbps, pair,
                 t->nvlink_gen ? "" : " and the host link was not measured",
                 t->nvlink_gen ? "a pair linked by NVLink" : "a PCIe link");
        return NULL;
    }
    *peak = p->peak_gbps;
    return one;
}

/* Another generation's row: datasheet arithmetic, labelled, beside the link of the machine
 * that measured (@p machine: lab_rows_machine()). */
static lab_verdict table_arithmetic(const char *machine, const lab05_table_row *t, double rate,
                                    int gen, int lanes, const lab_row *one, double peak,
                                    char *said, size_t len)
{
    const double row_peak = rate * t->links;
    char here[240] = "", mine[64] = "no PCIe link was measured", ends[48];
    if (gen > 0 && one != NULL) /* a link of this kind measured: scale it */
        snprintf(here, sizeof here, "; %s's %s link (%s) reaches %.0f%% of its own "
                 "peak (%.1f of %.1f GB/s), which at the row's peak would be ~%.0f GB/s",
                 machine, t->nvlink_gen ? "NVLink" : "PCIe", lab05_ends(one, ends, sizeof ends),
                 100.0 * one->gbps / peak, one->gbps, peak, row_peak * one->gbps / peak);
    if (t->nvlink_gen)
        snprintf(mine, sizeof mine, "%s", gen > 0 ? "its NVLink is another generation"
                                                  : "no NVLink pair ran");
    else if (gen > 0)
        snprintf(mine, sizeof mine, "its PCIe link is gen %d x%d", gen, lanes);
    return lab_say(LAB_UNTESTED, said, len, "%s is not on %s (%s). Datasheet "
                   "arithmetic, not a measurement: %d %s x %.3g GB/s = %.1f GB/s one way, %.1f "
                   "both ways; the chapter's ~%.0f GB/s one way is %.0f%% of that%s%s%s", t->link,
                   machine, mine, t->links, t->nvlink_gen ? "links" : "lanes", rate, row_peak,
                   2.0 * row_peak, t->gbps, 100.0 * t->gbps / row_peak,
                   t->gbps > 1.02 * row_peak ? " (above the one-way peak: the datasheet's total "
                   "counts both directions)" : "",
                   t->nvlink_gen == 2 ? "; a V100 pair in a DGX-1 shares 1-2 of the 6 links"
                                      : "", here);
}

/* One row of the chapter's table, measured only on that very link: its generation (and, for
 * PCIe, x16) here, the pair's NVLink or GPU a's PCIe link; else datasheet arithmetic. */
static lab_verdict judge_table_row(const lab_rows *rows, const lab05_table_row *t, char *said,
                                   size_t len)
{
    const int a = lab05_config(rows, "pair_a", 0), b = lab05_config(rows, "pair_b", -1);
    const int want = t->nvlink_gen ? t->nvlink_gen : 3;
    const char *kind = t->nvlink_gen ? "nvlink" : "pcie";
    char v[32], extra[160] = "", ends[48];
    snprintf(v, sizeof v, "datasheet_%s%d", kind, want);
    const double rate = lab05_link_number(rows, v, LAB_ANY, LAB_ANY);
    if (rate <= 0.0)
        return lab_say(LAB_UNTESTED, said, len, "%s: needs the link experiment's datasheet rows",
                       t->link);
    const int on_pair = b >= 0 && strcmp(lab05_path(rows, a, b), "nvlink") == 0;
    const int lanes = (int)lab05_link_number(rows, "pcie_width", a, -1);
    snprintf(v, sizeof v, "%s_gen", kind);
    const int gen = t->nvlink_gen && !on_pair ? 0 : (int)lab05_link_number(rows, v, a, -1);
    double peak = 0.0;
    const lab_row *one = measure_link(rows, t, a, b, &peak, said, len);
    if (gen != want || (!t->nvlink_gen && lanes != t->links))
        return table_arithmetic(lab_rows_machine(rows), t, rate, gen, lanes, one, peak, said,
                                len);
    if (one == NULL)
        return LAB_UNTESTED;
    const lab_row *load = lab05_chase(rows, "host", -1, a);
    const lab_row *pp = lab_rows_pick(rows, "pingpong", "gpu_cpu", "host", NULL, a, -1, 0);
    if (t->nvlink_gen == 0 && (load || pp)) /* the table's PCIe latency beside the host link's */
        snprintf(extra, sizeof extra, "; its ~1.5 us beside a GPU load from host memory %.2f us "
                 "and a one-way GPU-CPU ping-pong %.2f us", median(load), median(pp));
    lab_figure("carries_gbps", "%.1f", one->gbps);
    return lab_judge(t->gbps <= 1.25 * one->gbps && t->gbps >= 0.75 * one->gbps, said, len,
                     "%s ~%.0f GB/s one way: %s, that very link, carries %.1f GB/s (%.0f%% of "
                     "its peak %.1f); the chapter's figure is %.0f%% of the measurement%s",
                     t->link, t->gbps, lab05_ends(one, ends, sizeof ends), one->gbps,
                     100.0 * one->gbps / peak, peak, 100.0 * t->gbps / one->gbps, extra);
}

static lab_verdict table_pcie3(const lab_rows *rows, char *said, size_t len)
{
    return judge_table_row(rows, &lab05_table[0], said, len);
}

static lab_verdict table_nvlink2(const lab_rows *rows, char *said, size_t len)
{
    return judge_table_row(rows, &lab05_table[1], said, len);
}

static lab_verdict table_nvlink3(const lab_rows *rows, char *said, size_t len)
{
    return judge_table_row(rows, &lab05_table[2], said, len);
}

/* An NVLink pair, or why the claim cannot be tested here. */
static int nvlink_pair(const lab_rows *rows, int *a, int *b, char *said, size_t len)
{
    *a = lab05_config(rows, "pair_a", 0);
    *b = lab05_config(rows, "pair_b", -1);
    if (*b < 0)
        snprintf(said, len, "needs two GPUs joined by NVLink; this run had one GPU");
    else if (strcmp(lab05_path(rows, *a, *b), "nvlink") != 0)
        snprintf(said, len, "GPU %d and GPU %d are not connected by NVLink here (%s)", *a, *b,
                 lab05_path(rows, *a, *b));
    else
        return 1;
    return 0;
}

/* What a pointer chase's figure is: beyond L2, within it, or (a recording older than the two
 * chains) one chain restarted at the same node every sample: locally, L2 then holds it. */
static const char *chase_kind(const lab_row *r, int local)
{
    if (r == NULL)
        return "not measured";
    if (strcmp(r->mode, "beyond_l2") == 0)
        return "beyond L2";
    if (strcmp(r->mode, "in_l2") == 0)
        return "within L2";
    return local ? "an L2 hit: the chain restarts every sample" : "the chain restarts every sample";
}

/* The NVLink latencies this pair has, as context or as the measurement. */
static void nvlink_latencies(const lab_rows *rows, int a, int b, char *out, size_t len)
{
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    const lab_row *pp = lab_rows_pick(rows, "pingpong", "write_remote", "peer", NULL, lo, hi, 0);
    const lab_row *poll = lab_rows_pick(rows, "pingpong", "poll_remote", "peer", NULL, lo, hi, 0);
    const lab_row *copy = lab_rows_pick(rows, "memcpy_latency", "ce_queued", "peer", NULL, a, b, 0);
    const lab_row *far = lab05_chase(rows, "peer", a, b), *near = lab05_chase(rows, "loopback", b, b);
    lab_figure("one_way_us", "%.2f", median(pp));
    snprintf(out, len, "one-way ping-pong %.2f us (flags written across the link) and %.2f us "
             "(flags polled across it); a load from the peer %.2f us (%s) against %.2f us locally "
             "(%s); one 4-byte cudaMemcpyPeerAsync %.2f us", median(pp), median(poll),
             median(far), chase_kind(far, 0), median(near), chase_kind(near, 1), median(copy));
}

/* The table's NVLink latencies, each judged only on its own generation (as the bandwidth rows
 * are): the row names a GPU and an NVLink generation, and a round trip crosses both ends. */
static lab_verdict table_latency(const lab_rows *rows, char *said, size_t len)
{
    int a, b;
    char here[400];
    if (!nvlink_pair(rows, &a, &b, said, len))
        return LAB_UNTESTED;
    const int gen = (int)lab05_link_number(rows, "nvlink_gen", a, -1);
    const lab05_table_row *t = gen == 2 ? &lab05_table[1] : gen == 3 ? &lab05_table[2] : NULL;
    nvlink_latencies(rows, a, b, here, sizeof here);
    if (t == NULL)
        return lab_say(LAB_UNTESTED, said, len, "~0.2 us is the NVLink 2.0 (V100) row's and "
                       "~0.1 us the NVLink 3.0 (A100) row's; GPU %d and GPU %d are joined by "
                       "NVLink %d: another generation, not the rows' link. For context on this "
                       "NVLink %d: %s", a, b, gen, gen, here);
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    const lab_row *pp = lab_rows_pick(rows, "pingpong", "write_remote", "peer", NULL, lo, hi, 0);
    const lab_row *far = lab05_chase(rows, "peer", a, b);
    if (pp == NULL || far == NULL)
        return lab_say(LAB_UNTESTED, said, len, "%s ~%.1f us: needs the ping-pong and the "
                       "pointer chase over the NVLink pair", t->link, t->us);
    const int ok = pp->us.median >= 0.5 * t->us && pp->us.median <= 1.5 * t->us &&
                   far->us.median >= 0.5 * t->us && far->us.median <= 1.5 * t->us;
    return lab_judge(ok, said, len, "%s ~%.1f us (bar %.2f-%.2f us) on that very link, NVLink "
                     "%d: %s", t->link, t->us, 0.5 * t->us, 1.5 * t->us, gen, here);
}

static lab_verdict order_of_magnitude(const lab_rows *rows, char *said, size_t len)
{
    int a, b;
    char s1[32], off[96] = "";
    if (!nvlink_pair(rows, &a, &b, said, len))
        return LAB_UNTESTED;
    /* PCIe is the host link here; peer access off is host staging, a path, not a link. */
    const lab_row *staged = ce_largest(rows, "peer_off", a, b);
    if (staged)
        snprintf(off, sizeof off, " (peer access off, staged through host memory: %.1f GB/s, "
                 "not a link)", staged->gbps);
    const lab_row *on = ce_largest(rows, "peer", a, b), *pcie = ce_largest(rows, "host", -1, a);
    const size_t size = on && pcie ? (on->bytes < pcie->bytes ? on->bytes : pcie->bytes) : 0;
    if (size < ((size_t)16 << 20))
        return lab_say(LAB_UNTESTED, said, len, "needs ce_bandwidth over NVLink and over %s's "
                       "PCIe link (the host link) at 16 MiB or more%s", lab_rows_machine(rows),
                       off);
    on = ce(rows, "peer", a, b, size);
    pcie = ce(rows, "host", -1, a, size);
    if (on == NULL || pcie == NULL || pcie->gbps <= 0.0)
        return lab_say(LAB_UNTESTED, said, len, "no NVLink and host-link rows of the same size");
    const double ratio = on->gbps / pcie->gbps;
    lab_figure("nvlink_x", "%.1f", ratio);
    return lab_judge(ratio >= 10.0, said, len, "at %s one way: NVLink GPU %d -> GPU %d %.1f GB/s "
                     "against the PCIe host link (host -> GPU %d) %.1f GB/s: %.1fx (an order of "
                     "magnitude is 10x)%s", lab_format_size(size, s1, sizeof s1), a, b, on->gbps,
                     a, pcie->gbps, ratio, off);
}

/* The one pair's copy-engine sweep (peer access on where it has it), else the host link's. */
static const char *sweep_route(const lab_rows *rows, int a, int b)
{
    if (b >= 0 && ce(rows, "peer", a, b, 0))
        return "peer";
    if (b >= 0 && ce(rows, "peer_off", a, b, 0))
        return "peer_off";
    return "host";
}

static lab_verdict small_transfers(const lab_rows *rows, char *said, size_t len)
{
    const int a = lab05_config(rows, "pair_a", 0), b = lab05_config(rows, "pair_b", -1);
    const char *route = sweep_route(rows, a, b);
    const int host = strcmp(route, "host") == 0;
    double best = 0.0, small = 0.0;
    size_t best_size = 0, small_size = 0, half = 0, biggest = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < rows->count; i++) {
            const lab_row *r = &rows->row[i];
            if (!lab_row_matches(r, "ce_bandwidth", "ce", route, "one_way", host ? -1 : a,
                                 host ? a : b, 0))
                continue;
            if (pass == 0 && r->gbps > best)
                best = r->gbps, best_size = r->bytes;
            if (pass == 0 && r->bytes < 1000000 && r->gbps > small)
                small = r->gbps, small_size = r->bytes;
            biggest = r->bytes > biggest ? r->bytes : biggest;
            if (pass == 1 && r->gbps >= best / 2 && (half == 0 || r->bytes < half))
                half = r->bytes;
        }
    if (small_size == 0 || biggest < ((size_t)16 << 20))
        return lab_say(LAB_UNTESTED, said, len, "needs ce_bandwidth one way with sizes below 1 "
                       "MB and at least 16 MiB");
    char s1[32], s2[32], s3[32], who[64];
    if (host)
        snprintf(who, sizeof who, "host -> GPU %d (host link)", a);
    else
        snprintf(who, sizeof who, "GPU %d -> GPU %d peer %s", a, b,
                 strcmp(route, "peer") == 0 ? "on" : "off");
    const double pct = 100.0 * small / best;
    lab_figure("small_pct", "%.0f", pct);
    return lab_judge(small / best < 0.5, said, len,
                     "copy engine %s: below 1 MB the best is %.1f GB/s at %s = %.0f%% of the "
                     "best %.1f GB/s (at %s); half of the best is first reached at %s", who,
                     small, lab_format_size(small_size, s1, sizeof s1), pct, best,
                     lab_format_size(best_size, s2, sizeof s2),
                     lab_format_size(half, s3, sizeof s3));
}

/* "May compete": k streams compete when together they carry less than k copies alone would,
 * each getting less than 90% of what one stream gets by itself. On one link whose bandwidth one
 * copy nearly fills they can only share it: the detail says so. */
static lab_verdict streams_contend(const lab_rows *rows, char *said, size_t len)
{
    const char *route = claim_route(rows, "streams");
    const lab_row *one = NULL, *many = NULL;
    char ends[48], s1[32], s2[32];
    for (size_t i = 0; route && i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (strcmp(r->experiment, "streams") || strcmp(r->route, route) || atoi(r->value) < 1)
            continue;
        if (atoi(r->value) == 1)
            one = r;
        if (many == NULL || atoi(r->value) > atoi(many->value))
            many = r;
    }
    if (one == NULL || many == NULL || atoi(many->value) < 2 || one->gbps <= 0.0)
        return lab_say(LAB_UNTESTED, said, len, "needs the streams experiment with 1 and with 2 "
                       "or more streams");
    const int k = atoi(many->value);
    const double share = many->gbps / k / one->gbps;
    /* Context: one copy of all k slices' bytes in one stream, and the link's peak. */
    const lab_row *big = ce(rows, route, many->src, many->dst, (size_t)k * many->bytes);
    char whole[160] = "";
    if (big != NULL && big->gbps > 0.0)
        snprintf(whole, sizeof whole, "; together they carry %.2fx one copy of all %s in one "
                 "stream (%.1f GB/s)", many->gbps / big->gbps,
                 lab_format_size(big->bytes, s2, sizeof s2), big->gbps);
    const int shared = share < 0.9;
    lab_figure("total_gbps", "%.1f", many->gbps);
    lab_figure("alone_gbps", "%.1f", one->gbps);
    return lab_judge(shared, said, len, "%s: %d streams copying %s each at once carry %.1f GB/s "
                     "in total (%.1f GB/s each) against %.1f GB/s for one such copy alone: each "
                     "stream gets %.0f%% of what it gets alone (bar: below 90%%)%s; one copy "
                     "alone takes %.0f%% of the link's peak (%.1f GB/s): %s",
                     lab05_ends(one, ends, sizeof ends), k,
                     lab_format_size(many->bytes, s1, sizeof s1), many->gbps, many->gbps / k,
                     one->gbps, 100.0 * share, whole,
                     one->peak_gbps > 0.0 ? 100.0 * one->gbps / one->peak_gbps : 0.0,
                     one->peak_gbps, shared ? "the streams share one link (all this shows)" : "more streams found bandwidth that one copy left unused");
}

/* Append @p part to the list in @p buf ("; "-separated), keeping it whole or leaving it out. */
static void add_part(char *buf, size_t cap, const char *sep, const char *part)
{
    const size_t used = strlen(buf);
    if (used + strlen(sep) + strlen(part) < cap)
        snprintf(buf + used, cap - used, "%s%s", used ? sep : "", part);
}

/** "Falls off a cliff": the CPU's synchronizations at least halve the throughput. */
#define CLIFF 2.0

/* Copies queued against a synchronize after each, at every size swept: the detail names the
 * sizes where the cliff is (the chapter names none) and the verdict holds only at those. */
static lab_verdict cpu_sync(const lab_rows *rows, char *said, size_t len)
{
    const char *route = claim_route(rows, "cpu_sync");
    char detail[320] = "", at[128] = "", where[240], part[96], s1[32];
    double rest = 0.0; /* the largest drop below the bar */
    size_t smallest = 0, largest = 0; /* the sizes of the figures smallest_x and largest_x */
    for (size_t i = 0; route && i < rows->count; i++) {
        const lab_row *q = &rows->row[i];
        if (!lab_row_matches(q, "cpu_sync", "queued", route, NULL, LAB_ANY, LAB_ANY, 0))
            continue;
        const lab_row *e = lab_rows_pick(rows, "cpu_sync", "sync_each", route, NULL, q->src,
                                         q->dst, q->bytes);
        if (e == NULL || e->gbps <= 0.0)
            continue;
        const double drop = q->gbps / e->gbps;
        lab_format_size(q->bytes, s1, sizeof s1);
        snprintf(part, sizeof part, "%s: %.1f -> %.1f GB/s (x%.2f)", s1, q->gbps, e->gbps, drop);
        if (smallest == 0 || q->bytes < smallest)
            smallest = q->bytes, lab_figure("smallest_x", "%.2f", drop);
        if (q->bytes > largest)
            largest = q->bytes, lab_figure("largest_x", "%.2f", drop);
        add_part(detail, sizeof detail, "; ", part);
        if (drop >= CLIFF)
            add_part(at, sizeof at, ", ", s1);
        else
            rest = drop > rest ? drop : rest;
    }
    if (detail[0] == '\0')
        return lab_say(LAB_UNTESTED, said, len, "needs the cpu_sync experiment");
    if (at[0] == '\0')
        snprintf(where, sizeof where, "no size swept falls off a cliff (bar %.0fx; x%.2f at "
                 "most)", CLIFF, rest);
    else if (rest == 0.0)
        snprintf(where, sizeof where, "the cliff (bar %.0fx) holds at every size swept", CLIFF);
    else
        snprintf(where, sizeof where, "the cliff (bar %.0fx) holds for copies of %s only; at "
                 "the other sizes the copy hides the CPU's wait (x%.2f at most)", CLIFF, at,
                 rest);
    return lab_judge(at[0] != '\0', said, len, "queued against a synchronize after each copy "
                     "(%s): %s; %s", route, detail, where);
}

/* One cpu_timer row of the claim's route. */
static const lab_row *timer_row(const lab_rows *rows, const char *route, const char *variant)
{
    return route ? lab_rows_find(rows, "cpu_timer", variant, route, NULL, 0) : NULL;
}

/** The cpu_timer rows both timer claims read (NULL where the run has none). */
typedef struct timer_rows {
    const lab_row *event;      /**< events around the copy */
    const lab_row *wall;       /**< clock_gettime around the copy and a spinning synchronize */
    const lab_row *wall_no;    /**< clock_gettime around the asynchronous call alone */
    const lab_row *wall_block; /**< clock_gettime around the copy and a blocking-sync event */
    const lab_row *tod;        /**< gettimeofday() with a spinning synchronize */
    const lab_row *tod_no;     /**< gettimeofday() around the call alone */
    const lab_row *ck;         /**< clock() with a spinning synchronize */
    const lab_row *ck_no;      /**< clock() around the call alone */
    const lab_row *ck_block;   /**< clock() asleep on a blocking-sync event */
} timer_rows;

static timer_rows timers_of(const lab_rows *rows)
{
    const char *r = claim_route(rows, "cpu_timer");
    const timer_rows t = {
        timer_row(rows, r, "event"), timer_row(rows, r, "host_sync"),
        timer_row(rows, r, "host_no_sync"), timer_row(rows, r, "host_block"),
        timer_row(rows, r, "gettimeofday_sync"), timer_row(rows, r, "gettimeofday_no_sync"),
        timer_row(rows, r, "clock_sync"), timer_row(rows, r, "clock_no_sync"),
        timer_row(rows, r, "clock_block")};
    return t;
}

/** A clock reads the copy's time when it is within 10% of it. */
#define TIMER_TOLERANCE 0.10

/* How far @p got is from @p want, as a share of @p want (0.10: 10% off). */
static double off_by(const lab_row *got, const lab_row *want)
{
    return fabs(got->us.median / want->us.median - 1.0);
}

/* The advice: events time the copy (they agree with a wall clock around the copy and its
 * synchronize), and each clock the chapter names misreads it the ways programs use them. */
static lab_verdict cpu_timers(const lab_rows *rows, char *said, size_t len)
{
    const timer_rows t = timers_of(rows);
    char s1[32], ends[48];
    if (!t.event || !t.wall || !t.wall_no)
        return lab_say(LAB_UNTESTED, said, len, "needs the cpu_timer experiment");
    if (!t.tod_no || !t.tod || !t.ck_no || !t.ck || !t.ck_block || !t.wall_block)
        return lab_say(LAB_UNTESTED, said, len, "needs cpu_timer's gettimeofday() and clock() "
                       "rows with and without a synchronize (this run has events %.1f us; a "
                       "wall clock around the enqueue alone %.1f us and around the copy and its "
                       "synchronize %.1f us)", t.event->us.median, t.wall_no->us.median,
                       t.wall->us.median);
    const int events_right = off_by(t.event, t.wall) <= TIMER_TOLERANCE;
    lab_figure("gettimeofday_unsynced_us", "%.1f", t.tod_no->us.median);
    const int tod_misleads = off_by(t.tod_no, t.event) > TIMER_TOLERANCE;
    const int ck_misleads = off_by(t.ck_no, t.event) > TIMER_TOLERANCE ||
                            off_by(t.ck_block, t.wall_block) > TIMER_TOLERANCE;
    return lab_judge(events_right && tod_misleads && ck_misleads, said, len, "%s (%s): events "
                     "%.1f us (%.0f%% off a wall clock around the copy and its synchronize: %.1f "
                     "us); without a synchronize gettimeofday() reads %.1f us and clock() %.1f "
                     "us (the enqueue and not the copy); clock() on a thread asleep on a "
                     "blocking-sync event reads %.1f us of %.1f us wall; with a spinning "
                     "synchronize both agree (gettimeofday() %.1f us; clock() %.1f us): %s",
                     lab_format_size(t.event->bytes, s1, sizeof s1),
                     lab05_ends(t.event, ends, sizeof ends), t.event->us.median,
                     100.0 * off_by(t.event, t.wall), t.wall->us.median, t.tod_no->us.median,
                     t.ck_no->us.median, t.ck_block->us.median, t.wall_block->us.median,
                     t.tod->us.median, t.ck->us.median,
                     !events_right ? "the events themselves miss the copy"
                     : tod_misleads && ck_misleads ? "events time the copy however the host "
                     "waits; each clock the chapter names misleads as programs often use it"
                     : "a clock the chapter names read the copy right every way it was used");
}

/* What the reason's two clocks showed, in words. */
static const char *reason_says(int clock_is_cpu_time, int gettimeofday_misses)
{
    if (clock_is_cpu_time && gettimeofday_misses)
        return "both miss the transfer";
    if (clock_is_cpu_time)
        return "the reason holds for clock() asleep only; gettimeofday() matches the transfer";
    if (gettimeofday_misses)
        return "clock() counted the sleep too; gettimeofday() missed the transfer";
    return "neither clock missed the transfer";
}

/* The reason: "those measure CPU time, which does not match the GPU's transfer". clock() is
 * CPU time (asleep it hardly counts); gettimeofday() is wall time, right once synchronized. */
static lab_verdict cpu_time(const lab_rows *rows, char *said, size_t len)
{
    const timer_rows t = timers_of(rows);
    if (!t.event || !t.ck)
        return lab_say(LAB_UNTESTED, said, len, "needs the cpu_timer experiment");
    if (!t.tod || !t.ck_block || !t.wall_block)
        return lab_say(LAB_UNTESTED, said, len, "needs cpu_timer's gettimeofday() and "
                       "blocking-sync rows (this run has only clock() with a spinning "
                       "cudaStreamSynchronize: %.1f us against events %.1f us)", t.ck->us.median,
                       t.event->us.median);
    const double ck_share = t.ck_block->us.median / t.wall_block->us.median;
    const int ck_cpu = ck_share < 0.5, tod_misses = off_by(t.tod, t.event) > TIMER_TOLERANCE;
    lab_figure("clock_asleep_pct", "%.0f", 100.0 * ck_share);
    return lab_judge(ck_cpu && tod_misses, said, len, "clock() (the process's CPU time) on a "
                     "thread asleep on a blocking-sync event reads %.1f us of %.1f us wall (%.0f%% "
                     "of wall); gettimeofday() (wall time) with a synchronize reads %.1f us "
                     "against events %.1f us (%+.0f%%); while the CPU spins in "
                     "cudaStreamSynchronize clock() reads %.1f us: %s", t.ck_block->us.median,
                     t.wall_block->us.median, 100.0 * ck_share, t.tod->us.median,
                     t.event->us.median, 100.0 * (t.tod->us.median / t.event->us.median - 1.0),
                     t.ck->us.median, reason_says(ck_cpu, tod_misses));
}

static lab_verdict prefer_l1(const lab_rows *rows, char *said, size_t len)
{
    const char *route = claim_route(rows, "preferl1");
    static const char *const methods[2] = {"sm_pull", "sm_push"};
    double none[2] = {0, 0}, l1[2] = {0, 0};
    for (size_t i = 0; route && i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        for (int m = 0; m < 2; m++)
            if (lab_row_matches(r, "preferl1", methods[m], route, NULL, LAB_ANY, LAB_ANY, 0))
                *(strcmp(r->value, "prefer_l1") == 0 ? &l1[m] : &none[m]) = r->gbps;
    }
    if (none[0] <= 0 || none[1] <= 0 || l1[0] <= 0 || l1[1] <= 0)
        return lab_say(LAB_UNTESTED, said, len, "needs the preferl1 experiment");
    const double pull = l1[0] / none[0], push = l1[1] / none[1];
    lab_figure("pull_x", "%.2f", pull);
    return lab_judge(pull >= 1.8 && push >= 1.8, said, len,
                     "SM pull %.1f -> %.1f GB/s (x%.2f); SM push %.1f -> %.1f GB/s (x%.2f) with "
                     "cudaFuncCachePreferL1 (%s); the setting only splits on-chip memory between "
                     "L1 and shared memory and has nothing to do with CPU cache coherence",
                     none[0], l1[0], pull, none[1], l1[1], push, route);
}

/* The PCIe row's latency on this machine's PCIe link (small packets: the gen hardly counts). */
static lab_verdict pcie_row_latency(const lab_rows *rows, char *said, size_t len)
{
    const int a = lab05_config(rows, "pair_a", 0);
    const lab_row *load = lab05_chase(rows, "host", -1, a);
    const lab_row *pp = lab_rows_pick(rows, "pingpong", "gpu_cpu", "host", NULL, a, -1, 0);
    if (load == NULL || pp == NULL)
        return lab_say(LAB_UNTESTED, said, len, "needs the host link's pointer chase and GPU-CPU "
                       "ping-pong");
    const int ok = load->us.median >= 0.75 && load->us.median <= 2.25 &&
                   pp->us.median >= 0.75 && pp->us.median <= 2.25;
    lab_figure("load_us", "%.2f", load->us.median);
    lab_figure("pingpong_us", "%.2f", pp->us.median);
    return lab_judge(ok, said, len, "~1.5 us (bar 0.75-2.25 us) on the host link, PCIe gen %d: "
                     "a GPU load from host memory %.2f us (a chain far beyond L2), one-way "
                     "GPU-CPU ping-pong %.2f us", (int)lab05_link_number(rows, "pcie_gen", a, -1),
                     load->us.median, pp->us.median);
}

/* The table's last column says what each link suits: advice, not a quantity. */
static lab_verdict table_use_cases(const lab_rows *rows, char *said, size_t len)
{
    (void)rows;
    return lab_say(LAB_UNTESTED, said, len, "what a link suits is advice, not a measurement; "
                   "the course shows instead the size at which each measured link reaches half "
                   "its best bandwidth (small_transfers_latency_bound)");
}

/* The chapter's cause (CPU cache coherence left on) and its cure (cudaFuncCachePreferL1). */
static lab_verdict coherence_cause(const lab_rows *rows, char *said, size_t len)
{
    char cure[400];
    const lab_verdict l1 = prefer_l1(rows, cure, sizeof cure);
    if (l1 == LAB_UNTESTED)
        return lab_say(LAB_UNTESTED, said, len, "%s", cure);
    char *tail = strstr(cure, "; the setting"); /* the cure's numbers only */
    if (tail)
        *tail = '\0';
    return lab_judge(l1 == LAB_HOLDS, said, len, "no CUDA call disables the CPU's cache "
                     "coherence protocol (cudaDeviceSetCacheConfig sets the GPU's L1/shared "
                     "split); the cure it names: %s", cure);
}

/** The chapter's strongest words ("没法看": unbearable) read as an order of magnitude. */
#define UNBEARABLE 10.0

/* The chapter's opening: a copy staged through host memory has unbearable latency. One small
 * copy as a program that waits for it sees it, staged (peer access off) against direct. */
static lab_verdict staging_latency(const lab_rows *rows, char *said, size_t len)
{
    const int a = lab05_config(rows, "pair_a", 0), b = lab05_config(rows, "pair_b", -1);
    if (b < 0)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs: the staged copy goes from one "
                       "GPU through host memory to another; this run had one GPU");
    const lab_row *on = lab_rows_pick(rows, "memcpy_latency", "ce_synced", "peer", NULL, a, b, 0);
    const lab_row *off = lab_rows_pick(rows, "memcpy_latency", "ce_synced", "peer_off", NULL, a,
                                       b, 0);
    if (on == NULL || off == NULL || on->us.median <= 0.0)
        return lab_say(LAB_UNTESTED, said, len, "needs memcpy_latency with a synchronize after "
                       "each copy, GPU %d -> GPU %d, with peer access on and off", a, b);
    const lab_row *q_on = lab_rows_pick(rows, "memcpy_latency", "ce_queued", "peer", NULL, a, b, 0);
    const lab_row *q_off = lab_rows_pick(rows, "memcpy_latency", "ce_queued", "peer_off", NULL, a,
                                         b, 0);
    char queued[160] = "";
    if (q_on != NULL && q_off != NULL && q_on->us.median > 0.0)
        snprintf(queued, sizeof queued, "; queued back to back: %.2f us against %.2f us per "
                 "copy (x%.2f)", q_off->us.median, q_on->us.median,
                 q_off->us.median / q_on->us.median);
    const double ratio = off->us.median / on->us.median;
    lab_figure("staged_x", "%.2f", ratio);
    return lab_judge(ratio >= UNBEARABLE, said, len, "one %zu-byte copy GPU %d -> GPU %d as a "
                     "program that waits for it sees it (host clock around the copy and its "
                     "synchronize): staged through host memory (peer access off) %.2f us "
                     "against %.2f us direct: x%.2f (bar %.0fx for \"没法看\": unbearable)%s",
                     on->bytes, a, b, off->us.median, on->us.median, ratio, UNBEARABLE, queued);
}

/* The share of its peak the best measured link of this run reaches, as context ("" if none). */
static void measured_share(const lab_rows *rows, char *out, size_t len)
{
    const int a = lab05_config(rows, "pair_a", 0), b = lab05_config(rows, "pair_b", -1);
    const lab_row *one = b >= 0 ? ce_largest(rows, "peer", a, b) : NULL;
    const lab_row *p = b >= 0 ? lab_rows_pick(rows, "link", "peak_gbps", NULL, NULL, a, b, 0) : NULL;
    char ends[48];
    if (one == NULL || p == NULL) {
        one = ce_largest(rows, "host", -1, a);
        p = lab_rows_pick(rows, "link", "host_peak_gbps", NULL, NULL, a, -1, 0);
    }
    out[0] = '\0';
    if (one != NULL && p != NULL && p->peak_gbps > 0.0)
        snprintf(out, len, "; the link measured here reaches %.0f%% of its own peak (%s: %.1f of "
                 "%.1f GB/s)", 100.0 * one->gbps / p->peak_gbps,
                 lab05_ends(one, ends, sizeof ends), one->gbps, p->peak_gbps);
}

/* "我拿实际测试数据说话": the table as measured data. No run can show where the figures came from;
 * a one-way figure above its link's one-way peak shows it was not measured. */
static lab_verdict table_measured(const lab_rows *rows, char *said, size_t len)
{
    char list[400] = "", part[160], context[160], gen[16], v[32], above[96] = "";
    for (size_t i = 0; i < lab05_table_rows; i++) {
        const lab05_table_row *t = &lab05_table[i];
        snprintf(gen, sizeof gen, "%s%d", t->nvlink_gen ? "nvlink" : "pcie",
                 t->nvlink_gen ? t->nvlink_gen : 3);
        snprintf(v, sizeof v, "datasheet_%s", gen);
        const double rate = lab05_link_number(rows, v, LAB_ANY, LAB_ANY), peak = rate * t->links;
        if (rate <= 0.0)
            return lab_say(LAB_UNTESTED, said, len, "needs the link experiment's datasheet rows");
        if (t->gbps > 1.02 * peak)
            add_part(above, sizeof above, ", ", t->link);
        snprintf(v, sizeof v, "%s_pct", gen); /* the row's share of its peak, e.g. nvlink3_pct */
        const double share = 100.0 * t->gbps / peak;
        lab_figure(v, "%.0f", share);
        snprintf(part, sizeof part, "%s ~%.0f GB/s is %.0f%% of %d %s x %.3g GB/s = %.1f GB/s",
                 t->link, t->gbps, share, t->links,
                 t->nvlink_gen ? "links" : "lanes", rate, peak);
        add_part(list, sizeof list, "; ", part);
    }
    measured_share(rows, context, sizeof context);
    if (above[0] == '\0')
        return lab_say(LAB_UNTESTED, said, len, "every row lies within its link's one-way peak "
                       "(%s): nothing here can tell whether the figures were measured%s", list,
                       context);
    return lab_say(LAB_DOES_NOT_HOLD, said, len, "a one-way figure above its link's one-way peak "
                   "cannot be a measurement; the %s row is one (datasheet arithmetic for one "
                   "way: %s); a datasheet's total counts both directions%s", above, list,
                   context);
}

static const lab_claim claims[] = {
    {"nvlink_table_row_pcie3", "4.4", table_pcie3},
    {"nvlink_table_row_nvlink2", "4.4", table_nvlink2},
    {"nvlink_table_row_nvlink3", "4.4", table_nvlink3},
    {"nvlink_table_latency", "4.4", table_latency},
    {"nvlink_order_of_magnitude", "4.4", order_of_magnitude},
    {"small_transfers_latency_bound", "4.4", small_transfers},
    {"concurrent_streams_contend", "4.4", streams_contend},
    {"cpu_sync_cliff", "4.4", cpu_sync},
    {"cpu_timers_mislead", "4.4", cpu_timers},
    {"cpu_timers_cpu_time", "4.4", cpu_time},
    {"preferl1_doubles_bandwidth", "4.4", prefer_l1},
    {"pcie_row_latency", "4.4", pcie_row_latency},
    {"table_use_cases", "4.4", table_use_cases},
    {"cpu_coherence_cause", "4.4", coherence_cause},
    {"table_is_measured", "4.4", table_measured},
    {"host_staging_latency", "4", staging_latency},
};

const lab_host_part lab_host = {"05-p2p-performance", claims, sizeof claims / sizeof claims[0],
                                lab05_report, lab05_plausible};
