/**
 * @file results.c
 * @brief Lab 02: the table of results every experiment appends to.
 */
#include "lab02.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

row row_blank(const char *section)
{
    row r;
    memset(&r, 0, sizeof r);
    r.section = section;
    r.peer = r.src_gpu = r.dst_gpu = r.current_gpu = NA;
    r.bytes = r.src_offset = r.dst_offset = -1;
    r.verified = r.untouched = r.waited = NA;
    return r;
}

void results_add(results *out, const row *r)
{
    if (out->count == out->capacity) {
        size_t capacity = out->capacity ? 2 * out->capacity : 256;
        row *grown = realloc(out->rows, capacity * sizeof *grown);
        if (grown == NULL) {
            fprintf(stderr, "out of memory for %zu result rows\n", capacity);
            exit(LAB_EXIT_FAIL);
        }
        out->rows = grown;
        out->capacity = capacity;
    }
    out->rows[out->count++] = *r;
}

void results_free(results *out)
{
    free(out->rows);
    out->rows = NULL;
    out->count = out->capacity = 0;
}

const char *peer_word(int peer)
{
    return peer == NA ? "" : peer ? "on" : "off";
}
