/* One option table, three uses: getopt_long, --help and the usage errors. */
#include "cli.h"
#include "data.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most options (shared and the lab's own) one program declares. */
#define MAX_OPTIONS 40
/* getopt_long values of options without a short letter start here. */
#define LONG_ONLY_BASE 256

static lab_args parsed;

/* The shared options, written into the file-level `parsed`. */
static const lab_option shared_options[] = {
    {"list", 'l', LAB_OPT_FLAG, NULL, "list the experiments (key and description) and exit",
     &parsed.list, 0, 0},
    {"test", 't', LAB_OPT_KEYS, "KEY", "run only these experiments (comma list; repeatable)",
     &parsed.tests, 0, 0},
    {"csv", 0, LAB_OPT_FLAG, NULL, "print the result rows as CSV instead of a table",
     &parsed.csv, 0, 0},
    {"quick", 'q', LAB_OPT_FLAG, NULL, "fewer sizes and samples (a short run)", &parsed.quick,
     0, 0},
    {"out", 'o', LAB_OPT_TEXT, "DIR", "also write the rows to DIR/NN-name.csv", &parsed.out_dir,
     0, 0},
    {"reps", 'r', LAB_OPT_INT, "N", "timed samples per measurement (default: the lab's)",
     &parsed.reps, 1, 100000},
    {"seed", 's', LAB_OPT_INT, "N", "seed of the generated data", &parsed.seed, 0,
     2147483647L},
    {"gpu-a", 'a', LAB_OPT_INT, "N", "first GPU of a pair (default: the program picks)",
     &parsed.gpu_a, 0, 1023},
    {"gpu-b", 'b', LAB_OPT_INT, "N", "second GPU of a pair (default: the program picks)",
     &parsed.gpu_b, 0, 1023},
    {"progress", 0, LAB_OPT_FLAG, NULL, "name each experiment on stderr as it starts",
     &parsed.progress, 0, 0},
};
#define SHARED_COUNT (sizeof shared_options / sizeof shared_options[0])

static const lab_option *option_at(const lab_option *extra, size_t i)
{
    return i < SHARED_COUNT ? &shared_options[i] : &extra[i - SHARED_COUNT];
}

