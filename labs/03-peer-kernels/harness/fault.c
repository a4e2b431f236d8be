/**
 * @file fault.c
 * @brief Lab 03's fault experiment: a child (this program again, --fault-child MODE) runs the
 *        chapter's kernel on memory its GPU was never given; the parent waits at most
 *        --fault-timeout seconds, reads the key=value lines the child printed, and names the
 *        error. A fault ruins its whole process's CUDA state (the process must end), hence a
 *        child. Modes: peer (GPU b's memory, access never enabled), one_way (access enabled
 *        only from b to a), pageable (malloc'd host memory), unmapped (an address mapped to
 *        nothing, for a GPU that may access pageable memory).
 */
#define _DEFAULT_SOURCE
#include "lab03.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/** Floats the child's kernel reads: 4 MiB, many pages. */
#define FAULT_FLOATS ((size_t)1 << 20)

/* What the child says, in the order the parent's rows give it; "done" ends a full report. */
static const char *const keys[] = {"can_access_peer", "pageable_access", "reverse_enabled",
                                   "launch", "sync", "waited", "data", "after_a", "after_b",
                                   "done"};
enum { LAUNCH = 3, SYNC, WAITED, DATA, DONE = 9, KEYS };

static void say(const char *key, const char *value)
{
    printf("%s=%s\n", key, value);
    fflush(stdout);
}

static bool needs_b(const char *mode)
{
    return strcmp(mode, "peer") == 0 || strcmp(mode, "one_way") == 0;
}

/* What this mode's kernel reads: never given to GPU a. */
static const float *unreachable(const char *mode, int b, const float *data)
{
    const size_t bytes = FAULT_FLOATS * sizeof(float);
    float *src = NULL;
    if (strcmp(mode, "pageable") == 0)
        return data;
    if (needs_b(mode)) {
        CUDA_CHECK(cudaSetDevice(b));
        CUDA_CHECK(cudaMalloc((void **)&src, bytes));
        CUDA_CHECK(cudaMemcpy(src, data, bytes, cudaMemcpyHostToDevice));
        return src;
    }
    void *none = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (none == MAP_FAILED) {
        fprintf(stderr, "fault child: mmap: %s\n", strerror(errno));
        exit(LAB_EXIT_FAIL);
    }
    return none;
}

/* After the kernel: the data (when no error came), then does each GPU still answer? */
static void say_after(const char *mode, int a, int b, const float *dst, const float *src,
                      const float *data, bool ran)
{
    float *back = lab_host_alloc(FAULT_FLOATS, sizeof(float), "the fault child's results");
    const char *verdict = "unread";
    if (ran && cudaMemcpy(back, dst, FAULT_FLOATS * 4, cudaMemcpyDeviceToHost) == cudaSuccess) {
        verdict = "correct";
        for (size_t i = 0; i < FAULT_FLOATS; i++)
            verdict = back[i] == 2.0f * data[i] ? verdict : "wrong";
    }
    say("data", verdict);
    free(back);
    void *probe = NULL;
    cudaError_t err = cudaSetDevice(a);
    if (err == cudaSuccess)
        err = cudaMalloc(&probe, 256);
    say("after_a", cudaGetErrorName(err));
    if (!needs_b(mode))
        return;
    err = cudaSetDevice(b); /* b's own memory, from b */
    if (err == cudaSuccess)
        err = cudaMemset((void *)src, 0, 256);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    say("after_b", cudaGetErrorName(err));
}

