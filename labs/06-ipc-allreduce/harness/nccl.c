/**
 * @file nccl.c
 * @brief NCCL beside the hand-written all-reduce: a communicator of every rank made through the
 *        launcher's rendezvous (rank 0's ncclGetUniqueId handed to all, then ncclCommInitRank),
 *        and the probe that asks NCCL for two ranks on one GPU, to record its refusal. Built
 *        without NCCL (LAB06_HAVE_NCCL unset: nccl.h was not found), it says so.
 */
#include "lab06.h"

#include <stdio.h>
#include <string.h>

#ifdef LAB06_HAVE_NCCL
#include <nccl.h>

_Static_assert(sizeof(ncclUniqueId) <= LAB06_BLOB, "an NCCL unique id fits one exchange");

bool lab06_have_nccl(void)
{
    return true;
}

/* ncclCommInitRank's result, with rank 0's unique id handed round. */
static ncclResult_t init_comm(const lab06_rank *me, ncclComm_t *comm)
{
    static unsigned char all[LAB06_MAX_RANKS][LAB06_BLOB];
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    if (me->rank == 0) {
        ncclResult_t rc = ncclGetUniqueId(&id);
        if (rc != ncclSuccess)
            lab06_fail(me, "ncclGetUniqueId: %s: %s", ncclGetErrorString(rc),
                       ncclGetLastError(NULL));
    }
    lab06_exchange(me, &id, sizeof id, all);
    memcpy(&id, all[0], sizeof id);
    return ncclCommInitRank(comm, me->nranks, id, me->rank);
}

void *lab06_nccl_init(const lab06_rank *me)
{
    ncclComm_t comm = NULL;
    ncclResult_t rc = init_comm(me, &comm);
    if (rc != ncclSuccess)
        lab06_fail(me, "ncclCommInitRank(%d ranks, rank %d on GPU %d): %s: %s", me->nranks,
                   me->rank, me->gpu, ncclGetErrorString(rc), ncclGetLastError(NULL));
    return comm;
}

void lab06_nccl_allreduce(const lab06_rank *me, void *comm, const float *in, float *out,
                          size_t count, cudaStream_t stream)
{
    ncclResult_t rc = ncclAllReduce(in, out, count, ncclFloat, ncclSum, (ncclComm_t)comm, stream);
    if (rc != ncclSuccess)
        lab06_fail(me, "ncclAllReduce of %zu floats: %s: %s", count, ncclGetErrorString(rc),
                   ncclGetLastError((ncclComm_t)comm));
}

void lab06_nccl_free(void *comm)
{
    if (comm != NULL)
        ncclCommDestroy((ncclComm_t)comm);
}

/* Two ranks on one GPU: NCCL's answer is the measurement (a refusal is expected). */
void lab06_rank_nccl_probe(const lab06_rank *me)
{
    ncclComm_t comm = NULL;
    ncclResult_t rc = init_comm(me, &comm);
    lab06_result r = {.verified = -1};
    snprintf(r.variant, sizeof r.variant, "nccl_init");
    snprintf(r.route, sizeof r.route, "%s", lab06_route(me));
    snprintf(r.value, sizeof r.value, "%s", rc == ncclSuccess ? "accepted" : ncclGetErrorString(rc));
    snprintf(r.detail, sizeof r.detail, "ncclCommInitRank of %d ranks on %d GPU%s: %s",
             me->nranks, me->gpus, me->gpus == 1 ? "" : "s",
             rc == ncclSuccess ? "accepted" : ncclGetLastError(NULL));
    lab06_send_result(me, &r);
    if (rc == ncclSuccess)
        ncclCommDestroy(comm);
}

#else /* built without NCCL */

bool lab06_have_nccl(void)
{
    return false;
}

void *lab06_nccl_init(const lab06_rank *me)
{
    lab06_fail(me, "NCCL was missing at build time");
}

void lab06_nccl_allreduce(const lab06_rank *me, void *comm, const float *in, float *out,
                          size_t count, cudaStream_t stream)
{
    (void)comm, (void)in, (void)out, (void)count, (void)stream;
    lab06_fail(me, "NCCL was missing at build time");
}

void lab06_nccl_free(void *comm)
{
    (void)comm;
}

void lab06_rank_nccl_probe(const lab06_rank *me)
{
    lab06_fail(me, "NCCL was missing at build time");
}

#endif
