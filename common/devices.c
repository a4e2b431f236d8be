/**
 * @file devices.c
 * @brief Device discovery, P2P checks and pair selection.
 */
#include "devices.h"
#include "cli.h"
#include "cuda_check.h"
#include "lab_exit.h"
#include "rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int lab_gpu_count(char *why, size_t why_len)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        /* No device or no driver: not a failure of the lab, a fact of the
         * machine. Clear the error so later calls start clean. */
        if (why && err == cudaErrorInsufficientDriver)
            snprintf(why, why_len, "no NVIDIA driver (or one too old for this CUDA runtime): "
                     "cudaGetDeviceCount returned %s", cudaGetErrorName(err));
        else if (why && err == cudaErrorNoDevice)
            snprintf(why, why_len, "no CUDA GPU visible (cudaErrorNoDevice; is "
                     "CUDA_VISIBLE_DEVICES empty?)");
        else if (why)
            snprintf(why, why_len, "cudaGetDeviceCount: %s (%s)",
                     cudaGetErrorName(err), cudaGetErrorString(err));
        (void)cudaGetLastError();
        return 0;
    }
    if (count == 0 && why)
        snprintf(why, why_len, "cudaGetDeviceCount found no device");
    return count;
}

int lab_require_gpus(const char *prog, int needed)
{
    char why[256] = "";
    int count = lab_gpu_count(why, sizeof why);
    if (count < needed) {
        printf("%s: skipped: needs %d GPU%s, this machine has %d%s%s%s\n",
               prog, needed, needed == 1 ? "" : "s", count,
               why[0] ? " (" : "", why, why[0] ? ")" : "");
        exit(LAB_EXIT_SKIP);
    }
    return count;
}

bool lab_can_access_peer(int dev, int peer)
{
    int can = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&can, dev, peer));
    return can != 0;
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
            if (lab_can_access_peer(i, j) && lab_can_access_peer(j, i)) {
                *a = i;
                *b = j;
                return true;
            }
    return false;
}

/* With one GPU given, pick the lowest other id that suits it. */
static int pick_partner(int n, int given, bool need_p2p)
{
    for (int j = 0; j < n; j++) {
        if (j == given)
            continue;
        if (!need_p2p ||
            (lab_can_access_peer(given, j) && lab_can_access_peer(j, given)))
            return j;
    }
    return -1;
}

void lab_select_pair(const char *prog, int want_a, int want_b, bool need_p2p,
                     int *a, int *b)
{
    if (want_a >= 0 && want_a == want_b)
        lab_usage_error(prog, "the two GPUs must differ (both are %d)", want_a);

    int n = lab_require_gpus(prog, 2);

    if (want_a >= n || want_b >= n)
        lab_usage_error(prog, "GPU %d does not exist: this machine has %d GPUs (0..%d)",
                        want_a >= n ? want_a : want_b, n, n - 1);

    if (want_a < 0 && want_b < 0) {
        if (lab_find_p2p_pair(n, a, b))
            return;
        if (need_p2p) {
            printf("%s: skipped: none of the %d GPUs' pairs has peer access both ways\n",
                   prog, n);
            exit(LAB_EXIT_SKIP);
        }
        *a = 0;
        *b = 1;
        return;
    }

    *a = want_a >= 0 ? want_a : pick_partner(n, want_b, need_p2p);
    *b = want_b >= 0 ? want_b : pick_partner(n, want_a, need_p2p);
    if (*a < 0 || *b < 0) {
        printf("%s: skipped: GPU %d has no peer with access both ways\n", prog,
               want_a >= 0 ? want_a : want_b);
        exit(LAB_EXIT_SKIP);
    }
    if (need_p2p && !(lab_can_access_peer(*a, *b) && lab_can_access_peer(*b, *a))) {
        printf("%s: skipped: no peer access both ways between GPU %d and GPU %d\n",
               prog, *a, *b);
        exit(LAB_EXIT_SKIP);
    }
}

cudaError_t lab_enable_peer(int dev, int peer)
{
    cudaError_t err = cudaSetDevice(dev);
    if (err != cudaSuccess)
        return err;
    err = cudaDeviceEnablePeerAccess(peer, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError(); /* the runtime also records it as last error */
        return cudaSuccess;
    }
    return err;
}

cudaError_t lab_disable_peer(int dev, int peer)
{
    cudaError_t err = cudaSetDevice(dev);
    if (err != cudaSuccess)
        return err;
    err = cudaDeviceDisablePeerAccess(peer);
    if (err == cudaErrorPeerAccessNotEnabled) {
        (void)cudaGetLastError();
        return cudaSuccess;
    }
    return err;
}

/* What this process has enabled, row = dev, column = peer. */
static bool peer_on[LAB_MAX_GPUS][LAB_MAX_GPUS];

cudaError_t lab_peer_access(int dev, int peer, bool on)
{
    if (dev < 0 || peer < 0 || dev >= LAB_MAX_GPUS || peer >= LAB_MAX_GPUS || dev == peer)
        return cudaErrorInvalidDevice;
    if (peer_on[dev][peer] == on)
        return cudaSetDevice(dev);
    cudaError_t err = on ? lab_enable_peer(dev, peer) : lab_disable_peer(dev, peer);
    if (err == cudaSuccess)
        peer_on[dev][peer] = on;
    return err;
}

bool lab_peer_access_is_on(int dev, int peer)
{
    if (dev < 0 || peer < 0 || dev >= LAB_MAX_GPUS || peer >= LAB_MAX_GPUS)
        return false;
    return peer_on[dev][peer];
}

void lab_peer_access_reset(void)
{
    for (int d = 0; d < LAB_MAX_GPUS; d++)
        for (int p = 0; p < LAB_MAX_GPUS; p++)
            if (peer_on[d][p])
                (void)lab_peer_access(d, p, false);
}

static void version_text(int v, char *out, size_t len)
{
    snprintf(out, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

void lab_describe_machine(struct lab_rows *rows, int gpus)
{
    char when[32] = "", runtime[16] = "?", driver[16] = "none";
    int v = 0;
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    if (cudaRuntimeGetVersion(&v) == cudaSuccess)
        version_text(v, runtime, sizeof runtime);
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
        version_text(v, driver, sizeof driver);
    (void)cudaGetLastError();
    lab_row row = lab_row_empty("machine", "date");
    lab_row_set(row.value, sizeof row.value, "%s", when);
    lab_rows_add(rows, &row);
    row = lab_row_empty("machine", "cuda");
    lab_row_set(row.value, sizeof row.value, "%s", runtime);
    lab_row_set(row.detail, sizeof row.detail, "runtime %s; driver supports %s", runtime, driver);
    lab_rows_add(rows, &row);
    for (int dev = 0; dev < gpus; dev++) {
        struct cudaDeviceProp prop;
        char bus[32] = "";
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        CUDA_CHECK(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev));
        row = lab_row_empty("machine", "gpu");
        row.src = dev;
        lab_row_set(row.value, sizeof row.value, "%s", prop.name);
        lab_row_set(row.detail, sizeof row.detail, "cc %d.%d; %d SMs; %zu MiB; PCI %s",
                    prop.major, prop.minor, prop.multiProcessorCount,
                    (size_t)(prop.totalGlobalMem >> 20), bus);
        lab_rows_add(rows, &row);
    }
}
