/**
 * @file kernels.h
 * @brief Lab 05 kernels, launched through these C functions: the launch
 *        gate, the SM copy, the pointer chase, the ping-pong and a busy wait.
 */
#ifndef LAB05_KERNELS_H
#define LAB05_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Threads per block of the SM copy kernel. */
#define LAB05_COPY_THREADS 512

/** @brief What one side of a ping-pong reports (in its own GPU's memory). */
typedef struct lab05_pingpong_result {
    unsigned long long elapsed_ns; /**< ping side: globaltimer time of the timed rounds */
    unsigned int rounds;           /**< rounds this side completed */
    unsigned int failed_round;     /**< 0, or the round whose wait timed out */
} lab05_pingpong_result;

/**
 * @brief Hold @p stream until the host writes a non-zero value to @p open
 *        (host-mapped memory), or until @p timeout_ns passed; then set
 *        *@p timed_out to 1. Work queued behind it starts together.
 */
void lab05_launch_gate(const volatile unsigned int *open, volatile unsigned int *timed_out,
                       unsigned long long timeout_ns, cudaStream_t stream);

/**
 * @brief Copy @p bytes from @p src to @p dst with a kernel on the current
 *        device (either pointer may be a peer's). Both must be 16-byte
 *        aligned; any byte count works.
 * @param dst        destination
 * @param src        source
 * @param bytes      bytes to copy
 * @param max_blocks blocks that fill the GPU (resident threads / LAB05_COPY_THREADS)
 * @param stream     a stream of the current device
 */
void lab05_launch_sm_copy(void *dst, const void *src, size_t bytes, int max_blocks,
                          cudaStream_t stream);

/**
 * @brief One thread follows @p steps pointers from @p start and writes the
 *        last address to *@p end (device memory of the current device).
 */
void lab05_launch_chase(const unsigned long long *start, long long steps,
                        unsigned long long *end, cudaStream_t stream);

/**
 * @brief Start a ping-pong: the pong kernel on @p pong_dev, then the ping
 *        kernel on @p ping_dev. Round r: ping writes r to *@p to_pong and
 *        waits for *@p to_ping == r; pong waits for r and answers r.
 *        Each side gives up after @p timeout_ns and records the round.
 * @param ping_dev    GPU of the ping kernel (it keeps the time)
 * @param ping_stream a stream of @p ping_dev
 * @param pong_dev    GPU of the pong kernel
 * @param pong_stream a stream of @p pong_dev
 * @param to_pong     the flag ping writes and pong polls
 * @param to_ping     the flag pong writes and ping polls
 * @param warmup      rounds before the clock starts
 * @param rounds      timed rounds
 * @param timeout_ns  how long each kernel may run at most
 * @param ping_result in @p ping_dev's memory: elapsed time, rounds, failure
 * @param pong_result in @p pong_dev's memory: rounds, failure
 */
void lab05_launch_pingpong(int ping_dev, cudaStream_t ping_stream, int pong_dev,
                           cudaStream_t pong_stream, unsigned int *to_pong,
                           unsigned int *to_ping, int warmup, int rounds,
                           unsigned long long timeout_ns, lab05_pingpong_result *ping_result,
                           lab05_pingpong_result *pong_result);

/** @brief Keep one thread of the current device busy for @p ns nanoseconds. */
void lab05_launch_busy(unsigned long long ns, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* LAB05_KERNELS_H */
