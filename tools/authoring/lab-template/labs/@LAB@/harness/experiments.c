/**
 * @file experiments.c
 * @brief Lab @NN@'s registry: one experiment, a verified copy within one GPU.
 */
#include "copy_count.h"
#include "lab.h"

#include <stdlib.h>
#include <string.h>

extern const lab_host_part lab_host;

/** @brief One timed copy: what enqueue_copy() puts in the stream. */
typedef struct copy_job {
    void *dst;       /**< the destination, on GPU 0 */
    const void *src; /**< the source, on GPU 0 */
    size_t bytes;    /**< the bytes copied, counted by copy_bytes() */
} copy_job;

static cudaError_t enqueue_copy(cudaStream_t stream, void *arg)
{
    const copy_job *job = arg;
    return cudaMemcpyAsync(job->dst, job->src, job->bytes, cudaMemcpyDeviceToDevice, stream);
}

/* Copy count floats within GPU 0 (loopback: local memory, not a link). */
static int run_copy(lab_ctx *ctx)
{
    size_t count = ctx->args.quick ? 1u << 16 : 1u << 22, bytes = 0;
    if (copy_bytes(count, sizeof(float), &bytes) != 0)
        return lab_check(ctx, 0, "copy_bytes(%zu, %zu) refused a valid size", count, sizeof(float));
    lab_far src, dst;
    CUDA_CHECK(lab_far_alloc(&src, LAB_ROUTE_LOOPBACK, 0, 0, bytes));
    CUDA_CHECK(lab_far_alloc(&dst, LAB_ROUTE_LOOPBACK, 0, 0, bytes));
    unsigned char *want = lab_host_alloc(bytes, 1, "the reference data");
    unsigned char *got = lab_host_alloc(bytes, 1, "the copied data");
    lab_fill_bytes(want, bytes, (uint64_t)ctx->args.seed);
    CUDA_CHECK(cudaMemcpy(src.ptr, want, bytes, cudaMemcpyHostToDevice));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    copy_job job = {dst.ptr, src.ptr, bytes};
    lab_plan plan = {2, ctx->args.reps ? (int)ctx->args.reps : 10, 1, false};
    lab_timing timing;
    CUDA_CHECK(lab_time_work(stream, &plan, enqueue_copy, &job, &timing));
    CUDA_CHECK(cudaMemcpy(got, dst.ptr, bytes, cudaMemcpyDeviceToHost));

    lab_row row = lab_row_empty("copy", "memcpy_async");
    lab_row_set(row.route, sizeof row.route, "%s", lab_route_name(LAB_ROUTE_LOOPBACK));
    row.src = row.dst = 0;
    row.bytes = bytes;
    row.count = (long)count;
    row.us = timing.us;
    row.gbps = lab_gbps((double)bytes, timing.us.median / 1000.0);
    row.verified = memcmp(got, want, bytes) == 0;
    lab_emit(ctx, &row);

    CUDA_CHECK(cudaStreamDestroy(stream));
    lab_far_free(&src);
    lab_far_free(&dst);
    free(want);
    free(got);
    return 0;
}

static const lab_experiment experiments[] = {
    {"copy", "a verified copy within GPU 0, sized by TODO @NN@.1", lab_need_one_gpu, run_copy},
};

const lab_definition lab_this = {
    .host = &lab_host,
    .summary = "Lab @NN@: a template lab. Copies data within GPU 0 and verifies it.",
    .experiments = experiments,
    .experiment_count = sizeof experiments / sizeof experiments[0],
};
