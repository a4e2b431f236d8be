/**
 * @file launcher.c
 * @brief Lab 06's launcher: it starts the rank processes (this program again, told by an
 *        environment variable which rank it is), hands each one end of a socket pair and is
 *        their rendezvous: it gathers every rank's part of an exchange and sends all parts back,
 *        collects results, and waits for nothing longer than --timeout. A rank that fails,
 *        crashes, exits early or stays silent is named with the reason, and every rank is then
 *        killed and reaped; so is every rank when the launcher gets SIGINT or SIGTERM.
 */
#define _GNU_SOURCE
#include "lab06.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/** The environment a rank process inherits (POSIX declares it nowhere). */
extern char **environ;

/** @brief The launcher's view of one rank. */
typedef struct rank_proc {
    pid_t pid;     /**< its process (0: reaped) */
    int fd;        /**< the launcher's end of its socket (-1: closed) */
    bool done;     /**< it said DONE */
    bool waiting;  /**< it sent its part of the current exchange */
    lab06_msg msg; /**< that part */
} rank_proc;

/** @brief Every rank of a run. */
typedef struct ranks {
    rank_proc r[LAB06_MAX_RANKS]; /**< rank r's process and socket */
    int n;                        /**< ranks started */
    int timeout_s;                /**< seconds a rank may stay silent */
} ranks;

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

/** The program's command line as it was started, NUL-separated (the ranks run it again). */
static char start_cmdline[65536];
/** Its bytes. */
static ssize_t start_cmdline_len = -1;

/* Read before main: the option parser may split a comma list in place, and /proc/self/cmdline
 * shows the argument strings as they are now, not as they were given. */
__attribute__((constructor)) static void save_cmdline(void)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    start_cmdline_len = fd < 0 ? -1 : read(fd, start_cmdline, sizeof start_cmdline - 1);
    if (fd >= 0)
        close(fd);
}

/* The program's own command line, as it was started, split into @p buf. */
static char **own_argv(char *buf, size_t len)
{
    static char *argv[256];
    const ssize_t got = start_cmdline_len < (ssize_t)len ? start_cmdline_len : -1;
    int argc = 0;
    if (got <= 0)
        return NULL;
    memcpy(buf, start_cmdline, (size_t)got);
    buf[got] = '\0';
    for (ssize_t i = 0; i < got && argc < 255; i += (ssize_t)strlen(buf + i) + 1)
        argv[argc++] = buf + i;
    argv[argc] = NULL;
    return argv;
}

/* environ plus this rank's LAB06_RANK_ENV, built before fork (a child of a threaded process
 * may only make async-signal-safe calls before it execs). */
static char **rank_env(char *entry, size_t len, const char *key, int rank, int n, int fd,
                       int shm_fd)
{
    static char *env[4096];
    size_t k = 0;
    snprintf(entry, len, "%s=%s:%d:%d:%d:%d", LAB06_RANK_ENV, key, rank, n, fd, shm_fd);
    for (char **e = environ; *e != NULL && k < 4094; e++)
        if (strncmp(*e, LAB06_RANK_ENV "=", sizeof LAB06_RANK_ENV) != 0)
            env[k++] = *e;
    env[k++] = entry;
    env[k] = NULL;
    return env;
}

/* Start rank @p rank: 0, or -1 with the reason in out->why. */
static int spawn(ranks *rs, int rank, const char *key, int shm_fd, lab06_outcome *out)
{
    static char cmdline[65536], entry[512];
    int sv[2];
    char **argv = own_argv(cmdline, sizeof cmdline);
    if (argv == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(out->why, sizeof out->why, "cannot start rank %d: %s", rank, strerror(errno));
        return -1;
    }
    char **env = rank_env(entry, sizeof entry, key, rank, rs->n, sv[1], shm_fd);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* The rank dies with the launcher, whatever kills the launcher. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        fcntl(sv[1], F_SETFD, 0);
        execve("/proc/self/exe", argv, env);
        _exit(127);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        snprintf(out->why, sizeof out->why, "cannot start rank %d: %s", rank, strerror(errno));
        return -1;
    }
    rs->r[rank] = (rank_proc){.pid = pid, .fd = sv[0]};
    return 0;
}

