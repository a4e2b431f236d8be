/* Checked host allocation. */
#include "data.h"
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *lab_host_alloc(size_t count, size_t size, const char *what)
{
    if (size != 0 && count > SIZE_MAX / size) {
        fprintf(stderr, "error: %zu x %zu bytes for %s overflow a size_t\n", count, size, what);
        exit(LAB_EXIT_FAIL);
    }
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "error: out of host memory for %s (%zu bytes)\n", what, count * size);
        exit(LAB_EXIT_FAIL);
    }
    return p;
}
