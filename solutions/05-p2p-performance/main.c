/**
 * @file main.c
 * @brief Lab 05 (chapter 4.4): measuring P2P performance as well as the
 *        best tools do. Options, set-up, the run of the chosen experiments,
 *        the output, and the clean-up.
 *
 * The chapter's table says what PCIe and NVLink deliver and its tips say
 * how to measure. This program measures bandwidth (every size, every pair,
 * one and both ways, copy engine and SM kernels, peer access on and off),
 * three kinds of latency, and the usual mistakes of measuring, each as an
 * experiment with its numbers, and sets the results beside the link's
 * theoretical peak and the chapter's table.
 */
#define _POSIX_C_SOURCE 200809L
#include "kernels.h"
#include "p2p_perf.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(const char *prog)
{
    printf("usage: %s [options]\n"
           "\n"
           "Measures P2P performance between GPUs: bandwidth sweeps (copy engine and SM\n"
           "kernels, one and both ways, peer access on and off, every pair), latency\n"
           "(small copies, a pointer chase, a ping-pong between two GPUs), the usual\n"
           "pitfalls of measuring, and the link's theoretical peak (NVML). Ends with the\n"
           "chapter's table of link speeds and a verdict for each claim of chapter 4.4.\n"
           "\n"
           "  -l, --list           list the experiments and exit\n"
           "  -t, --test KEY[,KEY] run only these experiments (repeatable; see --list)\n"
           "  -q, --quick          fewer sizes and samples (the tests use it)\n"
           "  -a, --gpu-a N        with -b: measure only this pair, both directions\n"
           "  -b, --gpu-b N        (default: every ordered pair for the sweeps, and the\n"
           "                       first pair with peer access for the rest)\n"
           "      --reps N         timed samples per measurement after a warm-up\n"
           "                       (default 10, quick 5)\n"
           "      --min-size SIZE  smallest size of the sweeps (default 4)\n"
           "      --max-size SIZE  largest size of the sweeps (default 1GiB, quick 256MiB;\n"
           "                       at most 4GiB)\n"
           "      --seed N         seed of the data (default %u)\n"
           "      --csv            print every result as one CSV on stdout\n"
           "      --out DIR        also write DIR/lab05.csv and DIR/<experiment>.csv\n"
           "                       (each written whole, then renamed into place)\n"
           "      --progress       name each experiment on stderr as it starts\n"
           "                       (default: when stderr is a terminal)\n"
           "  -h, --help           show this help\n"
           "\n"
           "Plots: gnuplot -e \"csv='DIR/lab05.csv'; out='DIR'\" "
           "solutions/05-p2p-performance/plots.gp\n"
           "\n"
           "Exit status: 0 done, 1 a check or CUDA call failed, 2 bad usage,\n"
           "77 fewer than 2 GPUs, or none of the chosen experiments can run here.\n",
           prog, LAB_DEFAULT_SEED);
}

/** Long options without a short form. */
enum {
    OPT_REPS = 1000,
    OPT_MIN_SIZE,
    OPT_MAX_SIZE,
    OPT_SEED,
    OPT_CSV,
    OPT_OUT,
    OPT_PROGRESS,
};

static void list_experiments(void)
{
    for (int i = 0; i < lab05_experiment_count; i++)
        printf("%-16s %s\n", lab05_experiments[i].key, lab05_experiments[i].description);
}

/* -t a,b,c: mark each key as chosen. */
static void choose(lab05_options *opt, const char *text)
{
    char keys[256];
    snprintf(keys, sizeof keys, "%s", text);
    char *rest = keys;
    while (rest != NULL) {
        char *key = rest;
        char *comma = strchr(rest, ',');
        if (comma != NULL) {
            *comma = '\0';
            rest = comma + 1;
        } else {
            rest = NULL;
        }
        int found = -1;
        for (int i = 0; i < lab05_experiment_count; i++)
            if (strcmp(lab05_experiments[i].key, key) == 0)
                found = i;
        if (found < 0)
            lab_usage_error(opt->prog, "--test: unknown experiment '%s' (see --list)", key);
        opt->chosen |= 1u << found;
    }
}

