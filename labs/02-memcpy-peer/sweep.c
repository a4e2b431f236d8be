/**
 * @file sweep.c
 * @brief Lab 02: the wrapper at every size, both ways, every byte checked;
 *        and the stream order of p2p_copy_async.
 *
 * The current device is the source GPU during these copies, on purpose: the
 * chapter says it must be the destination.
 */
#include "lab02.h"
#include "p2p_copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From 1 byte to 256 MiB: powers of two, their neighbours, and odd sizes
 * that no copy engine rounds to. */
static const size_t sweep_sizes[] = {
    1, 2, 3, 7, 8, 15, 64, 255, 256, 1000, 4095, 4096, 4097, 65535, 65536, 65537,
    (1u << 20) - 1, 1u << 20, (1u << 20) + 1, (16u << 20) - 3, 16u << 20,
    (64u << 20) + 5, (128u << 20) - 1, 256u << 20,
};

/** Source offset of the unaligned copies: not on a 4-byte boundary. */
#define SRC_SKEW 1
/** Destination offset of the unaligned copies: another misalignment than the source's. */
#define DST_SKEW 3

static void fail_now(const char *what)
{
    fprintf(stderr, "%s\n", what);
    exit(LAB_EXIT_FAIL);
}

/* One checked copy through the wrapper, then its row. */
static void sweep_copy(lab02_env *env, int dir, int async, size_t bytes, size_t src_off,
                       size_t dst_off)
{
    const gpu_side *src = &env->side[dir], *dst = &env->side[1 - dir];
    const char *method = async ? "p2p_copy_async" : "p2p_copy";
    char what[160], size_text[32];
    snprintf(what, sizeof what, "%s GPU%d -> GPU%d, %s at offsets %zu/%zu, peer %s", method,
             src->dev, dst->dev, lab_format_size(bytes, size_text, sizeof size_text),
             src_off, dst_off, peer_word(env->peer_on));

    poison_window(dst, window_bytes(bytes, dst_off));
    CUDA_CHECK(cudaSetDevice(src->dev));
    p2p_status status;
    if (async)
        status = p2p_copy_async(window_at(dst, dst_off), dst->dev, src->src + src_off, src->dev,
                                bytes, src->stream);
    else
        status = p2p_copy(window_at(dst, dst_off), dst->dev, src->src + src_off, src->dev,
                          bytes);
    if (status != P2P_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, p2p_status_name(status),
                p2p_status_message(status));
        exit(LAB_EXIT_FAIL);
    }
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    if (current != src->dev) {
        fprintf(stderr, "%s: the wrapper changed the current device from %d to %d\n", what,
                src->dev, current);
        exit(LAB_EXIT_FAIL);
    }
    if (async)
        CUDA_CHECK(cudaStreamSynchronize(src->stream));
    sync_device(src->dev);
    sync_device(dst->dev);
    if (verify_window(env, dst, dst_off, env->ref[dir] + src_off, bytes, what) != 0)
        fail_now("the size sweep found a wrong copy");

    row r = row_blank("sweep");
    snprintf(r.case_name, sizeof r.case_name, "%s", src_off || dst_off ? "unaligned" : "aligned");
    r.method = method;
    r.peer = env->peer_on;
    r.src_gpu = src->dev;
    r.dst_gpu = dst->dev;
    r.current_gpu = src->dev;
    r.bytes = (long long)bytes;
    r.src_offset = (long long)src_off;
    r.dst_offset = (long long)dst_off;
    r.verified = 1;
    r.untouched = 1; /* the guards around the copy kept their poison */
    results_add(env->out, &r);
}

void run_sweep(lab02_env *env)
{
    const int n_sizes = (int)(sizeof sweep_sizes / sizeof sweep_sizes[0]);
    for (int dir = 0; dir < 2; dir++)
        for (int async = 0; async < 2; async++) {
            int cap_done = 0;
            for (int i = 0; i < n_sizes && sweep_sizes[i] <= env->cap; i++) {
                size_t bytes = sweep_sizes[i];
                cap_done |= bytes == env->cap;
                sweep_copy(env, dir, async, bytes, 0, 0);
                if (bytes % 2)
                    sweep_copy(env, dir, async, bytes, SRC_SKEW, DST_SKEW);
            }
            if (!cap_done) /* --max-size not in the list: copy it as well */
                sweep_copy(env, dir, async, env->cap, 0, 0);
        }
}

/* Work queued in a stream before the copy must be done before it: new data
 * is written into the source in the stream, behind a delay, and then copied.
 * A copy that ignored the stream would run at once and move the old data. */
void run_stream_order(lab02_env *env)
{
    size_t bytes = env->cap < (1u << 20) + 1 ? env->cap : (1u << 20) + 1;
    for (int dir = 0; dir < 2; dir++) {
        const gpu_side *src = &env->side[dir], *dst = &env->side[1 - dir];
        char what[128];
        snprintf(what, sizeof what, "stream order GPU%d -> GPU%d, peer %s", src->dev, dst->dev,
                 peer_word(env->peer_on));
        fill_source(env->pinned, bytes, env->cfg->seed + 1000 + (uint64_t)dir);
        poison_window(dst, window_bytes(bytes, 0));

        CUDA_CHECK(cudaSetDevice(src->dev));
        enqueue_delay(src->stream, &env->delay_ms);
        CUDA_CHECK(cudaMemcpyAsync(src->src, env->pinned, bytes, cudaMemcpyHostToDevice,
                                   src->stream));
        p2p_status status = p2p_copy_async(window_at(dst, 0), dst->dev, src->src, src->dev,
                                           bytes, src->stream);
        if (status != P2P_OK) {
            fprintf(stderr, "%s: %s\n", what, p2p_status_name(status));
            exit(LAB_EXIT_FAIL);
        }
        CUDA_CHECK(cudaStreamSynchronize(src->stream));
        sync_device(dst->dev);
        if (verify_window(env, dst, 0, env->pinned, bytes, what) != 0)
            fail_now("p2p_copy_async did not follow the order of its stream");

        /* Put the seeded source back for the experiments that follow. */
        CUDA_CHECK(cudaSetDevice(src->dev));
        CUDA_CHECK(cudaMemcpy(src->src, env->ref[dir], bytes, cudaMemcpyHostToDevice));

        row r = row_blank("stream_order");
        snprintf(r.case_name, sizeof r.case_name, "after_delay_and_upload");
        r.method = "p2p_copy_async";
        r.peer = env->peer_on;
        r.src_gpu = src->dev;
        r.dst_gpu = dst->dev;
        r.current_gpu = src->dev;
        r.bytes = (long long)bytes;
        r.verified = 1;
        r.untouched = 1;
        results_add(env->out, &r);
    }
}
