/**
 * @file ipc.c
 * @brief The ranks' side of the ipc, raw_pointer and barrier experiments: a buffer shared through
 *        IPC handles (TODOs 06.1-06.3), a raw device pointer sent to another process, and what a
 *        barrier across processes costs.
 */
#include "lab06.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/** Floats of each rank's buffer in the ipc and raw_pointer experiments (1 MiB). */
#define IPC_COUNT (1u << 18)

static float *filled_buffer(const lab06_rank *me, int owner, float **host)
{
    float *dev = NULL;
    *host = lab_host_alloc(IPC_COUNT, sizeof(float), "a rank's data");
    for (size_t i = 0; i < IPC_COUNT; i++)
        (*host)[i] = lab06_value(me->opts.seed, owner, i);
    RANK_CHECK(me, cudaMalloc((void **)&dev, IPC_COUNT * sizeof(float)));
    RANK_CHECK(me, cudaMemcpy(dev, *host, IPC_COUNT * sizeof(float), cudaMemcpyHostToDevice));
    return dev;
}

/* A memory handle of zeros names no buffer: ipc_open must return the error and leave nothing
 * open, even though the event handle beside it (the next rank's, a real one) would open. */
static void bogus_handles_refused(const lab06_rank *me, const lab06_handles *next)
{
    lab06_handles bogus;
    lab06_peer peer = {(void *)1, (cudaEvent_t)1};
    memset(&bogus, 0, sizeof bogus);
    bogus.event = next->event;
    cudaError_t err = ipc_open(&bogus, &peer);
    cudaGetLastError();
    if (err == cudaSuccess)
        lab06_fail(me, "ipc_open returned cudaSuccess for a memory handle of zeros: was "
                       "cudaIpcOpenMemHandle's error returned?");
    if (peer.ptr != NULL || peer.event != NULL)
        lab06_fail(me, "ipc_open failed (%s) but left peer->ptr %p, peer->event %p: both must "
                       "be NULL", cudaGetErrorName(err), peer.ptr, (void *)peer.event);
}

