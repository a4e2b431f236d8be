/**
 * @file lab03.h
 * @brief Lab 03's harness: what sweeps.c (options, sweeps, registry) shares with fault.c.
 */
#ifndef LAB03_H
#define LAB03_H

#include "lab.h"
#include "peer_kernels.h"

/** @brief The run's GPUs and the fault experiment's settings (lab_ctx.lab). */
typedef struct lab03_state {
    int a;          /**< the near GPU: runs the kernels, holds results */
    int b;          /**< the peer GPU, or -1 */
    uint64_t seed;  /**< seed of the source data */
    long timeout_s; /**< seconds before the fault child is killed */
    bool hang;      /**< the child hangs on purpose (a test hook) */
} lab03_state;

/** @brief The experiment "fault": touch unreachable memory in a child. */
int lab03_run_fault(lab_ctx *ctx);

/** @brief The child's side (--fault-child MODE, checked here); returns its exit status. */
int lab03_fault_child(const lab_ctx *ctx, const char *mode);

#endif /* LAB03_H */
