/**
 * @file pair.c
 * @brief Lab 03: the two GPUs (names, streams, events, peer access) and the
 *        buffers every experiment shares.
 */
#include "peer_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks that fill a GPU: as many resident threads as its SMs hold. */
static int full_grid(int dev)
{
    int sms = 0, threads = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    int per_sm = threads / LAB03_THREADS;
    return (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
}

static void describe(int dev, char *name, size_t name_len, int *blocks,
                     cudaStream_t *stream, lab_timer *timer)
{
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(name, name_len, "%s", prop.name);
    *blocks = full_grid(dev);
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking));
    CUDA_CHECK(lab_timer_create(timer));
}

/* Step 03.1: a kernel on a may read b's memory only once a has been given
 * access to b (pull, and the copy engines of the copy-first variants);
 * a kernel on b may write a's memory only once b has access to a (push).
 * Access is per direction: enable both. */
static void enable_both(lab03_pair *pair)
{
    LAB_TODO("03.1");
}

/* Step 03.1, the other half: leave both GPUs as they were found. */
static void disable_both(lab03_pair *pair)
{
    LAB_TODO("03.1");
}

void pair_setup(lab03_pair *pair, int a, int b, int enable_peer)
{
    memset(pair, 0, sizeof *pair);
    pair->a = a;
    pair->b = b;
    describe(a, pair->name_a, sizeof pair->name_a, &pair->blocks_a, &pair->stream_a,
             &pair->timer_a);
    describe(b, pair->name_b, sizeof pair->name_b, &pair->blocks_b, &pair->stream_b,
             &pair->timer_b);
    if (enable_peer)
        enable_both(pair);
}

void pair_teardown(lab03_pair *pair)
{
    if (pair->peer_enabled)
        disable_both(pair);
    CUDA_CHECK(cudaSetDevice(pair->a));
    lab_timer_destroy(&pair->timer_a);
    CUDA_CHECK(cudaStreamDestroy(pair->stream_a));
    CUDA_CHECK(cudaSetDevice(pair->b));
    lab_timer_destroy(&pair->timer_b);
    CUDA_CHECK(cudaStreamDestroy(pair->stream_b));
}

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(LAB_EXIT_FAIL);
    }
    return p;
}

void buffers_create(const lab03_pair *pair, size_t cap_bytes, uint64_t seed,
                    lab03_buffers *buf)
{
    memset(buf, 0, sizeof *buf);
    const size_t count = cap_bytes / sizeof(float);
    const size_t alloc = cap_bytes + LAB03_GUARD * sizeof(float);
    buf->cap_bytes = cap_bytes;

    buf->host_src = host_alloc(alloc);
    buf->host_want = host_alloc(alloc);
    lab_fill_floats(buf->host_src, count + LAB03_GUARD, seed);
    for (size_t i = 0; i < count + LAB03_GUARD; i++)
        buf->host_want[i] = 2.0f * buf->host_src[i]; /* exact: values in [1, 2) */
    CUDA_CHECK(cudaMallocHost((void **)&buf->host_got, alloc));

    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaMalloc((void **)&buf->src_b, alloc));
    CUDA_CHECK(cudaMemcpy(buf->src_b, buf->host_src, alloc, cudaMemcpyHostToDevice));

    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMalloc((void **)&buf->src_a, alloc));
    CUDA_CHECK(cudaMalloc((void **)&buf->stage_a, alloc));
    CUDA_CHECK(cudaMalloc((void **)&buf->dst_a, alloc));
    CUDA_CHECK(cudaMemcpy(buf->src_a, buf->host_src, alloc, cudaMemcpyHostToDevice));
}

void buffers_destroy(const lab03_pair *pair, lab03_buffers *buf)
{
    CUDA_CHECK(cudaSetDevice(pair->b));
    CUDA_CHECK(cudaFree(buf->src_b));
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaFree(buf->src_a));
    CUDA_CHECK(cudaFree(buf->stage_a));
    CUDA_CHECK(cudaFree(buf->dst_a));
    CUDA_CHECK(cudaFreeHost(buf->host_got));
    free(buf->host_src);
    free(buf->host_want);
    memset(buf, 0, sizeof *buf);
}
