/**
 * @file results.c
 * @brief Result rows: adding, finding, and writing them as CSV.
 *
 * One CSV holds every experiment; the column `experiment` tells them
 * apart, and unused fields are empty. Times are microseconds per
 * operation; GB/s is 1e9 bytes per second over the bytes in `counted`
 * (both directions for both-ways rows). Text fields never hold commas, so
 * that `awk -F,` and gnuplot can split the lines.
 */
#define _POSIX_C_SOURCE 200809L
#include "p2p_perf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The CSV header; tests and plots rely on these names. */
static const char *const header =
    "experiment,variant,src,dst,mode,peer,bytes,ops,samples,median_us,min_us,max_us,"
    "gbps,gbps_min,gbps_max,peak_gbps,pct_peak,gated,verified,value,detail";

lab05_row *lab05_add_row(lab05_ctx *ctx, const char *experiment, const char *variant)
{
    if (ctx->nrows == ctx->cap) {
        size_t cap = ctx->cap ? 2 * ctx->cap : 256;
        lab05_row *rows = realloc(ctx->rows, cap * sizeof *rows);
        if (rows == NULL) {
            fprintf(stderr, "%s: out of memory\n", ctx->opt.prog);
            exit(LAB_EXIT_FAIL);
        }
        ctx->rows = rows;
        ctx->cap = cap;
    }
    lab05_row *row = &ctx->rows[ctx->nrows++];
    memset(row, 0, sizeof *row);
    snprintf(row->experiment, sizeof row->experiment, "%s", experiment);
    snprintf(row->variant, sizeof row->variant, "%s", variant);
    row->src = row->dst = row->peer = row->gated = row->verified = -1;
    return row;
}

void lab05_add_value(lab05_ctx *ctx, const char *experiment, const char *variant, int src,
                     int dst, const char *value, const char *detail)
{
    lab05_row *row = lab05_add_row(ctx, experiment, variant);
    row->src = src;
    row->dst = dst;
    snprintf(row->value, sizeof row->value, "%s", value ? value : "");
    snprintf(row->detail, sizeof row->detail, "%s", detail ? detail : "");
}

double lab05_row_gbps(const lab05_row *row)
{
    if (row == NULL || row->counted <= 0.0 || row->us.count == 0 || row->us.median <= 0.0)
        return 0.0;
    return lab_gbps(row->counted, row->us.median / 1000.0);
}

const lab05_row *lab05_find(const lab05_ctx *ctx, const char *experiment, const char *variant,
                            int src, int dst, const char *mode, int peer, size_t bytes)
{
    for (size_t i = 0; i < ctx->nrows; i++) {
        const lab05_row *r = &ctx->rows[i];
        if (experiment && strcmp(r->experiment, experiment) != 0)
            continue;
        if (variant && strcmp(r->variant, variant) != 0)
            continue;
        if (mode && strcmp(r->mode, mode) != 0)
            continue;
        if ((src >= 0 && r->src != src) || (dst >= 0 && r->dst != dst))
            continue;
        if ((peer >= 0 && r->peer != peer) || (bytes && r->bytes != bytes))
            continue;
        return r;
    }
    return NULL;
}

static void put_int(FILE *out, long long value, long long empty)
{
    if (value != empty)
        fprintf(out, "%lld", value);
    fputc(',', out);
}

static void put_num(FILE *out, double value, const char *fmt)
{
    if (value > 0.0)
        fprintf(out, fmt, value);
    fputc(',', out);
}

/* Free text as one CSV field that naive splitters (awk -F, in the tests,
 * gnuplot) read right: commas become semicolons. */
static void put_text(FILE *out, const char *text, int last)
{
    char clean[512];
    snprintf(clean, sizeof clean, "%s", text);
    for (char *c = clean; *c; c++)
        if (*c == ',' || *c == '\n' || *c == '\r' || *c == '"')
            *c = *c == ',' ? ';' : ' ';
    lab_csv_field(out, clean);
    fputc(last ? '\n' : ',', out);
}

static void write_row(FILE *out, const lab05_row *r)
{
    put_text(out, r->experiment, 0);
    put_text(out, r->variant, 0);
    put_int(out, r->src, -1);
    put_int(out, r->dst, -1);
    put_text(out, r->mode, 0);
    put_int(out, r->peer, -1);
    put_int(out, (long long)r->bytes, 0);
    put_int(out, r->ops, 0);
    const int timed = r->us.count > 0;
    put_int(out, timed ? (long long)r->us.count : 0, 0);
    if (timed) {
        fprintf(out, "%.4f,%.4f,%.4f,", r->us.median, r->us.min, r->us.max);
    } else {
        fputs(",,,", out);
    }
    if (timed && r->counted > 0.0) {
        /* The slowest sample gives the lowest bandwidth and vice versa. */
        fprintf(out, "%.6g,%.6g,%.6g,", lab_gbps(r->counted, r->us.median / 1000.0),
                lab_gbps(r->counted, r->us.max / 1000.0), lab_gbps(r->counted, r->us.min / 1000.0));
    } else {
        fputs(",,,", out);
    }
    put_num(out, r->peak_gbps, "%.3f");
    if (timed && r->counted > 0.0 && r->peak_gbps > 0.0)
        fprintf(out, "%.1f", 100.0 * lab05_row_gbps(r) / r->peak_gbps);
    fputc(',', out);
    put_int(out, r->gated, -1);
    put_int(out, r->verified, -1);
    put_text(out, r->value, 0);
    put_text(out, r->detail, 1);
}

void lab05_write_csv(const lab05_ctx *ctx, FILE *out, const char *only_experiment)
{
    fprintf(out, "%s\n", header);
    for (size_t i = 0; i < ctx->nrows; i++)
        if (only_experiment == NULL || strcmp(ctx->rows[i].experiment, only_experiment) == 0)
            write_row(out, &ctx->rows[i]);
}

static void write_file(const lab05_ctx *ctx, const char *dir, const char *name,
                       const char *only_experiment)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    lab_outfile file;
    lab_outfile_open(&file, ctx->opt.prog, path);
    lab05_write_csv(ctx, file.stream, only_experiment);
    lab_outfile_commit(&file, ctx->opt.prog);
}

void lab05_write_out_dir(const lab05_ctx *ctx, const char *dir)
{
    write_file(ctx, dir, "lab05", NULL);
    /* One file per experiment that has rows, claims and config included. */
    for (size_t i = 0; i < ctx->nrows; i++) {
        const char *key = ctx->rows[i].experiment;
        int first = 1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(ctx->rows[j].experiment, key) == 0) {
                first = 0;
                break;
            }
        if (first)
            write_file(ctx, dir, key, key);
    }
}
