/**
 * @file lab03.h
 * @brief Lab 03's harness: the run's settings, GPUs and buffers, shared by
 *        experiments.c (options, setup, registry), sweeps.c and fault.c.
 */
#ifndef LAB03_H
#define LAB03_H

#include "lab.h"
#include "peer_kernels.h"

/** Floats after every buffer that no kernel may write. */
#define LAB03_GUARD 256
/** The largest odd shape of the bounds experiment, in floats. */
#define LAB03_BOUNDS_FLOATS ((size_t)1000003)

/** @brief The run's settings, GPUs, streams and buffers (lab_ctx.lab). */
typedef struct lab03_state {
    int a;                 /**< the near GPU: runs the kernels, holds results */
    int b;                 /**< the peer GPU, or -1 */
    char peer_why[160];    /**< why the peer route cannot run ("": it can) */
    bool peer_said;        /**< that reason was said once already */
    size_t min_bytes;      /**< smallest size of the transfer sweep */
    size_t max_bytes;      /**< largest size */
    size_t stride_bytes;   /**< size of the read-pattern runs */
    int reps;              /**< timed samples per measurement */
    uint64_t seed;         /**< seed of the source data */
    long timeout_s;        /**< seconds before the fault child is killed */
    bool hang;             /**< the child hangs on purpose (a test hook) */
    int blocks[2];         /**< blocks that fill GPU a, GPU b */
    cudaStream_t stream[2]; /**< a stream of GPU a, of GPU b (NULL without b) */
    size_t cap;            /**< floats per buffer before the guard (0: none yet) */
    lab_far src_a;         /**< on a: the seeded source */
    lab_far dst_a;         /**< on a: results */
    lab_far stage_a;       /**< on a: where copies land */
    lab_far aux_a;         /**< on a: the loopback route's far result */
    lab_far src_b;         /**< on b: the seeded source (peer route) */
    lab_far host_src;      /**< mapped host memory: the seeded source */
    lab_far host_dst;      /**< mapped host memory: the host route's far result */
    float *want;           /**< 2 x source: the reference */
    float *got;            /**< pinned: results read back */
} lab03_state;

/** @brief The experiment "transfer": four ways, every size, every route. */
int lab03_run_transfer(lab_ctx *ctx);

/** @brief The experiment "bounds": odd shapes, every route, verified only. */
int lab03_run_bounds(lab_ctx *ctx);

/** @brief The experiment "stride": coalesced against strided reads. */
int lab03_run_stride(lab_ctx *ctx);

/** @brief Free what the sweeps allocated. */
void lab03_free_buffers(lab03_state *st);

/** @brief The experiment "fault": touch unreachable memory in a child. */
int lab03_run_fault(lab_ctx *ctx);

/** @brief The child's side (--fault-child MODE); returns its exit status. */
int lab03_fault_child(const lab_ctx *ctx, const lab03_state *st, const char *mode);
/** @brief Does this fault mode read GPU b's memory (peer, one_way)? */
bool lab03_fault_needs_b(const char *mode);

#endif /* LAB03_H */
