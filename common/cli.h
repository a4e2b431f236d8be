/**
 * @file cli.h
 * @brief Command-line helpers shared by the lab programs (with getopt_long).
 *
 * Sizes accept units: a plain number is bytes; K, M, G (and KiB, MiB, GiB)
 * are powers of 1024; KB, MB, GB are powers of 1000. Every bad value ends
 * the program with a one-line error and exit status 2.
 */
#ifndef LAB_CLI_H
#define LAB_CLI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Print one line, "prog: error: <message>. Try 'prog --help' for usage.", and exit(2).
 * @param prog program name
 * @param fmt  printf-style message
 */
#ifdef __cplusplus
[[noreturn]]
#else
_Noreturn
#endif
void lab_usage_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/**
 * @brief Parse a size with an optional unit ("4096", "4K", "256MiB", "1GB").
 * @param text  the text to parse
 * @param bytes the size in bytes (written on success)
 * @param why   on failure, the reason (may be NULL)
 * @param why_len size of @p why
 * @return 0 on success, -1 when the text is not a positive size that fits
 *         in size_t
 */
int lab_parse_size(const char *text, size_t *bytes, char *why, size_t why_len);

/**
 * @brief Parse a decimal integer within [min, max].
 * @return 0 on success, -1 otherwise (reason in @p why)
 */
int lab_parse_int(const char *text, long min, long max, long *value,
                  char *why, size_t why_len);

/**
 * @brief lab_parse_size() for an option value; exits 2 naming the option.
 */
size_t lab_opt_size(const char *prog, const char *option, const char *text);

/**
 * @brief lab_parse_int() for an option value; exits 2 naming the option.
 */
long lab_opt_int(const char *prog, const char *option, const char *text,
                 long min, long max);

/**
 * @brief Report what getopt_long rejected and exit(2). Call it for the ':'
 *        (missing value) and '?' (unknown option) results, with opterr = 0.
 * @param prog program name
 * @param argv the arguments getopt_long was given
 * @param opt  what getopt_long returned
 */
#ifdef __cplusplus
[[noreturn]]
#else
_Noreturn
#endif
void lab_getopt_error(const char *prog, char **argv, int opt);

/**
 * @brief Exit 2 when arguments are left after the options.
 * @param prog  program name
 * @param optind getopt's index of the first non-option argument
 * @param argc  argument count
 * @param argv  arguments
 */
void lab_no_operands(const char *prog, int optind, int argc, char **argv);

/**
 * @brief Write @p bytes as text with the largest exact binary unit
 *        ("4 B", "64 KiB", "1 GiB", "1000001 B").
 * @return @p out
 */
char *lab_format_size(size_t bytes, char *out, size_t out_len);

/**
 * @brief The program name to print: the last path component of argv[0].
 */
const char *lab_prog_name(const char *argv0);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CLI_H */
