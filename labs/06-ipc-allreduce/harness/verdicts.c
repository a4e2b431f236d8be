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

static const char *const algos[] = {"ring", "one_shot", "host_staged", "nccl"};
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
    return lab_judge(ipc->verified == 1 && !seen_raw, said, len,
                     "between processes (%s): through IPC handles every rank read every other "
                     "rank's buffer %s; rank 0's raw device pointer in rank 1 gave %s",
                     ipc->route, ipc->verified == 1 ? "and verified it" : "but it did not verify",
                     raw->value);
}

static const lab_claim claims[] = {
    {"access_is_per_process", "4.1", per_process},
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

const lab_host_part lab_host = {"06-ipc-allreduce", claims, sizeof claims / sizeof claims[0],
                                report};