int lab03_fault_child(const lab_ctx *ctx, const char *mode)
{
    const lab03_state *st = ctx->lab;
    const int a = (int)ctx->args.gpu_a, b = (int)ctx->args.gpu_b;
    const bool peer = needs_b(mode);
    if (!peer && strcmp(mode, "pageable") != 0 && strcmp(mode, "unmapped") != 0)
        lab_usage_error(ctx->prog, "--fault-child: '%s' is not peer, one_way, pageable or "
                        "unmapped", mode);
    if (a < 0 || (peer && b < 0))
        lab_usage_error(ctx->prog, "--fault-child needs -a (and -b for peer and one_way)");
    float *data = lab_host_alloc(FAULT_FLOATS, sizeof(float), "the fault child's data"), *dst;
    cudaError_t launch = cudaSuccess, sync = cudaSuccess;
    int attr = 0;
    lab_fill_floats(data, FAULT_FLOATS, st->seed);
    if (peer)
        CUDA_CHECK(cudaDeviceCanAccessPeer(&attr, a, b));
    else
        CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrPageableMemoryAccess, a));
    say(peer ? "can_access_peer" : "pageable_access", attr ? "1" : "0");
    const float *src = unreachable(mode, b, data);
    if (strcmp(mode, "one_way") == 0) { /* b may now read a's memory; a still may not read b's */
        CUDA_CHECK(cudaSetDevice(b));
        say("reverse_enabled", cudaGetErrorName(cudaDeviceEnablePeerAccess(a, 0)));
    }
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaMalloc((void **)&dst, FAULT_FLOATS * sizeof(float)));
    CUDA_CHECK(cudaMemset(dst, 0xFF, FAULT_FLOATS * sizeof(float)));
    CUDA_CHECK(cudaDeviceSynchronize());
    say("ready", "1");
    lab03_touch(dst, src, FAULT_FLOATS, &launch, &sync);
    say("launch", cudaGetErrorName(launch));
    say("sync", cudaGetErrorName(sync));
    while (st->hang) { /* test hook: the parent must kill us */
        say("hang", "simulated");
        pause();
    }
    /* The harness waits too: a fault that *sync did not report means
     * lab03_touch returned before the kernel ended (TODO 03.7's contract). */
    say("waited", cudaGetErrorName(cudaDeviceSynchronize()));
    say_after(mode, a, b, dst, src, data, launch == cudaSuccess && sync == cudaSuccess);
    say("done", "1");
    return LAB_EXIT_OK; /* the lost CUDA state ends with this process */
}

/* This program again, as the child; its stdout is a pipe to us, its stderr ours. */
static pid_t start_child(const lab_ctx *ctx, const lab03_state *st, const char *mode, int *fd)
{
    char a[16], b[16], seed[32];
    char *argv[12] = {(char *)ctx->prog, "--fault-child", (char *)mode, "--seed", seed, "-a", a};
    int n = 7, fds[2];
    snprintf(a, sizeof a, "%d", st->a);
    snprintf(b, sizeof b, "%d", st->b);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)st->seed);
    if (needs_b(mode)) {
        argv[n++] = "-b";
        argv[n++] = b;
    }
    if (st->hang)
        argv[n++] = "--simulate-child-hang";
    fflush(NULL); /* nothing buffered may be written twice */
    const pid_t pid = pipe(fds) == 0 ? fork() : -1;
    if (pid < 0) {
        fprintf(stderr, "%s: fault experiment: pipe or fork: %s\n", ctx->prog, strerror(errno));
        exit(LAB_EXIT_FAIL);
    }
    if (pid == 0) {
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) >= 0)
            execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fds[1]);
    *fd = fds[0];
    return pid;
}

/* Wait for the child until the deadline, then kill it; 1 when it was killed. */
static int reap(pid_t pid, double deadline, int *status)
{
    const struct timespec tick = {0, 10000000L};
    while (waitpid(pid, status, WNOHANG) != pid) {
        if (lab_host_seconds() >= deadline) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
            }
            return 1;
        }
        nanosleep(&tick, NULL);
    }
    return 0;
}

/* The child is gone: its report (a few lines, far below a pipe's buffer) is all there. Each
 * key's first value lands in @p value ("" when the child never said it). */
static void read_report(int fd, char value[KEYS][64])
{
    char text[4096] = "";
    for (size_t used = 0, got = 1; got > 0 && used + 1 < sizeof text; used += got) {
        const ssize_t r = read(fd, text + used, sizeof text - 1 - used);
        got = r > 0 ? (size_t)r : 0;
    }
    close(fd);
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *eq = strchr(line, '=');
        if (eq != NULL)
            *eq = '\0';
        for (int k = 0; eq != NULL && k < KEYS; k++)
            if (strcmp(line, keys[k]) == 0 && value[k][0] == '\0')
                snprintf(value[k], sizeof value[k], "%s", eq + 1);
    }
}

static void fault_row(lab_ctx *ctx, const char *mode, const char *key, const char *value,
                      const char *detail)
{
    const lab03_state *st = ctx->lab;
    const bool peer = needs_b(mode);
    lab_row row = lab_row_empty("fault", key);
    lab_row_set(row.route, sizeof row.route, "%s",
                peer ? "peer_off" : strcmp(mode, "pageable") == 0 ? "host" : "");
    lab_row_set(row.mode, sizeof row.mode, "%s", strcmp(mode, "peer") == 0 ? "no_access" : mode);
    row.src = peer ? st->b : -1;
    row.dst = st->a;
    lab_row_set(row.value, sizeof row.value, "%s", value);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail ? detail : "");
    lab_emit(ctx, &row);
}

