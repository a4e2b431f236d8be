/**
 * @file experiments.c
 * @brief Lab 05's registry, its options and its set-up: which GPUs, which pairs, which sizes,
 *        and the buffers every experiment shares. A full run goes through the entries in this
 *        order (-t KEY picks some): warmup comes early on purpose, as it wants the process's
 *        first copies and kernel launches.
 */
#include "lab05.h"

#include <stdlib.h>
#include <string.h>

static size_t opt_min_size, opt_max_size;

static const lab_option options[] = {
    {"min-size", 0, LAB_OPT_SIZE, "SIZE", "smallest size of the sweeps (default 1B)",
     &opt_min_size, 0, 0},
    {"max-size", 0, LAB_OPT_SIZE, "SIZE",
     "largest size of the sweeps (default 1GiB, quick 256MiB; at most 4GiB)", &opt_max_size, 1,
     4L << 30},
};

static const lab_experiment experiments[] = {
    {"link", "each GPU's PCIe link and NVLinks, each pair's path, the peaks (NVML, sysfs)",
     lab_need_one_gpu, lab05_run_link},
    {"warmup", "pitfall: the first copy and the first kernel launch against steady state",
     lab_need_one_gpu, lab05_run_warmup},
    {"ce_bandwidth", "copy engine sweep: every pair one and both ways, P2P on and off; the "
     "host link both directions and both at once", lab_need_one_gpu, lab05_run_ce_bandwidth},
    {"sm_bandwidth", "SM copy kernel sweep: pull and push, over P2P and over the host link "
     "(zero-copy)", lab_need_one_gpu, lab05_run_sm_bandwidth},
    {"memcpy_latency", "time of one 4-byte copy, queued and synchronized", lab_need_one_gpu,
     lab05_run_memcpy_latency},
    {"pointer_chase", "load latency: a pointer chain beyond L2 and in L2, local, peer and host "
     "memory", lab_need_one_gpu, lab05_run_pointer_chase},
    {"pingpong", "one-way latency: GPU and GPU, or GPU and CPU, answer each other through flags",
     lab_need_one_gpu, lab05_run_pingpong},
    {"cpu_timer", "pitfall: host clocks around an asynchronous copy, with and without a sync",
     lab_need_one_gpu, lab05_run_cpu_timer},
    {"cpu_sync", "pitfall: a host synchronize after every copy against one at the end",
     lab_need_one_gpu, lab05_run_cpu_sync},
    {"default_stream", "pitfall: the legacy default stream against non-blocking streams",
     lab_need_one_gpu, lab05_run_default_stream},
    {"streams", "pitfall: 1, 2, 4 and 8 streams sharing one link", lab_need_one_gpu,
     lab05_run_streams},
    {"preferl1", "the chapter's tip: cudaFuncCachePreferL1 on and off for the SM copy",
     lab_need_one_gpu, lab05_run_preferl1},
    {"pageable", "pitfall: copies from and to pageable host memory against pinned",
     lab_need_one_gpu, lab05_run_pageable},
};

/* Powers of two from 4 B and a few odd sizes (tails that are no multiple of 16), or a short
 * list with --quick; ascending, within --min-size .. --max-size. Returns how many. */
static int sweep_sizes(bool quick, size_t out[LAB05_MAX_SIZES])
{
    /* 1000003: 16-byte words and a 3-byte tail, so a tail in the wrong place shows. */
    static const size_t short_list[] = {4, 4096, 65536, 524288, 1000000, 1000003, 1048576,
                                        16777216, 67108864, 268435456};
    static const size_t odd[] = {3, 1000, 1000000, 100000000};
    const size_t lo = opt_min_size ? opt_min_size : 1;
    const size_t hi = opt_max_size ? opt_max_size : (quick ? short_list[9] : (size_t)1 << 30);
    size_t all[LAB05_MAX_SIZES];
    int count = 0, next_odd = 0, kept = 0;
    for (int i = 0; quick && i < 10; i++)
        all[count++] = short_list[i];
    for (int shift = 2; !quick && shift <= 32; shift++) { /* each odd size before its power */
        while (next_odd < 4 && odd[next_odd] < (size_t)1 << shift)
            all[count++] = odd[next_odd++];
        all[count++] = (size_t)1 << shift;
    }
    for (int i = 0; i < count; i++)
        if (all[i] >= lo && all[i] <= hi)
            out[kept++] = all[i];
    return kept;
}

