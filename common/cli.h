/**
 * @file cli.h
 * @brief Sizes with units, integers, size formatting and usage errors.
 *
 * Sizes accept units: a plain number is bytes; K, M, G (and KiB, MiB, GiB)
 * are powers of 1024; KB, MB, GB are powers of 1000. Every bad value ends
 * the program with a one-line error and exit status 2.
 */
#ifndef LAB_CLI_H
#define LAB_CLI_H

#include "lab_exit.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Print "prog: error: <message>. Try 'prog --help' for usage." and exit(2). */
LAB_NORETURN void lab_usage_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/**
 * @brief Parse a size with an optional unit ("4096", "4K", "256MiB", "1GB").
 * @return 0 with @p bytes set, or -1 with the reason in @p why (may be NULL)
 *         when the text is not a positive size that fits in size_t
 */
int lab_parse_size(const char *text, size_t *bytes, char *why, size_t why_len);

/** @brief Parse a decimal integer within [min, max]: 0, or -1 with the reason in @p why. */
int lab_parse_int(const char *text, long min, long max, long *value, char *why, size_t why_len);

/** @brief @p bytes with the largest exact binary unit ("4 B", "64 KiB", "1000001 B"); @p out. */
char *lab_format_size(size_t bytes, char *out, size_t out_len);

/** @brief The program name to print: the last path component of argv[0]. */
const char *lab_prog_name(const char *argv0);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CLI_H */
