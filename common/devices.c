/* Checked CUDA calls, device discovery, pair selection, peer access and far memory by route. */
#include "cuda_check.h"
#include "devices.h"
#include "rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void lab_cuda_report(cudaError_t err, const char *call, const char *file, int line)
{
    fprintf(stderr, "CUDA error: %s failed: %s (%s) at %s:%d\n", call, cudaGetErrorName(err),
            cudaGetErrorString(err), file, line);
}

void lab_cuda_die(cudaError_t err, const char *call, const char *file, int line)
{
    lab_cuda_report(err, call, file, line);
    exit(LAB_EXIT_FAIL);
}

int lab_gpu_count(char *why, size_t why_len)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess) {
        if (count == 0 && why)
            snprintf(why, why_len, "cudaGetDeviceCount found no device");
        return count;
    }
    /* No device or no driver: a fact of the machine, not a failure of the lab. Clear the
     * error so later calls start clean. */
    if (why && err == cudaErrorInsufficientDriver)
        snprintf(why, why_len, "no NVIDIA driver (or one too old for this CUDA runtime): "
                 "cudaGetDeviceCount returned %s", cudaGetErrorName(err));
    else if (why && err == cudaErrorNoDevice)
        snprintf(why, why_len, "no CUDA GPU visible (cudaErrorNoDevice; is "
                 "CUDA_VISIBLE_DEVICES empty?)");
    else if (why)
        snprintf(why, why_len, "cudaGetDeviceCount: %s (%s)", cudaGetErrorName(err),
                 cudaGetErrorString(err));
    (void)cudaGetLastError();
    return 0;
}

bool lab_can_access_peer(int dev, int peer)
{
    int can = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, dev, peer));
    return can != 0;
}

static bool both_ways(int a, int b)
{
    return lab_can_access_peer(a, b) && lab_can_access_peer(b, a);
}

void lab_p2p_matrix(int n, int *matrix)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            matrix[i * n + j] = (i != j) && lab_can_access_peer(i, j);
}

bool lab_find_p2p_pair(int n, int *a, int *b)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (both_ways(i, j)) {
                *a = i;
                *b = j;
                return true;
            }
    return false;
}

/* With one GPU given, pick the lowest other id that suits it. */
static int pick_partner(int n, int given, bool need_p2p)
{
    for (int j = 0; j < n; j++)
        if (j != given && (!need_p2p || both_ways(given, j)))
            return j;
    return -1;
}

/* Exit 77 saying why: "prog: skipped: <why>". */
static LAB_NORETURN void skip(const char *prog, const char *fmt, ...)
{
    va_list args;
    printf("%s: skipped: ", prog);
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');
    exit(LAB_EXIT_SKIP);
}

void lab_select_pair(const char *prog, int want_a, int want_b, bool need_p2p,
                     int *a, int *b)
{
    char why[256] = "";
    if (want_a >= 0 && want_a == want_b)
        lab_usage_error(prog, "the two GPUs must differ (both are %d)", want_a);
    int n = lab_gpu_count(why, sizeof why);
    if (n < 2)
        skip(prog, "needs 2 GPUs, this machine has %d%s%s%s", n, why[0] ? " (" : "", why,
             why[0] ? ")" : "");
    if (want_a >= n || want_b >= n)
        lab_usage_error(prog, "GPU %d does not exist: this machine has %d GPUs (0..%d)",
                        want_a >= n ? want_a : want_b, n, n - 1);
    if (want_a < 0 && want_b < 0) {
        if (lab_find_p2p_pair(n, a, b))
            return;
        if (need_p2p)
            skip(prog, "none of the %d GPUs' pairs has peer access both ways", n);
        *a = 0;
        *b = 1;
        return;
    }
    *a = want_a >= 0 ? want_a : pick_partner(n, want_b, need_p2p);
    *b = want_b >= 0 ? want_b : pick_partner(n, want_a, need_p2p);
    if (*a < 0 || *b < 0)
        skip(prog, "GPU %d has no peer with access both ways", want_a >= 0 ? want_a : want_b);
    if (need_p2p && !both_ways(*a, *b))
        skip(prog, "no peer access both ways between GPU %d and GPU %d", *a, *b);
}

/* Enable or disable dev -> peer; the state it is already in counts as success. */
static cudaError_t switch_peer(int dev, int peer, bool on)
{
    cudaError_t err = cudaSetDevice(dev);
    if (err != cudaSuccess)
        return err;
    err = on ? cudaDeviceEnablePeerAccess(peer, 0) : cudaDeviceDisablePeerAccess(peer);
    if (err == (on ? cudaErrorPeerAccessAlreadyEnabled : cudaErrorPeerAccessNotEnabled)) {
        (void)cudaGetLastError(); /* the runtime also records it as the last error */
        return cudaSuccess;
    }
    return err;
}

cudaError_t lab_enable_peer(int dev, int peer)
{
    return switch_peer(dev, peer, true);
}

/* What this process has enabled, row = dev, column = peer. */
static bool peer_on[LAB_MAX_GPUS][LAB_MAX_GPUS];

static bool tracked(int dev, int peer)
{
    return dev >= 0 && peer >= 0 && dev < LAB_MAX_GPUS && peer < LAB_MAX_GPUS;
}

