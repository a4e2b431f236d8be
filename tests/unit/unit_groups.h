/**
 * @file unit_groups.h
 * @brief The unit-test drivers' one main loop: each TODO's cases are a group, and an argument
 *        (a TODO id) runs only that group, so that each TODO is scored on its own (an
 *        unfinished TODO stops the driver where it is first called).
 *
 * Each group runs in a child process of its own, so that a student's function that crashes
 * (a NULL dereference, an abort) or stops the program (exit) in the middle of a case is named:
 * the parent prints "not ok CASE: ..." with the signal (SIGSEGV ...) or the exit status, the
 * case that was running and the TODO, and exits 1. The running case is the one the driver last
 * announced with unit_case(NAME), before it called the student's code; when that case has
 * already printed its line (or none was announced), it is "the case after" the last one printed
 * (the parent passes the child's lines on and keeps the last).
 *
 * A driver defines _DEFAULT_SOURCE before its first #include (fork, waitpid, getline and an
 * anonymous shared mapping are POSIX and BSD, not C11) and ends main with
 *     if (unit_run_groups(groups, count, argc, argv) == 0) return 2;
 *     return failed;
 * unit_run_groups returns only in the child that ran a group (1) and after a usage error (0);
 * the parent exits with the worst status of its children.
 */
#ifndef UNIT_GROUPS_H
#define UNIT_GROUPS_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/** One TODO's cases. */
typedef struct unit_group {
    const char *id;    /**< the TODO id, e.g. "05.1" */
    void (*run)(void); /**< runs its cases */
} unit_group;

/** What a group's child tells its parent, in memory both share. */
typedef struct unit_progress {
    char todo[16];  /**< the group's TODO id */
    char name[112]; /**< the case running now ("" before the first) */
    int finished;   /**< the group's cases all returned */
} unit_progress;

static unit_progress *unit_now;

/** @brief Announce the case about to run: a crash from here until it prints its line is
 *         reported as this case's. */
static inline void unit_case(const char *name)
{
    if (unit_now != NULL)
        snprintf(unit_now->name, sizeof unit_now->name, "%s", name);
}

/** @brief Print "ok NAME", or "not ok NAME: " and the reason (printf-style); returns @p ok. */
__attribute__((format(printf, 3, 4))) static inline int unit_verdict(const char *name, int ok,
                                                                     const char *fmt, ...)
{
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok) {
        va_list args;
        va_start(args, fmt);
        printf(": ");
        vprintf(fmt, args);
        va_end(args);
    }
    printf("\n");
    return ok;
}

/** @brief The signal's name as C spells it, e.g. "SIGSEGV (invalid memory access)". */
static inline const char *unit_signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } known[] = {
        {SIGSEGV, "SIGSEGV (invalid memory access, e.g. a NULL or freed pointer)"},
        {SIGBUS, "SIGBUS (misaligned or unmapped memory access)"},
        {SIGFPE, "SIGFPE (arithmetic fault, e.g. an integer division by zero)"},
        {SIGILL, "SIGILL (illegal instruction)"},
        {SIGABRT, "SIGABRT (abort, e.g. a failed assert)"},
        {SIGTRAP, "SIGTRAP (trap, e.g. __builtin_trap)"},
        {SIGKILL, "SIGKILL (killed, e.g. out of memory)"},
        {SIGTERM, "SIGTERM (terminated)"},
        {SIGALRM, "SIGALRM (timer)"},
        {SIGPIPE, "SIGPIPE (write to a closed pipe)"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].sig == sig)
            return known[i].name;
    return "a signal";
}

/** @brief The case a line "ok NAME ..." or "not ok NAME: ..." reports, into @p name. */
static inline void unit_case_of_line(const char *line, char *name, size_t size)
{
    const char *p = strncmp(line, "ok ", 3) == 0       ? line + 3
                    : strncmp(line, "not ok ", 7) == 0 ? line + 7
                                                       : NULL;
    if (p != NULL)
        snprintf(name, size, "%.*s", (int)strcspn(p, ": \n"), p);
}

/** @brief Pass the child's lines on from @p fd until it closes; keep the last case printed. */
static inline void unit_relay(int fd, char *printed, size_t size)
{
    FILE *in = fdopen(fd, "r");
    char *line = NULL;
    size_t cap = 0;
    if (in == NULL) {
        perror("unit: fdopen");
        exit(2);
    }
    while (getline(&line, &cap, in) >= 0) {
        fputs(line, stdout);
        unit_case_of_line(line, printed, size);
    }
    free(line);
    fclose(in);
}