/* The sweep's sizes into @p out (how many), or a usage error before any GPU set-up. */
static int checked_sizes(const lab_ctx *ctx, size_t out[LAB05_MAX_SIZES])
{
    char a[32], b[32];
    if (opt_min_size && opt_max_size && opt_min_size > opt_max_size)
        lab_usage_error(ctx->prog, "--min-size (%s) is larger than --max-size (%s)",
                        lab_format_size(opt_min_size, a, sizeof a),
                        lab_format_size(opt_max_size, b, sizeof b));
    const int count = sweep_sizes(ctx->args.quick, out);
    if (count == 0) /* a usage error, GPU or not */
        lab_usage_error(ctx->prog, "no sweep size lies between --min-size and --max-size");
    return count;
}

/* The one-pair GPUs (-a/-b, else the first P2P pair) and the sweeps' pairs: every ordered pair,
 * or the named pair both ways. */
static void choose_gpus(lab_ctx *ctx, lab05 *L)
{
    const int want_a = (int)ctx->args.gpu_a, want_b = (int)ctx->args.gpu_b;
    L->n = ctx->gpus;
    L->a = want_a >= 0 ? want_a : (want_b >= 0 && L->n == 1 ? want_b : 0);
    L->b = -1;
    if (L->n >= 2)
        lab_select_pair(ctx->prog, want_a, want_b, false, &L->a, &L->b);
    L->pairs = lab_host_alloc((size_t)L->n * (size_t)L->n * 2, sizeof *L->pairs, "the pairs");
    for (int i = 0; i < L->n; i++)
        for (int j = 0; j < L->n; j++) {
            const bool named = want_a >= 0 || want_b >= 0;
            if (i == j || (named && !((i == L->a && j == L->b) || (i == L->b && j == L->a))))
                continue;
            L->pairs[2 * L->npairs] = i;
            L->pairs[2 * L->npairs + 1] = j;
            L->npairs++;
        }
}

/* src with seeded data (its own seed per GPU, so that a copy from the wrong buffer fails
 * verification), dst zeroed, the reference on the host. */
