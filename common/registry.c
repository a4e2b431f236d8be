/* The one main every lab program runs: options, registry, rows. */
#include "lab.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* At least n GPUs, else false with the reason. */
static bool have_gpus(const lab_ctx *ctx, int n, char *why, size_t why_len)
{
    if (ctx->gpus >= n)
        return true;
    if (ctx->gpus == 0)
        snprintf(why, why_len, "needs %d GPU%s: %s", n, n == 1 ? "" : "s", ctx->no_gpu);
    else
        snprintf(why, why_len, "needs %d GPUs, this machine has %d", n, ctx->gpus);
    return false;
}

bool lab_need_one_gpu(const lab_ctx *ctx, char *why, size_t why_len)
{
    return have_gpus(ctx, 1, why, why_len);
}

bool lab_need_two_gpus(const lab_ctx *ctx, char *why, size_t why_len)
{
    return have_gpus(ctx, 2, why, why_len);
}

lab_row *lab_emit(lab_ctx *ctx, const lab_row *row)
{
    return lab_rows_add(&ctx->rows, row);
}

lab_row *lab_emit_skipped(lab_ctx *ctx, const char *experiment, const char *route,
                          const char *fmt, ...)
{
    lab_row row = lab_row_empty(experiment, "skipped");
    va_list args;
    va_start(args, fmt);
    vsnprintf(row.detail, sizeof row.detail, fmt, args); /* lab_emit cleans it of commas */
    va_end(args);
    lab_row_set(row.route, sizeof row.route, "%s", route);
    lab_row_set(row.value, sizeof row.value, "skipped");
    return lab_emit(ctx, &row);
}

int lab_check(lab_ctx *ctx, int ok, const char *fmt, ...)
{
    va_list args;
    if (ok)
        return 0;
    fflush(stdout);
    fprintf(stderr, "%s: check failed: ", ctx->prog);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    return LAB_EXIT_FAIL;
}

/* Mark the chosen entries; an unknown key is a usage error naming it. */
static void choose(const lab_ctx *ctx, const lab_definition *lab, bool *chosen)
{
    const lab_keys *keys = &ctx->args.tests;
    for (size_t i = 0; i < lab->experiment_count; i++)
        chosen[i] = keys->count == 0;
    for (int k = 0; k < keys->count; k++) {
        size_t i = 0;
        while (i < lab->experiment_count && strcmp(lab->experiments[i].key, keys->key[k]) != 0)
            i++;
        if (i == lab->experiment_count)
            lab_usage_error(ctx->prog, "no experiment '%s' (see --list)", keys->key[k]);
        chosen[i] = true;
    }
}

/* How many GPUs a skip reason asks for: have_gpus writes "needs N GPU..." (a lab's own
 * checks call it first); any other reason asks for more than GPUs. */
static int gpus_needed(const char *why)
{
    int n = 0;
    return sscanf(why, "needs %d GPU", &n) == 1 ? n : 1 << 20;
}

/* Run the chosen entries that this machine can run; a skipped one is a row too (the report
 * and the verdicts read it), and the reason of the least a skipped one needs goes to @p why. */
static int run_chosen(lab_ctx *ctx, const lab_definition *lab, const bool *chosen, int *ran,
                      char *first_why, size_t why_len)
{
    int status = 0, total = 0, k = 0, least = 0;
    for (size_t i = 0; i < lab->experiment_count; i++)
        total += chosen[i];
    for (size_t i = 0; i < lab->experiment_count; i++) {
        const lab_experiment *e = &lab->experiments[i];
        char why[256] = "";
        if (!chosen[i])
            continue;
        if (e->can_run != NULL && !e->can_run(ctx, why, sizeof why)) {
            lab_emit_skipped(ctx, e->key, "", "%s", why);
            const int needs = gpus_needed(why);
            if (least == 0 || needs < least) {
                least = needs;
                snprintf(first_why, why_len, "%s", why);
            }
            continue;
        }
        if (ctx->args.progress)
            fprintf(stderr, "%s: [%d/%d] %s\n", ctx->prog, ++k, total, e->key);
        (*ran)++;
        if (e->run(ctx) != 0)
            status = LAB_EXIT_FAIL;
    }
    return status;
}