/* One outcome from the report and the way the child ended (NULL: it failed early). */
static const char *classify(char value[KEYS][64], int late, int signal)
{
    if (strcmp(value[DONE], "1") != 0)
        return late ? "hang" : signal ? "crash" : NULL;
    if (strcmp(value[LAUNCH], "cudaSuccess") || strcmp(value[SYNC], "cudaSuccess") ||
        (value[WAITED][0] && strcmp(value[WAITED], "cudaSuccess")))
        return "fault";
    return strcmp(value[DATA], "correct") == 0 ? "silent_success" : "wrong_data";
}

/* The outcome, then every step the child reported, then how it ended. */
static void report_rows(lab_ctx *ctx, const char *mode, char value[KEYS][64],
                        const char *outcome, const double *end)
{
    static const char *const ends[] = {"exit_status", "signal", "seconds", "timeout_s"};
    const lab03_state *st = ctx->lab;
    char text[200];
    snprintf(text, sizeof text, "GPU %d's kernel, in a child process, read %s", st->a,
             strcmp(mode, "peer") == 0 ? "GPU b's memory, peer access never enabled"
             : strcmp(mode, "one_way") == 0 ? "GPU b's memory, access enabled only from b to a"
             : strcmp(mode, "pageable") == 0 ? "host memory never registered with CUDA"
                                            : "an address range mapped to nothing");
    fault_row(ctx, mode, "outcome", outcome, text);
    for (int k = 0; k < DONE; k++)
        if (value[k][0] != '\0')
            fault_row(ctx, mode, keys[k], value[k], NULL);
    for (int i = 0; i < 4; i++) {
        snprintf(text, sizeof text, i == 2 ? "%.3f" : "%.0f", end[i]);
        fault_row(ctx, mode, ends[i], text, NULL);
    }
}

/* One child in one mode, its rows; non-zero when the child failed early. */
static int run_mode(lab_ctx *ctx, const char *mode)
{
    const lab03_state *st = ctx->lab;
    int fd = -1, status = 0;
    char value[KEYS][64] = {""};
    const double start = lab_host_seconds();
    const pid_t pid = start_child(ctx, st, mode, &fd);
    const int late = reap(pid, start + (double)st->timeout_s, &status);
    const double seconds = lab_host_seconds() - start;
    read_report(fd, value);
    const int signal = late ? SIGKILL : WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const double end[4] = {signal ? -1 : WEXITSTATUS(status), signal, seconds, st->timeout_s};
    const char *outcome = classify(value, late, signal);
    if (outcome == NULL)
        return lab_check(ctx, 0, "the fault child (%s) exited with status %.0f before reporting "
                         "every step (see its message above)%s", mode, end[0],
                         end[0] == 127 ? "; it could not run /proc/self/exe" : "");
    report_rows(ctx, mode, value, outcome, end);
    if (value[WAITED][0] && strcmp(value[WAITED], "cudaSuccess") &&
        strcmp(value[SYNC], "cudaSuccess") == 0)
        return lab_check(ctx, 0, "TODO 03.7: lab03_touch set *sync to cudaSuccess, yet the "
                         "harness's own cudaDeviceSynchronize right after it returned %s (%s): "
                         "it did not wait for the kernel", value[WAITED], mode);
    return 0;
}

int lab03_run_fault(lab_ctx *ctx)
{
    const lab03_state *st = ctx->lab;
    /* A CUDA tool (compute-sanitizer, a profiler) would follow the child and report its
     * deliberate fault as a bug: the variable that says one is here. */
    const char *inject = getenv("CUDA_INJECTION64_PATH"), *preload = getenv("LD_PRELOAD");
    const bool preloaded = preload && (strstr(preload, "sanitizer") ||
                                       strstr(preload, "TreeLauncher"));
    const char *mode = "peer", *tool = inject && *inject ? "CUDA_INJECTION64_PATH"
                                       : preloaded ? "LD_PRELOAD" : NULL;
    int pageable = 0, status = 0;
    char why[200];
    CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, st->a));
    if (st->b < 0)
        mode = pageable ? "unmapped" : "pageable";
    if (tool != NULL) {
        snprintf(why, sizeof why, "a CUDA tool is attached (%s is set) and would report the "
                 "child's deliberate fault as an error of this program", tool);
        fault_row(ctx, mode, "outcome", "not_run", why);
        fault_row(ctx, mode, "reason", "tool_attached", why);
        return 0;
    }
    status |= run_mode(ctx, mode);
    /* Access is granted per direction: b -> a enabled, a reading b still needs its own. */
    if (st->b >= 0 && lab_can_access_peer(st->b, st->a))
        status |= run_mode(ctx, "one_way");
    return status;
}
