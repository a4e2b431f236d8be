/**
 * @file experiments.c
 * @brief Lab 06's registry and options. Each experiment that needs ranks starts them (this
 *        program again, as rank processes: launcher.c), and turns what they sent into rows: one
 *        per measurement, the slowest rank's median, verified only if every rank verified.
 */
#define _GNU_SOURCE
#include "lab06.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern const lab_host_part lab_host;

static long opt_ranks = 2;
static long opt_timeout = 60;
static size_t opt_max_size;

static const lab_option options[] = {
    {"ranks", 0, LAB_OPT_INT, "N", "rank processes to start, 1..8 (default 2); rank r uses GPU "
     "r mod the GPUs visible", &opt_ranks, 1, LAB06_MAX_RANKS},
    {"timeout", 0, LAB_OPT_INT, "S", "seconds any rank may stay silent before the run fails "
     "naming it (default 60)", &opt_timeout, 1, 3600},
    {"max-size", 0, LAB_OPT_SIZE, "SIZE", "largest all-reduce per rank, 4KiB..1GiB (default "
     "1GiB; 16MiB with --quick)", &opt_max_size, 4096, 1L << 30},
};

/* The options every rank and the launcher share. */
static lab06_opts run_opts(const lab_ctx *ctx)
{
    lab06_opts o = {
        .nranks = (int)opt_ranks,
        .timeout_s = (int)opt_timeout,
        .max_bytes = opt_max_size ? opt_max_size : ctx->args.quick ? 16u << 20 : 1u << 30,
        .quick = ctx->args.quick,
        .reps = ctx->args.reps ? (int)ctx->args.reps : ctx->args.quick ? 3 : 7,
        .seed = (unsigned long)ctx->args.seed,
    };
    return o;
}

/* The launcher's rows: per (variant, bytes), the slowest rank's median, the fastest and slowest
 * samples of any rank, verified only if every rank verified. */
static void emit_results(lab_ctx *ctx, const char *key, const lab06_outcome *out, int nranks)
{
    for (size_t i = 0; i < out->count; i++) {
        const lab06_result *a = &out->results[i];
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(out->results[j].variant, a->variant) != 0 ||
                    out->results[j].bytes != a->bytes;
        if (!first)
            continue;
        lab_row row = lab_row_empty(key, a->variant);
        row.bytes = a->bytes;
        row.count = nranks;
        row.src = row.dst = -1;
        row.verified = a->verified;
        lab_row_set(row.route, sizeof row.route, "%s", a->route);
        lab_row_set(row.mode, sizeof row.mode, "%d_ranks", nranks);
        lab_row_set(row.value, sizeof row.value, "%s", a->value);
        lab_row_set(row.detail, sizeof row.detail, "%s", a->detail);
        row.us = (lab_stats){.count = (size_t)a->samples, .median = a->median_us,
                             .min = a->min_us, .max = a->max_us, .mean = a->median_us};
        for (size_t j = i; j < out->count; j++) {
            const lab06_result *b = &out->results[j];
            if (strcmp(b->variant, a->variant) != 0 || b->bytes != a->bytes)
                continue;
            row.us.median = b->median_us > row.us.median ? b->median_us : row.us.median;
            row.us.min = b->min_us < row.us.min ? b->min_us : row.us.min;
            row.us.max = b->max_us > row.us.max ? b->max_us : row.us.max;
            row.verified = row.verified == -1 ? b->verified : row.verified && b->verified;
        }
        if (a->samples == 0)
            row.us = (lab_stats){0};
        lab_emit(ctx, &row);
    }
}

/* Start the ranks of experiment @p key; rows for what they sent; 0, or 1 naming the failure. */
static int launch(lab_ctx *ctx, const char *key, int nranks, int shm_fd, lab06_outcome *out)
{
    lab06_opts o = run_opts(ctx);
    o.nranks = nranks;
    lab06_launch(ctx->prog, key, &o, shm_fd, out);
    if (out->failed)
        return lab_check(ctx, 0, "%s: %s", key, out->why);
    return 0;
}

static int run_simple(lab_ctx *ctx, const char *key, int nranks)
{
    lab06_outcome out;
    int status = launch(ctx, key, nranks, -1, &out);
    emit_results(ctx, key, &out, nranks);
    lab06_outcome_free(&out);
    return status;
}

static int run_ipc(lab_ctx *ctx)
{
    return run_simple(ctx, "ipc", (int)opt_ranks);
}

static int run_raw_pointer(lab_ctx *ctx)
{
    return run_simple(ctx, "raw_pointer", 2);
}

static int run_barrier(lab_ctx *ctx)
{
    return run_simple(ctx, "barrier", (int)opt_ranks);
}

/* Why NCCL does not run beside the others here, or "" when it does. On one GPU NCCL is asked
 * once for two ranks, and its refusal, in its own words, is the reason. */
