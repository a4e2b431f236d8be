/**
 * @file verdicts.c
 * @brief Lab 03's host part: chapter 4.3's claims judged from the rows, and
 *        the lab's report section (plain C, no CUDA: the host tool links it).
 */
#include "claims.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

/** Below this size the pull-versus-copy question is about launch costs (the report says so). */
#define JUDGE_BYTES ((size_t)16 << 20)

static const char *const ROUTES[] = {"peer", "host", "loopback"};
static const char *const VARIANTS[] = {"pull", "push", "copy_only", "copy_then_compute"};

static const lab_row *transfer(const lab_rows *rows, const char *variant, const char *route,
                               size_t bytes)
{
    return lab_rows_find(rows, "transfer", variant, route, NULL, bytes);
}

/* Over @p route: the sizes (and the largest), how many with pull and push
 * verified, how many where pull beat copy_then_compute. */
static size_t sweep(const lab_rows *rows, const char *route, size_t *top, size_t *good,
                    size_t *pull_wins)
{
    size_t sizes = 0;
    *top = *good = *pull_wins = 0;
    for (const lab_row *r = rows->row; r < rows->row + rows->count; r++) {
        if (!lab_row_matches(r, "transfer", "pull", route, NULL, LAB_ANY, LAB_ANY, 0))
            continue;
        const lab_row *push = transfer(rows, "push", route, r->bytes);
        const lab_row *both = transfer(rows, "copy_then_compute", route, r->bytes);
        sizes++;
        *top = r->bytes > *top ? r->bytes : *top;
        *good += r->verified == 1 && push != NULL && push->verified == 1;
        *pull_wins += both != NULL && r->us.median < both->us.median;
    }
    return sizes;
}

/* "A kernel on one GPU can read and write another GPU's memory." */
static lab_verdict judge_access(const lab_rows *rows, char *said, size_t len)
{
    size_t top, good, wins, host_top, host_good;
    const size_t sizes = sweep(rows, "peer", &top, &good, &wins);
    const size_t host = sweep(rows, "host", &host_top, &host_good, &wins);
    char lo[32], hi[32];
    if (sizes == 0)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs with peer access; here the "
                       "same kernels read and wrote mapped host memory bit-exactly at %zu of "
                       "%zu sizes", host_good, host);
    const lab_row *pull = transfer(rows, "pull", "peer", top);
    const lab_row *push = transfer(rows, "push", "peer", top);
    const lab_row *local = transfer(rows, "pull", "loopback", top);
    lab_figure("pull_gbps", "%.1f", pull->gbps);
    return lab_judge(good == sizes, said, len, "GPU %d's kernel read GPU %d's memory (pull) "
                     "and GPU %d's wrote into GPU %d's (push) bit-exactly at %zu of %zu sizes "
                     "from %s to %s; at %s pull ran at %.1f GB/s and push at %.1f GB/s (the "
                     "same kernel on local memory: %.1f GB/s)", pull->dst, pull->src,
                     push ? push->src : -1, push ? push->dst : -1, good, sizes,
                     lab_format_size(transfer(rows, "pull", "peer", 0)->bytes, lo, sizeof lo),
                     lab_format_size(top, hi, sizeof hi), hi, pull->gbps, push ? push->gbps : 0,
                     local ? local->gbps : 0);
}

/* Over @p route at its largest size: 1 copying first wins, 0 pulling wins, -2 either below
 * JUDGE_BYTES, -1 no rows. */
static int race(const lab_rows *rows, const char *route, char *out, size_t len)
{
    size_t top, good, pull_wins;
    const size_t sizes = sweep(rows, route, &top, &good, &pull_wins);
    const lab_row *pull = transfer(rows, "pull", route, top);
    const lab_row *copy = transfer(rows, "copy_only", route, top);
    const lab_row *both = transfer(rows, "copy_then_compute", route, top);
    char size[32];
    if (sizes == 0 || copy == NULL || both == NULL)
        return -1;
    const int copy_wins = both->us.median < pull->us.median;
    snprintf(out, len, "at %s over %s: copy_then_compute %.1f us (%.1f GB/s; its copy alone "
             "%.1f us), pull %.1f us (%.1f GB/s): %s is %.2fx faster; pull won at %zu of %zu "
             "sizes", lab_format_size(top, size, sizeof size), route, both->us.median,
             both->gbps, copy->us.median, pull->us.median, pull->gbps,
             copy_wins ? "copy_then_compute" : "pull",
             copy_wins ? pull->us.median / both->us.median : both->us.median / pull->us.median,
             pull_wins, sizes);
    return top < JUDGE_BYTES ? -2 : copy_wins;
}

static const char *fault_value(const lab_rows *rows, const char *key)
{
    const lab_row *r = lab_rows_find(rows, "fault", key, NULL, NULL, 0);
    return r ? r->value : "-";
}

