/**
 * @file main.c
 * @brief Lab 03 (chapter 4.3, first half): kernels that read and write
 *        another GPU's memory. Options, the choice of the pair, and the
 *        order of the experiments.
 *
 * The chapter's kernel runs on GPU a, reads GPU b's buffer and writes
 * local = 2 x peer. This program runs it that way (pull), the other way
 * round (GPU b's kernel writes into a: push), and after a
 * cudaMemcpyPeerAsync (copy first, then compute locally); it compares read
 * patterns over the link; and it shows, in a child process, what happens
 * when a kernel touches peer memory without peer access.
 */
#include "peer_kernels.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *prog)
{
    printf("usage: %s [options]\n"
           "\n"
           "GPU a runs the chapter's kernel (local = 2 x peer) on data held by GPU b:\n"
           "reading it over the link (pull), having b's kernel write it into a (push),\n"
           "or copying it first with cudaMemcpyPeerAsync; every result is checked bit\n"
           "for bit and every run timed with events. Then coalesced against strided\n"
           "reads over the link, and a child process that touches b's memory without\n"
           "cudaDeviceEnablePeerAccess.\n"
           "\n"
           "  -a, --gpu-a N          GPU that runs the kernels and holds the result\n"
           "                         (default: the first pair with peer access)\n"
           "  -b, --gpu-b N          GPU that holds the source data\n"
           "      --min-size SIZE    smallest array of the sweep (default 4K)\n"
           "      --max-size SIZE    largest array (default 1G, at most 4G); sizes grow\n"
           "                         4x from min to max; a multiple of 4 bytes\n"
           "      --stride-size SIZE array of the read-pattern runs (default 256M,\n"
           "                         a multiple of 256 bytes, at most 1G)\n"
           "      --reps N           timed runs per measurement, after a warm-up\n"
           "                         (default 10)\n"
           "      --seed N           seed of the data (default %u)\n"
           "      --quick            sizes up to 64M, 16M read-pattern runs, 3 reps\n"
           "      --fault-only       run only the no-access demonstration\n"
           "      --no-fault-demo    skip the no-access demonstration\n"
           "      --fault-timeout S  seconds before the demonstration's child is\n"
           "                         killed (default 20)\n"
           "      --simulate-child-hang\n"
           "                         make the child hang after its kernel (a test hook\n"
           "                         for the timeout)\n"
           "      --csv              print CSV instead of tables\n"
           "  -h, --help             show this help\n"
           "\n"
           "SIZE takes units: 4096, 4K, 256MiB, 1G (K, M, G are powers of 1024).\n"
           "\n"
           "Exit status: 0 done, 1 a check or CUDA call failed, 2 bad usage,\n"
           "77 fewer than 2 GPUs or no pair with peer access.\n",
           prog, LAB_DEFAULT_SEED);
}

/** Long options without a short form. */
enum long_option {
    OPT_MIN_SIZE = 1000, /**< --min-size */
    OPT_MAX_SIZE,        /**< --max-size */
    OPT_STRIDE_SIZE,     /**< --stride-size */
    OPT_REPS,            /**< --reps */
    OPT_SEED,            /**< --seed */
    OPT_QUICK,           /**< --quick */
    OPT_FAULT_ONLY,      /**< --fault-only */
    OPT_NO_FAULT,        /**< --no-fault-demo */
    OPT_FAULT_TIMEOUT,   /**< --fault-timeout */
    OPT_SIMULATE_HANG,   /**< --simulate-child-hang */
    OPT_FAULT_CHILD,     /**< --fault-child (hidden: the child's side) */
    OPT_CSV,             /**< --csv */
};

/* A size option that must hold whole floats and stay below a limit. */
static size_t size_option(const char *prog, const char *option, const char *text,
                          size_t multiple, size_t limit)
{
    size_t bytes = lab_opt_size(prog, option, text);
    if (bytes % multiple != 0)
        lab_usage_error(prog, "%s: %s is not a multiple of %zu bytes", option, text, multiple);
    if (bytes > limit) {
        char max[32];
        lab_usage_error(prog, "%s: %s is out of range (at most %s)", option, text,
                        lab_format_size(limit, max, sizeof max));
    }
    return bytes;
}

