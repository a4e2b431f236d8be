/**
 * @file measure.c
 * @brief Lab 03: timing with events, and checking results bit for bit.
 */
#include "peer_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lab_stats measure_ms(cudaStream_t stream, lab_timer *timer, int reps, lab03_work work,
                     void *ctx, const char *what)
{
    double samples[LAB03_MAX_REPS];
    if (reps < 1 || reps > LAB03_MAX_REPS) {
        fprintf(stderr, "%s: %d repetitions is out of range\n", what, reps);
        exit(LAB_EXIT_FAIL);
    }

    /* The warm-up pays for first-touch costs (module loading, page-table
     * set-up for peer mappings) outside the timed runs. */
    work(ctx);
    CUDA_CHECK(cudaStreamSynchronize(stream));

    for (int r = 0; r < reps; r++) {
        /* Step 03.3: one sample per run. The events go on the stream the
         * work runs on; the GPU stamps them when it reaches them, so the
         * time between them is the GPU's time for this run alone. */
        LAB_TODO("03.3");
    }

    lab_stats stats;
    if (lab_stats_compute(samples, (size_t)reps, &stats) != 0 || stats.min <= 0.0) {
        fprintf(stderr, "%s: the measured times are not positive finite numbers\n", what);
        exit(LAB_EXIT_FAIL);
    }
    return stats;
}

void poison_on_a(const lab03_pair *pair, float *device_buf, size_t n)
{
    CUDA_CHECK(cudaSetDevice(pair->a));
    CUDA_CHECK(cudaMemsetAsync(device_buf, 0xFF, (n + LAB03_GUARD) * sizeof(float),
                               pair->stream_a));
    CUDA_CHECK(cudaStreamSynchronize(pair->stream_a));
}

int verify_on_host(const lab03_pair *pair, const lab03_buffers *buf, const float *device_buf,
                   const float *want, size_t n, const char *what)
{
    const size_t bytes = (n + LAB03_GUARD) * sizeof(float);
    CUDA_CHECK(cudaSetDevice(pair->a)); /* every result lives on GPU a */
    CUDA_CHECK(cudaMemcpy(buf->host_got, device_buf, bytes, cudaMemcpyDeviceToHost));
    if (lab_verify_floats(what, buf->host_got, want, n) != 0)
        exit(LAB_EXIT_FAIL);

    /* The guard after element n-1 must still hold the poison: a kernel
     * without a bound check writes past the end. */
    const unsigned char *guard = (const unsigned char *)(buf->host_got + n);
    for (size_t i = 0; i < LAB03_GUARD * sizeof(float); i++) {
        if (guard[i] != 0xFF) {
            fprintf(stderr,
                    "verification failed: %s: element %zu, past the last of %zu, was "
                    "written (a missing bound check?)\n",
                    what, n + i / sizeof(float), n);
            exit(LAB_EXIT_FAIL);
        }
    }
    return 1;
}
