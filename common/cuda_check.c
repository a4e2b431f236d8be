/**
 * @file cuda_check.c
 * @brief Error reporting behind CUDA_CHECK and CUDA_TRY.
 */
#include "cuda_check.h"
#include "lab_exit.h"

#include <stdio.h>
#include <stdlib.h>

void lab_cuda_report(cudaError_t err, const char *call, const char *file, int line)
{
    fprintf(stderr, "CUDA error: %s failed: %s (%s) at %s:%d\n", call,
            cudaGetErrorName(err), cudaGetErrorString(err), file, line);
}

void lab_cuda_die(cudaError_t err, const char *call, const char *file, int line)
{
    lab_cuda_report(err, call, file, line);
    exit(LAB_EXIT_FAIL);
}
