/**
 * @file data.c
 * @brief The all-reduce's data: small integers as floats (any sum of eight is exact, in any
 *        order), the same on every rank for a seed, and how a buffer is cut into ring chunks.
 */
#include "lab06.h"

float lab06_value(unsigned long seed, int rank, size_t i)
{
    /* A multiplicative hash: cheap enough for a gigabyte, different for every rank. */
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull ^ ((uint64_t)rank + 1) * 0xBF58476D1CE4E5B9ull ^
                 (uint64_t)seed;
    x ^= x >> 31;
    return (float)((int)(x % 2001u) - 1000);
}

void lab06_chunk(size_t count, int n, int chunk, size_t *off, size_t *len)
{
    const size_t begin = count / (size_t)n * (size_t)chunk + (count % (size_t)n < (size_t)chunk
                                                                    ? count % (size_t)n
                                                                    : (size_t)chunk);
    const size_t size = count / (size_t)n + ((size_t)chunk < count % (size_t)n);
    *off = begin;
    *len = size;
}
