/* The main of a lab's host tool: the lab's verdicts and report section recomputed from a
 * result file, with no GPU (built from the lab's host part and common's host-only part). */
#include "claims.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int load(const char *prog, const char *path, lab_rows *rows)
{
    char why[256] = "";
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        fprintf(stderr, "%s: cannot open '%s'\n", prog, path);
        return -1;
    }
    int rc = lab_rows_read_csv(in, rows, why, sizeof why);
    fclose(in);
    if (rc != 0)
        fprintf(stderr, "%s: %s: %s\n", prog, path, why);
    return rc;
}

/* A result file of another lab: it has claim rows, and none is one of this lab's claims
 * (every run writes one row per claim, so a file of this lab has them). */
static int of_another_lab(const char *prog, const char *path, const lab_rows *rows)
{
    const size_t claims = lab_rows_count(rows, "claim", NULL);
    for (size_t i = 0; i < lab_host.claim_count; i++)
        if (lab_rows_find(rows, "claim", lab_host.claims[i].id, NULL, NULL, 0) != NULL)
            return 0;
    if (claims == 0)
        return 0;
    fprintf(stderr, "%s: %s: the rows of another lab: none of its %zu claims is one of %s's\n",
            prog, path, claims, lab_host.name);
    return 1;
}

/* Another program's rows, appended to @p rows: a lab's result file (it has claim rows) is
 * refused, as its rows would be taken for this run's. */
static int beside(const char *prog, const char *path, lab_rows *rows)
{
    lab_rows other = {0};
    int rc = load(prog, path, &other);
    if (rc == 0 && lab_rows_count(&other, "claim", NULL) > 0) {
        fprintf(stderr, "%s: %s: a lab's result file, not another program's rows to set beside\n",
                prog, path);
        rc = -1;
    }
    if (rows->recorded) /* run with the recording, on its machine */
        lab_rows_mark_recorded(&other);
    for (size_t i = 0; rc == 0 && i < other.count; i++)
        lab_rows_add(rows, &other.row[i]);
    lab_rows_free(&other);
    return rc;
}

/* Compare the recorded claim rows with the recomputed ones, id by id; then the rules of claim
 * rows, which every lab's obey, and the lab's own. */
static int check(const char *prog, const lab_rows *recorded, const lab_rows *fresh)
{
    int bad = 0;
    for (size_t i = 0; i < fresh->count; i++) {
        const lab_row *now = &fresh->row[i];
        if (strcmp(now->experiment, "claim") != 0)
            continue;
        const lab_row *then = lab_rows_find(recorded, "claim", now->variant, NULL, NULL, 0);
        if (then == NULL || strcmp(then->value, now->value) != 0) {
            fprintf(stderr, "%s: claim %s: recorded %s, recomputed %s (%s)\n", prog,
                    now->variant, then ? then->value : "nothing", now->value, now->detail);
            bad++;
        }
    }
    /* The rows as the file has them: the rules hold of what was measured. */
    lab_said said = {stderr, 0};
    lab_claim_rows_rules(&lab_host, recorded, &said);
    bad += said.count;
    if (lab_host.plausible != NULL)
        bad += lab_host.plausible(recorded, stderr);
    return bad ? LAB_EXIT_FAIL : LAB_EXIT_OK;
}

static void usage(const char *prog)
{
    printf("usage: %s [--recording] verdicts FILE.csv\n"
           "                    the claims' verdicts recomputed, as CSV rows\n"
           "       %s [--recording] figures FILE.csv\n"
           "                    the figures each verdict rests on, as its sentence\n"
           "                    prints them: CSV, " LAB_FIGURES_HEADER "\n"
           "       %s check FILE.csv      exit 1 unless the recorded verdicts are those\n"
           "                    and every row obeys the lab's rules (of physics and of\n"
           "                    the lab), each broken one said on a line\n"
           "       %s [--recording] report FILE.csv [BESIDE.csv ...]\n"
           "                    the lab's report section (Markdown); the rows of\n"
           "                    BESIDE (another program's run, such as nvbandwidth's)\n"
           "                    are set beside the lab's where its report section\n"
           "                    knows them\n"
           "  --recording       FILE is a recording shown on another machine than the one\n"
           "                    it was made on: the verdicts and the report call the\n"
           "                    machine that measured it \"that machine\", not \"this machine\"\n",
           prog, prog, prog, prog);
}

/* The operands of the command line, in @p operand (argc entries); --recording sets
 * @p recording, --help prints the usage and exits, any other option is bad usage. */
static int operands(const char *prog, int argc, char **argv, char **operand, int *recording)
{
    int n = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(prog);
            exit(LAB_EXIT_OK);
        }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--recording") == 0) {
            *recording = 1;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            lab_usage_error(prog, "unknown option: %s", argv[i]);
        } else {
            operand[n++] = argv[i];
        }
    if (n < 2)
        lab_usage_error(prog, "expected a command and one file (verdicts, figures, check or "
                        "report FILE.csv)");
    if (strcmp(operand[0], "verdicts") != 0 && strcmp(operand[0], "figures") != 0 &&
        strcmp(operand[0], "check") != 0 && strcmp(operand[0], "report") != 0)
        lab_usage_error(prog, "unknown command: %s", operand[0]);
    if (n > 2 && strcmp(operand[0], "report") != 0)
        lab_usage_error(prog, "%s takes one file", operand[0]);
    return n;
}

int main(int argc, char **argv)
{
    const char *prog = lab_prog_name(argv[0]);
    lab_rows recorded = {0}, fresh = {0};
    int status = LAB_EXIT_FAIL, recording = 0;
    char **arg = calloc((size_t)argc, sizeof *arg);
    if (arg == NULL) {
        fprintf(stderr, "%s: out of host memory\n", prog);
        return LAB_EXIT_FAIL;
    }
    const int args = operands(prog, argc, argv, arg, &recording);
    if (load(prog, arg[1], &recorded) != 0 || of_another_lab(prog, arg[1], &recorded) ||
        load(prog, arg[1], &fresh) != 0)
        goto cleanup;
    if (recording)
        lab_rows_mark_recorded(&fresh);
    lab_claims_judge(&lab_host, &fresh);
    /* After the verdicts, so that rows beside never change one; a lab without a report section
     * of its own (a table of its rows) has nothing to set them beside. */
    for (int i = 2; lab_host.report != NULL && i < args; i++)
        if (beside(prog, arg[i], &fresh) != 0)
            goto cleanup;
    status = LAB_EXIT_OK;
    if (strcmp(arg[0], "verdicts") == 0) {
        /* lab_claims_judge appended the claim rows, one per claim, at the end. */
        const size_t n = lab_host.claim_count;
        const lab_rows claims = {fresh.row + fresh.count - n, n, n, fresh.recorded};
        lab_rows_write_csv(&claims, stdout);
    } else if (strcmp(arg[0], "figures") == 0) {
        lab_figures_write_csv(stdout);
    } else if (strcmp(arg[0], "check") == 0) {
        status = check(prog, &recorded, &fresh);
    } else if (lab_host.report != NULL) {
        lab_host.report(&fresh, stdout);
    } else {
        lab_rows_write_table(&fresh, stdout);
    }
cleanup:
    free(arg);
    lab_rows_free(&recorded);
    lab_rows_free(&fresh);
    return status;
}
