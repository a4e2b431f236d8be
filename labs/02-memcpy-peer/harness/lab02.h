/**
 * @file lab02.h
 * @brief Lab 02's harness: a run's GPUs, buffers and routes, and the checks of destination
 *        windows. A window is GUARD_BYTES of poison, the copy (at an offset of up to
 *        MAX_OFFSET) and GUARD_BYTES of poison: a copy that writes too much, too little or in
 *        the wrong place changes a byte the check compares. Source data never holds the poison.
 */
#ifndef LAB02_H
#define LAB02_H

#include "lab.h"
#include "p2p_copy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The byte every destination is filled with before a copy. */
#define POISON_BYTE 0xA5
/** Poisoned bytes kept before and after every destination window. */
#define GUARD_BYTES 64
/** The largest source or destination offset a copy uses. */
#define MAX_OFFSET 8
/** Every buffer holds at least this many bytes (the args experiment's windows). */
#define MIN_BUFFER 4096

/** @brief One GPU and what the run keeps on it. */
typedef struct lab02_side {
    int dev;               /**< device id */
    int index;             /**< 0 for GPU a, 1 for GPU b: which source data it holds */
    unsigned char *src;    /**< seeded source data, span bytes */
    unsigned char *dst;    /**< destination window, span + 2 guards */
    unsigned char *window; /**< dst + GUARD_BYTES: where a copy at offset 0 starts */
    cudaStream_t stream;   /**< non-blocking: timed copies, the async wrapper */
    cudaStream_t aux;      /**< non-blocking: the staged copy's first half, polling */
    cudaEvent_t fork;      /**< for p2p_staging.fork when this side is timed */
    cudaEvent_t staged;    /**< for p2p_staging.staged when this side is the source */
    cudaEvent_t mark;      /**< the harness's own ordering between streams */
} lab02_side;

/** @brief One direction of a route: from a source side to a destination side. */
typedef struct lab02_leg {
    lab_route route;        /**< loopback, peer_off or peer */
    const lab02_side *src;  /**< where the data comes from */
    const lab02_side *dst;  /**< where it goes (the same side for loopback) */
} lab02_leg;

/** @brief Everything a run uses. */
typedef struct lab02 {
    int a;                     /**< the first GPU */
    int b;                     /**< the second GPU (-1 with one GPU) */
    int third;                 /**< a GPU that is neither, or -1 */
    bool p2p;                  /**< a and b have peer access both ways */
    size_t cap;                /**< the largest copy (--max-size) */
    size_t span;               /**< bytes per source buffer: max(cap, MIN_BUFFER) + MAX_OFFSET */
    int reps;                  /**< timed samples per measurement */
    int delay_ms;              /**< pending work of the ordering experiment */
    uint64_t seed;             /**< seed of the source data */
    size_t sizes[8];           /**< the sizes timed */
    int n_sizes;               /**< how many */
    lab02_side side[2];        /**< [0] GPU a, [1] GPU b */
    unsigned char *ref[2];     /**< host: the source data of each side */
    unsigned char *readback;   /**< host: a window read back */
    unsigned char *pinned;     /**< pinned host: staging buffer, span bytes */
    unsigned char *upload;     /**< pinned host: new source data, span bytes */
    unsigned char *pageable;   /**< pageable host: the host route's copies, span bytes */
    unsigned char *probe;      /**< pinned host: 8 bytes for watching data arrive */
} lab02;

/** @brief Run one route's legs; 0 or LAB_EXIT_FAIL. */
typedef int (*lab02_route_fn)(lab_ctx *ctx, lab02 *st, const lab02_leg *legs, int n_legs);

/** @brief The run's state, its buffers allocated on first use. */
lab02 *lab02_state(lab_ctx *ctx);

/**
 * @brief Call @p fn for every route this machine has: loopback (when @p loopback), then
 *        peer_off and peer with peer access set to match; a missing route is a "skipped" row.
 */
int lab02_each_route(lab_ctx *ctx, const char *experiment, bool loopback, lab02_route_fn fn);

/** @brief A row of @p experiment about @p leg (route, src, dst), @p mode and @p bytes. */
lab_row lab02_row(const char *experiment, const char *variant, const char *mode,
                  const lab02_leg *leg, size_t bytes);

/** @brief Seeded bytes of which none is POISON_BYTE. */
void lab02_fill(unsigned char *buf, size_t bytes, uint64_t seed);

/** @brief Poison the window for a copy of @p bytes at @p offset, guards included. */
void lab02_poison(const lab02_side *side, size_t bytes, size_t offset);

/** @brief Does every one of @p bytes hold POISON_BYTE? */
bool lab02_all_poison(const unsigned char *buf, size_t bytes);

/** @brief Read the window back: 1 when the guards hold poison and the copy @p want, else 0
 *         after one line on stderr naming @p what. */
int lab02_verify(lab02 *st, const lab02_side *side, size_t offset, const unsigned char *want,
                 size_t bytes, const char *what);

/** @brief Make @p dev current and wait for all its work. */
void lab02_sync(int dev);

/** @brief Hold @p stream for *ms milliseconds (a host function that sleeps). */
void lab02_delay(cudaStream_t stream, const int *ms);

/** @brief "CALL GPU0 -> GPU1, 4 KiB (peer)" for messages. */
const char *lab02_what(const lab02_leg *leg, size_t bytes, const char *call, char *out,
                       size_t len);

/** The plain runtime copies, in the order of the rows (timing and ordering). */
enum { LAB02_MEMCPY_PEER, LAB02_MEMCPY_PEER_ASYNC, LAB02_MEMCPY_DEFAULT };

/** @brief Enqueue one copy of @p leg by @p way: cudaMemcpyPeer, cudaMemcpyPeerAsync on
 *         @p stream, or cudaMemcpy(cudaMemcpyDefault). */
cudaError_t lab02_copy_way(int way, const lab02_leg *leg, size_t bytes, cudaStream_t stream);

/** @brief Every bad argument, given to the wrappers (args.c). */
int lab02_run_args(lab_ctx *ctx);
/** @brief The size sweep of both wrappers (copies.c). */
int lab02_run_sweep(lab_ctx *ctx);
/** @brief The stream order of p2p_copy_async and p2p_copy_staged (copies.c). */
int lab02_run_stream_order(lab_ctx *ctx);
/** @brief Four ways to copy, timed, and the host route's pinned and pageable copies. */
int lab02_run_timing(lab_ctx *ctx);
/** @brief cudaMemcpyPeer against a device switch and cudaMemcpy, on the host clock (switch.c). */
int lab02_run_switch(lab_ctx *ctx);
/** @brief cudaMemcpyPeer with each GPU current (current.c). */
int lab02_run_current_device(lab_ctx *ctx);
/** @brief Which pending work each copy waits for (current.c). */
int lab02_run_ordering(lab_ctx *ctx);

#endif /* LAB02_H */
