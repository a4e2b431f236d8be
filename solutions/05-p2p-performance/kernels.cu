/**
 * @file kernels.cu
 * @brief Lab 05 kernels: the launch gate, the SM copy (pull or push), the
 *        pointer chase, the ping-pong between two GPUs, and a busy wait.
 *
 * Every kernel that waits for something has a deadline on %globaltimer, so
 * a mistake ends the kernel (and is reported) instead of hanging the GPU.
 */
#include "kernels.h"
#include "lab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Nanoseconds on the GPU's global timer. */
static __device__ __forceinline__ unsigned long long now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* ------------------------------------------------------------------ gate -- */

/**
 * @brief The launch gate: spins until the host opens it (or the deadline).
 *
 * The host enqueues the whole timed region (start event, every copy, stop
 * event) while this kernel holds the stream, then opens it: the GPU sees
 * the work back to back, and launch overhead stays outside the measurement.
 */
__global__ void gate_kernel(const volatile unsigned int *open, volatile unsigned int *timed_out,
                            unsigned long long timeout_ns)
{
#ifndef LAB_SKELETON
    const unsigned long long start = now_ns();
    while (*open == 0u) {
        if (now_ns() - start > timeout_ns) {
            *timed_out = 1u;
            return;
        }
    }
#endif
}

void lab05_launch_gate(const volatile unsigned int *open, volatile unsigned int *timed_out,
                       unsigned long long timeout_ns, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    gate_kernel<<<1, 1, 0, stream>>>(open, timed_out, timeout_ns);
    CUDA_CHECK_LAUNCH("gate_kernel");
#else
    LAB_TODO("05.3");
#endif
}

/* --------------------------------------------------------------- SM copy -- */

/**
 * @brief Grid-stride copy in 16-byte words, four independent loads in
 *        flight per thread (reads over the link take microseconds; many must
 *        be outstanding to fill it), then the last bytes one by one.
 */
__global__ void sm_copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src,
                               size_t words, unsigned char *__restrict__ dst_tail,
                               const unsigned char *__restrict__ src_tail, unsigned int tail)
{
#ifndef LAB_SKELETON
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < words; i += 4 * stride) {
        const uint4 v0 = src[i];
        const uint4 v1 = src[i + stride];
        const uint4 v2 = src[i + 2 * stride];
        const uint4 v3 = src[i + 3 * stride];
        dst[i] = v0;
        dst[i + stride] = v1;
        dst[i + 2 * stride] = v2;
        dst[i + 3 * stride] = v3;
    }
    for (; i < words; i += stride)
        dst[i] = src[i];
    if (blockIdx.x == 0 && threadIdx.x < tail)
        dst_tail[threadIdx.x] = src_tail[threadIdx.x];
#endif
}

void lab05_launch_sm_copy(void *dst, const void *src, size_t bytes, int max_blocks,
                          cudaStream_t stream)
{
    if ((((uintptr_t)dst) | ((uintptr_t)src)) % 16u != 0u) {
        fprintf(stderr, "lab05_launch_sm_copy: buffers must be 16-byte aligned (%p, %p)\n",
                dst, src);
        exit(LAB_EXIT_FAIL);
    }
    const size_t words = bytes / 16u;
    const unsigned int tail = (unsigned int)(bytes % 16u);
    unsigned char *dst_tail = (unsigned char *)dst + words * 16u;
    const unsigned char *src_tail = (const unsigned char *)src + words * 16u;
#ifndef LAB_SKELETON
    size_t blocks = (words + LAB05_COPY_THREADS - 1) / LAB05_COPY_THREADS;
    if (blocks < 1)
        blocks = 1;
    if (blocks > (size_t)max_blocks)
        blocks = (size_t)max_blocks;
    sm_copy_kernel<<<(unsigned int)blocks, LAB05_COPY_THREADS, 0, stream>>>(
        (uint4 *)dst, (const uint4 *)src, words, dst_tail, src_tail, tail);
    CUDA_CHECK_LAUNCH("sm_copy_kernel");
#else
    LAB_TODO("05.2");
#endif
}

/* --------------------------------------------------------- pointer chase -- */

/**
 * @brief Pointer chase: each load's address is the value of the previous
 *        load, so the loads cannot overlap and the time per step is the
 *        latency of one load. __ldcg keeps the chain out of L1 (the chain is
 *        also far larger than L2).
 */
