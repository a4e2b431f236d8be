/**
 * @file fault_parent.c
 * @brief Lab 03: start the no-access child (this same program, re-run with
 *        a hidden option), read its report, and kill it if it takes longer
 *        than the timeout. The parent's own GPUs are never touched by it.
 */
#define _POSIX_C_SOURCE 200809L
#include "peer_kernels.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A CUDA tool (compute-sanitizer, a profiler) attaches through these
 * variables and would follow the child: its deliberate fault would then be
 * reported as a bug of this program. Returns the variable's text or NULL. */
static const char *attached_tool(const char **which)
{
    const char *inject = getenv("CUDA_INJECTION64_PATH");
    if (inject && *inject) {
        *which = "CUDA_INJECTION64_PATH";
        return inject;
    }
    const char *preload = getenv("LD_PRELOAD");
    if (preload && (strstr(preload, "sanitizer") || strstr(preload, "TreeLauncher") ||
                    strstr(preload, "Injection"))) {
        *which = "LD_PRELOAD";
        return preload;
    }
    return NULL;
}

static void die_errno(const char *what)
{
    fprintf(stderr, "no-access demonstration: %s: %s\n", what, strerror(errno));
    exit(LAB_EXIT_FAIL);
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static pid_t start_child(const lab03_config *cfg, int a, int b, int *read_fd)
{
    char arg_a[16], arg_b[16], arg_seed[32];
    snprintf(arg_a, sizeof arg_a, "%d", a);
    snprintf(arg_b, sizeof arg_b, "%d", b);
    snprintf(arg_seed, sizeof arg_seed, "%llu", (unsigned long long)cfg->seed);
    char *argv[] = {(char *)cfg->argv0, "--fault-child", "-a", arg_a, "-b", arg_b,
                    "--seed", arg_seed,
                    cfg->simulate_hang ? "--simulate-child-hang" : NULL, NULL};

    int fds[2];
    if (pipe(fds) != 0)
        die_errno("pipe");
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0)
        die_errno("fork");
    if (pid == 0) {
        /* The child: its stdout is the pipe, its stderr stays ours, so a
         * message it prints (a CUDA error, an unfinished TODO) is seen. */
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(127);
        close(fds[1]);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fds[1]);
    *read_fd = fds[0];
    return pid;
}

/* Read the child's lines until it closes its stdout or the deadline passes.
 * Returns 1 when the deadline passed. */
static int read_report(int fd, double deadline, char *text, size_t text_len)
{
    size_t used = 0;
    char spill[512];
    for (;;) {
        double left = deadline - lab_host_seconds();
        if (left <= 0)
            return 1;
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, (int)(left * 1000.0) + 1);
        if (ready < 0 && errno != EINTR)
            die_errno("poll");
        if (ready <= 0)
            continue;
        char *into = used + 1 < text_len ? text + used : spill;
        size_t room = used + 1 < text_len ? text_len - 1 - used : sizeof spill;
        ssize_t got = read(fd, into, room);
        if (got < 0 && errno != EINTR)
            die_errno("read");
        if (got == 0)
            return 0;
        if (got > 0 && into == text + used) {
            used += (size_t)got;
            text[used] = '\0';
        }
    }
}

/* Wait for the child until the deadline; kill it after. Returns 1 when it
 * had to be killed. */
static int reap(pid_t pid, double deadline, int *status)
{
    for (;;) {
        pid_t done = waitpid(pid, status, WNOHANG);
        if (done == pid)
            return 0;
        if (done < 0 && errno != EINTR)
            die_errno("waitpid");
        if (lab_host_seconds() >= deadline)
            break;
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            die_errno("waitpid");
    return 1;
}

static void copy_field(char *dst, size_t len, const char *value)
{
    snprintf(dst, len, "%s", value);
}

/* key=value lines into the record; returns 1 when "done=1" was seen. */
static int parse_report(char *text, fault_result *out)
{
    int done = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *eq = strchr(line, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        const char *key = line, *value = eq + 1;
        if (strcmp(key, "can_access_peer") == 0)
            out->can_access_peer = atoi(value);
        else if (strcmp(key, "launch") == 0)
            copy_field(out->launch, sizeof out->launch, value);
        else if (strcmp(key, "sync") == 0)
            copy_field(out->sync, sizeof out->sync, value);
        else if (strcmp(key, "data") == 0)
            copy_field(out->data, sizeof out->data, value);
        else if (strcmp(key, "after_a") == 0)
            copy_field(out->after_a, sizeof out->after_a, value);
        else if (strcmp(key, "after_b") == 0)
            copy_field(out->after_b, sizeof out->after_b, value);
        else if (strcmp(key, "done") == 0)
            done = 1;
    }
    return done;
}

void run_fault_demo(const lab03_config *cfg, int a, int b, fault_result *out)
{
    memset(out, 0, sizeof *out);
    out->can_access_peer = -1;
    out->exit_status = -1;
    out->timeout_s = cfg->fault_timeout_s;
    copy_field(out->launch, sizeof out->launch, "-");
    copy_field(out->sync, sizeof out->sync, "-");
    copy_field(out->data, sizeof out->data, "-");
    copy_field(out->after_a, sizeof out->after_a, "-");
    copy_field(out->after_b, sizeof out->after_b, "-");

    const char *which = NULL;
    if (attached_tool(&which)) {
        copy_field(out->outcome, sizeof out->outcome, "not_run");
        snprintf(out->reason, sizeof out->reason,
                 "a CUDA tool is attached (%s is set) and would report the child's "
                 "deliberate fault as an error of this program", which);
        return;
    }

    const double start = lab_host_seconds();
    const double deadline = start + cfg->fault_timeout_s;
    int fd = -1, status = 0;
    pid_t pid = start_child(cfg, a, b, &fd);
    out->ran = 1;
    char text[4096] = "";
    int late = read_report(fd, deadline, text, sizeof text);
    close(fd);
    late = reap(pid, late ? start : deadline, &status) || late;
    out->seconds = lab_host_seconds() - start;
    const int done = parse_report(text, out);
    if (late)
        out->signal = SIGKILL;
    else if (WIFSIGNALED(status))
        out->signal = WTERMSIG(status);
    else
        out->exit_status = WEXITSTATUS(status);

    /* A child that reported every step is judged by its report, even if it
     * then failed to end by itself. */
    if (!done && late) {
        copy_field(out->outcome, sizeof out->outcome, "hang");
        return;
    }
    if (!done && out->signal) {
        copy_field(out->outcome, sizeof out->outcome, "crash");
        return;
    }
    if (!done) {
        fprintf(stderr,
                "%s: the no-access demonstration failed: the child exited with status %d%s "
                "before reporting every step (see its message above)\n",
                cfg->prog, out->exit_status,
                out->exit_status == 127 ? " (it could not run /proc/self/exe)" : "");
        exit(LAB_EXIT_FAIL);
    }
    if (strcmp(out->launch, "cudaSuccess") != 0 || strcmp(out->sync, "cudaSuccess") != 0)
        copy_field(out->outcome, sizeof out->outcome, "fault");
    else if (strcmp(out->data, "correct") == 0)
        copy_field(out->outcome, sizeof out->outcome, "silent_success");
    else
        copy_field(out->outcome, sizeof out->outcome, "wrong_data");
}
