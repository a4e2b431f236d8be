/**
 * @file lab05.h
 * @brief Lab 05's harness: the run's state, and transfers (copy engine or SM copy, TODO 05.3)
 *        to a peer GPU, the same GPU or mapped host memory, timed together one stream each
 *        behind the launch gate (common/repeat.h), verified and turned into rows.
 */
#ifndef LAB05_H
#define LAB05_H

#include "lab.h"
#include "link.h"
#include "p2p_perf.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most sizes one sweep holds. */
#define LAB05_MAX_SIZES 64
/** Most transfers (streams) one job runs at once. */
#define LAB05_MAX_STREAMS 8
/** Bytes the pitfall experiments move per copy. */
#define LAB05_PITFALL_BYTES ((size_t)256 << 20)

/** @brief How a transfer moves its bytes. */
typedef enum lab05_method {
    LAB05_CE = 0,      /**< copy engine (cudaMemcpyPeerAsync / cudaMemcpyAsync) */
    LAB05_SM_PULL = 1, /**< the SM copy kernel on the destination's GPU reads the far side */
    LAB05_SM_PUSH = 2  /**< the SM copy kernel on the source's GPU writes the far side */
} lab05_method;

/** @brief One GPU's buffers: src holds seeded data (ref is its host copy). */
typedef struct lab05_gpu {
    void *src;          /**< buf_bytes of seeded data */
    void *dst;          /**< buf_bytes */
    unsigned char *ref; /**< the host's copy of src */
    int blocks;         /**< SM copy blocks that fill this GPU */
    int sms;            /**< multiprocessors */
} lab05_gpu;

/** @brief The run's state (lab_ctx.lab). */
typedef struct lab05 {
    lab_links links;          /**< common/link.h: every GPU's and pair's links */
    int n;                    /**< GPUs */
    int a;                    /**< the one-pair GPU, and the host link's GPU */
    int b;                    /**< its partner (-1 with one GPU) */
    int *pairs;               /**< ordered pairs of the sweeps: (pairs[2i], pairs[2i+1]) */
    int npairs;               /**< how many */
    size_t sizes[LAB05_MAX_SIZES]; /**< sweep sizes, ascending */
    int nsizes;               /**< how many */
    size_t buf_bytes;         /**< bytes of every buffer */
    int reps;                 /**< timed samples per measurement */
    bool quick;               /**< --quick */
    uint64_t seed;            /**< --seed */
    lab05_gpu gpu[LAB_MAX_GPUS]; /**< buffers of the GPUs in use */
    lab_far hsrc;             /**< pinned mapped host memory, seeded (the host link) */
    lab_far hdst;             /**< pinned mapped host memory */
    unsigned char *href;      /**< the host's copy of hsrc */
    unsigned char *check;     /**< pinned, buf_bytes: device data read back to verify */
    bool ungated[LAB_ROUTE_COUNT][3]; /**< [route][method]: the gate timed out once */
} lab05;

/** @brief One transfer. */
typedef struct lab05_xfer {
    lab05_method method;      /**< copy engine or SM kernel */
    int src;                  /**< GPU that holds the data (-1: host memory) */
    int dst;                  /**< GPU that receives it (-1: host memory) */
    const void *from;         /**< source, as the GPU addresses it */
    void *to;                 /**< destination, as the GPU addresses it */
    void *to_host;            /**< the destination's host address (host memory only) */
    const unsigned char *ref; /**< what the destination must hold afterwards */
    size_t bytes;             /**< bytes to move */
    int blocks;               /**< SM copy: blocks that fill the GPU that runs it */
    size_t guard;             /**< SM copy: bytes after the destination that must stay cleared */
} lab05_xfer;

/** @brief Transfers timed together, one stream each. */
typedef struct lab05_job {
    lab05_xfer t[LAB05_MAX_STREAMS]; /**< t[0] is timed on its stream */
    int n;                    /**< transfers */
    bool join;                /**< stream 0 waits for the others (else they only load the link,
                                   queued twice per round to outlast t[0]) */
    bool legacy;              /**< all in the legacy default stream of t[0]'s GPU, in order */
    int ops;                  /**< rounds of every transfer per sample */
    bool gate;                /**< queue each sample behind the launch gate */
    lab_route route;          /**< the far side (for the peak and the gate's record) */
} lab05_job;

