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
}

void lab05_launch_gate(const volatile unsigned int *open, volatile unsigned int *timed_out,
                       unsigned long long timeout_ns, cudaStream_t stream)
{
    LAB_TODO("05.3");
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
    LAB_TODO("05.2");
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
}

/** @brief The pong side: waits for round r and answers it. */
__global__ void pong_kernel(const volatile unsigned int *to_pong, volatile unsigned int *to_ping,
                            int total_rounds, unsigned long long timeout_ns,
                            lab05_pingpong_result *result)
{
}

void lab05_launch_pingpong(int ping_dev, cudaStream_t ping_stream, int pong_dev,
                           cudaStream_t pong_stream, unsigned int *to_pong,
                           unsigned int *to_ping, int warmup, int rounds,
                           unsigned long long timeout_ns, lab05_pingpong_result *ping_result,
                           lab05_pingpong_result *pong_result)
{
    LAB_TODO("05.5");
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
