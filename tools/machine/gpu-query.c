/*
 * gpu-query: small questions about this machine's GPUs, for `make doctor`
 * and the tests.
 *
 *   gpu-query count    number of GPUs (0 when none or no driver; reason on stderr)
 *   gpu-query list     one line per GPU: id, compute capability, name
 *   gpu-query matrix   the peer-access matrix, one row per GPU (1 = can access)
 *   gpu-query pair     the first pair with P2P both ways ("0 1"), exit 77 if none
 *   gpu-query links    that pair, each GPU's NVLink generation and the NVLinks between them,
 *                      as lab 05's link rows give them ("0 1 4 4 18"), exit 77 if no pair
 */
#include "lab.h"
#include "link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *prog, int status)
{
    fprintf(status ? stderr : stdout, "usage: %s count|list|matrix|pair|links\n", prog);
    return status;
}

/* The first P2P pair of the N GPUs and its links (NVLink generation 0 where NVML cannot say),
 * so that a test can tell from the machine alone whether a pair's bars apply. */
static int pair_links(const char *prog, int n)
{
    int a, b;
    if (n < 2 || !lab_find_p2p_pair(n, &a, &b)) {
        printf("no pair of GPUs with peer access both ways (%d GPU%s)\n", n, n == 1 ? "" : "s");
        return LAB_EXIT_SKIP;
    }
    lab_links links;
    const cudaError_t err = lab_links_query(&links, n);
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: lab_links_query: %s: %s\n", prog, cudaGetErrorName(err),
                cudaGetErrorString(err));
        return LAB_EXIT_FAIL;
    }
    const lab_gpu_link *ga = &links.gpu[a], *gb = &links.gpu[b];
    printf("%d %d %d %d %d\n", a, b, ga->nvml ? ga->nvlink_gen : 0, gb->nvml ? gb->nvlink_gen : 0,
           lab_links_pair(&links, a, b)->nvlinks);
    lab_links_free(&links);
    return LAB_EXIT_OK;
}

int main(int argc, char **argv)
{
    const char *prog = lab_prog_name(argv[0]);
    if (argc != 2)
        return usage(prog, LAB_EXIT_USAGE);
    const char *what = argv[1];

    char why[256] = "";
    int n = lab_gpu_count(why, sizeof why);

    if (strcmp(what, "count") == 0) {
        if (n == 0)
            fprintf(stderr, "%s\n", why);
        printf("%d\n", n);
        return LAB_EXIT_OK;
    }
    if (strcmp(what, "list") == 0) {
        for (int i = 0; i < n; i++) {
            struct cudaDeviceProp prop;
            CUDA_CHECK(cudaGetDeviceProperties(&prop, i));
            printf("%d %d.%d %s\n", i, prop.major, prop.minor, prop.name);
        }
        return LAB_EXIT_OK;
    }
    if (strcmp(what, "matrix") == 0) {
        int *matrix = calloc((size_t)n * (size_t)n + 1, sizeof *matrix);
        if (matrix == NULL)
            return LAB_EXIT_FAIL;
        lab_p2p_matrix(n, matrix);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++)
                printf(j ? " %d" : "%d", matrix[i * n + j]);
            printf("\n");
        }
        free(matrix);
        return LAB_EXIT_OK;
    }
    if (strcmp(what, "pair") == 0) {
        int a, b;
        if (n >= 2 && lab_find_p2p_pair(n, &a, &b)) {
            printf("%d %d\n", a, b);
            return LAB_EXIT_OK;
        }
        printf("no pair of GPUs with peer access both ways (%d GPU%s)\n", n,
               n == 1 ? "" : "s");
        return LAB_EXIT_SKIP;
    }
    if (strcmp(what, "links") == 0)
        return pair_links(prog, n);
    return usage(prog, LAB_EXIT_USAGE);
}