static void parse_options(int argc, char **argv, lab05_options *opt)
{
    static const struct option options[] = {
        {"list", no_argument, NULL, 'l'},
        {"test", required_argument, NULL, 't'},
        {"quick", no_argument, NULL, 'q'},
        {"gpu-a", required_argument, NULL, 'a'},
        {"gpu-b", required_argument, NULL, 'b'},
        {"reps", required_argument, NULL, OPT_REPS},
        {"min-size", required_argument, NULL, OPT_MIN_SIZE},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"csv", no_argument, NULL, OPT_CSV},
        {"out", required_argument, NULL, OPT_OUT},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int reps = 0, list = 0;
    size_t min_size = 0, max_size = 0;
    int opt_char;
    opterr = 0; /* report problems ourselves, in one line */
    while ((opt_char = getopt_long(argc, argv, ":lt:qa:b:h", options, NULL)) != -1) {
        switch (opt_char) {
        case 'l': list = 1; break;
        case 't': choose(opt, optarg); break;
        case 'q': opt->quick = true; break;
        case 'a': opt->want_a = (int)lab_opt_int(opt->prog, "--gpu-a", optarg, 0, INT_MAX); break;
        case 'b': opt->want_b = (int)lab_opt_int(opt->prog, "--gpu-b", optarg, 0, INT_MAX); break;
        case OPT_REPS: reps = (int)lab_opt_int(opt->prog, "--reps", optarg, 1, 1000); break;
        case OPT_MIN_SIZE: min_size = lab_opt_size(opt->prog, "--min-size", optarg); break;
        case OPT_MAX_SIZE: max_size = lab_opt_size(opt->prog, "--max-size", optarg); break;
        case OPT_SEED:
            opt->seed = (uint64_t)lab_opt_int(opt->prog, "--seed", optarg, 0, LONG_MAX);
            break;
        case OPT_CSV: opt->csv = true; break;
        case OPT_OUT:
            if (optarg[0] == '\0')
                lab_usage_error(opt->prog, "--out: empty folder name");
            opt->out_dir = optarg;
            break;
        case OPT_PROGRESS: opt->progress = true; break;
        case 'h': usage(opt->prog); exit(LAB_EXIT_OK);
        case ':':
        default: lab_getopt_error(opt->prog, argv, opt_char);
        }
    }
    lab_no_operands(opt->prog, optind, argc, argv);
    if (list) {
        list_experiments();
        exit(LAB_EXIT_OK);
    }
    opt->reps = reps ? reps : (opt->quick ? 5 : 10);
    opt->min_size = min_size ? min_size : 1;
    opt->max_size = max_size ? max_size : (opt->quick ? (size_t)256 << 20 : (size_t)1 << 30);
    if (opt->max_size > ((size_t)4 << 30))
        lab_usage_error(opt->prog, "--max-size: %zu bytes is more than 4GiB", opt->max_size);
    if (opt->min_size > opt->max_size)
        lab_usage_error(opt->prog, "--min-size (%zu) is larger than --max-size (%zu)",
                        opt->min_size, opt->max_size);
    if (opt->out_dir && mkdir(opt->out_dir, 0777) != 0 && errno != EEXIST)
        lab_usage_error(opt->prog, "--out: cannot create '%s': %s", opt->out_dir,
                        strerror(errno));
}

static int compare_sizes(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

/* The sweep: powers of two from 4 B to 1 GiB and a few odd sizes (tails
 * that are not multiples of 16), or a short list with --quick. */
static void choose_sizes(lab05_ctx *ctx)
{
    size_t all[LAB05_MAX_SIZES];
    int count = 0;
    if (ctx->opt.quick) {
        static const size_t quick[] = {4,       4096,     65536,    524288,   1000000,
                                       1048576, 16777216, 67108864, 268435456};
        for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++)
            all[count++] = quick[i];
    } else {
        for (int shift = 2; shift <= 32; shift++)
            all[count++] = (size_t)1 << shift;
        static const size_t odd[] = {3, 1000, 1000000, 100000000};
        for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
            all[count++] = odd[i];
    }
    qsort(all, (size_t)count, sizeof all[0], compare_sizes);
    ctx->nsizes = 0;
    for (int i = 0; i < count; i++)
        if (all[i] >= ctx->opt.min_size && all[i] <= ctx->opt.max_size)
            ctx->sizes[ctx->nsizes++] = all[i];
    if (ctx->nsizes == 0)
        lab_usage_error(ctx->opt.prog, "no sweep size lies between --min-size and --max-size");
}