static void parse_options(int argc, char **argv, lab03_config *cfg)
{
    static const struct option options[] = {
        {"gpu-a", required_argument, NULL, 'a'},
        {"gpu-b", required_argument, NULL, 'b'},
        {"min-size", required_argument, NULL, OPT_MIN_SIZE},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"stride-size", required_argument, NULL, OPT_STRIDE_SIZE},
        {"reps", required_argument, NULL, OPT_REPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"fault-only", no_argument, NULL, OPT_FAULT_ONLY},
        {"no-fault-demo", no_argument, NULL, OPT_NO_FAULT},
        {"fault-timeout", required_argument, NULL, OPT_FAULT_TIMEOUT},
        {"simulate-child-hang", no_argument, NULL, OPT_SIMULATE_HANG},
        {"fault-child", no_argument, NULL, OPT_FAULT_CHILD},
        {"csv", no_argument, NULL, OPT_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *prog = cfg->prog;
    int given_max = 0, given_stride = 0, given_reps = 0;
    int opt;
    opterr = 0; /* problems are reported below, in one line */
    while ((opt = getopt_long(argc, argv, ":a:b:h", options, NULL)) != -1) {
        switch (opt) {
        case 'a': cfg->want_a = (int)lab_opt_int(prog, "--gpu-a", optarg, 0, INT_MAX); break;
        case 'b': cfg->want_b = (int)lab_opt_int(prog, "--gpu-b", optarg, 0, INT_MAX); break;
        case OPT_MIN_SIZE:
            cfg->min_bytes = size_option(prog, "--min-size", optarg, sizeof(float),
                                         LAB03_SIZE_LIMIT);
            break;
        case OPT_MAX_SIZE:
            cfg->max_bytes = size_option(prog, "--max-size", optarg, sizeof(float),
                                         LAB03_SIZE_LIMIT);
            given_max = 1;
            break;
        case OPT_STRIDE_SIZE:
            cfg->stride_bytes = size_option(prog, "--stride-size", optarg,
                                            LAB03_MAX_STRIDE * sizeof(float),
                                            LAB03_STRIDE_SIZE_LIMIT);
            given_stride = 1;
            break;
        case OPT_REPS:
            cfg->reps = (int)lab_opt_int(prog, "--reps", optarg, 1, LAB03_MAX_REPS);
            given_reps = 1;
            break;
        case OPT_SEED:
            cfg->seed = (uint64_t)lab_opt_int(prog, "--seed", optarg, 0, LONG_MAX);
            break;
        case OPT_QUICK: cfg->quick = 1; break;
        case OPT_FAULT_ONLY: cfg->fault_only = 1; break;
        case OPT_NO_FAULT: cfg->no_fault_demo = 1; break;
        case OPT_FAULT_TIMEOUT:
            cfg->fault_timeout_s = (int)lab_opt_int(prog, "--fault-timeout", optarg, 1, 600);
            break;
        case OPT_SIMULATE_HANG: cfg->simulate_hang = 1; break;
        case OPT_FAULT_CHILD: cfg->fault_child = 1; break;
        case OPT_CSV: cfg->format = LAB_FORMAT_CSV; break;
        case 'h': usage(prog); exit(LAB_EXIT_OK);
        case ':':
        default: lab_getopt_error(prog, argv, opt);
        }
    }
    lab_no_operands(prog, optind, argc, argv);

    if (cfg->quick) { /* values given on the command line win */
        if (!given_max)
            cfg->max_bytes = (size_t)64 << 20;
        if (!given_stride)
            cfg->stride_bytes = (size_t)16 << 20;
        if (!given_reps)
            cfg->reps = 3;
    }
    if (cfg->min_bytes > cfg->max_bytes) {
        char lo[32], hi[32];
        lab_usage_error(prog, "--min-size (%s) is larger than --max-size (%s)",
                        lab_format_size(cfg->min_bytes, lo, sizeof lo),
                        lab_format_size(cfg->max_bytes, hi, sizeof hi));
    }
    if (cfg->fault_only && cfg->no_fault_demo)
        lab_usage_error(prog, "--fault-only and --no-fault-demo leave nothing to run");
    if (cfg->fault_child && (cfg->want_a < 0 || cfg->want_b < 0))
        lab_usage_error(prog, "--fault-child needs -a and -b");
}

/* min, 4 x min, 16 x min ... up to max, and max itself. */
static void plan_sizes(const lab03_config *cfg, lab03_results *r)
{
    r->nsizes = 0;
    for (size_t s = cfg->min_bytes; s <= cfg->max_bytes && r->nsizes < LAB03_MAX_SIZES;
         s *= 4) {
        r->sizes[r->nsizes++] = s;
        if (s > cfg->max_bytes / 4)
            break;
    }
    if (r->sizes[r->nsizes - 1] != cfg->max_bytes) {
        if (r->nsizes == LAB03_MAX_SIZES)
            r->nsizes--;
        r->sizes[r->nsizes++] = cfg->max_bytes;
    }
}

/** @brief Parse the options, choose the pair, run the experiments, print. */
int main(int argc, char **argv)
{
    lab03_config cfg = {
        .prog = lab_prog_name(argv[0]),
        .argv0 = argv[0],
        .want_a = -1,
        .want_b = -1,
        .min_bytes = (size_t)4 << 10,
        .max_bytes = (size_t)1 << 30,
        .stride_bytes = (size_t)256 << 20,
        .reps = 10,
        .seed = LAB_DEFAULT_SEED,
        .fault_timeout_s = 20,
        .format = LAB_FORMAT_TABLE,
    };
    parse_options(argc, argv, &cfg);
    if (cfg.fault_child)
        return fault_child_main(&cfg);

    int a = -1, b = -1;
    lab_select_pair(cfg.prog, cfg.want_a, cfg.want_b, true, &a, &b);

    static lab03_results results; /* large: keep it off the stack */
    memset(&results, 0, sizeof results);
    plan_sizes(&cfg, &results);

    lab03_pair pair;
    pair_setup(&pair, a, b, !cfg.fault_only);
    if (!cfg.fault_only) {
        lab03_buffers buf;
        size_t cap = cfg.max_bytes > cfg.stride_bytes ? cfg.max_bytes : cfg.stride_bytes;
        buffers_create(&pair, cap, cfg.seed, &buf);
        run_transfers(&pair, &cfg, &buf, &results);
        run_strided(&pair, &cfg, &buf, &results);
        buffers_destroy(&pair, &buf);
    }
    pair_teardown(&pair);

    /* Last, when this process no longer needs its GPUs: the child's fault
     * happens in another process and cannot touch our contexts anyway. */
    if (!cfg.no_fault_demo)
        run_fault_demo(&cfg, a, b, &results.fault);

    if (cfg.format == LAB_FORMAT_CSV)
        print_report_csv(&cfg, &pair, &results);
    else
        print_report_table(&cfg, &pair, &results);
    return LAB_EXIT_OK;
}
