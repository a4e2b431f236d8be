/**
 * @file main.c
 * @brief Lab 04 (chapter 4.3, second half): cross-GPU atomics — scopes,
 *        correctness and cost. Options, the choice of the pair, the order
 *        of the experiments.
 *
 * The chapter tried `atomicAdd(&peerCounter[0], 1)` from one GPU on a
 * counter that lives on another and found it painfully slow. This program
 * measures what such atomics cost on this machine, shows which of them the
 * CUDA memory model makes correct, and compares them with the chapter's
 * advice: keep atomics local and move the partial results once.
 */
#include "peer_atomics.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *prog)
{
    printf("usage: %s [options]\n"
           "\n"
           "Cross-GPU atomics on one pair of GPUs (a holds the data, b reaches into it):\n"
           "counters incremented locally, from the peer and from both GPUs with device\n"
           "and system scope, warp- and block-aggregated, and accumulated locally then\n"
           "copied once; a 256-bin histogram, naive versus privatized; and the latency\n"
           "of one local and one remote atomic.\n"
           "\n"
           "  -a, --gpu-a N        GPU that holds the counter (default: a P2P pair with\n"
           "                       native atomics is chosen)\n"
           "  -b, --gpu-b N        GPU that reaches into a's memory\n"
           "      --reps N         timed repetitions per variant, after a warm-up (default 5)\n"
           "      --iters N        increments per thread in the counter runs (default 32)\n"
           "      --blocks N       blocks of 256 threads per GPU (default 4 per SM)\n"
           "      --hist-size SIZE bytes of histogram input, split over the GPUs\n"
           "                       (default 64MiB, at most 1GiB)\n"
           "      --chain-steps N  dependent atomics per latency run (default 4096)\n"
           "      --seed N         seed of the data (default %u)\n"
           "      --quick          small sizes and 3 repetitions (for tests)\n"
           "      --csv            print CSV instead of tables\n"
           "      --simulate-no-native-atomics\n"
           "                       behave as if the link had no native atomics (to\n"
           "                       test the skip path)\n"
           "  -h, --help           show this help\n"
           "\n"
           "Exit status: 0 done, 1 a check or CUDA call failed, 2 bad usage,\n"
           "77 fewer than 2 GPUs, no P2P pair, or no native atomics on the pair.\n",
           prog, LAB_DEFAULT_SEED);
}

/** Long options without a short form. */
enum {
    OPT_REPS = 1000,
    OPT_ITERS,
    OPT_BLOCKS,
    OPT_HIST_SIZE,
    OPT_CHAIN_STEPS,
    OPT_SEED,
    OPT_QUICK,
    OPT_CSV,
    OPT_SIMULATE,
};

/** Which values the command line gave: they win over --quick, whatever
 *  the order. */
typedef struct explicit_opts {
    int reps;  /**< --reps given */
    int iters; /**< --iters given */
    int hist;  /**< --hist-size given */
    int steps; /**< --chain-steps given */
} explicit_opts;