/* Open rank q's handles, read its buffer through the mapped pointer, check it, close. */
static int read_peer(const lab06_rank *me, const lab06_handles *h, int q, float *got,
                     double *open_us)
{
    lab06_peer peer = {NULL, NULL};
    const double t0 = lab_host_seconds();
    cudaError_t err = ipc_open(h, &peer);
    *open_us = (lab_host_seconds() - t0) * 1e6;
    if (err != cudaSuccess || peer.ptr == NULL || peer.event == NULL)
        lab06_fail(me, "ipc_open of rank %d's handles: %s (ptr %p, event %p)", q,
                   cudaGetErrorName(err), peer.ptr, (void *)peer.event);
    lab06_written_elsewhere(peer.ptr, IPC_COUNT * sizeof(float));
    RANK_CHECK(me, cudaStreamWaitEvent(0, peer.event, 0));
    RANK_CHECK(me, cudaMemcpy(got, peer.ptr, IPC_COUNT * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = 1;
    for (size_t i = 0; i < IPC_COUNT && ok; i++)
        ok = got[i] == lab06_value(me->opts.seed, q, i);
    RANK_CHECK(me, ipc_close(&peer));
    if (peer.ptr != NULL || peer.event != NULL)
        lab06_fail(me, "ipc_close left peer->ptr %p, peer->event %p: both must be NULL",
                   peer.ptr, (void *)peer.event);
    if (!ok)
        lab06_fail(me, "the data read through rank %d's IPC handle is not rank %d's", q, q);
    return ok;
}

void lab06_rank_ipc(const lab06_rank *me)
{
    static lab06_handles all[LAB06_MAX_RANKS * (LAB06_BLOB / sizeof(lab06_handles))];
    float *host = NULL, *got = lab_host_alloc(IPC_COUNT, sizeof(float), "the data read");
    float *dev = filled_buffer(me, me->rank, &host);
    cudaEvent_t event = NULL;
    lab06_handles mine;
    double us[LAB06_MAX_RANKS] = {0};
    int n = 0, ok = 1;
    RANK_CHECK(me, ipc_export(dev, &event, &mine));
    if (event == NULL)
        lab06_fail(me, "ipc_export returned cudaSuccess with no event");
    RANK_CHECK(me, cudaEventRecord(event, 0));
    lab06_exchange(me, &mine, sizeof mine, all);
    bogus_handles_refused(me, (const lab06_handles *)((const char *)all +
                                                      (size_t)((me->rank + 1) % me->nranks) *
                                                          LAB06_BLOB));
    for (int q = 0; q < me->nranks; q++) {
        const lab06_handles *h = (const lab06_handles *)((const char *)all + (size_t)q * LAB06_BLOB);
        if (q != me->rank)
            ok &= read_peer(me, h, q, got, &us[n++]);
    }
    lab06_barrier(me); /* nobody reads this buffer any more */
    lab06_result r = {.bytes = IPC_COUNT * sizeof(float), .verified = ok};
    snprintf(r.variant, sizeof r.variant, "open_read_close");
    snprintf(r.route, sizeof r.route, "%s", lab06_route(me));
    snprintf(r.detail, sizeof r.detail, "opened %d peer buffer%s and events through IPC handles "
             "and read them; a handle of zeros was refused", n, n == 1 ? "" : "s");
    if (n > 0)
        lab06_set_times(&r, us, n);
    lab06_send_result(me, &r);
    RANK_CHECK(me, cudaEventDestroy(event));
    RANK_CHECK(me, cudaFree(dev));
    free(host);
    free(got);
}

/* What rank 0's raw pointer gave here: an error, rank 0's data, this rank's own, or other. */
static void judge_raw_read(const lab06_rank *me, cudaError_t err, const float *got,
                           const float *own, lab06_result *r)
{
    int theirs = 1, mine = 1;
    if (err != cudaSuccess) {
        snprintf(r->value, sizeof r->value, "%s", cudaGetErrorName(err));
        snprintf(r->detail, sizeof r->detail, "rank %d read rank 0's raw device pointer: %s",
                 me->rank, cudaGetErrorString(err));
        return;
    }
    for (size_t i = 0; i < IPC_COUNT; i++) {
        theirs &= got[i] == lab06_value(me->opts.seed, 0, i);
        mine &= got[i] == own[i];
    }
    snprintf(r->value, sizeof r->value, "%s",
             theirs ? "peer_data" : mine ? "own_data" : "other_data");
    snprintf(r->detail, sizeof r->detail, "rank %d read rank 0's raw device pointer with no "
             "error and got %s", me->rank,
             theirs ? "rank 0's data" : mine ? "its own buffer's data (the same address here)"
                                            : "data of neither rank");
}

void lab06_rank_raw_pointer(const lab06_rank *me)
{
    static uint64_t all[LAB06_MAX_RANKS * LAB06_BLOB / sizeof(uint64_t)];
    float *own = NULL, *got = lab_host_alloc(IPC_COUNT, sizeof(float), "the data read");
    float *dev = filled_buffer(me, me->rank, &own);
    const uint64_t mine = (uint64_t)(uintptr_t)dev;
    lab06_exchange(me, &mine, sizeof mine, all);
    if (me->rank == 1) {
        void *raw = (void *)(uintptr_t)all[0];
        cudaError_t err = cudaMemcpy(got, raw, IPC_COUNT * sizeof(float), cudaMemcpyDeviceToHost);
        cudaGetLastError(); /* the error is the measurement, not a failure of the run */
        lab06_result r = {.bytes = IPC_COUNT * sizeof(float), .verified = -1};
        snprintf(r.variant, sizeof r.variant, "raw_pointer");
        snprintf(r.route, sizeof r.route, "%s", lab06_route(me));
        judge_raw_read(me, err, got, own, &r);
        lab06_send_result(me, &r);
    }
    lab06_barrier(me);
    RANK_CHECK(me, cudaFree(dev));
    free(own);
    free(got);
}

/* Time @p reps barriers: the host clock around each. */
static void time_host_barrier(const lab06_rank *me, int reps, double *us)
{
    lab06_barrier(me);
    for (int i = 0; i < reps; i++) {
        const double t0 = lab_host_seconds();
        lab06_barrier(me);
        us[i] = (lab_host_seconds() - t0) * 1e6;
    }
}

/* Time @p reps event rounds: record this rank's event, barrier, wait in the stream on the left
 * neighbour's event, synchronize. */
static void time_event_round(const lab06_rank *me, int reps, double *us)
{
    static lab06_handles all[LAB06_MAX_RANKS * (LAB06_BLOB / sizeof(lab06_handles))];
    void *dev = NULL;
    cudaEvent_t event = NULL;
    cudaStream_t stream;
    lab06_handles mine;
    lab06_peer left = {NULL, NULL};
    const int l = (me->rank + me->nranks - 1) % me->nranks;
    RANK_CHECK(me, cudaMalloc(&dev, 256));
    RANK_CHECK(me, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    RANK_CHECK(me, ipc_export(dev, &event, &mine));
    lab06_exchange(me, &mine, sizeof mine, all);
    if (l != me->rank)
        RANK_CHECK(me, ipc_open((const lab06_handles *)((const char *)all + (size_t)l * LAB06_BLOB),
                                &left));
    for (int i = 0; i < reps; i++) {
        const double t0 = lab_host_seconds();
        RANK_CHECK(me, cudaEventRecord(event, stream));
        lab06_barrier(me);
        RANK_CHECK(me, cudaStreamWaitEvent(stream, left.event ? left.event : event, 0));
        RANK_CHECK(me, cudaStreamSynchronize(stream));
        us[i] = (lab_host_seconds() - t0) * 1e6;
    }
    lab06_barrier(me);
    RANK_CHECK(me, ipc_close(&left));
    RANK_CHECK(me, cudaEventDestroy(event));
    RANK_CHECK(me, cudaStreamDestroy(stream));
    RANK_CHECK(me, cudaFree(dev));
}

void lab06_rank_barrier(const lab06_rank *me)
{
    double us[256];
    const int reps = me->opts.quick ? 50 : 200;
    lab06_result r = {.verified = -1};
    snprintf(r.route, sizeof r.route, "%s", lab06_route(me));
    time_host_barrier(me, reps, us);
    snprintf(r.variant, sizeof r.variant, "host_barrier");
    snprintf(r.detail, sizeof r.detail, "a barrier of %d processes through the launcher's "
             "sockets; host clock", me->nranks);
    lab06_set_times(&r, us, reps);
    lab06_send_result(me, &r);
    time_event_round(me, reps, us);
    snprintf(r.variant, sizeof r.variant, "event_round");
    snprintf(r.detail, sizeof r.detail, "record an IPC event; barrier; the stream waits on the "
             "left neighbour's event; synchronize; host clock");
    lab06_set_times(&r, us, reps);
    lab06_send_result(me, &r);
}
