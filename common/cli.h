/**
 * @file cli.h
 * @brief The command line: exit codes (the GNU test-driver convention), declared options (one
 *        table gives getopt_long, --help and the usage errors), sizes with units (K = 1024,
 *        KB = 1000), integers. Every mistake is one line on stderr and exit status 2.
 */
#ifndef LAB_CLI_H
#define LAB_CLI_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The program ran and every check passed. */
#define LAB_EXIT_OK 0
/** A verification or a CUDA call failed, or a TODO is unfinished. */
#define LAB_EXIT_FAIL 1
/** The command line was wrong (unknown option, bad value). */
#define LAB_EXIT_USAGE 2
/** The machine lacks what the lab needs (GPUs, P2P); the reason is printed. */
#define LAB_EXIT_SKIP 77

/** Marks a function that never returns (C and C++ spell it differently). */
#ifdef __cplusplus
#define LAB_NORETURN [[noreturn]]
#else
#define LAB_NORETURN _Noreturn
#endif

/** Most experiment keys one -t list can hold. */
#define LAB_MAX_KEYS 32

/** @brief What an option's argument is. */
typedef enum lab_opt_kind {
    LAB_OPT_FLAG, /**< no argument; target is a bool */
    LAB_OPT_INT,  /**< an integer in [min, max]; target is a long */
    LAB_OPT_SIZE, /**< a size with units, at least 1 byte, in [min, max]; target is a size_t */
    LAB_OPT_TEXT, /**< any text; target is a const char * */
    LAB_OPT_KEYS  /**< comma-separated keys, repeatable; target is a lab_keys */
} lab_opt_kind;

/** @brief One declared option. */
typedef struct lab_option {
    const char *name;  /**< long name, without the dashes */
    int short_name;    /**< one letter, or 0 */
    lab_opt_kind kind; /**< what its argument is */
    const char *arg;   /**< the argument's name in --help, e.g. "SIZE" */
    const char *help;  /**< one line for --help */
    void *target;      /**< where the value goes (type by kind) */
    long min;          /**< LAB_OPT_INT, LAB_OPT_SIZE: smallest value */
    long max;          /**< LAB_OPT_INT, LAB_OPT_SIZE: largest value (a size: 0 any) */
} lab_option;

/** @brief A list of experiment keys (-t KEY,KEY -t KEY). */
typedef struct lab_keys {
    const char *key[LAB_MAX_KEYS]; /**< the keys, pointing into argv */
    int count;                     /**< how many */
} lab_keys;

/** @brief The options every lab shares. */
typedef struct lab_args {
    bool list;           /**< --list: show the experiments and exit */
    lab_keys tests;      /**< -t KEY: run only these experiments (none: all) */
    bool csv;            /**< --csv: rows as CSV on stdout instead of a table */
    bool quick;          /**< --quick: fewer sizes and samples */
    const char *out_dir; /**< --out DIR: also write DIR/NN-name.csv */
    long reps;           /**< --reps N: timed samples per measurement (0: lab default) */
    long seed;           /**< --seed N: seed of the data */
    long gpu_a;          /**< -a N: first GPU (-1: the program picks) */
    long gpu_b;          /**< -b N: second GPU (-1: the program picks) */
    bool progress;       /**< --progress: name each experiment on stderr as it starts */
} lab_args;

/** @brief How a program describes itself in --help. */
typedef struct lab_usage {
    const char *prog;     /**< short program name */
    const char *summary;  /**< a paragraph on what the program does */
    const char *epilogue; /**< text after the options (may be NULL) */
} lab_usage;

/** @brief Parse the shared options and @p extra: --help prints and exits 0, a mistake exits 2. */
void lab_parse_args(const lab_usage *usage, const lab_option *extra, size_t extra_count,
                    int argc, char **argv, lab_args *args);

/** @brief Print "prog: error: <message>. Try 'prog --help' for usage." and exit(2). */
LAB_NORETURN void lab_usage_error(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** @brief Parse a positive size with an optional unit ("4K", "256MiB"): 0, or -1 with the
 *         reason in @p why (may be NULL). */
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
