/**
 * @file fault_child.c
 * @brief Lab 03: the child process that runs the chapter's kernel on GPU a
 *        against GPU b's memory with peer access never enabled.
 *
 * It runs in a process of its own because a fault of a kernel is sticky:
 * once it happened, every later call on that GPU's context returns the
 * error, and only the end of the process clears it. The child prints what
 * each step returned as key=value lines on stdout (flushed at once, so a
 * crash or a hang still leaves the lines written before it); the parent
 * reads them. Setup failures go to stderr and end the child with exit 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "peer_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/** Floats the child's kernel reads: 4 MiB, enough to cover many pages. */
#define FAULT_ELEMENTS ((size_t)1 << 20)

static void say(const char *key, const char *value)
{
    printf("%s=%s\n", key, value);
    fflush(stdout);
}

int fault_child_main(const lab03_config *cfg)
{
    const int a = cfg->want_a, b = cfg->want_b;
    const size_t n = FAULT_ELEMENTS, bytes = n * sizeof(float);

    int can = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
    say("can_access_peer", can ? "1" : "0");

    float *host = malloc(bytes), *back = malloc(bytes);
    if (host == NULL || back == NULL) {
        fprintf(stderr, "fault child: out of host memory\n");
        return LAB_EXIT_FAIL;
    }
    lab_fill_floats(host, n, cfg->seed);

    float *src_b = NULL, *dst_a = NULL;
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaMalloc((void **)&src_b, bytes));
    CUDA_CHECK(cudaMemcpy(src_b, host, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaMalloc((void **)&dst_a, bytes));
    CUDA_CHECK(cudaMemset(dst_a, 0xFF, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    say("ready", "1");

    /* Step 03.7: GPU a is current, and nothing in this process enabled
     * access from a to b. Launch the chapter's kernel on a, reading src_b,
     * without CUDA_CHECK (it would end the process): the errors are the
     * result. A launch error shows at once; a fault during the run shows
     * only when we wait for the kernel. */
    cudaError_t launch = cudaSuccess, sync = cudaSuccess;
#ifndef LAB_SKELETON
    launch_scale_raw(dst_a, src_b, n, 1024, 0);
    launch = cudaGetLastError();
    sync = cudaDeviceSynchronize();
#else
    LAB_TODO("03.7");
#endif
    say("launch", cudaGetErrorName(launch));
    say("sync", cudaGetErrorName(sync));

    if (cfg->simulate_hang) { /* test hook: the parent must kill us */
        say("hang", "simulated");
        for (;;)
            pause();
    }

    if (launch == cudaSuccess && sync == cudaSuccess) {
        cudaError_t err = cudaMemcpy(back, dst_a, bytes, cudaMemcpyDeviceToHost);
        int correct = err == cudaSuccess;
        for (size_t i = 0; correct && i < n; i++)
            correct = back[i] == 2.0f * host[i];
        say("data", err != cudaSuccess ? "unread" : correct ? "correct" : "wrong");
    } else {
        say("data", "unread");
    }

    /* Is the error sticky? Ask GPU a for something unrelated, then GPU b. */
    void *probe = NULL;
    cudaError_t after_a = cudaMalloc(&probe, 256);
    say("after_a", cudaGetErrorName(after_a));
    if (after_a == cudaSuccess)
        (void)cudaFree(probe);
    (void)cudaFree(dst_a); /* fails harmlessly when the context is lost */

    cudaError_t after_b = cudaSetDevice(b);
    if (after_b == cudaSuccess)
        after_b = cudaMemset(src_b, 0, bytes);
    if (after_b == cudaSuccess)
        after_b = cudaDeviceSynchronize();
    say("after_b", cudaGetErrorName(after_b));
    (void)cudaFree(src_b);

    free(host);
    free(back);
    say("done", "1");
    return LAB_EXIT_OK;
}
