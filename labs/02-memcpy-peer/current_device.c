/**
 * @file current_device.c
 * @brief Lab 02: what the current device changes for cudaMemcpyPeer.
 *
 * Two experiments. The first is the chapter's: copy with the current device
 * set to the source, to the destination and to a third GPU, and check the
 * data every time. The second shows what the current device does decide:
 * which pending work the copy waits for. A host function that sleeps is put
 * into one GPU's legacy default stream, a copy is issued, and a non-blocking
 * stream on the destination watches for the copy's last bytes to land.
 */
#include "lab02.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** At most this many repetitions per current device (each moves the largest size). */
#define CURRENT_REPS_MAX 10
/** Bytes copied in the ordering experiment. */
#define ORDERING_BYTES ((size_t)4 << 20)

static const char *current_case(int current, const gpu_side *src, const gpu_side *dst)
{
    return current == src->dev ? "current_src" : current == dst->dev ? "current_dst"
                                                                      : "current_other";
}

static void current_device_case(lab02_env *env, int dir, int current, size_t bytes, int reps,
                                double *samples)
{
    const gpu_side *src = &env->side[dir], *dst = &env->side[1 - dir];
    char what[160];
    snprintf(what, sizeof what, "cudaMemcpyPeer GPU%d -> GPU%d with GPU%d current, peer %s",
             src->dev, dst->dev, current, peer_word(env->peer_on));
    int arrived = 0;
    for (int r = 0; r < reps; r++) {
        poison_window(dst, window_bytes(bytes, 0));
        CUDA_CHECK(cudaSetDevice(current));
        double t0 = lab_host_seconds();
        CUDA_CHECK(cudaMemcpyPeer(window_at(dst, 0), dst->dev, src->src, src->dev, bytes));
        /* Wait for the two GPUs the data concerns, not for the current one. */
        sync_device(src->dev);
        sync_device(dst->dev);
        samples[r] = (lab_host_seconds() - t0) * 1e3;
        arrived += verify_window(env, dst, 0, env->ref[dir], bytes, what) == 0;
        sync_device(current);
    }
    row r = row_blank("current_device");
    snprintf(r.case_name, sizeof r.case_name, "%s", current_case(current, src, dst));
    r.method = "memcpy_peer";
    r.peer = env->peer_on;
    r.src_gpu = src->dev;
    r.dst_gpu = dst->dev;
    r.current_gpu = current;
    r.bytes = (long long)bytes;
    r.reps = reps;
    if (lab_stats_compute(samples, (size_t)reps, &r.ms) != 0 || r.ms.min <= 0.0) {
        fprintf(stderr, "%s: the host times are not finite and positive\n", what);
        exit(LAB_EXIT_FAIL);
    }
    r.gbps = lab_gbps((double)bytes, r.ms.median);
    r.verified = arrived == reps;
    if (!r.verified) {
        fprintf(stderr, "%s: the data arrived in %d of %d copies\n", what, arrived, reps);
        env->out->failures++;
    }
    results_add(env->out, &r);
}

void run_current_device(lab02_env *env)
{
    size_t bytes = env->timing_sizes[env->n_timing_sizes - 1];
    int reps = env->cfg->reps < CURRENT_REPS_MAX ? env->cfg->reps : CURRENT_REPS_MAX;
    double *samples = malloc((size_t)reps * sizeof *samples);
    if (samples == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(LAB_EXIT_FAIL);
    }
    for (int dir = 0; dir < 2; dir++) {
        current_device_case(env, dir, env->side[dir].dev, bytes, reps, samples);
        current_device_case(env, dir, env->side[1 - dir].dev, bytes, reps, samples);
        if (env->other >= 0)
            current_device_case(env, dir, env->other, bytes, reps, samples);
    }
    free(samples);
}

/* --- ordering --------------------------------------------------------------- */

