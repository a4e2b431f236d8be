/**
 * @file report.c
 * @brief Lab 01: printing the peer-check results, and the verdicts on the
 *        claims of chapter 4.1 that they decide.
 */
#include "lab.h"
#include "peer_checks.h"

#include <stdio.h>

/** The verdict on one of the chapter's claims. */
typedef enum verdict {
    HOLDS,         /**< the measurement agrees with the chapter */
    DOES_NOT_HOLD, /**< the measurement contradicts it */
    NOT_TESTABLE   /**< this machine cannot decide it */
} verdict;

static const char *verdict_word(verdict v)
{
    return v == HOLDS ? "holds" : v == DOES_NOT_HOLD ? "does_not_hold" : "not_testable";
}

static int count_directions(const peer_report *r)
{
    int k = 0;
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->n; j++)
            k += (i != j) && report_pair(r, i, j)->can_access;
    return k;
}

/* "cudaDeviceEnablePeerAccess's second argument must be 0": holds when a
 * non-zero value was rejected on every direction that has access. */
static verdict flags_claim(const peer_report *r)
{
    if (count_directions(r) == 0)
        return NOT_TESTABLE;
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->n; j++)
            if (i != j && report_pair(r, i, j)->can_access &&
                report_pair(r, i, j)->enable_flags_one == cudaSuccess)
                return DOES_NOT_HOLD;
    return HOLDS;
}

/* "Once enabled, the two GPUs' memories are visible to each other": enabling
 * is per direction; the reverse probe says whether it came on as well. */
static verdict mutual_claim(const peer_report *r)
{
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->n; j++) {
            const pair_info *p = report_pair(r, i, j);
            if (p->reverse_tried)
                return p->reverse_disable == cudaErrorPeerAccessNotEnabled ? DOES_NOT_HOLD
                                                                           : HOLDS;
        }
    return NOT_TESTABLE;
}

/* "P2P needs UVA": a machine where every GPU has UVA cannot show the
 * failure; it can only show that the condition is met. */
static int uva_count(const peer_report *r)
{
    int k = 0;
    for (int i = 0; i < r->n; i++)
        k += r->gpus[i].unified_addressing != 0;
    return k;
}

void print_report_csv(const peer_report *r)
{
    const int n = r->n;
    printf("section,gpu,peer,field,value\n");
    for (int i = 0; i < n; i++) {
        const gpu_info *g = &r->gpus[i];
        printf("gpu,%d,,name,", i);
        lab_csv_field(stdout, g->name);
        printf("\ngpu,%d,,compute_capability,%d.%d\n", i, g->major, g->minor);
        printf("gpu,%d,,unified_addressing,%d\n", i, g->unified_addressing);
        printf("gpu,%d,,pci_bus_id,%s\n", i, g->pci_bus_id);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const pair_info *p = report_pair(r, i, j);
            printf("access,%d,%d,can_access_peer,%d\n", i, j, p->can_access);
            printf("access,%d,%d,status,%s\n", i, j, cudaGetErrorName(p->can_access_err));
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            const pair_info *p = report_pair(r, i, j);
            printf("attribute,%d,%d,performance_rank,%d\n", i, j, p->performance_rank);
            printf("attribute,%d,%d,access_supported,%d\n", i, j, p->access_supported);
            printf("attribute,%d,%d,native_atomic_supported,%d\n", i, j, p->native_atomics);
            printf("attribute,%d,%d,cuda_array_access_supported,%d\n", i, j, p->array_access);
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const pair_info *p = report_pair(r, i, j);
            if (i == j || !p->can_access)
                continue;
            printf("enable,%d,%d,flags_1,%s\n", i, j, cudaGetErrorName(p->enable_flags_one));
            printf("enable,%d,%d,first,%s\n", i, j, cudaGetErrorName(p->enable_first));
            printf("enable,%d,%d,again,%s\n", i, j, cudaGetErrorName(p->enable_again));
            if (p->reverse_tried)
                printf("enable,%d,%d,reverse_disable,%s\n", i, j,
                       cudaGetErrorName(p->reverse_disable));
            printf("disable,%d,%d,first,%s\n", i, j, cudaGetErrorName(p->disable_first));
            printf("disable,%d,%d,again,%s\n", i, j, cudaGetErrorName(p->disable_again));
        }
    printf("summary,,,gpus,%d\n", n);
    printf("summary,,,p2p_directions,%d\n", count_directions(r));
    printf("summary,,,uva_gpus,%d\n", uva_count(r));
    printf("claim,,,flags_must_be_zero,%s\n", verdict_word(flags_claim(r)));
    printf("claim,,,access_is_mutual,%s\n", verdict_word(mutual_claim(r)));
    printf("claim,,,uva_required,%s\n", verdict_word(NOT_TESTABLE));
    printf("claim,,,physical_link_required,%s\n", verdict_word(NOT_TESTABLE));
}

