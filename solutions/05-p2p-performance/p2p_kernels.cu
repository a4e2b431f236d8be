/**
 * @file p2p_kernels.cu
 * @brief Lab 05, the student's kernels: TODOs 05.3 (SM copy), 05.4 (pointer
 *        chase) and 05.5 (ping-pong); contracts in harness/p2p_perf.h.
 */
#include "p2p_perf.h"
#include "todo.h"

#include <stdint.h>

/* ------------------------------------------------ TODO 05.3: SM copy -- */

/* Grid-stride copy of 16-byte words, four independent loads in flight per
 * thread, then the tail bytes one by one. */
/* Contract of TODO 05.3 (in full: harness/p2p_perf.h); each clause and its test:
 * - every byte of every size arrives, tails included; checked by: TODO 05.2 and 05.3 the SM copy
 *   moves every byte; TODO 05.3 SM pull and push over P2P
 * - below the link's peak; checked by: TODO 05.2 and 05.3 the SM copy moves every byte
 * - nothing past the last byte is written; nothing is launched for 0 bytes, else one kernel of 1 to
 *   max_blocks blocks of LAB05_COPY_THREADS; checked by: TODO 05.2 and 05.3 the SM copy moves every
 *   byte; TODO 05.3 the SM copy launches nothing
 */
static __global__ void sm_copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src,
                                      size_t words, unsigned char *__restrict__ dst_tail,
                                      const unsigned char *__restrict__ src_tail,
                                      unsigned int tail)
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
#else
    /* TODO 05.3: the copy loop and the tail (lab05_launch_sm_copy stops with its message). */
#endif
}

cudaError_t lab05_launch_sm_copy(void *dst, const void *src, size_t bytes, int max_blocks,
                                 cudaStream_t stream)
{
#ifndef LAB_SKELETON
    const size_t words = bytes / 16u;
    const unsigned int tail = (unsigned int)(bytes % 16u);
    if (bytes == 0)
        return cudaSuccess;
    size_t blocks = (words + LAB05_COPY_THREADS - 1) / LAB05_COPY_THREADS;
    if (blocks > (size_t)max_blocks)
        blocks = (size_t)max_blocks;
    if (blocks < 1)
        blocks = 1;
    sm_copy_kernel<<<(unsigned int)blocks, LAB05_COPY_THREADS, 0, stream>>>(
        (uint4 *)dst, (const uint4 *)src, words, (unsigned char *)dst + words * 16u,
        (const unsigned char *)src + words * 16u, tail);
    return cudaGetLastError();
#else
    LAB_TODO("05.3");
#endif
}

/* ------------------------------------------ TODO 05.4: pointer chase -- */

/* Each load's address is the previous load's value: the loads cannot
 * overlap, so the time per step is one load's latency. */
/* Contract of TODO 05.4 (in full: harness/p2p_perf.h); each clause and its test:
 * - the chase ends where the chain says and the cursor is saved; checked by: TODO 05.4 the pointer
 *   chase ends
 * - far loads slower than local ones, within a physical range; checked by: TODO 05.4 the pointer
 *   chase ends
 * - blocks blocks of one thread; 0 steps leave the cursor where it is; checked by: TODO 05.4 the
 *   pointer chase ends
 */
static __global__ void chase_kernel(unsigned long long *cursor, long long steps, int target)
{
#ifndef LAB_SKELETON
    if ((int)blockIdx.x != target || threadIdx.x != 0)
        return;
    const unsigned long long *p = (const unsigned long long *)*cursor;
    for (long long s = 0; s < steps; s++)
        p = (const unsigned long long *)__ldcg(p);
    *cursor = (unsigned long long)p;
#else
    /* TODO 05.4: the chase (lab05_launch_chase stops with its message). */
#endif
}

cudaError_t lab05_launch_chase(unsigned long long *cursor, long long steps, int target,
                               int blocks, cudaStream_t stream)
{
#ifndef LAB_SKELETON
    chase_kernel<<<(unsigned int)blocks, 1, 0, stream>>>(cursor, steps, target);
    return cudaGetLastError();
#else
    LAB_TODO("05.4");
#endif
}

/* ---------------------------------------------- TODO 05.5: ping-pong -- */

