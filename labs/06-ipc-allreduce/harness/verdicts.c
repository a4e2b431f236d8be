/**
 * @file verdicts.c
 * @brief Lab 06's host part: its claims, judged from the rows alone, and its report section
 *        (the all-reduce's busbw and time per algorithm and size, the IPC and raw-pointer
 *        results, what a barrier across processes costs).
 */
#include "claims.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

/** The all-reduce algorithms, in the order of the report's columns. */
static const char *const algos[] = {"ring", "one_shot", "host_staged", "nccl"};
/** How many. */
#define ALGO_COUNT (sizeof algos / sizeof algos[0])

/* Across processes a buffer is seen through an IPC handle, and a raw pointer shows nothing. */
static lab_verdict per_process(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *ipc = lab_rows_find(rows, "ipc", "open_read_close", NULL, NULL, 0);
    const lab_row *raw = lab_rows_find(rows, "raw_pointer", "raw_pointer", NULL, NULL, 0);
    if (ipc == NULL)
        return lab_say(LAB_UNTESTED, said, len, "no ipc rows: %s",
                       lab_rows_skip_reason(rows, "ipc", NULL));
    if (raw == NULL)
        return lab_say(LAB_UNTESTED, said, len, "no raw_pointer rows: %s",
                       lab_rows_skip_reason(rows, "raw_pointer", NULL));
    const int seen_raw = strcmp(raw->value, "peer_data") == 0;
    lab_figure("raw_pointer", "%s", raw->value);
    return lab_judge(ipc->verified == 1 && !seen_raw, said, len,
                     "between processes (%s): through IPC handles every rank read every other "
                     "rank's buffer %s; rank 0's raw device pointer in rank 1 gave %s",
                     ipc->route, ipc->verified == 1 ? "and verified it" : "but it did not verify",
                     raw->value);
}

/* The all-reduce of one algorithm at one size, with a time, on @p route (NULL: any). */
static const lab_row *timed(const lab_rows *rows, const char *algo, const char *route,
                            size_t bytes)
{
    const lab_row *r = lab_rows_find(rows, "allreduce", algo, route, NULL, bytes);
    return r != NULL && r->us.count > 0 && r->us.median > 0.0 ? r : NULL;
}

/* Append " SIZE" to @p list (at most @p len bytes). */
static void add_size(char *list, size_t len, size_t bytes)
{
    char size[32];
    const size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s", used ? ", " : "",
             lab_format_size(bytes, size, sizeof size));
}

/* Within one machine: P2P (the hand-written one-shot and ring over peer links, and NCCL, which
 * uses them) against host staging, size by size; where P2P by hand wins and where NCCL does. */
static lab_verdict p2p_best(const lab_rows *rows, char *said, size_t len)
{
    char hand_wins[192] = "", nccl_wins[192] = "";
    size_t sizes = 0, p2p_wins = 0;
    const lab_row *nccl_skip = lab_rows_find(rows, "allreduce", "skipped", NULL, "nccl", 0);
    if (lab_rows_find(rows, "allreduce", "ring", "peer", NULL, 0) == NULL)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs of one machine with one rank "
                       "per GPU (route peer): %s", lab_rows_find(rows, "allreduce", "ring", NULL,
                       NULL, 0) ? "this run's ranks shared one GPU (route loopback)"
                                : lab_rows_skip_reason(rows, "allreduce", NULL));
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *ring = &rows->row[i];
        if (!lab_row_matches(ring, "allreduce", "ring", "peer", NULL, LAB_ANY, LAB_ANY, 0))
            continue;
        const lab_row *one = timed(rows, "one_shot", "peer", ring->bytes);
        const lab_row *staged = timed(rows, "host_staged", NULL, ring->bytes);
        const lab_row *nccl = timed(rows, "nccl", NULL, ring->bytes);
        if (ring->us.count == 0 || staged == NULL)
            continue;
        double hand = one && one->us.median < ring->us.median ? one->us.median : ring->us.median;
        double best = nccl && nccl->us.median < hand ? nccl->us.median : hand;
        sizes++;
        p2p_wins += best < staged->us.median;
        if (nccl != NULL)
            add_size(hand < nccl->us.median ? hand_wins : nccl_wins, 192, ring->bytes);
    }
    if (sizes == 0)
        return lab_say(LAB_UNTESTED, said, len, "no size with a ring over peer links and host "
                       "staging both timed");
    lab_figure("p2p_wins", "%zu", p2p_wins);
    lab_figure("sizes", "%zu", sizes);
    return lab_judge(p2p_wins == sizes, said, len, "P2P (by hand or NCCL) beat host staging at "
                     "%zu of %zu sizes; by hand beat NCCL at: %s; NCCL won at: %s%s%s", p2p_wins,
                     sizes, hand_wins[0] ? hand_wins : "none", nccl_wins[0] ? nccl_wins : "none",
                     nccl_skip ? "; " : "", nccl_skip ? nccl_skip->detail : "");
}

