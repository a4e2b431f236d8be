/**
 * @file args.c
 * @brief Lab 02's args experiment: every kind of bad argument, given to the student's wrappers
 *        on purpose, with the status each must return. The cases live here, in the harness:
 *        the student's files cannot change what counts as a pass.
 */
#include "lab02.h"

#include <stdlib.h>
#include <string.h>

/** Bytes of each destination a case may reach (and that are checked). */
#define WINDOW 4096
/** Bytes a case asks to copy: fewer than WINDOW, so a copy's end is visible. */
#define N 1000

/** Which buffer a case passes: the destination on GPU b (GPU a with one GPU), one on GPU a,
 *  the source on GPU a, one on GPU b, pageable host memory as destination or source, pinned
 *  host memory. */
typedef enum ptr_kind { P_NULL, P_DST, P_DST_A, P_SRC, P_SRC_B, P_HOST_DST, P_HOST_SRC,
                        P_PINNED } ptr_kind;

/** Which device id a case passes: GPU a, GPU b, -1, the number of GPUs. */
typedef enum dev_kind { D_A, D_B, D_NEGATIVE, D_COUNT } dev_kind;

/** One call with its arguments and the status it must return. */
typedef struct arg_case {
    const char *name;    /**< the row's variant */
    char kind;           /**< 'f' p2p_copy_floats; 'c' p2p_copy(_async); '2' the same, two GPUs */
    ptr_kind dst;        /**< destination pointer */
    dev_kind dst_dev;    /**< destination device id */
    ptr_kind src;        /**< source pointer */
    dev_kind src_dev;    /**< source device id */
    size_t size;         /**< bytes, or floats for p2p_copy_floats */
    p2p_status expected; /**< what the wrapper must return */
} arg_case;

/* In the order of the TODOs: sizes (02.1, 02.6), host checks (02.2), ownership (02.3), then
 * the valid copy (02.4, 02.5). The pinned buffer was allocated with GPU a current and is
 * passed as GPU a's: only the memory type tells it from device memory. */
static const arg_case cases[] = {
    {"size_overflow", 'f', P_DST, D_B, P_SRC, D_A, SIZE_MAX / 4 + 1, P2P_ERR_SIZE_OVERFLOW},
    {"zero_count", 'f', P_DST, D_B, P_SRC, D_A, 0, P2P_ERR_ZERO_SIZE},
    {"valid_count", 'f', P_DST, D_B, P_SRC, D_A, N / 4, P2P_OK},
    {"null_dst", 'c', P_NULL, D_B, P_SRC, D_A, N, P2P_ERR_NULL_DST},
    {"null_src", 'c', P_DST, D_B, P_NULL, D_A, N, P2P_ERR_NULL_SRC},
    {"zero_bytes", 'c', P_DST, D_B, P_SRC, D_A, 0, P2P_ERR_ZERO_SIZE},
    {"dst_device_negative", 'c', P_DST, D_NEGATIVE, P_SRC, D_A, N, P2P_ERR_BAD_DST_DEVICE},
    {"dst_device_too_large", 'c', P_DST, D_COUNT, P_SRC, D_A, N, P2P_ERR_BAD_DST_DEVICE},
    {"src_device_negative", 'c', P_DST, D_B, P_SRC, D_NEGATIVE, N, P2P_ERR_BAD_SRC_DEVICE},
    {"src_device_too_large", 'c', P_DST, D_B, P_SRC, D_COUNT, N, P2P_ERR_BAD_SRC_DEVICE},
    {"dst_is_host_memory", 'c', P_HOST_DST, D_B, P_SRC, D_A, N, P2P_ERR_DST_NOT_ON_DEVICE},
    {"dst_is_pinned_host_memory", 'c', P_PINNED, D_A, P_SRC, D_A, N, P2P_ERR_DST_NOT_ON_DEVICE},
    {"src_is_host_memory", 'c', P_DST, D_B, P_HOST_SRC, D_A, N, P2P_ERR_SRC_NOT_ON_DEVICE},
    {"dst_on_other_gpu", '2', P_DST_A, D_B, P_SRC, D_A, N, P2P_ERR_DST_NOT_ON_DEVICE},
    {"src_on_other_gpu", '2', P_DST, D_B, P_SRC_B, D_A, N, P2P_ERR_SRC_NOT_ON_DEVICE},
    {"valid_copy", 'c', P_DST, D_B, P_SRC, D_A, N, P2P_OK},
};

/** The wrappers, in the order the cases run through them. */
static const char *const calls[] = {"p2p_copy_floats", "p2p_copy", "p2p_copy_async"};

/** What the cases point at: GPU a (near), GPU b (far: GPU a with one GPU), by kind. */
typedef struct arg_env {
    lab02 *st;               /**< the run's state (its buffers, its source data) */
    const lab02_side *near;  /**< GPU a */
    const lab02_side *far;   /**< GPU b, or GPU a with one GPU */
    void *ptr[P_PINNED + 1]; /**< the pointer of each ptr_kind */
    int dev[D_COUNT + 1];    /**< the device id of each dev_kind */
} arg_env;