/** @brief Report a child that did not finish its group (@p printed: the last case it printed);
 *         returns the exit status to keep. */
static inline int unit_unfinished(int wstatus, const char *printed)
{
    char label[sizeof unit_now->name + 16], running[sizeof unit_now->name + 32], what[256];
    if (unit_now->name[0] && strcmp(unit_now->name, printed) != 0) {
        snprintf(label, sizeof label, "%s", unit_now->name);
        snprintf(running, sizeof running, "case %s", unit_now->name);
    } else {
        snprintf(label, sizeof label, "TODO_%s", unit_now->todo);
        snprintf(running, sizeof running, printed[0] ? "the case after %s" : "its first case",
                 printed);
    }
    int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 1;
    if (WIFSIGNALED(wstatus))
        snprintf(what, sizeof what, "crashed with %s, signal %d",
                 unit_signal_name(WTERMSIG(wstatus)), WTERMSIG(wstatus));
#ifdef UNIT_SANITIZER_EXIT
    else if (code == UNIT_SANITIZER_EXIT)
        snprintf(what, sizeof what, "%s", UNIT_SANITIZER_SAID);
#endif
    else /* an unfinished TODO has said so on stderr; an exit in a student's function
          * would otherwise look like a pass */
        snprintf(what, sizeof what, "the program stopped with exit status %d", code);
    printf("not ok %s: %s, in TODO %s (%s)\n", label, what, unit_now->todo, running);
    return code != 0 && WIFEXITED(wstatus) ? code : 1;
}

/** @brief Run one group in a child; in the parent, the status to keep (-1: stop here). */
static inline int unit_fork_group(const unit_group *group, int *worst)
{
    int out[2];
    char printed[sizeof unit_now->name] = "";
    memset(unit_now, 0, sizeof *unit_now);
    snprintf(unit_now->todo, sizeof unit_now->todo, "%s", group->id);
    fflush(stdout);
    fflush(stderr);
    if (pipe(out) != 0) {
        perror("unit: pipe");
        exit(2);
    }
    pid_t child = fork();
    if (child < 0) {
        perror("unit: fork");
        exit(2);
    }
    if (child == 0) {
        close(out[0]);
        dup2(out[1], STDOUT_FILENO);
        close(out[1]);
        group->run();
        fflush(stdout);
        unit_now->finished = 1;
        return 0;
    }
    close(out[1]);
    unit_relay(out[0], printed, sizeof printed);
    int wstatus = 0;
    while (waitpid(child, &wstatus, 0) < 0)
        if (errno != EINTR) {
            perror("unit: waitpid");
            exit(2);
        }
    if (!unit_now->finished) {
        *worst = unit_unfinished(wstatus, printed);
        fflush(stdout);
        return -1;
    }
    int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 1;
    if (code > *worst)
        *worst = code;
    return 1;
}

/** @brief Print the usage line naming every group. */
static inline void unit_usage(const unit_group *groups, size_t count, const char *program)
{
    fprintf(stderr, "usage: %s [", program);
    for (size_t i = 0; i < count; i++)
        fprintf(stderr, "%s%s", i ? "|" : "", groups[i].id);
    fprintf(stderr, "]\n");
}

/**
 * @brief Run every group, or only the one @p argv[1] names, each in a child process. Returns 1
 *        in the child that ran a group (its main then returns its own verdict), 0 after a usage
 *        line when no group has that id; the parent exits with its children's worst status.
 */
static inline int unit_run_groups(const unit_group *groups, size_t count, int argc, char **argv)
{
    size_t chosen = 0;
    for (size_t i = 0; i < count; i++)
        chosen += argc < 2 || strcmp(argv[1], groups[i].id) == 0;
    if (chosen == 0) {
        unit_usage(groups, count, argv[0]);
        return 0;
    }
    /* Lines reach the pipe as they are printed: a crash loses none of the earlier ones. */
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    unit_now =
        mmap(NULL, sizeof *unit_now, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (unit_now == MAP_FAILED) {
        perror("unit: mmap");
        exit(2);
    }
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        if (argc >= 2 && strcmp(argv[1], groups[i].id) != 0)
            continue;
        int ran = unit_fork_group(&groups[i], &worst);
        if (ran == 0)
            return 1; /* the child: its main returns */
        if (ran < 0)
            break;
    }
    exit(worst);
}

#endif