static void print_gpus(const peer_report *r)
{
    printf("GPUs\n  %-3s %-28s %-4s %-4s %s\n", "id", "name", "cc", "UVA", "PCI bus id");
    for (int i = 0; i < r->n; i++) {
        const gpu_info *g = &r->gpus[i];
        printf("  %-3d %-28s %d.%-2d %-4s %s\n", i, g->name, g->major, g->minor,
               g->unified_addressing ? "yes" : "no", g->pci_bus_id);
    }
}

static void print_matrix(const peer_report *r)
{
    printf("\ncudaDeviceCanAccessPeer (row = device, column = peer)\n      ");
    for (int j = 0; j < r->n; j++)
        printf(" GPU%-2d", j);
    printf("\n");
    for (int i = 0; i < r->n; i++) {
        printf("  GPU%-2d", i);
        for (int j = 0; j < r->n; j++)
            printf(" %5d", report_pair(r, i, j)->can_access);
        printf("\n");
    }
    printf("  diagonal: cudaDeviceCanAccessPeer(d, d) returned %s with the answer %d\n",
           cudaGetErrorName(report_pair(r, 0, 0)->can_access_err),
           report_pair(r, 0, 0)->can_access);
}

static void print_attributes(const peer_report *r)
{
    printf("\ncudaDeviceGetP2PAttribute\n  %-8s %-5s %-7s %-15s %s\n", "pair", "rank",
           "access", "native atomics", "CUDA arrays");
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->n; j++) {
            if (i == j)
                continue;
            const pair_info *p = report_pair(r, i, j);
            printf("  %d -> %-3d %-5d %-7d %-15d %d\n", i, j, p->performance_rank,
                   p->access_supported, p->native_atomics, p->array_access);
        }
}

static void print_enabling(const peer_report *r)
{
    printf("\ncudaDeviceEnablePeerAccess / cudaDeviceDisablePeerAccess\n");
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < r->n; j++) {
            const pair_info *p = report_pair(r, i, j);
            if (i == j || !p->can_access)
                continue;
            printf("  %d -> %d  flags=1: %s\n", i, j, cudaGetErrorName(p->enable_flags_one));
            printf("          enable:  %s, again: %s (harmless)\n",
                   cudaGetErrorName(p->enable_first), cudaGetErrorName(p->enable_again));
            if (p->reverse_tried)
                printf("          then disabling %d -> %d: %s\n", j, i,
                       cudaGetErrorName(p->reverse_disable));
            printf("          disable: %s, again: %s\n", cudaGetErrorName(p->disable_first),
                   cudaGetErrorName(p->disable_again));
        }
}

static void print_claims(const peer_report *r)
{
    int directions = count_directions(r);
    verdict flags = flags_claim(r), mutual = mutual_claim(r);
    printf("\nChapter 4.1, claim by claim\n");
    printf("claim flags_must_be_zero: %s: ", verdict_word(flags));
    if (flags == HOLDS)
        printf("flags=1 was rejected on all %d directions with peer access\n", directions);
    else if (flags == DOES_NOT_HOLD)
        printf("a non-zero flags value was accepted on at least one direction\n");
    else
        printf("no pair of GPUs has peer access, so nothing could be enabled\n");
    printf("claim access_is_mutual: %s: ", verdict_word(mutual));
    if (mutual == DOES_NOT_HOLD)
        printf("after enabling %s, the reverse direction still reported %s: "
               "access is one-way, enable it from both sides\n",
               "one direction", "cudaErrorPeerAccessNotEnabled");
    else if (mutual == HOLDS)
        printf("the reverse direction came on with the first\n");
    else
        printf("no pair of GPUs has peer access\n");
    printf("claim uva_required: %s: %d of %d GPUs have UVA, so the case without it "
           "cannot be run here\n", verdict_word(NOT_TESTABLE), uva_count(r), r->n);
    printf("claim physical_link_required: %s: %d of %d directions have peer access; "
           "no unconnected pair exists here to show the failure\n",
           verdict_word(NOT_TESTABLE), directions, r->n * (r->n - 1));
}

void print_report_table(const peer_report *r)
{
    print_gpus(r);
    print_matrix(r);
    print_attributes(r);
    print_enabling(r);
    print_claims(r);
}