static void parse_options(int argc, char **argv, const char *prog, lab04_config *cfg)
{
    static const struct option options[] = {
        {"gpu-a", required_argument, NULL, 'a'},
        {"gpu-b", required_argument, NULL, 'b'},
        {"reps", required_argument, NULL, OPT_REPS},
        {"iters", required_argument, NULL, OPT_ITERS},
        {"blocks", required_argument, NULL, OPT_BLOCKS},
        {"hist-size", required_argument, NULL, OPT_HIST_SIZE},
        {"chain-steps", required_argument, NULL, OPT_CHAIN_STEPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"csv", no_argument, NULL, OPT_CSV},
        {"simulate-no-native-atomics", no_argument, NULL, OPT_SIMULATE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    explicit_opts given = {0, 0, 0, 0};
    int opt;
    opterr = 0; /* report problems ourselves, in one line */
    while ((opt = getopt_long(argc, argv, ":a:b:h", options, NULL)) != -1) {
        switch (opt) {
        case 'a': cfg->want_a = (int)lab_opt_int(prog, "--gpu-a", optarg, 0, INT_MAX); break;
        case 'b': cfg->want_b = (int)lab_opt_int(prog, "--gpu-b", optarg, 0, INT_MAX); break;
        case OPT_REPS:
            cfg->reps = (int)lab_opt_int(prog, "--reps", optarg, 1, 1000);
            given.reps = 1;
            break;
        case OPT_ITERS:
            cfg->iters = (int)lab_opt_int(prog, "--iters", optarg, 1, 1 << 16);
            given.iters = 1;
            break;
        case OPT_BLOCKS:
            cfg->blocks = (int)lab_opt_int(prog, "--blocks", optarg, 1, 1 << 16);
            break;
        case OPT_HIST_SIZE:
            cfg->hist_bytes = lab_opt_size(prog, "--hist-size", optarg);
            if (cfg->hist_bytes < 64 || cfg->hist_bytes > ((size_t)1 << 30))
                lab_usage_error(prog, "--hist-size: %s is out of range (64 B .. 1 GiB)",
                                optarg);
            given.hist = 1;
            break;
        case OPT_CHAIN_STEPS:
            cfg->chain_steps = (int)lab_opt_int(prog, "--chain-steps", optarg, 1, 1 << 24);
            given.steps = 1;
            break;
        case OPT_SEED:
            cfg->seed = (uint64_t)lab_opt_int(prog, "--seed", optarg, 0, LONG_MAX);
            break;
        case OPT_QUICK: cfg->quick = 1; break;
        case OPT_CSV: cfg->format = LAB_FORMAT_CSV; break;
        case OPT_SIMULATE: cfg->simulate_no_native = 1; break;
        case 'h': usage(prog); exit(LAB_EXIT_OK);
        case ':':
        default: lab_getopt_error(prog, argv, opt);
        }
    }
    lab_no_operands(prog, optind, argc, argv);
    if (cfg->quick) {
        if (!given.reps)
            cfg->reps = 3;
        if (!given.iters)
            cfg->iters = 4;
        if (!given.hist)
            cfg->hist_bytes = (size_t)4 << 20;
        if (!given.steps)
            cfg->chain_steps = 512;
    }
}

/* 4 blocks per SM of the smaller GPU fill both with work. */
static int default_blocks(int a, int b)
{
    int sm_a = 0, sm_b = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_a, cudaDevAttrMultiProcessorCount, a));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_b, cudaDevAttrMultiProcessorCount, b));
    int sms = sm_a < sm_b ? sm_a : sm_b;
    return 4 * (sms > 0 ? sms : 1);
}

/* Peer atomics need the link to carry them natively: b's atomics land in
 * a's memory, so the direction b -> a is the one that must have them. */
static void require_native_atomics(const char *prog, const link_info *link, int a, int b)
{
    if (link->native[1])
        return;
    printf("%s: skipped: no native atomics from GPU %d to GPU %d "
           "(cudaDevP2PAttrNativeAtomicSupported %d->%d = %d, %d->%d = %d%s): "
           "atomics across this link are not carried by its hardware, "
           "and this lab needs them\n",
           prog, b, a, a, b, link->native[0], b, a, link->native[1],
           link->simulated ? ", simulated by --simulate-no-native-atomics" : "");
    exit(LAB_EXIT_SKIP);
}

/** @brief Parse the options, choose the pair, run the experiments, print. */
int main(int argc, char **argv)
{
    const char *prog = lab_prog_name(argv[0]);
    lab04_config cfg = {
        .want_a = -1,
        .want_b = -1,
        .reps = 5,
        .iters = 32,
        .blocks = 0,
        .hist_bytes = (size_t)64 << 20,
        .chain_steps = 4096,
        .seed = LAB_DEFAULT_SEED,
        .quick = 0,
        .simulate_no_native = 0,
        .format = LAB_FORMAT_TABLE,
    };
    parse_options(argc, argv, prog, &cfg);

    int a = -1, b = -1;
    link_choose_pair(prog, &cfg, &a, &b);

    static lab04_results results; /* large: keep it off the stack */
    memset(&results, 0, sizeof results);
    link_query(&cfg, a, b, &results.link);
    require_native_atomics(prog, &results.link, a, b);
    if (cfg.blocks == 0)
        cfg.blocks = default_blocks(a, b);

    lab04_pair pair;
    pair_setup(&pair, a, b);

    run_counters(&pair, &cfg, results.counters);
    run_histogram(&pair, &cfg, results.hist);
    run_latency(&pair, &cfg, results.latency);

    if (cfg.format == LAB_FORMAT_CSV)
        print_report_csv(&cfg, &pair, &results);
    else
        print_report_table(&cfg, &pair, &results);

    pair_teardown(&pair);
    return LAB_EXIT_OK;
}