/* Wait until *flag == r, or until the deadline: 0 or the failed round. */
/* Contract of TODO 05.5 (in full: harness/p2p_perf.h); each clause and its test:
 * - every round completes, warm-up included; checked by: TODO 05.5 the GPU-CPU ping-pong
 *   completes; TODO 05.5 the CPU-GPU ping-pong completes; TODO 05.5 the GPU-GPU ping-pong
 *   completes (two GPUs)
 * - a round trip takes a physical time; checked by: the same two tests
 * - ping's clock starts when round warmup + 1 starts (the GPU's and the host's clock agree on the
 *   round trip); checked by: TODO 05.5 the GPU-CPU ping-pong completes; TODO 05.5 the CPU-GPU
 *   ping-pong completes
 * - without warm-up rounds (0) the clock starts with round 1; the last kernel's GPU is current
 *   afterwards; checked by: TODO 05.5 the GPU-CPU ping-pong completes; TODO 05.5 the GPU-GPU ping-
 *   pong completes
 */
static __device__ unsigned int wait_for(const volatile unsigned int *flag, unsigned int r,
                                        unsigned long long deadline)
{
#ifndef LAB_SKELETON
    unsigned int spins = 0;
    while (*flag != r)
        if ((++spins & 63u) == 0u && lab05_now_ns() > deadline)
            return r;
    return 0;
#else
    /* TODO 05.5 */
    return r;
#endif
}

/* Ping writes round r, waits for the answer, keeps the time. */
static __global__ void ping_kernel(volatile unsigned int *to_pong,
                                   const volatile unsigned int *to_ping, int warmup, int rounds,
                                   unsigned long long timeout_ns, lab05_pingpong_result *result)
{
#ifndef LAB_SKELETON
    const unsigned long long deadline = lab05_now_ns() + timeout_ns;
    const unsigned int total = (unsigned int)(warmup + rounds);
    unsigned long long t0 = lab05_now_ns();
    for (unsigned int r = 1; r <= total; r++) {
        if (r == (unsigned int)warmup + 1u)
            t0 = lab05_now_ns();
        __threadfence_system(); /* earlier writes first, for every observer */
        *to_pong = r;
        if (wait_for(to_ping, r, deadline)) {
            result->failed_round = r;
            result->rounds = r - 1u;
            return;
        }
    }
    result->elapsed_ns = lab05_now_ns() - t0;
    result->rounds = total;
#else
    /* TODO 05.5: the ping side (lab05_launch_pingpong stops with its message). */
#endif
}

/* Pong waits for round r and answers it. */
static __global__ void pong_kernel(const volatile unsigned int *to_pong,
                                   volatile unsigned int *to_ping, int total_rounds,
                                   unsigned long long timeout_ns, lab05_pingpong_result *result)
{
#ifndef LAB_SKELETON
    const unsigned long long deadline = lab05_now_ns() + timeout_ns;
    for (unsigned int r = 1; r <= (unsigned int)total_rounds; r++) {
        if (wait_for(to_pong, r, deadline)) {
            result->failed_round = r;
            result->rounds = r - 1u;
            return;
        }
        __threadfence_system();
        *to_ping = r;
    }
    result->rounds = (unsigned int)total_rounds;
#else
    /* TODO 05.5: the pong side. */
#endif
}

cudaError_t lab05_launch_pingpong(const lab05_pingpong *pp)
{
#ifndef LAB_SKELETON
    cudaError_t err = cudaSuccess;
    /* The pong side starts first, so that it is already waiting. */
    if (pp->pong_dev >= 0) {
        err = cudaSetDevice(pp->pong_dev);
        if (err != cudaSuccess)
            return err;
        pong_kernel<<<1, 1, 0, pp->pong_stream>>>(pp->to_pong, pp->to_ping,
                                                  pp->warmup + pp->rounds, pp->timeout_ns,
                                                  pp->pong_result);
        if ((err = cudaGetLastError()) != cudaSuccess || pp->ping_dev < 0)
            return err; /* ping_dev -1: the host pings */
    }
    if ((err = cudaSetDevice(pp->ping_dev)) != cudaSuccess)
        return err;
    ping_kernel<<<1, 1, 0, pp->ping_stream>>>(pp->to_pong, pp->to_ping, pp->warmup, pp->rounds,
                                              pp->timeout_ns, pp->ping_result);
    return cudaGetLastError();
#else
    LAB_TODO("05.5");
#endif
}
