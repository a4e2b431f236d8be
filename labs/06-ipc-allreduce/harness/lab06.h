/**
 * @file lab06.h
 * @brief Lab 06's harness, inside: the launcher that starts the rank processes and is their
 *        rendezvous (launcher.c), the rank's side of it (rank.c), and each experiment's rank
 *        code (ipc.c, allreduce.c, nccl.c).
 */
#ifndef LAB06_H
#define LAB06_H

#include "allreduce.h"
#include "lab.h"

#include <stdbool.h>
#include <stddef.h>

/** Bytes each rank may put into one exchange (handles, an NCCL unique id, a pointer). */
#define LAB06_BLOB 256
/** The environment variable that makes the program a rank: "KEY:RANK:NRANKS:FD:SHMFD". */
#define LAB06_RANK_ENV "LAB06_RANK"

/**
 * @brief Mark a peer's buffer, mapped here through its IPC handle, as written: its owner, another
 *        process, filled it before its event was recorded (written_elsewhere.c; for initcheck).
 */
void lab06_written_elsewhere(const void *ptr, size_t bytes);

/** @brief One measurement a rank sends to the launcher (the launcher makes the row). */
typedef struct lab06_result {
    char variant[32];  /**< the algorithm or what was measured */
    char route[16];    /**< "loopback", "peer", "host" */
    size_t bytes;      /**< bytes per rank's buffer */
    int rank;          /**< who measured it */
    int gpu;           /**< the rank's GPU */
    int samples;       /**< timed samples behind the times (0: no times) */
    double median_us;  /**< the rank's median */
    double min_us;     /**< its fastest sample */
    double max_us;     /**< its slowest sample */
    int verified;      /**< 1 checked exactly, 0 wrong, -1 not applicable */
    char value[64];    /**< a value that is not a time (an error name) */
    char detail[320];  /**< for people */
} lab06_result;

/** @brief What a run of the experiment's options gives every rank. */
typedef struct lab06_opts {
    int nranks;        /**< --ranks */
    int timeout_s;     /**< --timeout */
    size_t max_bytes;  /**< --max-size */
    bool quick;        /**< --quick */
    int reps;          /**< timed samples (after one warm-up) */
    unsigned long seed;/**< --seed */
} lab06_opts;

/** @brief How a set of ranks ended, and what they sent. */
typedef struct lab06_outcome {
    lab06_result *results; /**< every result of every rank */
    size_t count;          /**< how many */
    int failed;            /**< 0 all ranks finished; else the reason is in why */
    char why[640];         /**< which rank failed and how */
} lab06_outcome;

/** @brief What goes over a rank's socket (one message per packet). */
enum lab06_msg_kind {
    LAB06_MSG_EXCHANGE = 1, /**< rank -> launcher: my part of an exchange (or a barrier) */
    LAB06_MSG_RESULT,       /**< rank -> launcher: a measurement */
    LAB06_MSG_FAIL,         /**< rank -> launcher: what failed, before it exits 1 */
    LAB06_MSG_DONE,         /**< rank -> launcher: finished */
    LAB06_MSG_REPLY         /**< launcher -> rank: every rank's part of the exchange */
};

/** @brief A rank's message. */
typedef struct lab06_msg {
    int kind;     /**< enum lab06_msg_kind */
    int rank;     /**< the sender */
    unsigned len; /**< bytes used of blob */
    union {
        unsigned char blob[LAB06_BLOB]; /**< EXCHANGE */
        lab06_result result;            /**< RESULT */
        char text[640];                 /**< FAIL */
    } u; /**< the body, by kind */
} lab06_msg;

/** @brief The launcher's reply to an exchange. */
typedef struct lab06_reply {
    int kind;                                        /**< LAB06_MSG_REPLY */
    int nranks;                                      /**< parts that follow */
    unsigned char blob[LAB06_MAX_RANKS][LAB06_BLOB]; /**< rank r's part */
} lab06_reply;

/* ---- launcher.c: the launcher's side ---- */

