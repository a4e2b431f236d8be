/**
 * @file bad_args.c
 * @brief Lab 02: every kind of bad argument, given to the wrapper on purpose.
 *
 * Each case poisons every destination buffer, makes one call, waits for all
 * work, and checks the status returned and that no destination byte changed.
 * A last case is a valid copy: it must succeed and change the destination,
 * which shows that the "untouched" check can see a write at all.
 *
 * The cases that need no GPU (sizes, null pointers, device ids) run on any
 * machine: without a GPU the buffers are host memory, which the wrapper never
 * reaches because the host-side checks reject the call first.
 */
#include "lab02.h"
#include "p2p_copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Bytes each test buffer holds. */
#define BAD_WINDOW 4096
/** Bytes a case asks to copy (fewer than BAD_WINDOW, so a copy's end is visible). */
#define BAD_COPY_BYTES 1000

/** Which buffer a case passes. */
typedef enum ptr_kind {
    PTR_NULL,     /**< NULL */
    PTR_DST_A,    /**< destination buffer on GPU a */
    PTR_DST_B,    /**< destination buffer on GPU b (host memory without GPUs) */
    PTR_SRC_A,    /**< source buffer on GPU a (host memory without GPUs) */
    PTR_SRC_B,    /**< source buffer on GPU b */
    PTR_HOST_DST, /**< pageable host memory as the destination */
    PTR_HOST_SRC, /**< pageable host memory as the source */
    PTR_PINNED    /**< pinned host memory (cudaMallocHost) as the destination */
} ptr_kind;

/** Which device id a case passes. */
typedef enum dev_kind {
    DEV_A,       /**< GPU a (0 without GPUs) */
    DEV_B,       /**< GPU b (0 without GPUs) */
    DEV_NEGATIVE, /**< -1 */
    DEV_COUNT    /**< the number of GPUs: one past the last id */
} dev_kind;

/** One bad (or, last, good) call. */
typedef struct bad_case {
    const char *name;    /**< the CSV case name */
    int needs_gpus;      /**< GPUs the case needs */
    int floats;          /**< 1: p2p_copy_floats with a count; 0: p2p_copy and p2p_copy_async */
    ptr_kind dst;        /**< destination pointer */
    dev_kind dst_dev;    /**< destination device id */
    ptr_kind src;        /**< source pointer */
    dev_kind src_dev;    /**< source device id */
    size_t size;         /**< bytes, or floats for p2p_copy_floats */
    p2p_status expected; /**< what the wrapper must return */
} bad_case;

/* In the order a student meets the TODOs: 02.1 (sizes), 02.2 (host checks),
 * 02.3 (ownership), then the valid copy (02.4 and, for the stream call, 02.5). */
static const bad_case cases[] = {
    {"size_overflow", 0, 1, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_A,
     SIZE_MAX / sizeof(float) + 1, P2P_ERR_SIZE_OVERFLOW},
    {"zero_count", 0, 1, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_A, 0, P2P_ERR_ZERO_SIZE},
    /* The float wrapper's control: a count of floats must move count x 4 bytes. */
    {"valid_count", 1, 1, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES / sizeof(float),
     P2P_OK},
    {"null_dst", 0, 0, PTR_NULL, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES, P2P_ERR_NULL_DST},
    {"null_src", 0, 0, PTR_DST_B, DEV_B, PTR_NULL, DEV_A, BAD_COPY_BYTES, P2P_ERR_NULL_SRC},
    {"zero_bytes", 0, 0, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_A, 0, P2P_ERR_ZERO_SIZE},
    {"dst_device_negative", 0, 0, PTR_DST_B, DEV_NEGATIVE, PTR_SRC_A, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_BAD_DST_DEVICE},
    {"dst_device_too_large", 0, 0, PTR_DST_B, DEV_COUNT, PTR_SRC_A, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_BAD_DST_DEVICE},
    {"src_device_negative", 1, 0, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_NEGATIVE, BAD_COPY_BYTES,
     P2P_ERR_BAD_SRC_DEVICE},
    {"src_device_too_large", 1, 0, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_COUNT, BAD_COPY_BYTES,
     P2P_ERR_BAD_SRC_DEVICE},
    {"dst_is_host_memory", 1, 0, PTR_HOST_DST, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_DST_NOT_ON_DEVICE},
    {"dst_is_pinned_host_memory", 1, 0, PTR_PINNED, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_DST_NOT_ON_DEVICE},
    {"src_is_host_memory", 1, 0, PTR_DST_B, DEV_B, PTR_HOST_SRC, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_SRC_NOT_ON_DEVICE},
    {"dst_on_other_gpu", 2, 0, PTR_DST_A, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_DST_NOT_ON_DEVICE},
    {"src_on_other_gpu", 2, 0, PTR_DST_B, DEV_B, PTR_SRC_B, DEV_A, BAD_COPY_BYTES,
     P2P_ERR_SRC_NOT_ON_DEVICE},
    {"valid_copy", 1, 0, PTR_DST_B, DEV_B, PTR_SRC_A, DEV_A, BAD_COPY_BYTES, P2P_OK},
};