/* Across machines: nothing one machine runs can test it; say what ran here instead. */
static lab_verdict across_machines(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *nccl = lab_rows_find(rows, "allreduce", "nccl", NULL, NULL, 0);
    const lab_row *skip = lab_rows_find(rows, "allreduce", "skipped", NULL, "nccl", 0);
    static const char *const scope = "the course runs on one machine: cudaDeviceCanAccessPeer "
        "and IPC handles only ever see GPUs of this one; NCCL's network transports between "
        "machines are not measured here";
    if (nccl != NULL)
        return lab_say(LAB_UNTESTED, said, len, "%s; NCCL ran here within %s with %s", scope,
                       lab_rows_machine(rows), nccl->mode);
    return lab_say(LAB_UNTESTED, said, len, "%s; NCCL did not run here: %s", scope,
                   skip ? skip->detail : "no allreduce rows");
}

static const lab_claim claims[] = {
    {"access_is_per_process", "4.1", per_process},
    {"p2p_best_on_one_machine", "4.4", p2p_best},
    {"no_p2p_across_machines", "4.4", across_machines},
};

/* The all-reduce at one size: each algorithm's busbw and time, "-" where it did not run. */
static void allreduce_line(const lab_rows *rows, size_t bytes, FILE *out)
{
    char size[32];
    fprintf(out, "| %s |", lab_format_size(bytes, size, sizeof size));
    for (size_t a = 0; a < ALGO_COUNT; a++) {
        const lab_row *r = lab_rows_find(rows, "allreduce", algos[a], NULL, NULL, bytes);
        if (r == NULL || r->us.count == 0)
            fprintf(out, " - |");
        else
            fprintf(out, " %.2f GB/s, %.1f us (%s) |", r->gbps, r->us.median, r->route);
    }
    fputc('\n', out);
}

static void allreduce_table(const lab_rows *rows, FILE *out)
{
    const lab_row *nccl_skip = lab_rows_find(rows, "allreduce", "skipped", NULL, "nccl", 0);
    const lab_row *ring = lab_rows_find(rows, "allreduce", "ring", NULL, NULL, 0);
    if (ring == NULL) {
        fprintf(out, "The allreduce experiment did not run here: %s.\n",
                lab_rows_skip_reason(rows, "allreduce", NULL));
        return;
    }
    fprintf(out, "All-reduce of %ld ranks (route %s), bus bandwidth (nccl-tests' busbw) and the "
            "slowest rank's median time; every result verified on every rank.\n\n"
            "| bytes per rank | ring | one_shot | host_staged | nccl |\n"
            "| --- | --- | --- | --- | --- |\n", ring->count, ring->route);
    for (size_t i = 0; i < rows->count; i++)
        if (rows->row[i].experiment[0] != '\0' && strcmp(rows->row[i].experiment, "allreduce") == 0 &&
            strcmp(rows->row[i].variant, "ring") == 0)
            allreduce_line(rows, rows->row[i].bytes, out);
    if (nccl_skip != NULL)
        fprintf(out, "\nNCCL did not run: %s\n", nccl_skip->detail);
}

static void others(const lab_rows *rows, FILE *out)
{
    static const char *const keys[][2] = {{"ipc", "open_read_close"}, {"raw_pointer", "raw_pointer"},
                                          {"barrier", "host_barrier"}, {"barrier", "event_round"}};
    fprintf(out, "\n| experiment | what | route | median us | value | detail |\n"
                 "| --- | --- | --- | --- | --- | --- |\n");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const lab_row *r = lab_rows_find(rows, keys[k][0], keys[k][1], NULL, NULL, 0);
        if (r == NULL)
            fprintf(out, "| %s | %s | - | - | - | %s |\n", keys[k][0], keys[k][1],
                    lab_rows_skip_reason(rows, keys[k][0], NULL));
        else if (r->us.count == 0)
            fprintf(out, "| %s | %s | %s | - | %s | %s |\n", r->experiment, r->variant,
                    r->route, r->value[0] ? r->value : "-", r->detail);
        else
            fprintf(out, "| %s | %s | %s | %.1f | %s | %s |\n", r->experiment, r->variant,
                    r->route, r->us.median, r->value[0] ? r->value : "-", r->detail);
    }
}

static void report(const lab_rows *rows, FILE *out)
{
    allreduce_table(rows, out);
    others(rows, out);
}

/* The rules of the rows (plausible.c). */
int lab06_plausible(const lab_rows *rows, FILE *out);

const lab_host_part lab_host = {"06-ipc-allreduce", claims, sizeof claims / sizeof claims[0],
                                report, lab06_plausible};