/* The pairs: -a/-b name one pair (both directions); otherwise all. */
static void choose_pairs(lab05_ctx *ctx)
{
    const lab05_options *opt = &ctx->opt;
    int a = -1, b = -1;
    lab_select_pair(opt->prog, opt->want_a, opt->want_b, false, &a, &b);
    ctx->pair_a = a;
    ctx->pair_b = b;
    ctx->n = lab_gpu_count(NULL, 0);
    const int n = ctx->n;
    ctx->pairs = malloc(2 * sizeof(int) * (size_t)n * (size_t)n);
    if (ctx->pairs == NULL) {
        fprintf(stderr, "%s: out of memory\n", opt->prog);
        exit(LAB_EXIT_FAIL);
    }
    ctx->npairs = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            const int named = opt->want_a >= 0 || opt->want_b >= 0;
            if (named && !((i == a && j == b) || (i == b && j == a)))
                continue;
            ctx->pairs[2 * ctx->npairs] = i;
            ctx->pairs[2 * ctx->npairs + 1] = j;
            ctx->npairs++;
        }
}

static int gpu_used(const lab05_ctx *ctx, int g)
{
    for (int p = 0; p < 2 * ctx->npairs; p++)
        if (ctx->pairs[p] == g)
            return 1;
    return 0;
}

static void describe_gpus(lab05_ctx *ctx)
{
    for (int g = 0; g < ctx->n; g++) {
        lab05_gpu *gpu = &ctx->gpu[g];
        struct cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, g));
        snprintf(gpu->name, sizeof gpu->name, "%s", prop.name);
        gpu->cc_major = prop.major;
        gpu->cc_minor = prop.minor;
        gpu->sm_count = prop.multiProcessorCount;
        const int per_sm = prop.maxThreadsPerMultiProcessor / LAB05_COPY_THREADS;
        gpu->copy_blocks = (per_sm > 0 ? per_sm : 1) * (gpu->sm_count > 0 ? gpu->sm_count : 1);
        CUDA_CHECK(cudaDeviceGetPCIBusId(gpu->pci_bus_id, (int)sizeof gpu->pci_bus_id, g));
    }
}

static void *host_alloc(const lab05_ctx *ctx, size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n", ctx->opt.prog, bytes);
        exit(LAB_EXIT_FAIL);
    }
    return p;
}

/* Buffers on every GPU the sweeps use: src with seeded data (a different
 * seed per GPU, so that a copy from the wrong GPU fails verification), dst
 * zeroed; the host keeps src's data as the reference. */
