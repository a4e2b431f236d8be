/**
 * @file methods.c
 * @brief Lab 02: four ways to move the same bytes from one GPU to another,
 *        and how each is timed (TODOs 02.6 and 02.7).
 *
 * Each method is an entry of a small registry: a key, a label, a function
 * that issues one copy, and the stream the copy is ordered in, where the
 * timing events go. The events are made on the destination GPU.
 *
 * - cudaMemcpyPeer: ordered with the legacy default streams of the current
 *   device, the source and the destination, so events in the destination's
 *   legacy stream bracket it.
 * - cudaMemcpyPeerAsync on the destination's non-blocking stream.
 * - cudaMemcpy with cudaMemcpyDefault: unified addressing tells the runtime
 *   where both pointers live; it runs in the current device's legacy stream.
 * - Host staging: device to pinned host memory on the source's stream, then
 *   host to device on the destination's stream once the first half is done.
 */
#include "lab02.h"

#include <stdio.h>
#include <stdlib.h>

static cudaError_t issue_memcpy_peer(const copy_job *job)
{
    return cudaMemcpyPeer(window_at(job->dst, 0), job->dst->dev, job->src->src, job->src->dev,
                          job->bytes);
}

static cudaError_t issue_memcpy_peer_async(const copy_job *job)
{
    return cudaMemcpyPeerAsync(window_at(job->dst, 0), job->dst->dev, job->src->src,
                               job->src->dev, job->bytes, job->dst->stream);
}

static cudaError_t issue_memcpy_default(const copy_job *job)
{
    return cudaMemcpy(window_at(job->dst, 0), job->src->src, job->bytes, cudaMemcpyDefault);
}

/* Step 7: the path chapter 4.1 warns against: through host memory. */
static cudaError_t issue_host_staged(const copy_job *job)
{
#ifndef LAB_SKELETON
    CUDA_TRY(cudaMemcpyAsync(job->pinned, job->src->src, job->bytes, cudaMemcpyDeviceToHost,
                             job->src->stream));
    CUDA_TRY(cudaEventRecord(job->src->staged, job->src->stream));
    CUDA_TRY(cudaStreamWaitEvent(job->dst->stream, job->src->staged, 0));
    CUDA_TRY(cudaMemcpyAsync(window_at(job->dst, 0), job->pinned, job->bytes,
                             cudaMemcpyHostToDevice, job->dst->stream));
    return cudaSuccess;
#else
    LAB_TODO("02.7");
#endif
}

const copy_method copy_methods[] = {
    {"memcpy_peer", "cudaMemcpyPeer", issue_memcpy_peer, 0},
    {"memcpy_peer_async", "cudaMemcpyPeerAsync", issue_memcpy_peer_async, 1},
    {"memcpy_default", "cudaMemcpy(Default)", issue_memcpy_default, 0},
    {"host_staged", "host-staged", issue_host_staged, 1},
};
const int n_copy_methods = (int)(sizeof copy_methods / sizeof copy_methods[0]);

/* Everything of both GPUs finished; the destination current again. */
static void settle(const copy_job *job)
{
    sync_device(job->src->dev);
    sync_device(job->dst->dev);
}

/* Step 6: events around each copy, in the stream the copy is ordered in. */
void time_method(const copy_method *method, const copy_job *job, int reps,
                 double *samples_ms)
{
    cudaStream_t stream = method->on_dst_stream ? job->dst->stream : cudaStreamLegacy;
    lab_timer timer;
    CUDA_CHECK(lab_timer_create(&timer));
#ifndef LAB_SKELETON
    CUDA_CHECK(method->issue(job)); /* warm-up: first-use costs stay out of the samples */
    settle(job);
    for (int r = 0; r < reps; r++) {
        float ms = 0.0f;
        CUDA_CHECK(lab_timer_start(&timer, stream));
        CUDA_CHECK(method->issue(job));
        CUDA_CHECK(lab_timer_stop(&timer, stream));
        CUDA_CHECK(lab_timer_elapsed_ms(&timer, &ms));
        samples_ms[r] = ms;
    }
#else
    (void)stream;
    LAB_TODO("02.6");
#endif
    lab_timer_destroy(&timer);
}

void run_timing(lab02_env *env)
{
    const int reps = env->cfg->reps;
    double *samples = malloc((size_t)reps * sizeof *samples);
    if (samples == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(LAB_EXIT_FAIL);
    }
    for (int s = 0; s < env->n_timing_sizes; s++)
        for (int dir = 0; dir < 2; dir++)
            for (int m = 0; m < n_copy_methods; m++) {
                const copy_method *method = &copy_methods[m];
                copy_job job = {&env->side[dir], &env->side[1 - dir], env->timing_sizes[s],
                                env->pinned};
                char what[160], size_text[32];
                snprintf(what, sizeof what, "%s GPU%d -> GPU%d, %s, peer %s", method->label,
                         job.src->dev, job.dst->dev,
                         lab_format_size(job.bytes, size_text, sizeof size_text),
                         peer_word(env->peer_on));

                poison_window(job.dst, window_bytes(job.bytes, 0));
                CUDA_CHECK(cudaSetDevice(job.dst->dev));
                time_method(method, &job, reps, samples);
                settle(&job);
                if (verify_window(env, job.dst, 0, env->ref[dir], job.bytes, what) != 0) {
                    fprintf(stderr, "a timed copy moved the wrong bytes: %s\n", what);
                    exit(LAB_EXIT_FAIL);
                }

                row r = row_blank("timing");
                snprintf(r.case_name, sizeof r.case_name, "event_time");
                r.method = method->key;
                r.peer = env->peer_on;
                r.src_gpu = job.src->dev;
                r.dst_gpu = job.dst->dev;
                r.current_gpu = job.dst->dev;
                r.bytes = (long long)job.bytes;
                r.reps = reps;
                if (lab_stats_compute(samples, (size_t)reps, &r.ms) != 0 || r.ms.min <= 0.0) {
                    fprintf(stderr, "%s: the event times are not finite and positive\n", what);
                    exit(LAB_EXIT_FAIL);
                }
                r.gbps = lab_gbps((double)job.bytes, r.ms.median);
                r.verified = 1;
                results_add(env->out, &r);
            }
    free(samples);
}
