/**
 * @file allreduce.c
 * @brief The ranks' side of the allreduce experiment: every rank's buffers exported and opened
 *        (TODOs 06.1-06.3), then a size sweep of four all-reduces on the same data — the ring
 *        through the mapped peer buffers (06.4, 06.5), the one-shot (06.6), through pinned host
 *        memory shared by the processes, and NCCL where it can run — each verified exactly on
 *        every rank before its time is sent.
 */
#define _GNU_SOURCE
#include "lab06.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { ALGO_RING, ALGO_ONE_SHOT, ALGO_HOST_STAGED, ALGO_NCCL, ALGO_COUNT };
static const char *const algo_name[ALGO_COUNT] = {"ring", "one_shot", "host_staged", "nccl"};

/** @brief One rank's all-reduce state. */
typedef struct ar_state {
    const lab06_rank *me;      /**< this rank: its number, the ranks, its GPU */
    size_t max_count;          /**< floats of the largest size */
    float *in;                 /**< this rank's input (never written) */
    float *work;               /**< this rank's result buffer */
    cudaEvent_t in_event;      /**< exported with the input */
    cudaEvent_t work_event;    /**< exported with the result buffer */
    cudaStream_t stream;       /**< where this rank's collective runs */
    lab06_peer in_peer[LAB06_MAX_RANKS];   /**< the other ranks' inputs, opened here */
    lab06_peer work_peer[LAB06_MAX_RANKS]; /**< the other ranks' result buffers, opened here */
    lab06_inputs inputs;       /**< every rank's input, as this rank's kernels see them */
    float *ref;                /**< the exact sum on the host */
    float *host;               /**< a result read back */
    float *shared;             /**< the host memory every rank maps: N slots and a result */
    size_t shared_bytes;       /**< its size in bytes */
    void *nccl;                /**< the communicator, where NCCL runs */
} ar_state;

/** Does NCCL run with these ranks here? One rank per GPU, two GPUs or more, built with it. */
static bool nccl_runs(const lab06_rank *me)
{
    return lab06_have_nccl() && me->gpus >= 2 && me->nranks <= me->gpus;
}