/** @brief Start opts->nranks ranks running @p key, serve them until all finish or one fails. */
void lab06_launch(const char *prog, const char *key, const lab06_opts *opts, int shm_fd,
                  lab06_outcome *out);

/** @brief Free an outcome's results. */
void lab06_outcome_free(lab06_outcome *out);

/* ---- rank.c: a rank's side ---- */

/** @brief This process's rank: who it is, its channel to the launcher, its GPU. */
typedef struct lab06_rank {
    int rank;       /**< 0..nranks-1 */
    int nranks;     /**< ranks in the run */
    int fd;         /**< the socket to the launcher */
    int gpu;        /**< rank mod the GPUs visible */
    int gpus;       /**< GPUs visible */
    int shm_fd;     /**< the shared host memory (host_staged), or -1 */
    lab06_opts opts;/**< the run's options */
    const char *key;/**< the experiment */
} lab06_rank;

/** @brief Run the rank named by LAB06_RANK_ENV and exit, if this process is one; else return. */
void lab06_rank_main_if_rank(const lab_ctx *ctx, const lab06_opts *opts);

/** @brief Send @p len bytes, wait for every rank's (nranks * LAB06_BLOB bytes into @p all). */
void lab06_exchange(const lab06_rank *me, const void *mine, size_t len, void *all);

/** @brief Wait until every rank has come here (an exchange of nothing). */
void lab06_barrier(const lab06_rank *me);

/** @brief Send a result to the launcher. */
void lab06_send_result(const lab06_rank *me, const lab06_result *result);

/** @brief Tell the launcher what failed, and exit 1. */
LAB_NORETURN void lab06_fail(const lab06_rank *me, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** @brief The rank's route to its peers' memory: "loopback" on one GPU, else "peer". */
const char *lab06_route(const lab06_rank *me);

/** @brief Median, min and max of @p n samples (microseconds) into @p r. */
void lab06_set_times(lab06_result *r, const double *us, int n);

/** @brief A CUDA call in a rank: on failure the launcher hears which call, and the rank exits. */
#define RANK_CHECK(me, call)                                                                  \
    do {                                                                                      \
        cudaError_t rank_err_ = (call);                                                       \
        if (rank_err_ != cudaSuccess)                                                         \
            lab06_fail((me), "%s failed: %s (%s) at %s:%d", #call, cudaGetErrorName(rank_err_), \
                       cudaGetErrorString(rank_err_), __FILE__, __LINE__);                    \
    } while (0)

/* ---- the experiments' rank code ---- */
void lab06_rank_ipc(const lab06_rank *me);        /**< ipc.c */
void lab06_rank_raw_pointer(const lab06_rank *me);/**< ipc.c */
void lab06_rank_barrier(const lab06_rank *me);    /**< ipc.c */
void lab06_rank_allreduce(const lab06_rank *me);  /**< allreduce.c */
void lab06_rank_nccl_probe(const lab06_rank *me); /**< nccl.c */

/* ---- nccl.c: NCCL, where it was built ---- */

/** @brief Was NCCL found at build time? */
bool lab06_have_nccl(void);

/** @brief A communicator of all ranks through the rendezvous (NULL handle: not built). */
void *lab06_nccl_init(const lab06_rank *me);

/** @brief ncclAllReduce (sum of floats) from @p in to @p out on @p stream; a CUDA-style check. */
void lab06_nccl_allreduce(const lab06_rank *me, void *comm, const float *in, float *out,
                          size_t count, cudaStream_t stream);

/** @brief Destroy the communicator. */
void lab06_nccl_free(void *comm);

/* ---- data.c: the all-reduce's data ---- */

/** @brief Rank @p rank's element @p i: a small integer as a float, from the seed. */
float lab06_value(unsigned long seed, int rank, size_t i);

/** @brief Elements [*off, *off + *len) of chunk @p chunk when @p count is cut in @p n. */
void lab06_chunk(size_t count, int n, int chunk, size_t *off, size_t *len);

#endif /* LAB06_H */