/* How many destinations lost their poison; *exact is 1 when GPU b's holds exactly the
 * valid copy's bytes and nothing else changed there. */
static int count_written(const arg_env *env, int *exact)
{
    const lab02_side *sides[2] = {env->far, env->near};
    unsigned char *check = env->st->readback;
    CUDA_CHECK(cudaStreamSynchronize(env->near->stream));
    lab02_sync(env->near->dev);
    lab02_sync(env->far->dev);
    int written = !lab02_all_poison(env->ptr[P_HOST_DST], WINDOW) +
                  !lab02_all_poison(env->ptr[P_PINNED], WINDOW);
    *exact = 0;
    for (int s = 0; s < (env->far == env->near ? 1 : 2); s++) {
        CUDA_CHECK(cudaMemcpy(check, sides[s]->dst, WINDOW, cudaMemcpyDeviceToHost));
        if (lab02_all_poison(check, WINDOW))
            continue;
        written++;
        if (s == 0)
            *exact = memcmp(check, env->st->ref[0], N) == 0 &&
                     lab02_all_poison(check + N, WINDOW - N);
    }
    return written;
}

/* Poison every destination, make the call @p k of @p c, and check what it returned and wrote. */
static int run_case(lab_ctx *ctx, const arg_env *env, const arg_case *c, int k)
{
    void *dst = env->ptr[c->dst];
    const void *src = env->ptr[c->src];
    const int dst_dev = env->dev[c->dst_dev], src_dev = env->dev[c->src_dev];
    p2p_status got;
    memset(env->ptr[P_HOST_DST], POISON_BYTE, WINDOW);
    memset(env->ptr[P_PINNED], POISON_BYTE, WINDOW);
    lab02_poison(env->near, WINDOW - 2 * GUARD_BYTES, 0);
    lab02_poison(env->far, WINDOW - 2 * GUARD_BYTES, 0);
    CUDA_CHECK(cudaSetDevice(env->near->dev));
    if (k == 0)
        got = p2p_copy_floats(dst, dst_dev, src, src_dev, c->size);
    else if (k == 1)
        got = p2p_copy(dst, dst_dev, src, src_dev, c->size);
    else
        got = p2p_copy_async(dst, dst_dev, src, src_dev, c->size, env->near->stream);
    int exact = 0, written = count_written(env, &exact);
    bool pass = got == c->expected && (c->expected == P2P_OK ? written == 1 && exact
                                                               : written == 0);
    lab_row row = lab_row_empty("args", c->name);
    lab_row_set(row.route, sizeof row.route, "%s",
                env->far == env->near ? "loopback" : "peer_off");
    lab_row_set(row.mode, sizeof row.mode, "%s", calls[k]);
    row.dst = dst_dev;
    row.src = src_dev;
    if (k == 0)
        row.count = (long)c->size; /* at most SIZE_MAX / 4 + 1: fits */
    else
        row.bytes = c->size;
    row.verified = pass;
    lab_row_set(row.value, sizeof row.value, "%s", p2p_status_name(got));
    lab_row_set(row.detail, sizeof row.detail, "expected %s; %s", p2p_status_name(c->expected),
                written == 0  ? "nothing written"
                : exact       ? "exactly the copy's bytes written"
                              : "a destination was written");
    lab_emit(ctx, &row);
    return lab_check(ctx, pass, "args %s (%s): expected %s, got %s; %d destination(s) written",
                     c->name, calls[k], p2p_status_name(c->expected), p2p_status_name(got),
                     written);
}

int lab02_run_args(lab_ctx *ctx)
{
    lab02 *st = lab02_state(ctx);
    const lab02_side *near = &st->side[0], *far = st->b >= 0 ? &st->side[1] : near;
    unsigned char *host_src = lab_host_alloc(WINDOW, 1, "a host source");
    memcpy(host_src, st->ref[0], WINDOW);
    /* the run's pageable buffer and read-back buffer serve as host destination and check */
    const arg_env env = {st, near, far,
                         {NULL, far->dst, near->dst, near->src, far->src, st->pageable,
                          host_src, st->pinned},
                         {near->dev, far->dev, -1, ctx->gpus}};
    int status = 0;
    if (st->b >= 0) { /* the copies here are made with peer access off */
        CUDA_CHECK(lab_peer_access(st->a, st->b, false));
        CUDA_CHECK(lab_peer_access(st->b, st->a, false));
    } else {
        lab_emit_skipped(ctx, "args", "peer",
                         "dst_on_other_gpu and src_on_other_gpu need 2 GPUs; this machine has 1");
    }
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if ((cases[i].kind == 'f') == (k == 0) && (cases[i].kind != '2' || far != near))
                status |= run_case(ctx, &env, &cases[i], k);
    free(host_src);
    return status;
}