static void alloc_gpu(lab05 *L, int g)
{
    lab05_gpu *gpu = &L->gpu[g];
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, g));
    const int per_sm = prop.maxThreadsPerMultiProcessor / LAB05_COPY_THREADS;
    gpu->sms = prop.multiProcessorCount;
    gpu->blocks = (per_sm > 0 ? per_sm : 1) * gpu->sms;
    gpu->ref = lab_host_alloc(L->buf_bytes, 1, "a GPU's reference data");
    lab_fill_bytes(gpu->ref, L->buf_bytes, L->seed + 1000003u * (uint64_t)g);
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaMalloc(&gpu->src, L->buf_bytes));
    CUDA_CHECK(cudaMalloc(&gpu->dst, L->buf_bytes));
    CUDA_CHECK(cudaMemcpy(gpu->src, gpu->ref, L->buf_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(gpu->dst, 0, L->buf_bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void alloc_buffers(lab_ctx *ctx, lab05 *L)
{
    char why[256];
    const size_t largest = L->sizes[L->nsizes - 1];
    L->buf_bytes = largest > LAB05_PITFALL_BYTES ? largest : LAB05_PITFALL_BYTES;
    /* The GPUs in use, in id order (the pairs list them so); GPU a alone with one GPU. */
    for (int p = 0; p < 2 * L->npairs; p++)
        if (L->gpu[L->pairs[p]].ref == NULL)
            alloc_gpu(L, L->pairs[p]);
    if (L->gpu[L->a].ref == NULL)
        alloc_gpu(L, L->a);
    if (lab_route_possible(LAB_ROUTE_HOST, L->a, -1, why, sizeof why)) {
        /* Pinned where the GPU's own CPUs are (nvbandwidth does the same). */
        if (lab_link_bind_near_cpus(L->a, why, sizeof why) != 0 && ctx->args.progress)
            fprintf(stderr, "%s: %s\n", ctx->prog, why);
        CUDA_CHECK(lab_far_alloc(&L->hsrc, LAB_ROUTE_HOST, L->a, -1, L->buf_bytes));
        CUDA_CHECK(lab_far_alloc(&L->hdst, LAB_ROUTE_HOST, L->a, -1, L->buf_bytes));
        L->href = lab_host_alloc(L->buf_bytes, 1, "the host buffer's reference data");
        lab_fill_bytes(L->href, L->buf_bytes, L->seed + 7777777u);
        memcpy(L->hsrc.host, L->href, L->buf_bytes);
        memset(L->hdst.host, 0, L->buf_bytes);
    } else {
        lab_emit_skipped(ctx, "routes", "host", "the host link: %s", why);
    }
    CUDA_CHECK(cudaMallocHost((void **)&L->check, L->buf_bytes));
}

static void config(lab_ctx *ctx, const char *variant, long long value, const char *detail)
{
    lab_row row = lab_row_empty("config", variant);
    lab_row_set(row.value, sizeof row.value, "%lld", value);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail);
    lab_emit(ctx, &row);
}

/* Say once which peer routes this machine lacks: all with one GPU, else each pair without P2P. */
static void note_missing_peers(lab_ctx *ctx, const lab05 *L)
{
    if (L->n < 2)
        lab_emit_skipped(ctx, "routes", "peer", "every peer route (GPU to GPU): needs 2 GPUs, "
                         "this machine has %d", L->n);
    for (int p = 0; p < L->npairs; p++) {
        const int a = L->pairs[2 * p], b = L->pairs[2 * p + 1];
        if (a > b || lab_links_pair(&L->links, a, b)->p2p)
            continue;
        lab_row *row = lab_emit_skipped(ctx, "routes", "peer", "GPU %d and GPU %d have no peer "
                                        "access: kernels cannot reach each other (P2P off and "
                                        "the host link still run)", a, b);
        row->src = a;
        row->dst = b;
    }
}

static int setup(lab_ctx *ctx)
{
    size_t sizes[LAB05_MAX_SIZES];
    const int nsizes = checked_sizes(ctx, sizes);
    if (ctx->gpus == 0)
        return 0; /* every experiment says why it cannot run */
    lab05 *L = lab_host_alloc(1, sizeof *L, "the lab's state");
    ctx->lab = L;
    L->quick = ctx->args.quick;
    L->reps = ctx->args.reps ? (int)ctx->args.reps : (L->quick ? 5 : 10);
    L->seed = (uint64_t)ctx->args.seed;
    memcpy(L->sizes, sizes, sizeof sizes);
    L->nsizes = nsizes;
    choose_gpus(ctx, L);
    CUDA_CHECK(lab_links_query(&L->links, L->n));
    alloc_buffers(ctx, L);
    config(ctx, "gpus", L->n, "");
    config(ctx, "pair_a", L->a, "the pair of one-pair experiments; the host link's GPU");
    config(ctx, "pair_b", L->b, L->b < 0 ? "one GPU: no pair" : "");
    config(ctx, "pairs", L->npairs, "ordered pairs of the sweeps");
    config(ctx, "reps", L->reps, "timed samples after a warm-up");
    config(ctx, "quick", L->quick, "");
    config(ctx, "min_size", (long long)L->sizes[0], "");
    config(ctx, "max_size", (long long)L->sizes[L->nsizes - 1], "");
    config(ctx, "seed", (long long)L->seed, "");
    note_missing_peers(ctx, L);
    return 0;
}

static void teardown(lab_ctx *ctx)
{
    lab05 *L = ctx->lab;
    if (L == NULL)
        return;
    lab_peer_access_reset();
    for (int g = 0; g < L->n; g++) {
        if (L->gpu[g].ref == NULL)
            continue;
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaFree(L->gpu[g].src));
        CUDA_CHECK(cudaFree(L->gpu[g].dst));
        free(L->gpu[g].ref);
    }
    lab_far_free(&L->hsrc);
    lab_far_free(&L->hdst);
    free(L->href);
    CUDA_CHECK(cudaFreeHost(L->check));
    lab_links_free(&L->links);
    free(L->pairs);
    free(L);
    ctx->lab = NULL;
}

const lab_definition lab_this = {
    .host = &lab_host,
    .summary =
        "Lab 05 (chapter 4.4): measures P2P performance as carefully as nvbandwidth. Bandwidth\n"
        "sweeps (copy engine and SM kernels, one and both ways, P2P on and off, every pair),\n"
        "latency (a small copy, a pointer chase, a ping-pong), the usual pitfalls of measuring,\n"
        "and each link's theoretical peak (NVML, sysfs) — over every route this machine has:\n"
        "a peer GPU (two GPUs) and the host link (pinned, mapped host memory; one GPU).\n"
        "Every result is a row; the chapter's claims are judged from the rows.",
    .epilogue = "Plots: gnuplot -e \"csv='DIR/05-p2p-performance.csv'; out='DIR'\" "
                "labs/05-p2p-performance/harness/plots.gp\n"
                "(after a run with --out DIR).",
    .options = options,
    .option_count = sizeof options / sizeof options[0],
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
    .setup = setup,
    .teardown = teardown,
};