static void print_usage(const lab_usage *usage, const lab_option *extra, size_t extra_count)
{
    printf("usage: %s [options]\n\n%s\n\nOptions:\n", usage->prog, usage->summary);
    for (size_t i = 0; i < SHARED_COUNT + extra_count; i++) {
        const lab_option *o = option_at(extra, i);
        char left[64], letter[8] = "    ";
        if (o->short_name)
            snprintf(letter, sizeof letter, "-%c, ", o->short_name);
        snprintf(left, sizeof left, "%s--%s%s%s", letter, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        printf("  %-24s %s\n", left, o->help);
    }
    printf("  %-24s %s\n\n", "-h, --help", "show this help and exit");
    for (size_t i = 0; i < extra_count; i++)
        if (extra[i].kind == LAB_OPT_SIZE) { /* only where the lab has a size to give */
            printf("Sizes accept units: 4096, 4K, 256MiB, 1G (K/M/G are powers of 2, KB/MB/GB "
                   "of 10).\n");
            break;
        }
    printf("Exit status: 0 done, 1 a check, a CUDA call or writing the --out files failed,\n"
           "2 bad usage, 77 this machine lacks what every chosen experiment needs (the reason is\n"
           "printed).\n");
    if (usage->epilogue)
        printf("\n%s\n", usage->epilogue);
}

/* A size against its declared bounds, the error naming the sizes with their units. */
static void check_size(const char *prog, const lab_option *o, size_t bytes)
{
    char text[32], lo[32], hi[32];
    if (o->max > 0 && (bytes < (size_t)o->min || bytes > (size_t)o->max))
        lab_usage_error(prog, "--%s: %s is out of range (%s .. %s)", o->name,
                        lab_format_size(bytes, text, sizeof text),
                        lab_format_size((size_t)o->min, lo, sizeof lo),
                        lab_format_size((size_t)o->max, hi, sizeof hi));
}

static void store(const char *prog, const lab_option *o, char *value)
{
    char why[160];
    long number = 0;
    size_t bytes = 0;
    lab_keys *keys = (lab_keys *)o->target;
    switch (o->kind) {
    case LAB_OPT_FLAG: *(bool *)o->target = true; break;
    case LAB_OPT_TEXT:
        if (value[0] == '\0') /* "--out=" or --out "" */
            lab_usage_error(prog, "option '--%s' needs a value", o->name);
        *(const char **)o->target = value;
        break;
    case LAB_OPT_KEYS:
        for (char *key = strtok(value, ","); key != NULL; key = strtok(NULL, ",")) {
            if (keys->count == LAB_MAX_KEYS)
                lab_usage_error(prog, "too many experiment keys (at most %d)", LAB_MAX_KEYS);
            keys->key[keys->count++] = key;
        }
        if (keys->count == 0)
            lab_usage_error(prog, "option '-t' needs an experiment key (see --list)");
        break;
    case LAB_OPT_INT:
        if (lab_parse_int(value, o->min, o->max, &number, why, sizeof why) != 0)
            lab_usage_error(prog, "--%s: %s", o->name, why);
        *(long *)o->target = number;
        break;
    case LAB_OPT_SIZE:
        if (lab_parse_size(value, &bytes, why, sizeof why) != 0)
            lab_usage_error(prog, "--%s: %s", o->name, why);
        check_size(prog, o, bytes);
        *(size_t *)o->target = bytes;
        break;
    }
}

/* What getopt_long rejected (opterr is 0): ':' a missing value, '?' an unknown option or a
 * value given to a flag ("--quick=yes": optopt is then the flag's own value, not a letter). */
static LAB_NORETURN void getopt_error(const char *prog, char **argv, int opt,
                                      const struct option *longs)
{
    const char *word = argv[optind - 1];
    if (opt == ':')
        lab_usage_error(prog, "option '%s' needs a value", word);
    if (strncmp(word, "--", 2) == 0) { /* getopt_long also takes a unique prefix */
        const size_t len = strcspn(word + 2, "=");
        const struct option *flag = NULL;
        int matches = 0;
        if (len == 4 && strncmp(word + 2, "help=", 5) == 0) /* --help is not in the table */
            lab_usage_error(prog, "option '--help' takes no value");
        for (const struct option *o = longs; o->name; o++)
            if (strncmp(o->name, word + 2, len) == 0) {
                flag = o;
                matches += strlen(o->name) == len ? 100 : 1; /* an exact name wins */
            }
        if (matches > 1 && matches < 100)
            lab_usage_error(prog, "option '%.*s' is ambiguous", (int)(2 + len), word);
        if (flag && word[2 + len] == '=')
            lab_usage_error(prog, "option '--%s' takes no value", flag->name);
        lab_usage_error(prog, "unknown option '%.*s'", (int)(2 + len), word);
    }
    if (optopt)
        lab_usage_error(prog, "unknown option '-%c'", optopt);
    lab_usage_error(prog, "unknown option '%s'", word);
}

/* --help anywhere before "--" wins; --list prints and exits, so an option beside it would
 * silently do nothing: the error names that option. */
static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

static void check_combinations(const char *prog, int argc, char **argv)
{
    if (!parsed.list || argc <= 2)
        return;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-l") != 0 && strcmp(argv[i], "--list") != 0)
            lab_usage_error(prog, "--list takes no other option: it cannot be combined with '%s'",
                            argv[i]);
    lab_usage_error(prog, "--list takes no other option: it is given twice");
}

void lab_parse_args(const lab_usage *usage, const lab_option *extra, size_t extra_count,
                    int argc, char **argv, lab_args *args)
{
    const size_t total = SHARED_COUNT + extra_count;
    struct option longs[MAX_OPTIONS + 1];
    char shorts[2 * MAX_OPTIONS + 2] = ":";
    int opt;
    if (total > MAX_OPTIONS)
        lab_usage_error(usage->prog, "internal: %zu options, at most %d", total, MAX_OPTIONS);
    if (wants_help(argc, argv)) {
        print_usage(usage, extra, extra_count);
        exit(LAB_EXIT_OK);
    }
    memset(&parsed, 0, sizeof parsed);
    parsed.seed = LAB_DEFAULT_SEED;
    parsed.gpu_a = parsed.gpu_b = -1;
    for (size_t i = 0; i < total; i++) {
        const lab_option *o = option_at(extra, i);
        int has_arg = o->kind == LAB_OPT_FLAG ? no_argument : required_argument;
        longs[i] = (struct option){o->name, has_arg, NULL,
                                   o->short_name ? o->short_name : LONG_ONLY_BASE + (int)i};
        if (o->short_name)
            snprintf(shorts + strlen(shorts), 3, "%c%s", o->short_name, has_arg ? ":" : "");
    }
    longs[total] = (struct option){NULL, 0, NULL, 0};
    opterr = 0;
    while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        size_t i = 0;
        while (i < total && longs[i].val != opt)
            i++;
        if (i == total)
            getopt_error(usage->prog, argv, opt, longs);
        store(usage->prog, option_at(extra, i), optarg);
    }
    if (optind < argc)
        lab_usage_error(usage->prog, "unexpected argument '%s'", argv[optind]);
    check_combinations(usage->prog, argc, argv);
    *args = parsed;
}