/* The rows as a table or CSV on stdout, and in DIR/NN-name.csv with --out DIR. */
static void write_results(const lab_ctx *ctx, const lab_definition *lab, int ran)
{
    char path[4096];
    lab_outfile file;
    if (ctx->args.csv)
        lab_rows_write_csv(&ctx->rows, stdout);
    else if (ran > 0)
        lab_rows_write_table(&ctx->rows, stdout);
    if (ctx->args.out_dir == NULL)
        return;
    if (mkdir(ctx->args.out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create '%s': %s\n", ctx->prog, ctx->args.out_dir,
                strerror(errno));
        exit(LAB_EXIT_FAIL);
    }
    snprintf(path, sizeof path, "%s/%s.csv", ctx->args.out_dir, lab->host->name);
    lab_outfile_open(&file, ctx->prog, path);
    lab_rows_write_csv(&ctx->rows, file.stream);
    lab_outfile_commit(&file, ctx->prog);
}

/* Say once what was skipped and why: one line per experiment when others ran, else one line
 * for the whole run (its exit status is then 77). Then name every unverified row: each fails
 * the run. */
static int report_end(const lab_ctx *ctx, int ran, const char *why)
{
    int bad = 0;
    if (ran == 0)
        printf("%s: skipped: %s\n", ctx->prog, why);
    for (size_t i = 0; ran > 0 && i < ctx->rows.count; i++)
        if (strcmp(ctx->rows.row[i].variant, "skipped") == 0)
            fprintf(stderr, "%s: skipped %s: %s\n", ctx->prog, ctx->rows.row[i].experiment,
                    ctx->rows.row[i].detail);
    for (size_t i = 0; i < ctx->rows.count; i++) {
        const lab_row *r = &ctx->rows.row[i];
        if (r->verified != 0)
            continue;
        fprintf(stderr, "%s: not verified: %s %s %s %zu bytes\n", ctx->prog, r->experiment,
                r->variant, r->route, r->bytes);
        bad++;
    }
    return bad;
}

int lab_run_program(const lab_definition *lab, int argc, char **argv)
{
    lab_ctx ctx;
    bool chosen[64] = {false};
    char why[256] = "";
    int ran = 0;
    memset(&ctx, 0, sizeof ctx);
    ctx.prog = lab_prog_name(argv[0]);
    const lab_usage usage = {ctx.prog, lab->summary, lab->epilogue};
    lab_parse_args(&usage, lab->options, lab->option_count, argc, argv, &ctx.args);
    if (ctx.args.list) {
        for (size_t i = 0; i < lab->experiment_count; i++)
            printf("%-18s %s\n", lab->experiments[i].key, lab->experiments[i].description);
        return LAB_EXIT_OK;
    }
    if (lab->experiment_count > 64)
        lab_usage_error(ctx.prog, "internal: more than 64 experiments");
    choose(&ctx, lab, chosen);
    if (ctx.args.gpu_a >= 0 && ctx.args.gpu_a == ctx.args.gpu_b)
        lab_usage_error(ctx.prog, "the two GPUs must differ (both are %ld)", ctx.args.gpu_a);
    ctx.gpus = lab_gpu_count(ctx.no_gpu, sizeof ctx.no_gpu);
    long highest = ctx.args.gpu_a > ctx.args.gpu_b ? ctx.args.gpu_a : ctx.args.gpu_b;
    if (highest >= ctx.gpus && ctx.gpus > 0)
        lab_usage_error(ctx.prog, "GPU %ld does not exist: this machine has %d GPU%s (0..%d)",
                        highest, ctx.gpus, ctx.gpus == 1 ? "" : "s", ctx.gpus - 1);
    lab_describe_machine(&ctx.rows, ctx.gpus);
    int status = lab->setup ? lab->setup(&ctx) : 0;
    if (status != 0)
        return status;
    status = run_chosen(&ctx, lab, chosen, &ran, why, sizeof why);
    if (lab->teardown)
        lab->teardown(&ctx);
    lab_claims_judge(lab->host, &ctx.rows);
    write_results(&ctx, lab, ran);
    if (report_end(&ctx, ran, why) > 0)
        status = LAB_EXIT_FAIL;
    lab_rows_free(&ctx.rows);
    return status == 0 && ran == 0 ? LAB_EXIT_SKIP : status;
}