/** @brief Each method's name, by lab05_method: "ce", "sm_pull", "sm_push". */
extern const char *const lab05_method_names[3];
/** @brief A transfer of @p bytes between the main buffers (GPU id, or -1 for the host's). */
lab05_xfer lab05_xfer_make(const lab05 *L, lab05_method method, int src, int dst, size_t bytes);
/** @brief The GPU whose stream runs the transfer. */
int lab05_xfer_device(const lab05_xfer *t);
/** @brief A new non-blocking stream on the transfer's GPU, which it leaves current. */
cudaStream_t lab05_xfer_stream(const lab05_xfer *t);
/** @brief Queue the transfer on @p stream (for SM, the current device must be its GPU). */
cudaError_t lab05_xfer_enqueue(const lab05_xfer *t, cudaStream_t stream);
/** @brief Zero @p bytes at @p ptr on GPU @p dev and wait. */
void lab05_zero(int dev, void *ptr, size_t bytes);
/** @brief Zero the destination, and its guard, and wait. */
void lab05_xfer_clear(const lab05_xfer *t);
/** @brief 1 when the destination holds the source data and its guard is still zero, else 0
 *         (printing the first difference). */
int lab05_xfer_verify(const lab05 *L, const lab05_xfer *t);
/** @brief Peer access a <-> b on or off (both directions), checked. */
void lab05_set_peer(int a, int b, bool on);
/** @brief The peak per direction of the link a transfer uses by @p route (0: unknown). */
double lab05_peak(const lab05 *L, const lab05_xfer *t, lab_route route);

/** @brief A one-transfer job of @p ops rounds, gated unless the gate failed on this route once. */
lab05_job lab05_job_one(const lab05 *L, lab05_xfer t, lab_route route, int ops);
/**
 * @brief Clear, time (a warm-up first) and verify a job, then emit @p row with its times and GB/s
 *        and peak through TODO 05.2 for @p copies copies over @p directions directions (0 copies: a
 *        latency, no rate). A @p row already marked unverified (0) stays so.
 */
void lab05_run_job(lab_ctx *ctx, const lab05_job *job, lab_row *row, int copies, int directions);
/** @brief A row for transfer @p t: experiment, variant, route, src, dst, mode, bytes. */
lab_row lab05_row(const char *experiment, const char *variant, const lab05_xfer *t,
                  lab_route route, const char *mode);
/** @brief Emit a row timed by the host (µs per op), with its rate (@p link_gbps < 0: none). */
void lab05_emit_samples(lab_ctx *ctx, lab_row *row, const double *us, int count, int ops,
                        int verified, double link_gbps);
/** @brief Time @p count copies on the host clock, a synchronize after each, and emit @p row. */
void lab05_emit_host_clocked(lab_ctx *ctx, lab_row *row, const lab05_xfer *t, int count,
                             double link_gbps);
/** @brief Keep one GPU busy for @p ns nanoseconds (busy.cu). */
cudaError_t lab05_launch_busy(unsigned long long ns, cudaStream_t stream);

/* The experiments: links.c, bandwidth.c, latency.c, pitfalls.c (registry in experiments.c). */
int lab05_run_link(lab_ctx *ctx);           /**< @brief link: links and datasheet rates (05.1) */
int lab05_run_ce_bandwidth(lab_ctx *ctx);   /**< @brief ce_bandwidth: copy-engine sweeps */
int lab05_run_sm_bandwidth(lab_ctx *ctx);   /**< @brief sm_bandwidth: SM copy sweeps (05.3) */
int lab05_run_memcpy_latency(lab_ctx *ctx); /**< @brief memcpy_latency: one 4-byte copy */
int lab05_run_pointer_chase(lab_ctx *ctx);  /**< @brief pointer_chase: load latency (05.4) */
int lab05_run_pingpong(lab_ctx *ctx);       /**< @brief pingpong: one-way latency (05.5) */
int lab05_run_warmup(lab_ctx *ctx);         /**< @brief warmup: first call against steady state */
int lab05_run_cpu_timer(lab_ctx *ctx);      /**< @brief cpu_timer: host clocks (05.6) */
int lab05_run_cpu_sync(lab_ctx *ctx);       /**< @brief cpu_sync: a synchronize after each copy */
int lab05_run_default_stream(lab_ctx *ctx); /**< @brief default_stream: the legacy stream */
int lab05_run_streams(lab_ctx *ctx);        /**< @brief streams: several streams on one link */
int lab05_run_preferl1(lab_ctx *ctx);       /**< @brief preferl1: the L1 tip (05.7) */
int lab05_run_pageable(lab_ctx *ctx);       /**< @brief pageable: pageable host memory */

#ifdef __cplusplus
}
#endif

#endif /* LAB05_H */