__global__ void chase_kernel(const unsigned long long *start, long long steps,
                             unsigned long long *end)
{
    const unsigned long long *p = start;
    for (long long s = 0; s < steps; s++)
        p = (const unsigned long long *)__ldcg(p);
    *end = (unsigned long long)p;
}

void lab05_launch_chase(const unsigned long long *start, long long steps,
                        unsigned long long *end, cudaStream_t stream)
{
    chase_kernel<<<1, 1, 0, stream>>>(start, steps, end);
    CUDA_CHECK_LAUNCH("chase_kernel");
}

/* ------------------------------------------------------------- ping-pong -- */

/**
 * @brief The ping side: writes round r, waits for the answer, keeps time.
 *
 * The flags are written by one GPU and read by the other: volatile
 * accesses go to memory every time, and __threadfence_system() orders this
 * thread's earlier writes before the flag for every observer, the other GPU
 * included (device scope would only cover this GPU).
 */
__global__ void ping_kernel(volatile unsigned int *to_pong, const volatile unsigned int *to_ping,
                            int warmup, int rounds, unsigned long long timeout_ns,
                            lab05_pingpong_result *result)
{
#ifndef LAB_SKELETON
    const unsigned long long deadline = now_ns() + timeout_ns;
    unsigned long long t0 = now_ns();
    const unsigned int total = (unsigned int)(warmup + rounds);
    for (unsigned int r = 1; r <= total; r++) {
        if (r == (unsigned int)warmup + 1u)
            t0 = now_ns();
        __threadfence_system();
        *to_pong = r;
        unsigned int spins = 0;
        while (*to_ping != r) {
            if ((++spins & 63u) == 0u && now_ns() > deadline) {
                result->failed_round = r;
                result->rounds = r - 1u;
                return;
            }
        }
    }
    result->elapsed_ns = now_ns() - t0;
    result->rounds = total;
#endif
}

/** @brief The pong side: waits for round r and answers it. */
__global__ void pong_kernel(const volatile unsigned int *to_pong, volatile unsigned int *to_ping,
                            int total_rounds, unsigned long long timeout_ns,
                            lab05_pingpong_result *result)
{
#ifndef LAB_SKELETON
    const unsigned long long deadline = now_ns() + timeout_ns;
    const unsigned int total = (unsigned int)total_rounds;
    for (unsigned int r = 1; r <= total; r++) {
        unsigned int spins = 0;
        while (*to_pong != r) {
            if ((++spins & 63u) == 0u && now_ns() > deadline) {
                result->failed_round = r;
                result->rounds = r - 1u;
                return;
            }
        }
        __threadfence_system();
        *to_ping = r;
    }
    result->rounds = total;
#endif
}

void lab05_launch_pingpong(int ping_dev, cudaStream_t ping_stream, int pong_dev,
                           cudaStream_t pong_stream, unsigned int *to_pong,
                           unsigned int *to_ping, int warmup, int rounds,
                           unsigned long long timeout_ns, lab05_pingpong_result *ping_result,
                           lab05_pingpong_result *pong_result)
{
#ifndef LAB_SKELETON
    /* The pong side starts first, so that it is already waiting. */
    CUDA_CHECK(cudaSetDevice(pong_dev));
    pong_kernel<<<1, 1, 0, pong_stream>>>(to_pong, to_ping, warmup + rounds, timeout_ns,
                                          pong_result);
    CUDA_CHECK_LAUNCH("pong_kernel");
    CUDA_CHECK(cudaSetDevice(ping_dev));
    ping_kernel<<<1, 1, 0, ping_stream>>>(to_pong, to_ping, warmup, rounds, timeout_ns,
                                          ping_result);
    CUDA_CHECK_LAUNCH("ping_kernel");
#else
    LAB_TODO("05.5");
#endif
}

/* ------------------------------------------------------------ busy wait -- */

/** @brief One thread busy for @p ns nanoseconds. */
__global__ void busy_kernel(unsigned long long ns)
{
    const unsigned long long start = now_ns();
    while (now_ns() - start < ns) {
    }
}

void lab05_launch_busy(unsigned long long ns, cudaStream_t stream)
{
    busy_kernel<<<1, 1, 0, stream>>>(ns);
    CUDA_CHECK_LAUNCH("busy_kernel");
}
