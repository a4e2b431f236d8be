/**
 * @file buffers.c
 * @brief Lab 02: buffers, streams and peer access of a run; poisoning and
 *        checking destination windows.
 *
 * A destination window is GUARD_BYTES of poison, the copy (at an offset of
 * up to MAX_OFFSET bytes), and GUARD_BYTES of poison again. A copy that
 * writes too much, too little or in the wrong place changes a byte that the
 * check compares.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab02.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(LAB_EXIT_FAIL);
    }
    return p;
}

static void side_setup(gpu_side *side, int dev, size_t cap, const unsigned char *data)
{
    side->dev = dev;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaMalloc((void **)&side->src, cap + MAX_OFFSET));
    CUDA_CHECK(cudaMalloc((void **)&side->dst, cap + MAX_OFFSET + 2 * GUARD_BYTES));
    CUDA_CHECK(cudaStreamCreateWithFlags(&side->stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&side->poll, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&side->staged, cudaEventDisableTiming));
    CUDA_CHECK(cudaMemcpy(side->src, data, cap + MAX_OFFSET, cudaMemcpyHostToDevice));
}

static void side_teardown(gpu_side *side)
{
    CUDA_CHECK(cudaSetDevice(side->dev));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventDestroy(side->staged));
    CUDA_CHECK(cudaStreamDestroy(side->poll));
    CUDA_CHECK(cudaStreamDestroy(side->stream));
    CUDA_CHECK(cudaFree(side->dst));
    CUDA_CHECK(cudaFree(side->src));
}

void fill_source(unsigned char *buf, size_t bytes, uint64_t seed)
{
    lab_fill_bytes(buf, bytes, seed);
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] == POISON_BYTE)
            buf[i] = (unsigned char)~POISON_BYTE;
}

void env_setup(lab02_env *env, int a, int b)
{
    size_t span = env->cap + MAX_OFFSET;
    for (int i = 0; i < 2; i++) {
        env->ref[i] = host_alloc(span);
        fill_source(env->ref[i], span, env->cfg->seed + (uint64_t)i);
    }
    env->readback = host_alloc(env->cap + MAX_OFFSET + 2 * GUARD_BYTES);
    side_setup(&env->side[0], a, env->cap, env->ref[0]);
    side_setup(&env->side[1], b, env->cap, env->ref[1]);
    CUDA_CHECK(cudaMallocHost((void **)&env->pinned, env->cap));
    CUDA_CHECK(cudaMallocHost((void **)&env->probe, 8));
    env->peer_on = 0;
}

void env_teardown(lab02_env *env)
{
    env_set_peer(env, 0);
    side_teardown(&env->side[0]);
    side_teardown(&env->side[1]);
    CUDA_CHECK(cudaFreeHost(env->probe));
    CUDA_CHECK(cudaFreeHost(env->pinned));
    free(env->readback);
    free(env->ref[0]);
    free(env->ref[1]);
}

/* Only real changes are made: asking to disable what is not enabled would
 * return an error on purpose, and tools such as compute-sanitizer report it. */
void env_set_peer(lab02_env *env, int on)
{
    int a = env->side[0].dev, b = env->side[1].dev;
    if (on == env->peer_on)
        return;
    if (on) {
        CUDA_CHECK(lab_enable_peer(a, b));
        CUDA_CHECK(lab_enable_peer(b, a));
    } else {
        CUDA_CHECK(lab_disable_peer(a, b));
        CUDA_CHECK(lab_disable_peer(b, a));
    }
    env->peer_on = on;
}

void sync_device(int dev)
{
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaDeviceSynchronize());
}

unsigned char *window_at(const gpu_side *side, size_t offset)
{
    return side->dst + GUARD_BYTES + offset;
}

size_t window_bytes(size_t bytes, size_t offset)
{
    return GUARD_BYTES + offset + bytes + GUARD_BYTES;
}

void poison_window(const gpu_side *side, size_t bytes)
{
    CUDA_CHECK(cudaSetDevice(side->dev));
    CUDA_CHECK(cudaMemset(side->dst, POISON_BYTE, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

int all_bytes_are(const unsigned char *buf, size_t bytes, unsigned char value, size_t *where)
{
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != value) {
            if (where)
                *where = i;
            return 0;
        }
    return 1;
}

int verify_window(const lab02_env *env, const gpu_side *side, size_t offset,
                  const unsigned char *want, size_t bytes, const char *what)
{
    size_t total = window_bytes(bytes, offset);
    size_t before = GUARD_BYTES + offset;
    CUDA_CHECK(cudaSetDevice(side->dev));
    CUDA_CHECK(cudaMemcpy(env->readback, side->dst, total, cudaMemcpyDeviceToHost));
    size_t where = 0;
    if (!all_bytes_are(env->readback, before, POISON_BYTE, &where)) {
        fprintf(stderr, "verification failed: %s: byte %zu before the copy was written "
                        "(0x%02x, poison is 0x%02x)\n",
                what, before - where, env->readback[where], POISON_BYTE);
        return 1;
    }
    if (lab_verify_bytes(what, env->readback + before, want, bytes) != 0)
        return 1;
    if (!all_bytes_are(env->readback + before + bytes, GUARD_BYTES, POISON_BYTE, &where)) {
        fprintf(stderr, "verification failed: %s: byte %zu after the end of the copy was "
                        "written (0x%02x, poison is 0x%02x)\n",
                what, where, env->readback[before + bytes + where], POISON_BYTE);
        return 1;
    }
    return 0;
}

/* Runs on a thread of the CUDA runtime when the stream reaches it; it must not
 * call CUDA. It only sleeps: a stand-in for long work, bounded by design. */
static void CUDART_CB sleep_host_fn(void *arg)
{
    const int ms = *(const int *)arg;
    struct timespec pause = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
}

void enqueue_delay(cudaStream_t stream, const int *ms)
{
    CUDA_CHECK(cudaLaunchHostFunc(stream, sleep_host_fn, (void *)ms));
}
