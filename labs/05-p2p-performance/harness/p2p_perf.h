/**
 * @file p2p_perf.h
 * @brief Lab 05: the contracts of the student's functions, TODOs 05.1-05.7 (read them, do not
 *        edit them). The code goes in student/p2p_host.c (05.1, 05.2, 05.6, 05.7) and
 *        student/p2p_kernels.cu (05.3, 05.4, 05.5); the rest is the harness, the same in every
 *        build.
 */
#ifndef LAB05_P2P_PERF_H
#define LAB05_P2P_PERF_H

#include "repeat.h"

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief TODO 05.1: one NVLink's rate in one direction from a datasheet.
 *
 * A datasheet gives a GPU's NVLink bandwidth as one total over all its links, counting both
 * directions (A100: 600 GB/s over 12 links). Contract: returns @p total_gbps spread over @p links
 * links and two directions; returns 0 when @p links < 1 or @p total_gbps is not a positive finite
 * number. No other effect. Checked by tests/unit/lab05.c and by the link experiment, which compares
 * every datasheet row with common/link.h's figure (a mismatch fails the run).
 */
double lab05_nvlink_per_link_gbps(double total_gbps, int links);

/**
 * @brief TODO 05.1: one PCIe lane's payload rate in one direction.
 *
 * A lane moves one bit per transfer; of those bits only @p payload_share (8b/10b: 0.8; 128b/130b;
 * FLIT 242/256) carry data. Contract: returns GB/s for @p gt_per_s giga-transfers per second;
 * returns 0 when @p gt_per_s is not positive and finite or @p payload_share is not in (0, 1]. No
 * other effect. Checked like lab05_nvlink_per_link_gbps.
 */
double lab05_pcie_lane_gbps(double gt_per_s, double payload_share);

/** @brief What one measurement gives, from lab05_count_rate. */
typedef struct lab05_rate {
    double counted;   /**< bytes counted per operation: bytes x copies */
    double gbps;      /**< counted bytes per second / 1e9 */
    double peak_gbps; /**< the link's peak for those bytes (0: unknown) */
    double pct_peak;  /**< 100 x gbps / peak_gbps (0 when the peak is unknown) */
} lab05_rate;

/**
 * @brief TODO 05.2: which bytes count, and how fast they moved.
 *
 * One operation moved @p bytes in each of @p copies copies at once, over @p directions directions
 * of the link (1, or 2 when copies ran both ways), and took @p us microseconds. GB/s means 1e9
 * bytes per second. Contract: fills @p out (counted = bytes x copies; gbps; peak_gbps =
 * @p link_gbps per direction x directions; pct_peak) and returns 0. Returns -1 and leaves @p out
 * untouched when bytes is 0, copies < 1, directions is not 1 or 2, directions > copies, bytes x
 * copies does not fit in a size_t, @p us is not positive and finite, or @p link_gbps is negative or
 * not finite (0 means unknown: peak and share are then 0). No other effect. Checked by
 * tests/unit/lab05.c and by the tests of every bandwidth row (gbps = bytes x copies / time, never
 * above the peak).
 */
int lab05_count_rate(size_t bytes, int copies, int directions, double us, double link_gbps,
                     lab05_rate *out);

/** Threads per block of the SM copy kernel. */
#define LAB05_COPY_THREADS 512

/**
 * @brief TODO 05.3: copy @p bytes from @p src to @p dst with a kernel on the current device (the
 *        copy kernel and its launch).
 *
 * Either pointer may be far memory: a peer GPU's (the kernel then *pulls* when it runs on the
 * destination's GPU and *pushes* when it runs on the source's) or pinned host memory mapped into
 * the GPU (zero-copy). Loads over a link take a microsecond or more, so the kernel keeps several
 * independent 16-byte loads in flight per thread before it stores them. Contract: both pointers are
 * 16-byte aligned (the harness makes them so); any byte count works — the 16-byte words first
 * (grid-stride loop, four loads a step), then the last bytes % 16 ("the tail"); at most
 * @p max_blocks blocks of LAB05_COPY_THREADS threads, at least one; nothing is launched for 0
 * bytes. Enqueued on @p stream (of the current device) without waiting; returns the launch's error
 * (cudaGetLastError), else cudaSuccess. The harness compares every destination with the source data
 * after timing, at odd sizes too (3 B, 1000 B, 1000000 B), and the 256 bytes after it must stay as
 * they were; it captures launches, without running them, at 0 bytes, a tail alone, an odd size and
 * a size the cap must cut.
 */
cudaError_t lab05_launch_sm_copy(void *dst, const void *src, size_t bytes, int max_blocks,
                                 cudaStream_t stream);