static void fill_data(ar_state *s)
{
    const lab06_rank *me = s->me;
    s->ref = lab_host_alloc(s->max_count, sizeof(float), "the reference sum");
    s->host = lab_host_alloc(s->max_count, sizeof(float), "a rank's buffer on the host");
    for (size_t i = 0; i < s->max_count; i++) {
        float sum = 0.0f;
        for (int r = 0; r < me->nranks; r++)
            sum += lab06_value(me->opts.seed, r, i);
        s->ref[i] = sum;
        s->host[i] = lab06_value(me->opts.seed, me->rank, i);
    }
    RANK_CHECK(me, cudaMalloc((void **)&s->in, s->max_count * sizeof(float)));
    RANK_CHECK(me, cudaMalloc((void **)&s->work, s->max_count * sizeof(float)));
    RANK_CHECK(me, cudaMemcpy(s->in, s->host, s->max_count * sizeof(float),
                              cudaMemcpyHostToDevice));
    RANK_CHECK(me, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
}

/* Export both buffers, hand the handles round, open every other rank's. */
static void share_buffers(ar_state *s)
{
    static unsigned char all[LAB06_MAX_RANKS][LAB06_BLOB];
    const lab06_rank *me = s->me;
    lab06_handles mine[2];
    RANK_CHECK(me, ipc_export(s->in, &s->in_event, &mine[0]));
    RANK_CHECK(me, ipc_export(s->work, &s->work_event, &mine[1]));
    lab06_exchange(me, mine, sizeof mine, all);
    s->inputs.nranks = me->nranks;
    for (int q = 0; q < me->nranks; q++) {
        const lab06_handles *h = (const lab06_handles *)all[q];
        if (q == me->rank) {
            s->inputs.ptr[q] = s->in;
            continue;
        }
        RANK_CHECK(me, ipc_open(&h[0], &s->in_peer[q]));
        RANK_CHECK(me, ipc_open(&h[1], &s->work_peer[q]));
        lab06_written_elsewhere(s->in_peer[q].ptr, s->max_count * sizeof(float));
        lab06_written_elsewhere(s->work_peer[q].ptr, s->max_count * sizeof(float));
        s->inputs.ptr[q] = s->in_peer[q].ptr;
    }
}

/* The host memory the launcher made (a memfd), mapped and registered here. */
static void map_shared(ar_state *s)
{
    const lab06_rank *me = s->me;
    s->shared_bytes = (size_t)(me->nranks + 1) * s->max_count * sizeof(float);
    s->shared = mmap(NULL, s->shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, me->shm_fd, 0);
    if (s->shared == MAP_FAILED)
        lab06_fail(me, "cannot map the shared host memory (fd %d, %zu bytes)", me->shm_fd,
                   s->shared_bytes);
    RANK_CHECK(me, cudaHostRegister(s->shared, s->shared_bytes, cudaHostRegisterDefault));
}

static void setup(ar_state *s, const lab06_rank *me)
{
    memset(s, 0, sizeof *s);
    s->me = me;
    s->max_count = me->opts.max_bytes / sizeof(float);
    fill_data(s);
    share_buffers(s);
    map_shared(s);
    if (nccl_runs(me))
        s->nccl = lab06_nccl_init(me);
}

static void teardown(ar_state *s)
{
    const lab06_rank *me = s->me;
    lab06_barrier(me); /* no rank reads another's buffers any more */
    for (int q = 0; q < me->nranks; q++) {
        RANK_CHECK(me, ipc_close(&s->in_peer[q]));
        RANK_CHECK(me, ipc_close(&s->work_peer[q]));
    }
    lab06_nccl_free(s->nccl);
    RANK_CHECK(me, cudaHostUnregister(s->shared));
    munmap(s->shared, s->shared_bytes);
    RANK_CHECK(me, cudaEventDestroy(s->in_event));
    RANK_CHECK(me, cudaEventDestroy(s->work_event));
    RANK_CHECK(me, cudaStreamDestroy(s->stream));
    RANK_CHECK(me, cudaFree(s->in));
    RANK_CHECK(me, cudaFree(s->work));
    free(s->ref);
    free(s->host);
}

/* One ring step: wait for both neighbours' last step, do this rank's part, say it is done. */
static void ring_step(ar_state *s, size_t count, int phase, int step)
{
    const lab06_rank *me = s->me;
    const int n = me->nranks, left = (me->rank + n - 1) % n, right = (me->rank + 1) % n;
    lab06_ring_step st = {-1, -1};
    size_t off, len;
    if (ring_schedule(n, me->rank, phase, step, &st) != 0 || st.recv_chunk < 0 ||
        st.recv_chunk >= n || st.send_chunk < 0 || st.send_chunk >= n)
        lab06_fail(me, "ring_schedule(%d, %d, %d, %d) refused a valid step or gave chunk %d/%d",
                   n, me->rank, phase, step, st.send_chunk, st.recv_chunk);
    lab06_chunk(count, n, st.recv_chunk, &off, &len);
    RANK_CHECK(me, cudaStreamWaitEvent(s->stream, s->work_peer[left].event, 0));
    RANK_CHECK(me, cudaStreamWaitEvent(s->stream, s->work_peer[right].event, 0));
    const float *from = (const float *)s->work_peer[left].ptr + off;
    if (phase == LAB06_REDUCE_SCATTER)
        RANK_CHECK(me, launch_ring_reduce(s->work + off, from, len, s->stream));
    else
        RANK_CHECK(me, cudaMemcpyAsync(s->work + off, from, len * sizeof(float),
                                       cudaMemcpyDeviceToDevice, s->stream));
    RANK_CHECK(me, cudaEventRecord(s->work_event, s->stream));
    lab06_barrier(me);
}

/* The ring: reduce-scatter then all-gather, n-1 steps each, in place in work. */
static void ring(ar_state *s, size_t count)
{
    for (int phase = LAB06_REDUCE_SCATTER; phase <= LAB06_ALL_GATHER; phase++)
        for (int step = 0; step + 1 < s->me->nranks; step++)
            ring_step(s, count, phase, step);
}

/* Through the shared host memory: every rank's input to its slot, each rank sums its chunk of
 * every slot on the CPU, every rank copies the whole sum back. */
static void host_staged(ar_state *s, size_t count)
{
    const lab06_rank *me = s->me;
    const int n = me->nranks;
    float *slot = s->shared, *sum = s->shared + (size_t)n * s->max_count;
    size_t off, len;
    RANK_CHECK(me, cudaMemcpyAsync(slot + (size_t)me->rank * s->max_count, s->in,
                                   count * sizeof(float), cudaMemcpyDeviceToHost, s->stream));
    RANK_CHECK(me, cudaStreamSynchronize(s->stream));
    lab06_barrier(me);
    lab06_chunk(count, n, me->rank, &off, &len);
    for (size_t i = off; i < off + len; i++) {
        float total = 0.0f;
        for (int q = 0; q < n; q++)
            total += slot[(size_t)q * s->max_count + i];
        sum[i] = total;
    }
    lab06_barrier(me);
    RANK_CHECK(me, cudaMemcpyAsync(s->work, sum, count * sizeof(float), cudaMemcpyHostToDevice,
                                   s->stream));
}

/* One all-reduce of @p count floats, from a barrier to its end in this rank's stream. */
static void run_once(ar_state *s, int algo, size_t count)
{
    const lab06_rank *me = s->me;
    switch (algo) {
    case ALGO_RING:
        RANK_CHECK(me, cudaMemcpyAsync(s->work, s->in, count * sizeof(float),
                                       cudaMemcpyDeviceToDevice, s->stream));
        RANK_CHECK(me, cudaEventRecord(s->work_event, s->stream));
        lab06_barrier(me);
        ring(s, count);
        break;
    case ALGO_ONE_SHOT:
        RANK_CHECK(me, launch_one_shot(s->work, s->inputs, count, s->stream));
        break;
    case ALGO_HOST_STAGED:
        host_staged(s, count);
        break;
    default:
        lab06_nccl_allreduce(me, s->nccl, s->in, s->work, count, s->stream);
    }
    RANK_CHECK(me, cudaStreamSynchronize(s->stream));
}

/* Read the result back and compare it with the host's sum, element by element. */
static void verify(ar_state *s, int algo, size_t count)
{
    const lab06_rank *me = s->me;
    RANK_CHECK(me, cudaMemcpy(s->host, s->work, count * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < count; i++)
        if (s->host[i] != s->ref[i])
            lab06_fail(me, "%s all-reduce of %zu bytes: element %zu is %g, the sum of the "
                           "ranks' data is %g", algo_name[algo], count * sizeof(float), i,
                       (double)s->host[i], (double)s->ref[i]);
}

/* Warm up, time reps runs (each starting at a barrier, when every rank's stream is idle),
 * verify, send the rank's times. */
static void measure(ar_state *s, int algo, size_t count)
{
    const lab06_rank *me = s->me;
    double us[64];
    const int reps = me->opts.reps < 64 ? me->opts.reps : 64;
    for (int i = -1; i < reps; i++) {
        lab06_barrier(me); /* every rank's stream is idle: nobody still reads this buffer */
        RANK_CHECK(me, cudaMemsetAsync(s->work, 0xff, count * sizeof(float), s->stream));
        RANK_CHECK(me, cudaStreamSynchronize(s->stream));
        lab06_barrier(me);
        const double t0 = lab_host_seconds();
        run_once(s, algo, count);
        if (i >= 0)
            us[i] = (lab_host_seconds() - t0) * 1e6;
    }
    verify(s, algo, count);
    lab06_result r = {.bytes = count * sizeof(float), .verified = 1};
    snprintf(r.variant, sizeof r.variant, "%s", algo_name[algo]);
    snprintf(r.route, sizeof r.route, "%s", algo == ALGO_HOST_STAGED ? "host" : lab06_route(me));
    snprintf(r.detail, sizeof r.detail, "%d ranks on %d GPU%s; every element equals the host's "
             "sum", me->nranks, me->gpus < me->nranks ? me->gpus : me->nranks,
             (me->gpus < me->nranks ? me->gpus : me->nranks) == 1 ? "" : "s");
    lab06_set_times(&r, us, reps);
    lab06_send_result(me, &r);
}

/* The sizes: 4 KiB, x4 each, up to the largest; two odd ones (counts of no common factor
 * with 2..8, so neither the ranks nor a vector width divide them). */
static size_t lab06_sizes(size_t max_bytes, bool quick, size_t *out, size_t cap)
{
    size_t n = 0;
    const size_t step = quick ? 16 : 4;
    for (size_t b = 4096; b <= max_bytes && n < cap; b *= step) {
        out[n++] = b;
        if (b == 4096 && b + 12 <= max_bytes && n < cap)
            out[n++] = b + 12;           /* 1027 floats */
        if (b == 1u << 20 && b + 28 <= max_bytes && n < cap)
            out[n++] = b + 28;           /* 262151 floats */
    }
    return n;
}

void lab06_rank_allreduce(const lab06_rank *me)
{
    static ar_state s;
    size_t sizes[32];
    const size_t n = lab06_sizes(me->opts.max_bytes, me->opts.quick, sizes, 32);
    setup(&s, me);
    for (size_t k = 0; k < n; k++)
        for (int algo = 0; algo < ALGO_COUNT; algo++)
            if (algo != ALGO_NCCL || s.nccl != NULL)
                measure(&s, algo, sizes[k] / sizeof(float));
    teardown(&s);
}