/** The buffers the cases point at. */
typedef struct bad_buffers {
    int n_gpus;                /**< GPUs visible */
    int dev[2];                /**< GPU a and b (equal with one GPU) */
    unsigned char *dev_dst[2]; /**< destination buffers on a and b (NULL without GPUs) */
    unsigned char *dev_src[2]; /**< source buffers on a and b, seeded */
    unsigned char *host_dst;   /**< pageable host destination */
    unsigned char *host_src;   /**< pageable host source, seeded */
    unsigned char *pinned;     /**< pinned host destination (NULL without GPUs) */
    unsigned char *want;       /**< host copy of the source data on a */
    unsigned char *check;      /**< host buffer for reading destinations back */
    cudaStream_t stream;       /**< non-blocking stream on a (NULL: legacy, without GPUs) */
} bad_buffers;

static unsigned char *checked_malloc(size_t bytes)
{
    unsigned char *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(LAB_EXIT_FAIL);
    }
    return p;
}

static void buffers_setup(bad_buffers *bb, int n_gpus, int a, int b, uint64_t seed)
{
    memset(bb, 0, sizeof *bb);
    bb->n_gpus = n_gpus;
    bb->dev[0] = a;
    bb->dev[1] = b;
    bb->host_dst = checked_malloc(BAD_WINDOW);
    bb->host_src = checked_malloc(BAD_WINDOW);
    bb->want = checked_malloc(BAD_WINDOW);
    bb->check = checked_malloc(BAD_WINDOW);
    fill_source(bb->want, BAD_WINDOW, seed);
    memcpy(bb->host_src, bb->want, BAD_WINDOW);
    if (n_gpus == 0)
        return;
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaSetDevice(bb->dev[i]));
        CUDA_CHECK(cudaMalloc((void **)&bb->dev_dst[i], BAD_WINDOW));
        CUDA_CHECK(cudaMalloc((void **)&bb->dev_src[i], BAD_WINDOW));
        CUDA_CHECK(cudaMemcpy(bb->dev_src[i], bb->want, BAD_WINDOW, cudaMemcpyHostToDevice));
    }
    CUDA_CHECK(cudaSetDevice(bb->dev[0]));
    CUDA_CHECK(cudaMallocHost((void **)&bb->pinned, BAD_WINDOW));
    CUDA_CHECK(cudaStreamCreateWithFlags(&bb->stream, cudaStreamNonBlocking));
}

static void buffers_teardown(bad_buffers *bb)
{
    if (bb->n_gpus > 0) {
        CUDA_CHECK(cudaSetDevice(bb->dev[0]));
        CUDA_CHECK(cudaStreamDestroy(bb->stream));
        CUDA_CHECK(cudaFreeHost(bb->pinned));
        for (int i = 0; i < 2; i++) {
            CUDA_CHECK(cudaSetDevice(bb->dev[i]));
            CUDA_CHECK(cudaFree(bb->dev_dst[i]));
            CUDA_CHECK(cudaFree(bb->dev_src[i]));
        }
    }
    free(bb->host_dst);
    free(bb->host_src);
    free(bb->want);
    free(bb->check);
}

static unsigned char *pointer_for(const bad_buffers *bb, ptr_kind kind)
{
    int gpu = bb->n_gpus > 0;
    switch (kind) {
    case PTR_NULL: return NULL;
    case PTR_DST_A: return bb->dev_dst[0];
    case PTR_DST_B: return gpu ? bb->dev_dst[1] : bb->host_dst;
    case PTR_SRC_A: return gpu ? bb->dev_src[0] : bb->host_src;
    case PTR_SRC_B: return bb->dev_src[1];
    case PTR_HOST_DST: return bb->host_dst;
    case PTR_HOST_SRC: return bb->host_src;
    case PTR_PINNED: return bb->pinned;
    }
    return NULL;
}

static int device_for(const bad_buffers *bb, dev_kind kind)
{
    switch (kind) {
    case DEV_A: return bb->n_gpus > 0 ? bb->dev[0] : 0;
    case DEV_B: return bb->n_gpus > 0 ? bb->dev[1] : 0;
    case DEV_NEGATIVE: return -1;
    case DEV_COUNT: return bb->n_gpus;
    }
    return -1;
}