/**
 * @brief TODO 05.4: load latency: follow a chain of pointers (kernel and launch).
 *
 * Each node of the chain (one 128-byte line) holds the address of the next. Contract: launches
 * @p blocks blocks of one thread on @p stream; only block @p target works (so that the harness
 * picks the SM: latency depends on where the SM sits); it reads its start address from *@p cursor,
 * makes @p steps dependent loads — each address is the value of the previous load, read with __ldcg
 * so that L1 never serves it — and writes the last address back to *@p cursor (device memory of the
 * current device). The next launch thus goes on where this one stopped. Returns the launch's error,
 * else cudaSuccess; does not wait. The harness checks the final address against the chain it built,
 * that a chase of 0 steps leaves the cursor, and each launch's shape (captured, not run).
 */
cudaError_t lab05_launch_chase(unsigned long long *cursor, long long steps, int target,
                               int blocks, cudaStream_t stream);

#ifdef __CUDACC__
/** @brief Nanoseconds on the GPU's global timer (for the ping-pong's clock and deadlines). */
static __device__ __forceinline__ unsigned long long lab05_now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#endif

/** @brief What one side of a ping-pong reports (memory its GPU can write). */
typedef struct lab05_pingpong_result {
    unsigned long long elapsed_ns; /**< ping side: time of the timed rounds (%globaltimer) */
    unsigned int rounds;           /**< rounds this side completed */
    unsigned int failed_round;     /**< 0, or the round whose wait passed the deadline */
} lab05_pingpong_result;

/** @brief One ping-pong: who plays, where the flags are, how long. */
typedef struct lab05_pingpong {
    int ping_dev;                 /**< GPU of the ping kernel (keeps the time); -1: the host */
    cudaStream_t ping_stream;     /**< a stream of ping_dev (unused when the host pings) */
    int pong_dev;                 /**< GPU of the pong kernel; -1: the host answers */
    cudaStream_t pong_stream;     /**< a stream of pong_dev (unused when the host answers) */
    unsigned int *to_pong;        /**< the flag ping writes and pong polls */
    unsigned int *to_ping;        /**< the flag pong writes and ping polls */
    int warmup;                   /**< rounds before the clock starts */
    int rounds;                   /**< timed rounds */
    unsigned long long timeout_ns; /**< how long each side waits at most, in all */
    lab05_pingpong_result *ping_result; /**< written by ping (unused when the host pings) */
    lab05_pingpong_result *pong_result; /**< written by pong (unused when the host answers) */
} lab05_pingpong;

/**
 * @brief TODO 05.5: start a ping-pong (the ping and pong kernels and their launch).
 *
 * Round r = 1 .. warmup + rounds: ping writes r to *to_pong and waits until *to_ping == r; pong
 * waits until *to_pong == r and writes r to *to_ping. The flags are written by one side and read by
 * the other, a GPU or the host across a link: every access is volatile, and each flag store comes
 * after __threadfence_system() (a device-scope fence covers one GPU only). Ping reads %globaltimer
 * when round warmup + 1 starts and after the last round (elapsed_ns); either side that passes its
 * deadline records the round in failed_round and returns. Both report the rounds they completed.
 * Contract: one thread each; pong is launched first (on pong_dev, unless the host answers), then
 * ping on ping_dev (unless the host pings); the host plays at most one side. Returns the first
 * launch error, else cudaSuccess; does not wait; the device of the last kernel launched is current
 * afterwards. The harness checks rounds, failures and the flags' last values, which GPU is current
 * after the launch and, where the host answers, ping's elapsed_ns against the host's clock over the
 * same rounds, with warm-up rounds and without (warmup 0).
 */
cudaError_t lab05_launch_pingpong(const lab05_pingpong *pp);

/**
 * @brief TODO 05.6: time one operation with the host clock (lab_host_seconds).
 *
 * @p enqueue queues one operation on @p stream and returns at once (the GPU runs it later). With
 * @p sync the clock stops after the stream has finished (cudaStreamSynchronize); without it, right
 * after @p enqueue returns — the pitfall: that times the queueing — and the stream is synchronized
 * afterwards, outside the timing. Contract: calls @p enqueue once; *@p us = host microseconds
 * between the two clock reads, written only on success; the stream is idle on return. Returns the
 * error of @p enqueue at once (no synchronize, *us untouched), else that of the synchronize, else
 * cudaSuccess. Checked by tests/unit/lab05.c (errors of the enqueue and of the synchronize) and by
 * the cpu_timer experiment's rows (no sync: far below the event time; sync: never below it; the
 * stream idle after every call).
 */
cudaError_t lab05_time_on_host(lab_work_fn enqueue, void *arg, cudaStream_t stream, bool sync,
                               double *us);

/**
 * @brief TODO 05.7: set GPU @p dev's preference between L1 and shared memory.
 *
 * Contract: makes @p dev the current device and applies @p config to it (cudaDeviceSetCacheConfig);
 * returns the first error, else cudaSuccess. The harness saves the old setting and restores it
 * through this function. Checked by the preferl1 experiment (both settings measured, data
 * verified; with two GPUs the other one is current before each call).
 */
cudaError_t lab05_set_cache_config(int dev, enum cudaFuncCache config);

#ifdef __cplusplus
}
#endif

#endif /* LAB05_P2P_PERF_H */
