/**
 * @file options.h
 * @brief Declared command-line options: one table gives getopt_long, the
 *        --help text and the usage errors.
 *
 * Every lab program takes the options every lab shares (lab_args) and may
 * declare a few of its own in the same form. Sizes accept units (4K, 256MiB,
 * 1G); integers are range-checked; every mistake is one line on stderr and
 * exit status 2.
 */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most experiment keys one -t list can hold. */
#define LAB_MAX_KEYS 32

/** @brief What an option's argument is. */
typedef enum lab_opt_kind {
    LAB_OPT_FLAG, /**< no argument; target is a bool */
    LAB_OPT_INT,  /**< an integer in [min, max]; target is a long */
    LAB_OPT_SIZE, /**< a size with units, at least 1 byte; target is a size_t */
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
    long min;          /**< LAB_OPT_INT: smallest value */
    long max;          /**< LAB_OPT_INT: largest value */
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

#ifdef __cplusplus
}
#endif

#endif /* LAB_OPTIONS_H */
