/**
 * @file lab04-threads.c
 * @brief TODO 04.8 on two CPU threads at once, built with ThreadSanitizer (the student's
 *        atomic_host.c too): each increment must be one atomic read-modify-write.
 *
 * Counting is not enough to see a plain `(*counter)++`: on one CPU the threads take turns and a
 * single add instruction is never cut in half, so the count comes out right. ThreadSanitizer
 * sees the two threads' unordered plain accesses to the counter whatever the schedule, so the
 * case fails on any number of CPUs. Prints "ok NAME" or "not ok NAME: why"; exits 1 when a case
 * failed. The threads are POSIX threads: glibc's C11 thrd_create is not intercepted by GCC 12's
 * ThreadSanitizer, which then crashes.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap; pthread barriers */

/* What ThreadSanitizer exits with at its first report, and what that report means here. */
#define UNIT_SANITIZER_EXIT 66
#define UNIT_SANITIZER_SAID                                                                    \
    "ThreadSanitizer found a data race on the counter (its report above names the line): "     \
    "each increment must be one atomic read-modify-write (__atomic_fetch_add or "              \
    "atomic_fetch_add), not a plain or volatile load and store"

#include "atomics.h"
#include "unit_groups.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define LAB04_STRING_(x) #x
#define LAB04_STRING(x) LAB04_STRING_(x)

/** @brief ThreadSanitizer's settings: stop at the first race with UNIT_SANITIZER_EXIT, and leave
 *         a crash to unit_groups.h (which names the signal and the case). */
__attribute__((used, no_sanitize_thread)) const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "halt_on_error=1:exitcode=" LAB04_STRING(UNIT_SANITIZER_EXIT)
           ":handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0";
}

static int failed;

/** busy() says yes @p left times, then no. */
typedef struct budget {
    long left; /**< yes answers still to give */
} budget;

/* Each answer first yields the CPU: on one CPU the two threads then take turns increment by
 * increment, so that each access to the counter follows the other thread's at once. (A thread
 * that ran all its increments in one time slice could leave ThreadSanitizer's history of the
 * counter reset before the other thread's first access: seen with GCC 13's.) */
static int busy(void *arg)
{
    budget *b = arg;
    sched_yield();
    return b->left-- > 0;
}

/** What one CPU thread does. */
typedef struct worker {
    unsigned long long *counter; /**< shared by both threads */
    pthread_barrier_t *start;    /**< both start at once, so that their increments overlap */
    budget budget;               /**< this thread's own */
    unsigned long long made;     /**< its return value */
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    pthread_barrier_wait(w->start);
    w->made = cpu_add_while(w->counter, 1, busy, &w->budget);
    return NULL;
}

/* Two threads on one counter: no count lost, and no plain access to it. */
static void two_threads(void)
{
    const long each = 100000;
    unsigned long long counter = 0;
    pthread_barrier_t start;
    worker w[2] = {{&counter, &start, {each}, 0}, {&counter, &start, {each}, 0}};
    pthread_t t[2];
    int started = 0;
    unit_case("two_threads");
    /* One call on this thread first: an unfinished TODO stops here, before any thread runs. */
    budget once = {1};
    if (cpu_add_while(&counter, 1, busy, &once) != 1 || counter != 1) {
        printf("not ok two_threads: on one thread, one batch of one increment returned or "
               "counted other than 1\n");
        failed = 1;
        return;
    }
    counter = 0;
    if (pthread_barrier_init(&start, NULL, 2) != 0) {
        printf("not ok two_threads: pthread_barrier_init failed\n");
        failed = 1;
        return;
    }
    for (int i = 0; i < 2; i++)
        started += pthread_create(&t[started], NULL, work, &w[i]) == 0;
    if (started == 1)
        pthread_barrier_wait(&start); /* the second did not start: release the first */
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    int ok = started == 2 && counter == 2ULL * (unsigned long long)each &&
             w[0].made == (unsigned long long)each && w[1].made == (unsigned long long)each;
    printf("%s two_threads", ok ? "ok" : "not ok");
    if (!ok)
        printf(": two threads of %ld increments each left the counter at %llu (returned %llu "
               "and %llu): not every increment was one atomic read-modify-write",
               each, counter, w[0].made, w[1].made);
    printf("\n");
    failed |= !ok;
}

/** @brief TODO 04.8 on two threads; with an argument (04.8) only that TODO's cases. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"04.8", two_threads}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
