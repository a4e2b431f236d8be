/**
 * @file strided.c
 * @brief Lab 03: the same reads in a different order. Neighbouring threads
 *        read elements 1, 2, 4 ... 64 apart, from GPU b's memory over the
 *        link and, for comparison, from GPU a's own memory.
 *
 * Every element is still read once and the writes stay in order, so the
 * useful bytes are the same at every stride; what changes is how many of
 * the bytes the memory system moves are useful. With stride 1 a warp's 32
 * loads fall in one 128-byte line; with stride 8 or more each load needs a
 * 32-byte sector of its own.
 */
#include "peer_kernels.h"

#include <stdio.h>
#include <stdlib.h>

int lab03_stride(int index)
{
    return 1 << index; /* 1, 2, 4 ... 64 */
}

/* The reference: the kernel's index map (see launch_strided_scale), walked
 * column by column. Thread t = column * rows + row reads element
 * row * stride + column. */
static void strided_reference(float *want, const float *src, size_t n, size_t stride)
{
    const size_t rows = n / stride;
    for (size_t column = 0; column < stride; column++)
        for (size_t row = 0; row < rows; row++)
            want[column * rows + row] = 2.0f * src[row * stride + column];
}

/** What one strided run needs. */
typedef struct strided_ctx {
    const lab03_pair *pair; /**< the GPUs */
    float *dst;             /**< on a */
    const float *src;       /**< on b (peer) or on a (local) */
    unsigned int n;         /**< floats */
    unsigned int stride;    /**< elements between neighbouring reads */
} strided_ctx;

static void run_strided_once(void *arg)
{
    const strided_ctx *c = arg;
    launch_strided_scale(c->dst, c->src, c->n, c->stride, c->pair->blocks_a,
                         c->pair->stream_a);
}

void run_strided(lab03_pair *pair, const lab03_config *cfg, const lab03_buffers *buf,
                 lab03_results *results)
{
    const size_t n = cfg->stride_bytes / sizeof(float);
    float *want = malloc(n * sizeof(float));
    if (want == NULL) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", n * sizeof(float));
        exit(LAB_EXIT_FAIL);
    }

    for (int s = 0; s < LAB03_STRIDES; s++) {
        const size_t stride = (size_t)lab03_stride(s);
        strided_reference(want, buf->host_src, n, stride);

        for (int where = 0; where < 2; where++) { /* 0: peer memory, 1: local */
            strided_ctx ctx = {pair, buf->dst_a, where == 0 ? buf->src_b : buf->src_a,
                               (unsigned int)n, (unsigned int)stride};
            char what[96], size[32];
            snprintf(what, sizeof what, "strided read, stride %zu, %s, %s memory", stride,
                     lab_format_size(cfg->stride_bytes, size, sizeof size),
                     where == 0 ? "peer" : "local");

            poison_on_a(pair, buf->dst_a, n);
            CUDA_CHECK(cudaSetDevice(pair->a));
            stride_result *out = &results->stride[s][where];
            out->ms = measure_ms(pair->stream_a, &pair->timer_a, cfg->reps, run_strided_once,
                                 &ctx, what);
            out->bytes = cfg->stride_bytes;
            out->stride = (int)stride;
            out->reps = cfg->reps;
            out->gbps = lab_gbps((double)cfg->stride_bytes, out->ms.median);
            CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
            out->verified = verify_on_host(pair, buf, buf->dst_a, want, n, what);
        }
    }
    free(want);
    results->strides_run = 1;
}
