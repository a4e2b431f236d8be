/**
 * @file main.c
 * @brief Lab 02 (chapter 4.2): cudaMemcpyPeer behind a checked wrapper,
 *        verified at every size, timed four ways, and the chapter's claims
 *        about it put to the test.
 *
 * Order of a run: the bad-argument cases; then, with peer access off and
 * (where the pair has it) on: the size sweep, the stream-order check, the
 * timing of the four methods, the current-device experiment and the
 * ordering experiment. Everything is verified before anything is printed.
 */
#include "lab02.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MAX_SIZE = 256, OPT_REPS, OPT_SEED, OPT_QUICK, OPT_BAD_ARGS, OPT_CSV };

static void usage(const char *prog)
{
    printf("usage: %s [options]\n"
           "\n"
           "Copies seeded data between two GPUs through a checked cudaMemcpyPeer wrapper,\n"
           "verifies every byte at sizes from 1 B up, times four ways to copy (cudaMemcpyPeer,\n"
           "cudaMemcpyPeerAsync, cudaMemcpy with cudaMemcpyDefault, host staging) with peer\n"
           "access off and on, and tests the claims of chapter 4.2.\n"
           "\n"
           "  -a, --gpu-a N      first GPU (default: a pair with peer access, else 0 and 1)\n"
           "  -b, --gpu-b N      second GPU\n"
           "      --max-size S   largest copy, 1 B .. 1 GiB (default 256MiB; units: 4K, 16MiB, 1G)\n"
           "      --reps N       timed repetitions per measurement, 1..1000 (default 20, quick 5)\n"
           "      --seed N       seed of the test data (default %u)\n"
           "      --quick        fewer sizes timed, fewer repetitions, shorter delays\n"
           "      --bad-args     only the bad-argument cases; runs without a GPU too\n"
           "      --csv          print CSV instead of tables\n"
           "      --help         show this help\n"
           "\n"
           "Exit status: 0 all checks passed, 1 a check or CUDA call failed, 2 bad usage,\n"
           "77 fewer than 2 GPUs (not with --bad-args).\n",
           prog, LAB_DEFAULT_SEED);
}

static void parse_options(int argc, char **argv, lab02_config *cfg)
{
    static const struct option options[] = {
        {"gpu-a", required_argument, NULL, 'a'},
        {"gpu-b", required_argument, NULL, 'b'},
        {"max-size", required_argument, NULL, OPT_MAX_SIZE},
        {"reps", required_argument, NULL, OPT_REPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"quick", no_argument, NULL, OPT_QUICK},
        {"bad-args", no_argument, NULL, OPT_BAD_ARGS},
        {"csv", no_argument, NULL, OPT_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *prog = cfg->prog;
    int reps_given = 0, opt;
    opterr = 0; /* report problems ourselves, in one line */
    while ((opt = getopt_long(argc, argv, ":a:b:h", options, NULL)) != -1) {
        switch (opt) {
        case 'a': cfg->want_a = (int)lab_opt_int(prog, "--gpu-a", optarg, 0, INT_MAX); break;
        case 'b': cfg->want_b = (int)lab_opt_int(prog, "--gpu-b", optarg, 0, INT_MAX); break;
        case OPT_MAX_SIZE:
            cfg->max_size = lab_opt_size(prog, "--max-size", optarg);
            if (cfg->max_size > ((size_t)1 << 30))
                lab_usage_error(prog, "--max-size: %s is out of range (1 B .. 1 GiB)", optarg);
            break;
        case OPT_REPS:
            cfg->reps = (int)lab_opt_int(prog, "--reps", optarg, 1, 1000);
            reps_given = 1;
            break;
        case OPT_SEED:
            cfg->seed = (uint64_t)lab_opt_int(prog, "--seed", optarg, 0, LONG_MAX);
            break;
        case OPT_QUICK: cfg->quick = 1; break;
        case OPT_BAD_ARGS: cfg->bad_args_only = 1; break;
        case OPT_CSV: cfg->format = LAB_FORMAT_CSV; break;
        case 'h': usage(prog); exit(LAB_EXIT_OK);
        case ':':
        default: lab_getopt_error(prog, argv, opt);
        }
    }
    lab_no_operands(prog, optind, argc, argv);
    if (cfg->quick && !reps_given)
        cfg->reps = 5;
}

/* The sizes timed: a few from latency-bound to bandwidth-bound, up to the
 * largest copy. A --max-size below the list's top is timed as well. */
static void choose_timing_sizes(lab02_env *env)
{
    static const size_t full[] = {4u << 10, 64u << 10, 1u << 20, 16u << 20, 64u << 20,
                                  256u << 20};
    static const size_t quick[] = {4u << 10, 1u << 20, 16u << 20, 64u << 20};
    const size_t *list = env->cfg->quick ? quick : full;
    int n = env->cfg->quick ? (int)(sizeof quick / sizeof quick[0])
                            : (int)(sizeof full / sizeof full[0]);
    env->n_timing_sizes = 0;
    for (int i = 0; i < n && list[i] <= env->cap; i++)
        env->timing_sizes[env->n_timing_sizes++] = list[i];
    if (env->cap < list[n - 1] &&
        (env->n_timing_sizes == 0 || env->timing_sizes[env->n_timing_sizes - 1] != env->cap))
        env->timing_sizes[env->n_timing_sizes++] = env->cap;
}

static void add_info(results *out, const char *key, long long value)
{
    row r = row_blank("info");
    snprintf(r.case_name, sizeof r.case_name, "%s", key);
    snprintf(r.got, sizeof r.got, "%lld", value);
    results_add(out, &r);
}

/* --bad-args: the wrapper's checks on whatever GPUs there are, none included. */
static int bad_args_mode(const lab02_config *cfg)
{
    lab02_env env;
    memset(&env, 0, sizeof env);
    env.cfg = cfg;
    env.n_gpus = lab_gpu_count(NULL, 0);
    int a = 0, b = 0;
    if (env.n_gpus >= 2 || cfg->want_a >= 0 || cfg->want_b >= 0)
        lab_select_pair(cfg->prog, cfg->want_a, cfg->want_b, false, &a, &b);
    env.side[0].dev = a;
    env.side[1].dev = b;

    results out = {0};
    add_info(&out, "gpus", env.n_gpus);
    run_bad_args(env.n_gpus, a, b, cfg->seed, &out);
    if (cfg->format == LAB_FORMAT_CSV)
        print_csv(&out);
    else
        print_table(&env, &out);
    int status = out.failures ? LAB_EXIT_FAIL : LAB_EXIT_OK;
    results_free(&out);
    return status;
}

static void describe_pair(lab02_env *env, int a, int b)
{
    int ids[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        struct cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, ids[i]));
        snprintf(env->name[i], sizeof env->name[i], "%s", prop.name);
    }
    env->p2p = lab_can_access_peer(a, b) && lab_can_access_peer(b, a);
    env->other = -1;
    for (int d = 0; d < env->n_gpus && env->other < 0; d++)
        if (d != a && d != b)
            env->other = d;
}

