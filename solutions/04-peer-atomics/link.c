/**
 * @file link.c
 * @brief Lab 04: what the link between the two GPUs supports, and the
 *        choice of the pair.
 *
 * A kernel can only use atomics on a peer's memory when the link carries
 * them: cudaDevP2PAttrNativeAtomicSupported says so for one direction
 * (source device -> destination device's memory).
 */
#include "peer_atomics.h"

#include <stdio.h>
#include <string.h>

static int p2p_attr(enum cudaDeviceP2PAttr attr, int src, int dst)
{
    int value = 0;
    CUDA_CHECK(cudaDeviceGetP2PAttribute(&value, attr, src, dst));
    return value;
}

/* A newer attribute an older driver may not know: -1 then. */
static int p2p_attr_or_unknown(enum cudaDeviceP2PAttr attr, int src, int dst)
{
    int value = 0;
    if (cudaDeviceGetP2PAttribute(&value, attr, src, dst) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return value;
}

static int native_atomics(int src, int dst)
{
    return p2p_attr(cudaDevP2PAttrNativeAtomicSupported, src, dst);
}

/* Which integer-add widths the link executes natively. A driver that does
 * not know the query answers with an error: the answer is then unknown. */
static int add_capabilities(int src, int dst)
{
    const enum cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
    unsigned int caps = 0;
    cudaError_t err = cudaDeviceGetP2PAtomicCapabilities(&caps, &op, 1, src, dst);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return (int)caps;
}

void link_choose_pair(const char *prog, const lab04_config *cfg, int *a, int *b)
{
    lab_select_pair(prog, cfg->want_a, cfg->want_b, true, a, b);
    if (cfg->want_a >= 0 || cfg->want_b >= 0 || cfg->simulate_no_native)
        return;
    /* lab_select_pair took the first P2P pair; prefer one whose link also
     * carries atomics, when the machine has one. */
    int n = lab_gpu_count(NULL, 0);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (lab_can_access_peer(i, j) && lab_can_access_peer(j, i) &&
                native_atomics(i, j) && native_atomics(j, i)) {
                *a = i;
                *b = j;
                return;
            }
}

void link_query(const lab04_config *cfg, int a, int b, link_info *link)
{
    memset(link, 0, sizeof *link);
    link->n = lab_gpu_count(NULL, 0);
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, a));
    snprintf(link->name_a, sizeof link->name_a, "%s", prop.name);
    CUDA_CHECK(cudaGetDeviceProperties(&prop, b));
    snprintf(link->name_b, sizeof link->name_b, "%s", prop.name);

    const int src[2] = {a, b}, dst[2] = {b, a};
    for (int k = 0; k < 2; k++) {
        link->access[k] = lab_can_access_peer(src[k], dst[k]);
        link->native[k] = native_atomics(src[k], dst[k]);
        link->partial[k] = p2p_attr_or_unknown(cudaDevP2PAttrOnlyPartialNativeAtomicSupported,
                                              src[k], dst[k]);
        link->add_caps[k] = add_capabilities(src[k], dst[k]);
        if (cfg->simulate_no_native) {
            link->native[k] = 0;
            link->partial[k] = 0;
            link->add_caps[k] = 0;
        }
    }
    link->simulated = cfg->simulate_no_native;

    /* The machine as a whole: is there a direction with peer access whose
     * link does not carry atomics (chapter: PCIe atomics need support)? */
    link->example_src = link->example_dst = -1;
    for (int i = 0; i < link->n; i++)
        for (int j = 0; j < link->n; j++) {
            if (i == j || !lab_can_access_peer(i, j))
                continue;
            link->directions_with_access++;
            if (!native_atomics(i, j)) {
                link->directions_without_native++;
                if (link->example_src < 0) {
                    link->example_src = i;
                    link->example_dst = j;
                }
            }
        }
}