cudaError_t lab_peer_access(int dev, int peer, bool on)
{
    if (!tracked(dev, peer) || dev == peer)
        return cudaErrorInvalidDevice;
    if (peer_on[dev][peer] == on)
        return cudaSetDevice(dev);
    cudaError_t err = switch_peer(dev, peer, on);
    if (err == cudaSuccess)
        peer_on[dev][peer] = on;
    return err;
}

bool lab_peer_access_is_on(int dev, int peer)
{
    return tracked(dev, peer) && peer_on[dev][peer];
}

void lab_peer_access_reset(void)
{
    for (int d = 0; d < LAB_MAX_GPUS; d++)
        for (int p = 0; p < LAB_MAX_GPUS; p++)
            if (peer_on[d][p])
                (void)lab_peer_access(d, p, false);
}

static void machine_row(lab_rows *rows, const char *variant, int src, const char *value,
                        const char *detail)
{
    lab_row row = lab_row_empty("machine", variant);
    row.src = src;
    lab_row_set(row.value, sizeof row.value, "%s", value);
    lab_row_set(row.detail, sizeof row.detail, "%s", detail);
    lab_rows_add(rows, &row);
}

/* The machine rows: date, CUDA versions, one per GPU. */
void lab_describe_machine(struct lab_rows *rows, int gpus)
{
    char when[32] = "", version[2][16] = {"?", "none"}, detail[sizeof rows->row->detail];
    time_t now = time(NULL);
    int v = 0;
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    if (cudaRuntimeGetVersion(&v) == cudaSuccess)
        snprintf(version[0], sizeof version[0], "%d.%d", v / 1000, (v % 1000) / 10);
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
        snprintf(version[1], sizeof version[1], "%d.%d", v / 1000, (v % 1000) / 10);
    (void)cudaGetLastError();
    machine_row(rows, "date", -1, when, "");
    snprintf(detail, sizeof detail, "runtime %s; driver supports %s", version[0], version[1]);
    machine_row(rows, "cuda", -1, version[0], detail);
    for (int dev = 0; dev < gpus; dev++) {
        struct cudaDeviceProp prop;
        char bus[32] = "";
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        CUDA_CHECK(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev));
        snprintf(detail, sizeof detail, "cc %d.%d; %d SMs; %zu MiB; PCI %s", prop.major,
                 prop.minor, prop.multiProcessorCount, (size_t)(prop.totalGlobalMem >> 20), bus);
        machine_row(rows, "gpu", dev, prop.name, detail);
    }
}

const char *lab_route_name(lab_route route)
{
    static const char *const names[LAB_ROUTE_COUNT] = {"peer", "peer_off", "host", "loopback"};
    return (unsigned)route < LAB_ROUTE_COUNT ? names[route] : "unknown";
}

bool lab_route_possible(lab_route route, int near_dev, int far_dev, char *why,
                        size_t why_len)
{
    int n, flag = 0;
    if (route == LAB_ROUTE_LOOPBACK)
        return true;
    if (route == LAB_ROUTE_HOST) {
        CUDA_CHECK(cudaDeviceGetAttribute(&flag, cudaDevAttrCanMapHostMemory, near_dev));
        if (!flag)
            snprintf(why, why_len, "GPU %d cannot map host memory", near_dev);
        return flag != 0;
    }
    if (route != LAB_ROUTE_PEER && route != LAB_ROUTE_PEER_OFF) {
        snprintf(why, why_len, "unknown route %d", (int)route);
        return false;
    }
    n = lab_gpu_count(NULL, 0);
    if (near_dev == far_dev || far_dev < 0 || far_dev >= n || near_dev >= n) {
        snprintf(why, why_len, "needs two GPUs, this machine has %d", n);
        return false;
    }
    if (route == LAB_ROUTE_PEER && !lab_can_access_peer(near_dev, far_dev)) {
        snprintf(why, why_len, "GPU %d cannot access GPU %d (no P2P)", near_dev, far_dev);
        return false;
    }
    return true;
}

cudaError_t lab_far_alloc(lab_far *far, lab_route route, int near_dev, int far_dev,
                          size_t bytes)
{
    memset(far, 0, sizeof *far);
    far->route = route;
    far->near_dev = near_dev;
    far->far_dev = route == LAB_ROUTE_HOST ? -1 : route == LAB_ROUTE_LOOPBACK ? near_dev : far_dev;
    far->bytes = bytes;
    if (route == LAB_ROUTE_HOST) {
        CUDA_TRY(cudaSetDevice(near_dev));
        CUDA_TRY(cudaHostAlloc(&far->host, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
        CUDA_TRY(cudaHostGetDevicePointer(&far->ptr, far->host, 0));
        return cudaSuccess;
    }
    CUDA_TRY(cudaSetDevice(far->far_dev));
    CUDA_TRY(cudaMalloc(&far->ptr, bytes));
    if (route == LAB_ROUTE_PEER || route == LAB_ROUTE_PEER_OFF)
        CUDA_TRY(lab_peer_access(near_dev, far_dev, route == LAB_ROUTE_PEER));
    return cudaSetDevice(near_dev);
}

void lab_far_free(lab_far *far)
{
    if (far->host != NULL)
        (void)cudaFreeHost(far->host);
    else if (far->ptr != NULL)
        (void)cudaFree(far->ptr);
    memset(far, 0, sizeof *far);
}
