/* Usage errors, and the parsing of sizes and integers. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void lab_usage_error(const char *prog, const char *fmt, ...)
{
    va_list args;
    fflush(stdout);
    /* One line, so that a script or a test reads the whole error with the program's name and
       the way to its help. */
    fprintf(stderr, "%s: error: ", prog);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fprintf(stderr, ". Try '%s --help' for usage.\n", prog);
    exit(LAB_EXIT_USAGE);
}

/* Write the reason (when asked for) and return -1. */
static int fail(char *why, size_t why_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    if (why && why_len)
        vsnprintf(why, why_len, fmt, args);
    va_end(args);
    return -1;
}

/* Suffixes match case-insensitively ("KB" and "Kb" both mean 1000). */
static const struct {
    const char *suffix;
    uint64_t factor;
} units[] = {
    {"", 1},        {"B", 1},
    {"K", 1ULL << 10}, {"KiB", 1ULL << 10}, {"KB", 1000ULL},
    {"M", 1ULL << 20}, {"MiB", 1ULL << 20}, {"MB", 1000000ULL},
    {"G", 1ULL << 30}, {"GiB", 1ULL << 30}, {"GB", 1000000000ULL},
    {"T", 1ULL << 40}, {"TiB", 1ULL << 40}, {"TB", 1000000000000ULL},
};

int lab_parse_size(const char *text, size_t *bytes, char *why, size_t why_len)
{
    char *end = NULL;
    if (text == NULL || *text == '\0')
        return fail(why, why_len, "empty size");
    /* strtoull accepts a sign and leading blanks; a size must start with a digit. */
    if (!isdigit((unsigned char)text[0]))
        return fail(why, why_len, "'%s' is not a size (expected e.g. 4096, 4K, 256MiB, 1G)", text);
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return fail(why, why_len, "size '%s' is too large", text);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].suffix) != 0)
            continue;
        if (number == 0)
            return fail(why, why_len, "size '%s' must be greater than zero", text);
        if (number > SIZE_MAX / units[i].factor)
            return fail(why, why_len, "size '%s' is too large", text);
        *bytes = (size_t)(number * units[i].factor);
        return 0;
    }
    return fail(why, why_len, "unknown unit in '%s' (use B, K, M, G, T, KiB..TiB or KB..TB)",
                text);
}

int lab_parse_int(const char *text, long min, long max, long *value, char *why, size_t why_len)
{
    char *end = NULL;
    if (text == NULL || *text == '\0')
        return fail(why, why_len, "empty number");
    errno = 0;
    long number = strtol(text, &end, 10);
    if (end == text || *end != '\0' || isspace((unsigned char)text[0]))
        return fail(why, why_len, "'%s' is not a whole number", text);
    if (errno == ERANGE || number < min || number > max)
        return fail(why, why_len, "%s is out of range (%ld..%ld)", text, min, max);
    *value = number;
    return 0;
}

char *lab_format_size(size_t bytes, char *out, size_t out_len)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        unit++;
    }
    snprintf(out, out_len, "%zu %s", bytes, names[unit]);
    return out;
}

const char *lab_prog_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}
