/* Seeded data (splitmix64) and its verification, with the first mismatch named. */
#include "data.h"

#include <stdio.h>
#include <string.h>

uint64_t lab_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void lab_fill_bytes(void *buffer, size_t bytes, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t word = lab_rng_next(&state);
        memcpy((unsigned char *)buffer + i, &word, bytes - i < 8 ? bytes - i : 8);
    }
}

void lab_fill_floats(float *buffer, size_t count, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        /* 23 random mantissa bits under exponent 0: a float in [1, 2). */
        uint32_t bits = 0x3F800000u | (uint32_t)(lab_rng_next(&state) >> 41);
        memcpy(&buffer[i], &bits, sizeof bits);
    }
}

int lab_verify_bytes(const char *what, const void *got, const void *want, size_t bytes)
{
    const unsigned char *g = got, *w = want;
    size_t i = 0;
    if (memcmp(g, w, bytes) == 0)
        return 0;
    while (g[i] == w[i])
        i++;
    fprintf(stderr, "verification failed: %s: byte %zu of %zu is 0x%02x, expected 0x%02x\n",
            what, i, bytes, g[i], w[i]);
    return 1;
}

int lab_verify_floats(const char *what, const float *got, const float *want, size_t count)
{
    size_t i = 0;
    if (memcmp(got, want, count * sizeof *got) == 0)
        return 0;
    while (memcmp(&got[i], &want[i], sizeof *got) == 0)
        i++;
    fprintf(stderr, "verification failed: %s: element %zu of %zu is %.9g, expected %.9g\n",
            what, i, count, (double)got[i], (double)want[i]);
    return 1;
}