/* Every destination a call could write, poisoned. */
static void poison_all(bad_buffers *bb)
{
    memset(bb->host_dst, POISON_BYTE, BAD_WINDOW);
    if (bb->n_gpus == 0)
        return;
    memset(bb->pinned, POISON_BYTE, BAD_WINDOW);
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaSetDevice(bb->dev[i]));
        CUDA_CHECK(cudaMemset(bb->dev_dst[i], POISON_BYTE, BAD_WINDOW));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
}

/* After a call: wait for anything it may have queued, then read every
 * destination. Returns how many destinations lost their poison; *copied is 1
 * when GPU b's destination holds exactly the valid copy's bytes. */
static int count_written(bad_buffers *bb, int *copied)
{
    int written = 0;
    *copied = 0;
    written += !all_bytes_are(bb->host_dst, BAD_WINDOW, POISON_BYTE, NULL);
    if (bb->n_gpus == 0)
        return written;
    CUDA_CHECK(cudaStreamSynchronize(bb->stream));
    sync_device(bb->dev[0]);
    sync_device(bb->dev[1]);
    written += !all_bytes_are(bb->pinned, BAD_WINDOW, POISON_BYTE, NULL);
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaSetDevice(bb->dev[i]));
        CUDA_CHECK(cudaMemcpy(bb->check, bb->dev_dst[i], BAD_WINDOW, cudaMemcpyDeviceToHost));
        if (all_bytes_are(bb->check, BAD_WINDOW, POISON_BYTE, NULL))
            continue;
        written++;
        if (i == 1 && memcmp(bb->check, bb->want, BAD_COPY_BYTES) == 0 &&
            all_bytes_are(bb->check + BAD_COPY_BYTES, BAD_WINDOW - BAD_COPY_BYTES,
                          POISON_BYTE, NULL))
            *copied = 1;
    }
    return written;
}

static void run_case(bad_buffers *bb, const bad_case *c, const char *method, results *out)
{
    row r = row_blank("bad_args");
    snprintf(r.case_name, sizeof r.case_name, "%s", c->name);
    r.method = method;
    r.expected = p2p_status_name(c->expected);
    unsigned char *dst = pointer_for(bb, c->dst);
    const unsigned char *src = pointer_for(bb, c->src);
    r.dst_gpu = device_for(bb, c->dst_dev);
    r.src_gpu = device_for(bb, c->src_dev);
    if (!c->floats)
        r.bytes = (long long)c->size;

    int usable = bb->n_gpus >= 2 ? 2 : bb->n_gpus;
    if (c->needs_gpus > usable) {
        snprintf(r.got, sizeof r.got, "skipped");
        r.verdict = "skipped";
        results_add(out, &r);
        return;
    }

    poison_all(bb);
    if (bb->n_gpus > 0)
        CUDA_CHECK(cudaSetDevice(bb->dev[0]));
    p2p_status got;
    if (c->floats)
        got = p2p_copy_floats((float *)dst, r.dst_gpu, (const float *)src, r.src_gpu, c->size);
    else if (strcmp(method, "p2p_copy_async") == 0)
        got = p2p_copy_async(dst, r.dst_gpu, src, r.src_gpu, c->size, bb->stream);
    else
        got = p2p_copy(dst, r.dst_gpu, src, r.src_gpu, c->size);
    snprintf(r.got, sizeof r.got, "%s", p2p_status_name(got));

    int copied = 0;
    int written = count_written(bb, &copied);
    r.untouched = written == 0;
    int pass;
    if (c->expected == P2P_OK) {
        r.verified = copied && written == 1;
        pass = got == P2P_OK && r.verified;
    } else {
        pass = got == c->expected && r.untouched;
    }
    r.verdict = pass ? "pass" : "fail";
    if (!pass) {
        fprintf(stderr, "bad argument case %s (%s): expected %s, got %s; %d destination(s) "
                        "written\n",
                c->name, method, r.expected, r.got, written);
        out->failures++;
    }
    results_add(out, &r);
}

void run_bad_args(int n_gpus, int a, int b, uint64_t seed, results *out)
{
    bad_buffers bb;
    buffers_setup(&bb, n_gpus, a, b, seed);
    const int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n_cases; i++)
        if (cases[i].floats)
            run_case(&bb, &cases[i], "p2p_copy_floats", out);
    for (int i = 0; i < n_cases; i++)
        if (!cases[i].floats)
            run_case(&bb, &cases[i], "p2p_copy", out);
    for (int i = 0; i < n_cases; i++)
        if (!cases[i].floats)
            run_case(&bb, &cases[i], "p2p_copy_async", out);
    buffers_teardown(&bb);
}