/** One placement of the pending work and of the current device. */
typedef struct ordering_config {
    const char *name; /**< CSV case */
    int delay_dev;    /**< the GPU whose legacy stream holds the pending work */
    int current;      /**< the current device when the copy is issued */
} ordering_config;

/* Milliseconds from t0 until the last bytes of the copy are seen at the
 * destination, or -1 after timeout_ms. The watching stream is non-blocking:
 * it does not wait for the legacy stream's pending work. */
static double arrival_ms(lab02_env *env, const gpu_side *dst, const unsigned char *want,
                         size_t bytes, double t0, double timeout_ms)
{
    size_t n = bytes < 8 ? bytes : 8;
    const unsigned char *tail = window_at(dst, 0) + bytes - n;
    for (;;) {
        CUDA_CHECK(cudaMemcpyAsync(env->probe, tail, n, cudaMemcpyDeviceToHost, dst->poll));
        CUDA_CHECK(cudaStreamSynchronize(dst->poll));
        double ms = (lab_host_seconds() - t0) * 1e3;
        if (memcmp(env->probe, want + bytes - n, n) == 0)
            return ms;
        if (ms > timeout_ms)
            return -1.0;
    }
}

static void ordering_case(lab02_env *env, const ordering_config *cfg, const copy_method *method,
                          size_t bytes)
{
    const gpu_side *src = &env->side[0], *dst = &env->side[1];
    copy_job job = {src, dst, bytes, env->pinned};
    char what[192];
    snprintf(what, sizeof what, "%s GPU%d -> GPU%d, GPU%d current, work pending on GPU%d, peer %s",
             method->label, src->dev, dst->dev, cfg->current, cfg->delay_dev,
             peer_word(env->peer_on));

    poison_window(dst, window_bytes(bytes, 0));
    CUDA_CHECK(cudaSetDevice(cfg->delay_dev));
    enqueue_delay(cudaStreamLegacy, &env->delay_ms);
    CUDA_CHECK(cudaSetDevice(cfg->current));
    double t0 = lab_host_seconds();
    CUDA_CHECK(method->issue(&job));
    double ms = arrival_ms(env, dst, env->ref[0], bytes, t0, 20.0 * env->delay_ms + 5000.0);
    sync_device(cfg->delay_dev);
    sync_device(cfg->current);
    sync_device(src->dev);
    sync_device(dst->dev);

    row r = row_blank("ordering");
    snprintf(r.case_name, sizeof r.case_name, "%s", cfg->name);
    r.method = method->key;
    r.peer = env->peer_on;
    r.src_gpu = src->dev;
    r.dst_gpu = dst->dev;
    r.current_gpu = cfg->current;
    r.bytes = (long long)bytes;
    r.verified = verify_window(env, dst, 0, env->ref[0], bytes, what) == 0;
    if (ms >= 0.0) {
        r.reps = 1;
        r.ms.count = 1;
        r.ms.median = r.ms.min = r.ms.max = r.ms.mean = ms;
        r.waited = ms >= 0.5 * env->delay_ms;
    } else {
        fprintf(stderr, "%s: the copy was not seen at the destination in time\n", what);
        r.verified = 0;
    }
    if (!r.verified)
        env->out->failures++;
    results_add(env->out, &r);
}

void run_ordering(lab02_env *env)
{
    const int a = env->side[0].dev, b = env->side[1].dev, c = env->other;
    ordering_config configs[4] = {
        {"pending_on_src", a, b},
        {"pending_on_dst", b, a},
        {"pending_on_current_other", c, c},
        {"pending_on_other", c, a},
    };
    int n_configs = c >= 0 ? 4 : 2;
    size_t bytes = env->cap < ORDERING_BYTES ? env->cap : ORDERING_BYTES;
    for (int i = 0; i < n_configs; i++)
        for (int m = 0; m < n_copy_methods; m++)
            if (strcmp(copy_methods[m].key, "host_staged") != 0)
                ordering_case(env, &configs[i], &copy_methods[m], bytes);
}
