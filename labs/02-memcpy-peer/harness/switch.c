/**
 * @file switch.c
 * @brief Lab 02's device-switch experiment. The chapter advises cudaMemcpyPeer over "cudaMemcpy
 *        with a device switch", because switching may add synchronisation. Both are timed as a
 *        program makes them: on the host clock, calls back to back with the destination GPU
 *        current, the wait for both GPUs at the end of a sample shared by its calls, at every
 *        size of the run. Device events would leave out the very host-side cost the claim is about.
 */
#include "lab02.h"

#include <stdlib.h>

/** A sample lasts at least this many bytes of copies (at most SWITCH_CALLS_MAX calls). */
#define SWITCH_SAMPLE_BYTES ((size_t)64 << 20)
/** The most calls in one sample: small copies are timed in a batch, not one by one. */
#define SWITCH_CALLS_MAX 100

/** The two ways, by their row variants. */
static const char *const switch_ways[] = {"memcpy_peer", "set_device_memcpy"};

/* One call of @p way, made with the destination current; it leaves the destination current. */
static cudaError_t switch_call(int way, const lab02_leg *leg, size_t bytes)
{
    void *dst = leg->dst->window;
    if (way == 0)
        return cudaMemcpyPeer(dst, leg->dst->dev, leg->src->src, leg->src->dev, bytes);
    cudaError_t err = cudaSetDevice(leg->src->dev);
    if (err == cudaSuccess)
        err = cudaMemcpy(dst, leg->src->src, bytes, cudaMemcpyDefault);
    cudaError_t back = cudaSetDevice(leg->dst->dev);
    return err != cudaSuccess ? err : back;
}

/* Host microseconds per call of one sample of @p calls calls, both GPUs idle at its end. */
static double switch_sample(int way, const lab02_leg *leg, size_t bytes, int calls)
{
    CUDA_CHECK(cudaSetDevice(leg->dst->dev));
    const double start = lab_host_seconds();
    for (int i = 0; i < calls; i++)
        CUDA_CHECK(switch_call(way, leg, bytes));
    lab02_sync(leg->src->dev); /* a device-to-device copy may return before it is done */
    lab02_sync(leg->dst->dev);
    return (lab_host_seconds() - start) * 1e6 / calls;
}

static int time_switch_way(lab_ctx *ctx, lab02 *st, const lab02_leg *leg, int way, size_t bytes)
{
    size_t batch = SWITCH_SAMPLE_BYTES / bytes;
    const int calls = batch < 1 ? 1 : batch > SWITCH_CALLS_MAX ? SWITCH_CALLS_MAX : (int)batch;
    lab_row row = lab02_row("switch", switch_ways[way], "host_clock", leg, bytes);
    char what[160];
    lab02_what(leg, bytes, switch_ways[way], what, sizeof what);
    double *samples = lab_host_alloc((size_t)st->reps, sizeof *samples, "the host samples");
    lab02_poison(leg->dst, bytes, 0);
    switch_sample(way, leg, bytes, calls); /* warm-up */
    for (int r = 0; r < st->reps; r++)
        samples[r] = switch_sample(way, leg, bytes, calls);
    lab_stats_compute(samples, (size_t)st->reps, &row.us);
    free(samples);
    row.count = calls;
    row.gbps = lab_gbps((double)bytes, row.us.median / 1000.0);
    row.verified = lab02_verify(st, leg->dst, 0, st->ref[leg->src->index], bytes, what);
    lab_emit(ctx, &row);
    return lab_check(ctx, row.verified, "%s: a host-timed copy moved the wrong bytes", what);
}

static int switch_route(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs)
{
    int status = 0;
    for (int s = 0; s < st->n_sizes; s++)
        for (int l = 0; l < n_legs; l++)
            for (int w = 0; w < 2; w++)
                status |= time_switch_way(ctx, st, &legs[l], w, st->sizes[s]);
    return status;
}

int lab02_run_switch(lab_ctx *ctx)
{
    return lab02_each_route(ctx, "switch", true, switch_route);
}
