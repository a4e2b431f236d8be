/**
 * @file kernels.h
 * @brief Lab 03: the kernels' launchers, callable from C.
 *
 * A launcher enqueues one kernel on @p stream, which must be a stream of
 * the current device. The pointers may point into the current device's
 * memory or into the other GPU's: the kernel cannot tell the difference,
 * only the hardware (and peer access) can.
 */
#ifndef LAB03_KERNELS_H
#define LAB03_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/** Threads per block of every kernel of this lab. */
#define LAB03_THREADS 256

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Blocks for a grid-stride kernel over @p n elements: one thread per
 *        element, but no more than @p max_blocks blocks (at least 1).
 */
int lab03_grid(size_t n, int max_blocks);

/**
 * @brief Enqueue the chapter's kernel, dst[i] = 2 * src[i] for i < n,
 *        WITHOUT checking the launch (TODO 03.2). The caller reads the
 *        launch status with cudaGetLastError().
 * @param dst        n floats, written
 * @param src        n floats, read
 * @param n          element count (any value >= 1)
 * @param max_blocks upper bound of the grid (the kernel strides over the rest)
 * @param stream     a stream of the current device
 */
void launch_scale_raw(float *dst, const float *src, size_t n, int max_blocks,
                      cudaStream_t stream);

/**
 * @brief launch_scale_raw(), then CUDA_CHECK_LAUNCH: a failed launch ends
 *        the program with the error.
 */
void launch_scale(float *dst, const float *src, size_t n, int max_blocks,
                  cudaStream_t stream);

/**
 * @brief Enqueue the strided kernel (TODO 03.6): thread t of the grid-stride
 *        loop writes dst[t] = 2 * src[j] with
 *        j = (t % (n / stride)) * stride + t / (n / stride),
 *        so neighbouring threads read elements @p stride apart and every
 *        element is read exactly once. Checks the launch.
 * @param dst        n floats, written in order (coalesced)
 * @param src        n floats, read with the stride
 * @param n          element count, a multiple of @p stride, below 2^31
 * @param stride     distance in elements between neighbouring threads' reads
 * @param max_blocks upper bound of the grid
 * @param stream     a stream of the current device
 */
void launch_strided_scale(float *dst, const float *src, unsigned int n,
                          unsigned int stride, int max_blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* LAB03_KERNELS_H */
