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
    LAB_TODO("06.1");
}

/** @brief TODO 06.2: map the peer's buffer, open its event; all or nothing. */
cudaError_t ipc_open(const lab06_handles *in, lab06_peer *peer)
{
    LAB_TODO("06.2");
}

/** @brief TODO 06.3: unmap and destroy what is open; the first error after trying both. */
cudaError_t ipc_close(lab06_peer *peer)
{
    LAB_TODO("06.3");
}

/** @brief TODO 06.4: which chunk rank r sends and receives in step s of a phase. */
int ring_schedule(int nranks, int rank, int phase, int step, lab06_ring_step *out)
{
    LAB_TODO("06.4");
}

/** @brief TODO 06.7: algbw and busbw of an all-reduce, nccl-tests' way. */
int allreduce_bandwidth(size_t bytes, double seconds, int nranks, double *algbw, double *busbw)
{
    LAB_TODO("06.7");
}
