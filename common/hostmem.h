/**
 * @file hostmem.h
 * @brief Checked host allocation: a lab never tests malloc's result itself.
 */
#ifndef LAB_HOSTMEM_H
#define LAB_HOSTMEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief calloc(count, size), or exit 1 saying what could not be allocated.
 * @param count how many elements
 * @param size  bytes per element
 * @param what  what the memory is for, e.g. "the P2P matrix"
 */
void *lab_host_alloc(size_t count, size_t size, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* LAB_HOSTMEM_H */
