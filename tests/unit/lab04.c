/**
 * @file lab04.c
 * @brief Unit tests of lab 04's host-side student function, cpu_add_while
 *        (TODO 04.8), on any machine: no GPU is touched. Its cases on two
 *        threads at once are in lab04-threads.c (built with ThreadSanitizer).
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1
 * when any case failed; `lab04 04.8` runs only TODO 04.8's cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "atomics.h"
#include "unit_groups.h"

#include <limits.h>
#include <stdio.h>

static int failed;

/** busy() says yes @p left times, then no; it counts its calls. */
typedef struct budget {
    long left;  /**< yes answers still to give */
    long calls; /**< how often it was asked */
} budget;

static int busy(void *arg)
{
    budget *b = arg;
    b->calls++;
    return b->left-- > 0;
}

/** One call of cpu_add_while and what it must do. */
typedef struct add_case {
    const char *name;        /**< the case */
    int with_counter;        /**< pass a counter (else NULL) */
    int with_busy;           /**< pass busy (else NULL) */
    unsigned long long from; /**< the counter before */
    unsigned long long batch;
    long yes;                /**< busy's yes answers */
    unsigned long long made; /**< expected return value */
    unsigned long long to;   /**< expected counter after */
    long calls;              /**< expected calls of busy */
} add_case;

static void run_case(const add_case *c)
{
    unsigned long long counter = c->from;
    budget b = {c->yes, 0};
    unit_case(c->name);
    unsigned long long made = cpu_add_while(c->with_counter ? &counter : NULL, c->batch,
                                            c->with_busy ? busy : NULL, &b);
    int ok = made == c->made && counter == c->to && b.calls == c->calls;
    printf("%s %s", ok ? "ok" : "not ok", c->name);
    if (!ok)
        printf(": cpu_add_while(batch %llu, busy yes %ld times) returned %llu, counter %llu, "
               "busy called %ld times; expected %llu, %llu, %ld",
               c->batch, c->yes, made, counter, b.calls, c->made, c->to, c->calls);
    printf("\n");
    failed |= !ok;
}

/* busy() for a NULL arg, which the contract allows (arg is only passed on): yes twice. */
static long no_arg_yes;

static int busy_without_arg(void *arg)
{
    return arg == NULL && no_arg_yes-- > 0;
}

static void null_arg(void)
{
    unsigned long long counter = 0;
    unit_case("null_arg");
    no_arg_yes = 2;
    const unsigned long long made = cpu_add_while(&counter, 5, busy_without_arg, NULL);
    const int ok = made == 10 && counter == 10;
    printf("%s null_arg", ok ? "ok" : "not ok");
    if (!ok)
        printf(": cpu_add_while(batch 5, busy yes twice, arg NULL) returned %llu, counter %llu; "
               "expected 10 and 10 (a NULL arg is allowed: it is only passed to busy)", made,
               counter);
    printf("\n");
    failed |= !ok;
}

/** @brief Every clause of TODO 04.8's contract that one thread shows. */
static void todo_04_8(void)
{
    static const add_case cases[] = {
        {"stops_at_once", 1, 1, 5, 64, 0, 0, 5, 1},
        {"one_batch", 1, 1, 5, 64, 1, 64, 69, 2},
        {"batches_of_one", 1, 1, 0, 1, 3, 3, 3, 4},
        {"odd_batch", 1, 1, 10, 7, 5, 35, 45, 6},
        {"wraps_modulo_2_64", 1, 1, ULLONG_MAX - 1, 3, 1, 3, 1, 2},
        {"batch_zero", 1, 1, 9, 0, 5, 0, 9, 0},
        {"null_counter", 0, 1, 0, 8, 5, 0, 0, 0},
        {"null_busy", 1, 0, 9, 8, 5, 0, 9, 0},
        {"several_faults_at_once", 0, 0, 0, 0, 5, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
    null_arg();
}

/** @brief TODO 04.8's cases; with an argument (04.8) only that TODO's. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"04.8", todo_04_8}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