/** @brief Parse the options, run the experiments, print, and exit with the verdict. */
int main(int argc, char **argv)
{
    lab02_config cfg = {
        .prog = lab_prog_name(argv[0]),
        .want_a = -1,
        .want_b = -1,
        .max_size = (size_t)256 << 20,
        .reps = 20,
        .seed = LAB_DEFAULT_SEED,
        .quick = 0,
        .bad_args_only = 0,
        .format = LAB_FORMAT_TABLE,
    };
    parse_options(argc, argv, &cfg);
    if (cfg.bad_args_only)
        return bad_args_mode(&cfg);

    int a = -1, b = -1;
    lab_select_pair(cfg.prog, cfg.want_a, cfg.want_b, false, &a, &b);

    lab02_env env;
    memset(&env, 0, sizeof env);
    env.cfg = &cfg;
    env.n_gpus = lab_gpu_count(NULL, 0);
    env.cap = cfg.max_size;
    env.delay_ms = cfg.quick ? 20 : 50;
    describe_pair(&env, a, b);
    choose_timing_sizes(&env);

    results out = {0};
    env.out = &out;
    add_info(&out, "gpus", env.n_gpus);
    add_info(&out, "gpu_a", a);
    add_info(&out, "gpu_b", b);
    add_info(&out, "third_gpu", env.other);
    add_info(&out, "p2p", env.p2p);
    add_info(&out, "max_size", (long long)env.cap);
    add_info(&out, "reps", cfg.reps);
    add_info(&out, "delay_ms", env.delay_ms);

    run_bad_args(env.n_gpus, a, b, cfg.seed, &out);
    env_setup(&env, a, b);
    for (int peer = 0; peer <= env.p2p; peer++) {
        env_set_peer(&env, peer);
        run_sweep(&env);
        run_stream_order(&env);
        run_timing(&env);
        run_current_device(&env);
        run_ordering(&env);
    }
    env_teardown(&env);
    add_claims(&env, &out);

    if (cfg.format == LAB_FORMAT_CSV)
        print_csv(&out);
    else
        print_table(&env, &out);
    if (out.failures)
        fprintf(stderr, "%s: %d check(s) failed (see the messages above)\n", cfg.prog,
                out.failures);
    int status = out.failures ? LAB_EXIT_FAIL : LAB_EXIT_OK;
    results_free(&out);
    return status;
}
