/**
 * @file data.h
 * @brief Host buffers: checked allocation, and seeded test data (splitmix64, never zeros, so a
 *        copy that moved nothing fails) with verification that names the first mismatch.
 */
#ifndef LAB_DATA_H
#define LAB_DATA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The seed labs use unless --seed says otherwise. */
#define LAB_DEFAULT_SEED 20261130u

/** @brief calloc(count, size), or exit 1 saying what (e.g. "the P2P matrix") could not be had. */
void *lab_host_alloc(size_t count, size_t size, const char *what);

/** @brief Next value of the splitmix64 sequence held in @p state. */
uint64_t lab_rng_next(uint64_t *state);

/** @brief Fill @p bytes bytes with the sequence for @p seed (no short period). */
void lab_fill_bytes(void *buffer, size_t bytes, uint64_t seed);

/**
 * @brief Fill @p count floats with values in [1, 2) drawn from @p seed.
 *        Such values double exactly, so `2 * x` can be compared bit for bit.
 */
void lab_fill_floats(float *buffer, size_t count, uint64_t seed);

/** @brief 0 when equal, else 1 after printing the first differing byte, labelled @p what. */
int lab_verify_bytes(const char *what, const void *got, const void *want, size_t bytes);

/** @brief lab_verify_bytes() for floats, compared bit for bit. */
int lab_verify_floats(const char *what, const float *got, const float *want, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* LAB_DATA_H */
