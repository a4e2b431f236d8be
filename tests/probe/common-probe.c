/*
 * common-probe: runs the host-side functions of common/ on values given on
 * the command line, so that tests/common.bats can check them one by one on
 * any machine, GPU or not.
 *
 *   common-probe size TEXT             bytes, or the parse error (exit 2)
 *   common-probe int TEXT MIN MAX      the number, or the parse error (exit 2)
 *   common-probe format-size BYTES     e.g. "64 KiB"
 *   common-probe stats X...            count, median, min, max, mean
 *   common-probe fill-bytes SEED N     N seeded bytes in hex
 *   common-probe fill-floats SEED N    N seeded floats
 *   common-probe verify-bytes HEX HEX  compare two byte strings (exit 1 on mismatch)
 *   common-probe gbps BYTES MS         bandwidth in GB/s
 *   common-probe outfile PATH N MS     write N lines to PATH, MS ms apart,
 *                                      through lab_outfile (whole or not at all)
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(const char *why)
{
    printf("error: %s\n", why);
    return LAB_EXIT_USAGE;
}

static size_t hex_to_bytes(const char *hex, unsigned char *out, size_t max)
{
    size_t n = 0;
    while (hex[0] && hex[1] && n < max) {
        unsigned int value;
        if (sscanf(hex, "%2x", &value) != 1)
            break;
        out[n++] = (unsigned char)value;
        hex += 2;
    }
    return n;
}

static unsigned long long parse_u64(const char *text)
{
    return strtoull(text, NULL, 10);
}

int main(int argc, char **argv)
{
    char why[200] = "";
    if (argc < 2)
        return fail("no command");
    const char *cmd = argv[1];

    if (strcmp(cmd, "size") == 0 && argc == 3) {
        size_t bytes = 0;
        if (lab_parse_size(argv[2], &bytes, why, sizeof why) != 0)
            return fail(why);
        printf("%zu\n", bytes);
    } else if (strcmp(cmd, "int") == 0 && argc == 5) {
        long value = 0;
        if (lab_parse_int(argv[2], atol(argv[3]), atol(argv[4]), &value, why,
                          sizeof why) != 0)
            return fail(why);
        printf("%ld\n", value);
    } else if (strcmp(cmd, "format-size") == 0 && argc == 3) {
        char text[64];
        printf("%s\n", lab_format_size((size_t)parse_u64(argv[2]), text, sizeof text));
    } else if (strcmp(cmd, "stats") == 0) {
        size_t n = (size_t)(argc - 2);
        double *x = calloc(n + 1, sizeof *x);
        for (size_t i = 0; i < n; i++)
            x[i] = strtod(argv[2 + i], NULL);
        lab_stats s;
        int rc = lab_stats_compute(x, n, &s);
        free(x);
        if (rc != 0)
            return fail("no statistics for these samples");
        printf("count=%zu median=%g min=%g max=%g mean=%g\n", s.count, s.median,
               s.min, s.max, s.mean);
    } else if (strcmp(cmd, "fill-bytes") == 0 && argc == 4) {
        size_t n = (size_t)parse_u64(argv[3]);
        unsigned char *buf = malloc(n + 1);
        lab_fill_bytes(buf, n, parse_u64(argv[2]));
        for (size_t i = 0; i < n; i++)
            printf("%02x", buf[i]);
        printf("\n");
        free(buf);
    } else if (strcmp(cmd, "fill-floats") == 0 && argc == 4) {
        size_t n = (size_t)parse_u64(argv[3]);
        float *buf = malloc((n + 1) * sizeof *buf);
        lab_fill_floats(buf, n, parse_u64(argv[2]));
        for (size_t i = 0; i < n; i++)
            printf("%.9g\n", (double)buf[i]);
        free(buf);
    } else if (strcmp(cmd, "verify-bytes") == 0 && argc == 4) {
        unsigned char got[256], want[256];
        size_t ng = hex_to_bytes(argv[2], got, sizeof got);
        size_t nw = hex_to_bytes(argv[3], want, sizeof want);
        if (ng != nw)
            return fail("the two byte strings differ in length");
        if (lab_verify_bytes("probe", got, want, ng) != 0)
            return LAB_EXIT_FAIL;
        printf("equal\n");
    } else if (strcmp(cmd, "outfile") == 0 && argc == 5) {
        /* outfile PATH LINES PAUSE_MS: write LINES lines, flushed one by one
         * with a pause between, so that a test can interrupt the writing. */
        lab_outfile file;
        lab_outfile_open(&file, "probe", argv[2]);
        unsigned long long lines = parse_u64(argv[3]);
        struct timespec pause = {0, (long)(parse_u64(argv[4]) % 1000) * 1000000L};
        for (unsigned long long i = 1; i <= lines; i++) {
            fprintf(file.stream, "line %llu of %llu\n", i, lines);
            fflush(file.stream);
            nanosleep(&pause, NULL);
        }
        lab_outfile_commit(&file, "probe");
    } else if (strcmp(cmd, "rows") == 0 && argc == 2) {
        lab_rows rows = {0};
        if (lab_rows_read_csv(stdin, &rows, why, sizeof why) != 0)
            return fail(why);
        lab_rows_write_csv(&rows, stdout);
        lab_rows_free(&rows);
    } else if (strcmp(cmd, "gbps") == 0 && argc == 4) {
        printf("%.3f\n", lab_gbps(strtod(argv[2], NULL), strtod(argv[3], NULL)));
    } else {
        return fail("unknown command or wrong number of arguments");
    }
    return LAB_EXIT_OK;
}