/* "exited with status 3", "killed by signal SIGSEGV (Segmentation fault)". */
static void describe_status(int status, char *buf, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(buf, len, "killed by signal SIG%s (%s)", sigabbrev_np(WTERMSIG(status)),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/* Kill every rank still there and reap them all: none is left behind. */
static void kill_all(ranks *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (rs->r[i].pid > 0)
            kill(rs->r[i].pid, SIGKILL);
    for (int i = 0; i < rs->n; i++) {
        if (rs->r[i].pid > 0)
            while (waitpid(rs->r[i].pid, NULL, 0) < 0 && errno == EINTR) {
            }
        rs->r[i].pid = 0;
        if (rs->r[i].fd >= 0)
            close(rs->r[i].fd);
        rs->r[i].fd = -1;
    }
}

/* A rank's socket closed: reap it; an end before DONE is a failure named with its status. */
static int rank_gone(ranks *rs, int i, lab06_outcome *out)
{
    int status = 0;
    char how[128];
    close(rs->r[i].fd);
    rs->r[i].fd = -1;
    while (waitpid(rs->r[i].pid, &status, 0) < 0 && errno == EINTR) {
    }
    rs->r[i].pid = 0;
    describe_status(status, how, sizeof how);
    if (rs->r[i].done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (!out->failed)
        snprintf(out->why, sizeof out->why, "rank %d %s%s", i, how,
                 rs->r[i].done ? " after it finished" : " before it finished");
    out->failed = 1;
    return -1;
}

/* Every rank has sent its part: send each of them every part. */
static int answer_exchange(ranks *rs, lab06_outcome *out)
{
    static lab06_reply reply;
    memset(&reply, 0, sizeof reply);
    reply.kind = LAB06_MSG_REPLY;
    reply.nranks = rs->n;
    for (int i = 0; i < rs->n; i++) {
        if (!rs->r[i].waiting)
            return 0;
        memcpy(reply.blob[i], rs->r[i].msg.u.blob, LAB06_BLOB);
    }
    for (int i = 0; i < rs->n; i++) {
        rs->r[i].waiting = false;
        if (send(rs->r[i].fd, &reply, sizeof reply, MSG_NOSIGNAL) != (ssize_t)sizeof reply) {
            snprintf(out->why, sizeof out->why, "cannot answer rank %d: %s", i, strerror(errno));
            out->failed = 1;
            return -1;
        }
    }
    return 0;
}

static void keep_result(lab06_outcome *out, const lab06_result *r)
{
    lab06_result *grown = realloc(out->results, (out->count + 1) * sizeof *grown);
    if (grown == NULL) {
        fprintf(stderr, "lab06: out of memory for results\n");
        exit(LAB_EXIT_FAIL);
    }
    out->results = grown;
    out->results[out->count++] = *r;
}

/* One message from rank @p i. */
static int handle(ranks *rs, int i, lab06_outcome *out)
{
    rank_proc *p = &rs->r[i];
    ssize_t got = recv(p->fd, &p->msg, sizeof p->msg, 0);
    if (got <= 0)
        return rank_gone(rs, i, out);
    switch (p->msg.kind) {
    case LAB06_MSG_EXCHANGE:
        p->waiting = true;
        return answer_exchange(rs, out);
    case LAB06_MSG_RESULT:
        keep_result(out, &p->msg.u.result);
        return 0;
    case LAB06_MSG_DONE:
        p->done = true;
        return 0;
    default:
        p->msg.u.text[sizeof p->msg.u.text - 1] = '\0';
        snprintf(out->why, sizeof out->why, "rank %d: %s", i, p->msg.u.text);
        out->failed = 1;
        return -1;
    }
}

/* Nothing came for timeout_s seconds: name the ranks the others wait for. */
static void timed_out(const ranks *rs, lab06_outcome *out)
{
    char who[128] = "";
    size_t used = 0;
    for (int i = 0; i < rs->n; i++)
        if (rs->r[i].fd >= 0 && !rs->r[i].waiting && !rs->r[i].done && used < sizeof who - 8)
            used += (size_t)snprintf(who + used, sizeof who - used, "%s%d", used ? ", " : "", i);
    snprintf(out->why, sizeof out->why, "timeout: no word from rank%s %s within %d s%s",
             strchr(who, ',') ? "s" : "", used ? who : "(any)", rs->timeout_s,
             used ? " (the others wait at a barrier)" : "");
    out->failed = 1;
}

/* Serve the ranks until each has finished and exited, or one fails. */
static void serve(ranks *rs, lab06_outcome *out)
{
    for (;;) {
        struct pollfd fds[LAB06_MAX_RANKS];
        int open_count = 0;
        for (int i = 0; i < rs->n; i++) {
            fds[i] = (struct pollfd){.fd = rs->r[i].fd, .events = POLLIN};
            open_count += rs->r[i].fd >= 0;
        }
        if (open_count == 0 || out->failed || stop_signal != 0)
            return;
        int ready = poll(fds, (nfds_t)rs->n, rs->timeout_s * 1000);
        if (stop_signal != 0)
            return;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            timed_out(rs, out);
            return;
        }
        for (int i = 0; i < rs->n && !out->failed; i++)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                handle(rs, i, out);
    }
}

void lab06_launch(const char *prog, const char *key, const lab06_opts *opts, int shm_fd,
                  lab06_outcome *out)
{
    ranks rs = {.n = opts->nranks, .timeout_s = opts->timeout_s};
    struct sigaction stop = {.sa_handler = on_stop}, old_int, old_term;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < LAB06_MAX_RANKS; i++)
        rs.r[i].fd = -1;
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* the user's setting wins */
    sigemptyset(&stop.sa_mask);
    sigaction(SIGINT, &stop, &old_int);
    sigaction(SIGTERM, &stop, &old_term);
    for (int i = 0; i < rs.n && !out->failed; i++)
        out->failed = spawn(&rs, i, key, shm_fd, out) != 0;
    if (!out->failed)
        serve(&rs, out);
    kill_all(&rs);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (stop_signal != 0) {
        /* Interrupted: every rank is gone; die of the signal, writing no result file. */
        fprintf(stderr, "%s: interrupted (SIG%s): stopped all %d ranks\n", prog,
                sigabbrev_np(stop_signal), rs.n);
        /* Its default action, even where it came in ignored (a shell's background job). */
        signal(stop_signal, SIG_DFL);
        raise(stop_signal);
    }
}

void lab06_outcome_free(lab06_outcome *out)
{
    free(out->results);
    out->results = NULL;
    out->count = 0;
}
