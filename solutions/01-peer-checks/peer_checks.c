/**
 * @file peer_checks.c
 * @brief Lab 01 (chapter 4.1): which GPUs can reach each other, and what the
 *        peer-access API really answers.
 *
 * For every GPU: name, compute capability, unified addressing, PCI id.
 * For every ordered pair: cudaDeviceCanAccessPeer, the four
 * cudaDeviceGetP2PAttribute values, then enabling access with a non-zero
 * flags value (the chapter's warning), with 0, and with 0 again, and finally
 * disabling it twice. Every answer is recorded, errors included: the errors
 * are the lesson.
 */
#include "lab.h"
#include "peer_checks.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *prog)
{
    printf("usage: %s [--csv] [--help]\n"
           "\n"
           "Lists every GPU, the peer-access matrix, the P2P attributes of every\n"
           "ordered pair, and what enabling and disabling peer access returns.\n"
           "\n"
           "  --csv    print CSV (section,gpu,peer,field,value) instead of tables\n"
           "  --help   show this help\n"
           "\n"
           "Exit status: 0 done, 1 a CUDA call failed, 2 bad usage,\n"
           "77 fewer than 2 GPUs.\n",
           prog);
}

/* Step 1: what each GPU says about itself. */
static void describe_gpu(int dev, gpu_info *info)
{
#ifndef LAB_SKELETON
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->unified_addressing = prop.unifiedAddressing;
    CUDA_CHECK(cudaDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, dev));
#else
    LAB_TODO("01.1");
#endif
}

/* Step 2: can dev access peer? Asked for every ordered pair, the diagonal
 * too: the answer for a GPU and itself is part of the lesson. */
static void check_access(int dev, int peer, pair_info *pair)
{
#ifndef LAB_SKELETON
    pair->can_access = 0;
    pair->can_access_err = cudaDeviceCanAccessPeer(&pair->can_access, dev, peer);
    (void)cudaGetLastError(); /* an error here is a result, not a failure */
#else
    LAB_TODO("01.2");
#endif
}

/* Step 3: the link's properties as the runtime reports them. */
static void query_attributes(int dev, int peer, pair_info *pair)
{
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&pair->performance_rank,
                                         cudaDevP2PAttrPerformanceRank, dev, peer));
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&pair->access_supported,
                                         cudaDevP2PAttrAccessSupported, dev, peer));
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&pair->native_atomics,
                                         cudaDevP2PAttrNativeAtomicSupported, dev, peer));
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&pair->array_access,
                                         cudaDevP2PAttrCudaArrayAccessSupported, dev, peer));
#else
    LAB_TODO("01.3");
#endif
}

/* Step 4: the chapter says the flags argument must be 0. Ask with 1 before
 * access is enabled, so the answer is about the flags and nothing else. */
static void try_nonzero_flags(int dev, int peer, pair_info *pair)
{
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(dev));
    pair->enable_flags_one = cudaDeviceEnablePeerAccess(peer, 1);
    (void)cudaGetLastError(); /* clear the error we provoked on purpose */
#else
    LAB_TODO("01.4");
#endif
}

/* Step 5: enable dev -> peer with flags 0, then once more: the second call
 * returns cudaErrorPeerAccessAlreadyEnabled, which is harmless but is also
 * left as the thread's last error and must be cleared. */
static void enable_access(int dev, int peer, pair_info *pair)
{
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(dev));
    pair->enable_first = cudaDeviceEnablePeerAccess(peer, 0);
    (void)cudaGetLastError();
    pair->enable_again = cudaDeviceEnablePeerAccess(peer, 0);
    (void)cudaGetLastError();
    if (pair->enable_first != cudaSuccess &&
        pair->enable_first != cudaErrorPeerAccessAlreadyEnabled)
        lab_cuda_die(pair->enable_first, "cudaDeviceEnablePeerAccess(peer, 0)",
                     __FILE__, __LINE__);
#else
    LAB_TODO("01.5");
#endif
}

/* Access is one-way: enabling dev -> peer leaves peer -> dev disabled.
 * Disabling the reverse direction proves it (it reports "not enabled"). */
static void probe_reverse_direction(int dev, int peer, pair_info *pair)
{
    CUDA_CHECK(cudaSetDevice(peer));
    pair->reverse_disable = cudaDeviceDisablePeerAccess(dev);
    (void)cudaGetLastError();
    pair->reverse_tried = 1;
}

/* Step 6: leave the machine as we found it: disable, then disable again. */
static void disable_access(int dev, int peer, pair_info *pair)
{
#ifndef LAB_SKELETON
    CUDA_CHECK(cudaSetDevice(dev));
    pair->disable_first = cudaDeviceDisablePeerAccess(peer);
    (void)cudaGetLastError();
    pair->disable_again = cudaDeviceDisablePeerAccess(peer);
    (void)cudaGetLastError();
#else
    LAB_TODO("01.6");
#endif
}

static void run_checks(peer_report *r)
{
    const int n = r->n;
    for (int dev = 0; dev < n; dev++)
        describe_gpu(dev, &r->gpus[dev]);

    for (int dev = 0; dev < n; dev++)
        for (int peer = 0; peer < n; peer++)
            check_access(dev, peer, report_pair(r, dev, peer));

    for (int dev = 0; dev < n; dev++)
        for (int peer = 0; peer < n; peer++)
            if (dev != peer) /* the attributes are defined for two devices only */
                query_attributes(dev, peer, report_pair(r, dev, peer));

    /* Enable every capable direction. For dev < peer the reverse direction is
     * still off when dev -> peer comes on, which is when we probe it. */
    for (int dev = 0; dev < n; dev++)
        for (int peer = 0; peer < n; peer++) {
            pair_info *pair = report_pair(r, dev, peer);
            if (dev == peer || !pair->can_access)
                continue;
            try_nonzero_flags(dev, peer, pair);
            enable_access(dev, peer, pair);
            if (dev < peer)
                probe_reverse_direction(dev, peer, pair);
        }

    for (int dev = 0; dev < n; dev++)
        for (int peer = 0; peer < n; peer++)
            if (dev != peer && report_pair(r, dev, peer)->can_access)
                disable_access(dev, peer, report_pair(r, dev, peer));
}

/** @brief Parse the options, run every check, print the report. */
int main(int argc, char **argv)
{
    const char *prog = lab_prog_name(argv[0]);
    lab_format format = LAB_FORMAT_TABLE;
    static const struct option options[] = {
        {"csv", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (opt) {
        case 'c': format = LAB_FORMAT_CSV; break;
        case 'h': usage(prog); return LAB_EXIT_OK;
        default: lab_usage_error(prog, "unknown or incomplete option");
        }
    }
    lab_no_operands(prog, optind, argc, argv);

    peer_report report = {0};
    report.n = lab_require_gpus(prog, 2);
    report.gpus = calloc((size_t)report.n, sizeof *report.gpus);
    report.pairs = calloc((size_t)report.n * (size_t)report.n, sizeof *report.pairs);
    if (report.gpus == NULL || report.pairs == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return LAB_EXIT_FAIL;
    }

    run_checks(&report);

    if (format == LAB_FORMAT_CSV)
        print_report_csv(&report);
    else
        print_report_table(&report);

    free(report.gpus);
    free(report.pairs);
    return LAB_EXIT_OK;
}