static void allocate(lab05_ctx *ctx)
{
    ctx->buf_bytes = ctx->sizes[ctx->nsizes - 1];
    if (ctx->buf_bytes < LAB05_PITFALL_BYTES)
        ctx->buf_bytes = LAB05_PITFALL_BYTES;
    for (int g = 0; g < ctx->n; g++) {
        if (!gpu_used(ctx, g))
            continue;
        lab05_gpu *gpu = &ctx->gpu[g];
        gpu->ref = host_alloc(ctx, ctx->buf_bytes);
        lab_fill_bytes(gpu->ref, ctx->buf_bytes, ctx->opt.seed + 1000003u * (uint64_t)g);
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaMalloc(&gpu->src, ctx->buf_bytes));
        CUDA_CHECK(cudaMalloc(&gpu->dst, ctx->buf_bytes));
        CUDA_CHECK(cudaMemcpy(gpu->src, gpu->ref, ctx->buf_bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(gpu->dst, 0, ctx->buf_bytes));
        for (int s = 0; s < 2; s++)
            CUDA_CHECK(cudaStreamCreateWithFlags(&gpu->stream[s], cudaStreamNonBlocking));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    CUDA_CHECK(cudaSetDevice(ctx->pair_a));
    void *check = NULL;
    CUDA_CHECK(cudaMallocHost(&check, ctx->buf_bytes));
    ctx->check = check;
    /* Mapped and portable: every GPU reads it. With unified addressing
     * (every 64-bit platform CUDA 13 supports) the host pointer is valid
     * on the devices too. */
    void *gate = NULL;
    CUDA_CHECK(cudaHostAlloc(&gate, 64, cudaHostAllocMapped | cudaHostAllocPortable));
    ctx->gate = gate;
    ctx->gate[0] = 1u;
    ctx->gate[1] = 0u;
}

static void release(lab05_ctx *ctx)
{
    for (int i = 0; i < ctx->npairs; i++)
        lab05_set_peer(ctx->pairs[2 * i], ctx->pairs[2 * i + 1], false);
    for (int g = 0; g < ctx->n; g++) {
        lab05_gpu *gpu = &ctx->gpu[g];
        if (!gpu_used(ctx, g))
            continue;
        CUDA_CHECK(cudaSetDevice(g));
        for (int s = 0; s < 2; s++)
            CUDA_CHECK(cudaStreamDestroy(gpu->stream[s]));
        CUDA_CHECK(cudaFree(gpu->src));
        CUDA_CHECK(cudaFree(gpu->dst));
        free(gpu->ref);
    }
    CUDA_CHECK(cudaFreeHost(ctx->check));
    CUDA_CHECK(cudaFreeHost((void *)ctx->gate));
    free(ctx->rows);
    free(ctx->pairs);
    free(ctx->gpu);
    free(ctx->link);
}

static int chosen(const lab05_ctx *ctx, int i)
{
    return ctx->opt.chosen == 0 || (ctx->opt.chosen & (1u << i)) != 0;
}

/* Exit 77 when none of the chosen experiments can run here. */
static void require_runnable(const lab05_ctx *ctx)
{
    char why[200] = "";
    for (int i = 0; i < lab05_experiment_count; i++) {
        if (!chosen(ctx, i))
            continue;
        if (lab05_experiments[i].can_run(ctx, why, sizeof why))
            return;
    }
    printf("%s: skipped: %s\n", ctx->opt.prog, why);
    exit(LAB_EXIT_SKIP);
}

static void add_config(lab05_ctx *ctx)
{
    char text[64];
    snprintf(text, sizeof text, "%d", ctx->n);
    lab05_add_value(ctx, "config", "gpus", -1, -1, text, "");
    snprintf(text, sizeof text, "%d", ctx->pair_a);
    lab05_add_value(ctx, "config", "pair_a", -1, -1, text, "the pair of one-pair experiments");
    snprintf(text, sizeof text, "%d", ctx->pair_b);
    lab05_add_value(ctx, "config", "pair_b", -1, -1, text, "");
    snprintf(text, sizeof text, "%d", ctx->npairs);
    lab05_add_value(ctx, "config", "pairs", -1, -1, text, "ordered pairs of the sweeps");
    snprintf(text, sizeof text, "%d", ctx->opt.reps);
    lab05_add_value(ctx, "config", "reps", -1, -1, text, "timed samples after one warm-up");
    snprintf(text, sizeof text, "%d", ctx->opt.quick ? 1 : 0);
    lab05_add_value(ctx, "config", "quick", -1, -1, text, "");
    snprintf(text, sizeof text, "%zu", ctx->sizes[0]);
    lab05_add_value(ctx, "config", "min_size", -1, -1, text, "");
    snprintf(text, sizeof text, "%zu", ctx->sizes[ctx->nsizes - 1]);
    lab05_add_value(ctx, "config", "max_size", -1, -1, text, "");
    snprintf(text, sizeof text, "%llu", (unsigned long long)ctx->opt.seed);
    lab05_add_value(ctx, "config", "seed", -1, -1, text, "");
}

/** @brief Parse the options, set up, run the chosen experiments, report. */
int main(int argc, char **argv)
{
    lab05_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opt.prog = lab_prog_name(argv[0]);
    ctx.opt.want_a = -1;
    ctx.opt.want_b = -1;
    ctx.opt.seed = LAB_DEFAULT_SEED;
    parse_options(argc, argv, &ctx.opt);

    choose_sizes(&ctx);
    choose_pairs(&ctx); /* exits 77 with fewer than two GPUs, 2 on bad ids */
    ctx.gpu = calloc((size_t)ctx.n, sizeof *ctx.gpu);
    ctx.link = calloc((size_t)ctx.n * (size_t)ctx.n, sizeof *ctx.link);
    if (ctx.gpu == NULL || ctx.link == NULL) {
        fprintf(stderr, "%s: out of memory\n", ctx.opt.prog);
        return LAB_EXIT_FAIL;
    }
    describe_gpus(&ctx);
    lab05_query_links(&ctx);
    require_runnable(&ctx);
    allocate(&ctx);
    add_config(&ctx);

    const bool progress = ctx.opt.progress || isatty(STDERR_FILENO);
    for (int i = 0; i < lab05_experiment_count; i++) {
        const lab05_experiment *e = &lab05_experiments[i];
        if (!chosen(&ctx, i))
            continue;
        char why[200] = "";
        if (!e->can_run(&ctx, why, sizeof why)) {
            lab05_add_value(&ctx, e->key, "skipped", -1, -1, "", why);
            continue;
        }
        if (progress)
            fprintf(stderr, "%s: running %s ...\n", ctx.opt.prog, e->key);
        e->run(&ctx);
    }

    lab05_judge_claims(&ctx);
    if (ctx.opt.csv)
        lab05_write_csv(&ctx, stdout, NULL);
    else
        lab05_print_report(&ctx);
    if (ctx.opt.out_dir)
        lab05_write_out_dir(&ctx, ctx.opt.out_dir);
    release(&ctx);
    return LAB_EXIT_OK;
}
