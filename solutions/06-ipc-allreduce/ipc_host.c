/**
 * @file ipc_host.c
 * @brief Lab 06, the student's host functions: TODOs 06.1, 06.2, 06.3, 06.4 and 06.7
 *        (contracts in harness/allreduce.h).
 */
#include "allreduce.h"
#include "todo.h"

#include <math.h>

/** @brief TODO 06.1: an interprocess event, then the buffer's and the event's handles. */
cudaError_t ipc_export(void *buffer, cudaEvent_t *event, lab06_handles *out)
{
#ifndef LAB_SKELETON
    cudaError_t err = cudaEventCreateWithFlags(event, cudaEventInterprocess |
                                                          cudaEventDisableTiming);
    if (err != cudaSuccess) {
        *event = NULL;
        return err;
    }
    err = cudaIpcGetMemHandle(&out->mem, buffer);
    if (err == cudaSuccess)
        err = cudaIpcGetEventHandle(&out->event, *event);
    if (err != cudaSuccess) {
        cudaEventDestroy(*event);
        *event = NULL;
    }
    return err;
#else
    LAB_TODO("06.1");
#endif
}

/** @brief TODO 06.2: map the peer's buffer, open its event; all or nothing. */
cudaError_t ipc_open(const lab06_handles *in, lab06_peer *peer)
{
#ifndef LAB_SKELETON
    peer->ptr = NULL;
    peer->event = NULL;
    cudaError_t err = cudaIpcOpenMemHandle(&peer->ptr, in->mem, cudaIpcMemLazyEnablePeerAccess);
    if (err != cudaSuccess) {
        peer->ptr = NULL;
        return err;
    }
    err = cudaIpcOpenEventHandle(&peer->event, in->event);
    if (err != cudaSuccess) {
        cudaIpcCloseMemHandle(peer->ptr);
        peer->ptr = NULL;
        peer->event = NULL;
    }
    return err;
#else
    LAB_TODO("06.2");
#endif
}

/** @brief TODO 06.3: unmap and destroy what is open; the first error after trying both. */
cudaError_t ipc_close(lab06_peer *peer)
{
#ifndef LAB_SKELETON
    cudaError_t first = cudaSuccess;
    if (peer->ptr != NULL) {
        first = cudaIpcCloseMemHandle(peer->ptr);
        peer->ptr = NULL;
    }
    if (peer->event != NULL) {
        cudaError_t err = cudaEventDestroy(peer->event);
        if (first == cudaSuccess)
            first = err;
        peer->event = NULL;
    }
    return first;
#else
    LAB_TODO("06.3");
#endif
}

/** @brief TODO 06.4: which chunk rank r sends and receives in step s of a phase. */
int ring_schedule(int nranks, int rank, int phase, int step, lab06_ring_step *out)
{
#ifndef LAB_SKELETON
    if (nranks < 1 || nranks > LAB06_MAX_RANKS || rank < 0 || rank >= nranks)
        return -1;
    if ((phase != LAB06_REDUCE_SCATTER && phase != LAB06_ALL_GATHER) || step < 0 ||
        step > nranks - 2)
        return -1;
    /* + 2n keeps the remainder of a negative difference in 0..n-1 */
    const int send = phase == LAB06_REDUCE_SCATTER ? rank - step : rank - step + 1;
    out->send_chunk = (send + 2 * nranks) % nranks;
    out->recv_chunk = (send - 1 + 2 * nranks) % nranks;
    return 0;
#else
    LAB_TODO("06.4");
#endif
}

/** @brief TODO 06.7: algbw and busbw of an all-reduce, nccl-tests' way. */
int allreduce_bandwidth(size_t bytes, double seconds, int nranks, double *algbw, double *busbw)
{
#ifndef LAB_SKELETON
    if (!isfinite(seconds) || seconds <= 0.0 || nranks < 1)
        return -1;
    *algbw = (double)bytes / seconds / 1e9;
    *busbw = *algbw * 2.0 * (double)(nranks - 1) / (double)nranks;
    return 0;
#else
    LAB_TODO("06.7");
#endif
}