/* "A kernel may touch peer memory only after peer access is enabled." */
static lab_verdict judge_fault(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *o = lab_rows_find(rows, "fault", "outcome", NULL, "no_access", 0);
    const lab_row *one_way = lab_rows_find(rows, "fault", "outcome", NULL, "one_way", 0);
    char other[160] = "", what[100], after[160];
    o = o ? o : lab_rows_find(rows, "fault", "outcome", NULL, NULL, 0);
    if (o == NULL)
        return lab_say(LAB_UNTESTED, said, len, "the fault experiment did not run");
    if (one_way && one_way != o)
        snprintf(other, sizeof other, "; with only GPU %d -> GPU %d enabled: %s", o->src, o->dst,
                 one_way->value);
    const char *launch = fault_value(rows, "launch"), *sync = fault_value(rows, "sync");
    lab_figure("sync", "%s", sync); /* what synchronizing after the kernel returned */
    const int peer = strcmp(o->route, "peer_off") == 0;
    /* The host's arm leaves the trailing arguments unused. */
    snprintf(what, sizeof what, peer ? "GPU %d's kernel read GPU %d's memory without "
             "cudaDeviceEnablePeerAccess" : "GPU %d's kernel read host memory never given to it",
             o->dst, o->src);
    snprintf(after, sizeof after, peer ? "GPU %d: %s; GPU %d: %s" : "GPU %d: %s", o->dst,
             fault_value(rows, "after_a"), o->src, fault_value(rows, "after_b"));
    if (strcmp(o->mode, "unmapped") == 0)
        return lab_say(LAB_UNTESTED, said, len, "one GPU that may access pageable host memory: "
                       "nothing could be withheld from it; an address mapped to nothing gave "
                       "launch %s, synchronize %s (the sticky fault shown, not the permission)",
                       launch, sync);
    if (!peer) /* one GPU: host memory stands in for the peer's, and is named as such */
        return lab_say(LAB_UNTESTED, said, len, "the claim is about a peer GPU's memory and "
                       "needs two GPUs. The host-memory analogue in a child process: %s: launch "
                       "%s; synchronize %s; then %s. Memory the GPU was never given faults; what "
                       "was withheld is host registration and not peer access", what, launch,
                       sync, after);
    if (strcmp(o->value, "fault") == 0)
        return lab_say(LAB_HOLDS, said, len, "child process: %s: launch %s, synchronize %s; "
                       "then %s: the child's CUDA state is lost, not this process's%s", what,
                       launch, sync, after, other);
    if (strcmp(o->value, "silent_success") == 0 || strcmp(o->value, "wrong_data") == 0)
        return lab_say(LAB_DOES_NOT_HOLD, said, len, "child process: %s, and no error came "
                       "(launch %s, synchronize %s); the data was %s. The API still requires "
                       "the call: do not rely on this%s", what, launch, sync,
                       fault_value(rows, "data"), other);
    return lab_say(LAB_UNTESTED, said, len, "the child's outcome was %s (launch %s, "
                   "synchronize %s, signal %s)", o->value, launch, sync,
                   fault_value(rows, "signal"));
}

static const lab_claim claims[] = {
    {"peer_kernel_access_works", "4.3", judge_access},
    {"access_without_enable_fails", "4.1", judge_fault},
};

/* One GB/s cell of a report table, "-" without the row. */
static void cell(FILE *out, const lab_row *x)
{
    fprintf(out, x ? " | %.1f" : " | -", x ? x->gbps : 0.0);
}

/* One table row per size and route (GB/s of each variant), then one per stride; the
 * fault experiment speaks through its claim. */
static void report(const lab_rows *rows, FILE *out)
{
    char text[240];
    int k;
    fprintf(out, "local = 2 x far, GB/s of array bytes (bytes / median time), every result "
            "verified bit for bit:\n\n| route | size | pull | push | copy_only | "
            "copy_then_compute |\n|---|---|---|---|---|---|\n");
    for (int r = 0; r < 3; r++)
        for (const lab_row *p = rows->row; p < rows->row + rows->count; p++) {
            if (!lab_row_matches(p, "transfer", "pull", ROUTES[r], NULL, LAB_ANY, LAB_ANY, 0))
                continue;
            fprintf(out, "| %s | %s", ROUTES[r], lab_format_size(p->bytes, text, sizeof text));
            for (int v = 0; v < 4; v++)
                cell(out, transfer(rows, VARIANTS[v], ROUTES[r], p->bytes));
            fprintf(out, " |\n");
        }
    /* The course's own question (the chapter's gather advice is about atomics:
     * lab 04): at the largest size, is it faster to pull or to copy first? */
    fprintf(out, "\nPull, or copy first and compute locally? (largest size of each route)\n\n");
    for (int r = 0; r < 2; r++)
        if ((k = race(rows, ROUTES[r], text, sizeof text)) != -1)
            fprintf(out, "- %s%s\n", text, k == -2 ? " (below 16 MiB launch costs decide)" : "");
    fprintf(out, "\nRead pattern: neighbouring threads read STRIDE floats apart, GB/s:\n\n"
            "| stride | peer | host | loopback |\n|---|---|---|---|\n");
    for (int s = 1; s <= 64; s *= 2) {
        snprintf(text, sizeof text, "stride_%d", s);
        fprintf(out, "| %d", s);
        for (int r = 0; r < 3; r++)
            cell(out, lab_rows_find(rows, "stride", text, ROUTES[r], NULL, 0));
        fprintf(out, " |\n");
    }
}

/* The rules of the rows (plausible.c). */
int lab03_plausible(const lab_rows *rows, FILE *out);

const lab_host_part lab_host = {"03-peer-kernels", claims, sizeof claims / sizeof claims[0],
                                report, lab03_plausible};
