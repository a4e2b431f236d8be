/**
 * @file rank.c
 * @brief A rank's side of the rendezvous: who it is (from LAB06_RANK_ENV), its exchanges and
 *        barriers with the other ranks through the launcher, its results and its failures.
 *        A rank prints no rows: it sends what it measured, and the launcher writes the rows.
 */
#define _GNU_SOURCE
#include "lab06.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void send_msg(const lab06_rank *me, const lab06_msg *msg)
{
    if (send(me->fd, msg, sizeof *msg, MSG_NOSIGNAL) != (ssize_t)sizeof *msg) {
        fprintf(stderr, "rank %d: the launcher is gone (%s)\n", me->rank, strerror(errno));
        _exit(LAB_EXIT_FAIL);
    }
}

void lab06_fail(const lab06_rank *me, const char *fmt, ...)
{
    lab06_msg msg;
    va_list args;
    memset(&msg, 0, sizeof msg);
    msg.kind = LAB06_MSG_FAIL;
    msg.rank = me->rank;
    va_start(args, fmt);
    vsnprintf(msg.u.text, sizeof msg.u.text, fmt, args);
    va_end(args);
    send_msg(me, &msg);
    exit(LAB_EXIT_FAIL);
}

void lab06_exchange(const lab06_rank *me, const void *mine, size_t len, void *all)
{
    static lab06_msg msg;
    static lab06_reply reply;
    memset(&msg, 0, sizeof msg);
    msg.kind = LAB06_MSG_EXCHANGE;
    msg.rank = me->rank;
    msg.len = (unsigned)(len < LAB06_BLOB ? len : LAB06_BLOB);
    if (len > 0)
        memcpy(msg.u.blob, mine, msg.len);
    send_msg(me, &msg);
    /* The launcher answers, or kills this rank when another one fails or stays silent. */
    struct pollfd pfd = {.fd = me->fd, .events = POLLIN};
    while (poll(&pfd, 1, (me->opts.timeout_s + 5) * 1000) < 0 && errno == EINTR) {
    }
    ssize_t got = recv(me->fd, &reply, sizeof reply, MSG_DONTWAIT);
    if (got != (ssize_t)sizeof reply || reply.kind != LAB06_MSG_REPLY)
        lab06_fail(me, "no answer from the launcher to an exchange within %d s",
                   me->opts.timeout_s + 5);
    if (all != NULL)
        memcpy(all, reply.blob, (size_t)me->nranks * LAB06_BLOB);
}

void lab06_barrier(const lab06_rank *me)
{
    lab06_exchange(me, NULL, 0, NULL);
}

void lab06_send_result(const lab06_rank *me, const lab06_result *result)
{
    lab06_msg msg;
    memset(&msg, 0, sizeof msg);
    msg.kind = LAB06_MSG_RESULT;
    msg.rank = me->rank;
    msg.u.result = *result;
    msg.u.result.rank = me->rank;
    msg.u.result.gpu = me->gpu;
    send_msg(me, &msg);
}

const char *lab06_route(const lab06_rank *me)
{
    return me->gpus == 1 || me->nranks == 1 ? "loopback" : "peer";
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void lab06_set_times(lab06_result *r, const double *us, int n)
{
    double sorted[256];
    n = n < 256 ? n : 256;
    memcpy(sorted, us, (size_t)n * sizeof *us);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    r->samples = n;
    r->min_us = sorted[0];
    r->max_us = sorted[n - 1];
    r->median_us = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

/* The experiment a rank runs, by key. */
static void run_rank(const lab06_rank *me)
{
    static const struct {
        const char *key;
        void (*run)(const lab06_rank *me);
    } table[] = {
        {"ipc", lab06_rank_ipc},
        {"raw_pointer", lab06_rank_raw_pointer},
        {"barrier", lab06_rank_barrier},
        {"allreduce", lab06_rank_allreduce},
        {"nccl_probe", lab06_rank_nccl_probe},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].key, me->key) == 0) {
            table[i].run(me);
            return;
        }
    lab06_fail(me, "no rank code for experiment '%s'", me->key);
}

void lab06_rank_main_if_rank(const lab_ctx *ctx, const lab06_opts *opts)
{
    static char key[32];
    static lab06_rank me;
    const char *spec = getenv(LAB06_RANK_ENV);
    if (spec == NULL)
        return;
    memset(&me, 0, sizeof me);
    if (sscanf(spec, "%31[a-z_]:%d:%d:%d:%d", key, &me.rank, &me.nranks, &me.fd, &me.shm_fd) != 5 ||
        me.nranks < 1 || me.nranks > LAB06_MAX_RANKS || me.rank < 0 || me.rank >= me.nranks) {
        fprintf(stderr, "%s: %s is not KEY:RANK:NRANKS:FD:SHMFD: '%s'\n", ctx->prog,
                LAB06_RANK_ENV, spec);
        exit(LAB_EXIT_USAGE);
    }
    me.key = key;
    me.opts = *opts;
    me.opts.nranks = me.nranks;
    me.gpus = ctx->gpus;
    if (me.gpus < 1)
        lab06_fail(&me, "no GPU in the rank's process: %s", ctx->no_gpu);
    me.gpu = me.rank % me.gpus;
    RANK_CHECK(&me, cudaSetDevice(me.gpu));
    run_rank(&me);
    lab06_msg done;
    memset(&done, 0, sizeof done);
    done.kind = LAB06_MSG_DONE;
    done.rank = me.rank;
    send_msg(&me, &done);
    exit(LAB_EXIT_OK);
}
