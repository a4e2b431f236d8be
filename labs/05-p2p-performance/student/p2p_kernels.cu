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
    /* TODO 05.3: the copy loop and the tail (lab05_launch_sm_copy stops with its message). */
}

cudaError_t lab05_launch_sm_copy(void *dst, const void *src, size_t bytes, int max_blocks,
                                 cudaStream_t stream)
{
    LAB_TODO("05.3");
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
    /* TODO 05.4: the chase (lab05_launch_chase stops with its message). */
}

cudaError_t lab05_launch_chase(unsigned long long *cursor, long long steps, int target,
                               int blocks, cudaStream_t stream)
{
    LAB_TODO("05.4");
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
    /* TODO 05.5 */
    return r;
}

/* Ping writes round r, waits for the answer, keeps the time. */
static __global__ void ping_kernel(volatile unsigned int *to_pong,
                                   const volatile unsigned int *to_ping, int warmup, int rounds,
                                   unsigned long long timeout_ns, lab05_pingpong_result *result)
{
    /* TODO 05.5: the ping side (lab05_launch_pingpong stops with its message). */
}

/* Pong waits for round r and answers it. */
static __global__ void pong_kernel(const volatile unsigned int *to_pong,
                                   volatile unsigned int *to_ping, int total_rounds,
                                   unsigned long long timeout_ns, lab05_pingpong_result *result)
{
    /* TODO 05.5: the pong side. */
}

cudaError_t lab05_launch_pingpong(const lab05_pingpong *pp)
{
    LAB_TODO("05.5");
}