static void nccl_skip_reason(lab_ctx *ctx, int nranks, char *why, size_t len)
{
    why[0] = '\0';
    if (!lab06_have_nccl()) {
        snprintf(why, len, "nccl: NCCL was missing at build time (no nccl.h in NCCL_HOME or "
                 "the CUDA toolkit)");
    } else if (ctx->gpus >= 2 && nranks > ctx->gpus) {
        snprintf(why, len, "nccl: %d ranks on %d GPUs: NCCL takes one rank per GPU", nranks,
                 ctx->gpus);
    } else if (ctx->gpus == 1) {
        lab06_outcome out;
        lab06_opts o = run_opts(ctx);
        o.nranks = 2;
        o.timeout_s = o.timeout_s < 30 ? o.timeout_s : 30;
        lab06_launch(ctx->prog, "nccl_probe", &o, -1, &out);
        if (out.count > 0)
            snprintf(why, len, "nccl: two ranks on one GPU: ncclCommInitRank: %.60s: %.300s",
                     out.results[0].value, out.results[0].detail);
        else
            snprintf(why, len, "nccl: two ranks on one GPU: the probe ended with no answer "
                     "from NCCL: %.400s", out.why);
        lab06_outcome_free(&out);
    }
}

/* algbw and busbw of every all-reduce row (TODO 06.7): busbw in gbps, algbw in value. */
static int add_bandwidths(lab_ctx *ctx, size_t first)
{
    for (size_t i = first; i < ctx->rows.count; i++) {
        lab_row *r = &ctx->rows.row[i];
        double algbw = -1.0, busbw = -1.0;
        if (r->us.count == 0 || strcmp(r->variant, "skipped") == 0)
            continue;
        if (allreduce_bandwidth(r->bytes, r->us.median * 1e-6, (int)r->count, &algbw, &busbw) != 0)
            return lab_check(ctx, 0, "allreduce_bandwidth(%zu, %g s, %ld) refused a valid time",
                             r->bytes, r->us.median * 1e-6, r->count);
        r->gbps = busbw;
        lab_row_set(r->value, sizeof r->value, "%.4f", algbw);
    }
    return 0;
}

/* Shared host memory for host_staged: a memfd the ranks inherit, N slots and the sum. */
static int shared_host_memory(lab_ctx *ctx, int nranks)
{
    const lab06_opts o = run_opts(ctx);
    int fd = memfd_create("lab06-host-staged", 0);
    if (fd < 0 || ftruncate(fd, (off_t)((size_t)(nranks + 1) * o.max_bytes)) != 0) {
        lab_check(ctx, 0, "cannot make %zu bytes of shared host memory: %s",
                  (size_t)(nranks + 1) * o.max_bytes, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

static int run_allreduce(lab_ctx *ctx)
{
    const int nranks = (int)opt_ranks;
    char why[640];
    lab06_outcome out;
    nccl_skip_reason(ctx, nranks, why, sizeof why);
    if (why[0] != '\0')
        lab_row_set(lab_emit_skipped(ctx, "allreduce", "", "%s", why)->mode, 24, "nccl");
    const int fd = shared_host_memory(ctx, nranks);
    if (fd < 0)
        return LAB_EXIT_FAIL;
    const size_t first = ctx->rows.count;
    int status = launch(ctx, "allreduce", nranks, fd, &out);
    close(fd);
    emit_results(ctx, "allreduce", &out, nranks);
    lab06_outcome_free(&out);
    return add_bandwidths(ctx, first) != 0 ? LAB_EXIT_FAIL : status;
}

/* A rank process runs its part and exits here; the launcher goes on. */
static int setup(lab_ctx *ctx)
{
    const lab06_opts o = run_opts(ctx);
    lab06_rank_main_if_rank(ctx, &o);
    return 0;
}

static const lab_experiment experiments[] = {
    {"ipc", "each rank exports a buffer and an event as IPC handles (06.1); every other rank "
     "opens them (06.2), reads the data, closes them (06.3)", lab_need_one_gpu, run_ipc},
    {"raw_pointer", "rank 0's raw device pointer, sent to rank 1 and used there: the error "
     "(or the wrong data) another process gets", lab_need_one_gpu, run_raw_pointer},
    {"barrier", "what a barrier across processes costs: host barrier, and an IPC event round",
     lab_need_one_gpu, run_barrier},
    {"allreduce", "ring (06.4, 06.5), one-shot (06.6), host-staged and NCCL all-reduces, "
     "4 KiB - 1 GiB, verified; algbw and busbw (06.7)", lab_need_one_gpu, run_allreduce},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary = "Lab 06: P2P between processes. Starts --ranks rank processes (this program "
               "again) and is their rendezvous: IPC handles of buffers and events, a raw "
               "pointer that means nothing in another process, a barrier's cost, and an "
               "all-reduce by hand (ring, one-shot) beside host staging and NCCL, every "
               "result verified on every rank.",
    .epilogue = "Rank r uses GPU r mod the GPUs visible; on one GPU every rank shares it (route "
                "loopback). Any rank's failure, crash or silence beyond --timeout ends the run "
                "naming the rank, and every rank is stopped. NCCL_NVLS_ENABLE=0 is set unless "
                "you set it.",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
    .setup = setup,
};
