/**
 * @file copy_count.h
 * @brief Lab @NN@: the contract of the student's function (read it, do not edit it).
 */
#ifndef LAB@NN@_COPY_COUNT_H
#define LAB@NN@_COPY_COUNT_H

#include <stddef.h>

/**
 * @brief TODO @NN@.1: the bytes that @p count elements of @p elem_size bytes take.
 *
 * Contract:
 * - returns 0 and sets *bytes = count * elem_size;
 * - returns -1 and leaves *bytes unchanged when count or elem_size is 0, or
 *   when the product does not fit in a size_t;
 * - has no other effect (no CUDA call, no output).
 * Checked by tests/unit/lab@NN@.c (on any machine) and by the copy
 * experiment, which sizes its buffers with it and verifies the data.
 */
int copy_bytes(size_t count, size_t elem_size, size_t *bytes);

#endif
