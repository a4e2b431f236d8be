/**
 * @file cuda_check.h
 * @brief Checked CUDA calls: every failure names the call, the error and file:line.
 */
#ifndef LAB_CUDA_CHECK_H
#define LAB_CUDA_CHECK_H

#include "cli.h"

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Print one line on a failed CUDA call: the call's text, the error, file:line. */
void lab_cuda_report(cudaError_t err, const char *call, const char *file, int line);

/** @brief lab_cuda_report(), then exit with LAB_EXIT_FAIL. */
LAB_NORETURN void lab_cuda_die(cudaError_t err, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

/** @brief Run a CUDA runtime call; on failure print it and exit(1): `CUDA_CHECK(cudaFree(p));` */
#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t lab_err_ = (call);                                       \
        if (lab_err_ != cudaSuccess)                                         \
            lab_cuda_die(lab_err_, #call, __FILE__, __LINE__);               \
    } while (0)

/** @brief Run a CUDA call in a function returning cudaError_t: on failure report and return it. */
#define CUDA_TRY(call)                                                       \
    do {                                                                     \
        cudaError_t lab_err_ = (call);                                       \
        if (lab_err_ != cudaSuccess) {                                       \
            lab_cuda_report(lab_err_, #call, __FILE__, __LINE__);            \
            return lab_err_;                                                 \
        }                                                                    \
    } while (0)

#endif /* LAB_CUDA_CHECK_H */
