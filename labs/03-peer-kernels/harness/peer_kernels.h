/**
 * @file peer_kernels.h
 * @brief Lab 03 (chapter 4.3): the contracts of the student's functions, in student/peer_host.c and
 *        student/peer_kernels.cu (read this file, do not edit it).
 *
 * A "far" pointer is another GPU's memory (route peer), pinned host memory mapped into the GPU
 * (route host: PCIe or C2C) or the same GPU's (route loopback); the kernels cannot tell. Shared
 * clauses: work goes on the @p stream given (of the current device) and nothing waits for it unless
 * said; a failed launch or copy is returned (a launch's status is cudaGetLastError() right after
 * it), never printed, never fatal. Results are checked bit for bit, and the 256 floats after each
 * must keep the 0xFF bytes the harness put there: a write at or past n fails the run.
 */
#ifndef LAB03_PEER_KERNELS_H
#define LAB03_PEER_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>

/** Threads per block of every kernel of this lab. */
#define LAB03_THREADS 256

#ifdef __cplusplus
extern "C" {
#endif

/** @brief One run of a transfer: who runs it and the buffers it may use. */
typedef struct lab03_job {
    int near_dev;   /**< the GPU that runs the work (current, owns the stream) */
    int far_dev;    /**< the GPU that owns @c far (near_dev itself on loopback), -1: host */
    float *near;    /**< n floats in near_dev's own memory */
    float *far;     /**< n floats across the route */
    float *stage;   /**< n floats in near_dev's own memory, where a copy of far lands */
    size_t n;       /**< elements, at least 1 */
    int max_blocks; /**< most blocks a launch may use (at least 1) */
} lab03_job;

/**
 * @brief TODO 03.1: peer access both ways, a -> b and b -> a, on (@p on) or off, through
 *        lab_peer_access() (common/devices.h), whose record the harness reads back.
 *
 * Returns cudaErrorInvalidDevice and changes nothing when @p a or @p b is negative or they are
 * equal; else the first error of lab_peer_access. The current device is unspecified afterwards.
 * Checked: lab_peer_access_is_on() for both directions after each call (tests/unit/lab03.c checks,
 * on any machine, the arguments, and, standing in for lab_peer_access, the calls made and which
 * error is returned); then a pull (a's loads from b) and a push (b's stores into a) run and verify.
 */
cudaError_t lab03_peer_both(int a, int b, bool on);

/**
 * @brief TODO 03.3: blocks of a grid-stride launch over @p n elements: ceil(n / threads), at most
 *        @p max_blocks.
 *
 * Returns 0 (nothing to launch) when n is 0 or threads or max_blocks is below 1. Never overflows,
 * even for n near SIZE_MAX. No other effect. Checked by tests/unit/lab03.c on any machine, and by
 * every launch.
 */
int lab03_grid(size_t n, int threads, int max_blocks);

/**
 * @brief TODO 03.2: the chapter's kernel, dst[i] = 2 * src[i] for every i < n, as a grid-stride
 *        loop with a size_t index, launched on lab03_grid(n, LAB03_THREADS, max_blocks) blocks of
 *        LAB03_THREADS.
 *
 * Any n >= 1, any grid: the loop covers what the grid does not; no thread touches an element at or
 * past n. Either pointer may be far. Returns the launch's status. Checked at sizes and grids that
 * leave partial warps and blocks (n = 1, 31, 257, 1000003; 1, 3 or 7 blocks) on every route, and
 * each launch's grid and block, captured without running it.
 */
cudaError_t lab03_launch_scale(float *dst, const float *src, size_t n, int max_blocks,
                               cudaStream_t stream);

/** @brief TODO 03.4 (pull): near[i] = 2 * far[i]; near_dev's loads cross the route. */
cudaError_t lab03_pull(const lab03_job *job, cudaStream_t stream);

/** @brief TODO 03.4 (push): far[i] = 2 * near[i]; near_dev's stores cross the route. */
cudaError_t lab03_push(const lab03_job *job, cudaStream_t stream);

/**
 * @brief TODO 03.5 (the copy): stage = far, n floats, by the copy engines:
 *        cudaMemcpyPeerAsync(stage, near_dev, far, far_dev, ...) when far is a GPU's memory,
 *        cudaMemcpyAsync(..., cudaMemcpyHostToDevice, ...) when far_dev is -1 (host memory).
 */
cudaError_t lab03_copy_in(const lab03_job *job, cudaStream_t stream);

/**
 * @brief TODO 03.5: copy first, then compute locally: lab03_copy_in(), then near[i] = 2 * stage[i],
 *        both on @p stream with nothing between them (the stream keeps them in order).
 */
cudaError_t lab03_copy_then_compute(const lab03_job *job, cudaStream_t stream);

/**
 * @brief TODO 03.6: the same work, another read order: thread t of the grid-stride loop writes
 *        dst[t] = 2 * src[j], rows = n / stride, j = (t % rows) * stride + t / rows, so
 *        neighbouring threads read elements @p stride apart and every element is read once;
 *        launched on lab03_grid(n, LAB03_THREADS, max_blocks) blocks.
 *
 * Needs stride >= 1, n a multiple of stride, 1 <= n < 2^31 (32-bit index arithmetic, as cheap as
 * the access it measures). Returns the launch's status. Checked at strides 1 ... 64 and odd shapes
 * (259 floats, stride 7, one block), at n x stride beyond 2^32 (983040 floats, stride 8192), at one
 * row (stride n), and for each launch's grid and block, captured without running it.
 */
cudaError_t lab03_launch_strided(float *dst, const float *src, unsigned int n,
                                 unsigned int stride, int max_blocks, cudaStream_t stream);

/**
 * @brief TODO 03.7: touch memory this GPU was never given: launch lab03_launch_scale(dst, src, n,
 *        1024, 0) on the current device, keep its status in *launch, wait with
 *        cudaDeviceSynchronize() and keep that status in *sync.
 *
 * Runs in the harness's child process only: @p src is another GPU's memory with peer access never
 * enabled, host memory never registered, or an address mapped to nothing. No CUDA_CHECK: the errors
 * are the result, and a fault ruins this process's CUDA state for good. Checked: the parent reads
 * *launch and *sync from the child and names them.
 */
void lab03_touch(float *dst, const float *src, size_t n, cudaError_t *launch,
                 cudaError_t *sync);

#ifdef __cplusplus
}
#endif

#endif /* LAB03_PEER_KERNELS_H */
