/**
 * @file link.h
 * @brief What joins each GPU to the host and to the other GPUs, and each link's theoretical
 *        peak per direction (datasheet arithmetic): NVML opened at run time where nvml.h
 *        existed at build time, Linux sysfs for PCIe otherwise. Used by lab 05 and make doctor.
 */
#ifndef LAB_LINK_H
#define LAB_LINK_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief One GPU's links; numbers are 0 when unknown. A PCIe lane carries GT/s x payload share
 *        / 8 GB/s; one NVLink one way is the datasheet's total (all links, both ways) / links / 2.
 */
typedef struct lab_gpu_link {
    char pci_bus_id[32];     /**< domain:bus:device.function, as CUDA gives it */
    int cc_major;            /**< compute capability, major */
    int cc_minor;            /**< compute capability, minor */
    int pcie_gen;            /**< PCIe generation the link can reach */
    int pcie_width;          /**< PCIe lanes the link can reach */
    int pcie_gen_now;        /**< generation at the query (an idle link trains down) */
    int pcie_width_now;      /**< lanes at the query */
    char pcie_from[8];       /**< where the PCIe figures come from: nvml, sysfs or "" */
    int nvml;                /**< 1 when NVML answered for this GPU */
    unsigned nvlink_raw;     /**< nvmlDeviceGetNvLinkVersion of the first active link */
    int nvlink_gen;          /**< NVLink generation (0: none or unknown) */
    int nvlink_active;       /**< active NVLinks */
    int switch_links;        /**< active links whose far end is not a GPU (NVSwitch) */
    int hidden_links;        /**< active links to a GPU this process cannot match */
    double host_peak_gbps;   /**< host link peak per direction: lane rate x width (max) */
} lab_gpu_link;

/** @brief One ordered pair of GPUs. */
typedef struct lab_pair_link {
    int p2p;                /**< cudaDeviceCanAccessPeer both ways */
    int nvlinks;            /**< NVLinks that carry this pair's traffic (0: none known) */
    int nvml_nvlink;        /**< NVML's P2P status over NVLink: 1 ok, 0 not, -1 unknown */
    double rate_gbps;       /**< NVLink rate per link and direction */
    double peak_gbps;       /**< peak of the P2P path per direction */
    double pcie_peak_gbps;  /**< peak of the path through host memory (the slower GPU's PCIe) */
    char path[16];          /**< "nvlink", "pcie" or "unknown" */
} lab_pair_link;

/** @brief Every GPU's links and every ordered pair's path. */
typedef struct lab_links {
    int n;                 /**< GPUs */
    lab_gpu_link *gpu;     /**< n entries */
    lab_pair_link *pair;   /**< n*n entries, pair[a*n+b]; the diagonal stays empty */
    char nvml_status[200]; /**< "ok", or "unknown: why" */
} lab_links;

/**
 * @brief Ask CUDA, NVML and sysfs about the @p n GPUs this process sees; free with
 *        lab_links_free(). What NVML or sysfs cannot say stays 0/"unknown" (nvml_status: why).
 * @return cudaSuccess, or the error of a CUDA query (then nothing is allocated)
 */
cudaError_t lab_links_query(lab_links *links, int n);

/** @brief Free what lab_links_query allocated and leave @p links empty. */
void lab_links_free(lab_links *links);

/** @brief The pair a -> b (NULL when either id is out of range or a == b). */
const lab_pair_link *lab_links_pair(const lab_links *links, int a, int b);

/**
 * @brief A GPU's NVLink datasheet figures for generation @p gen (1..5): the GPU named, its
 *        links, the total over all links counting both directions (each may be NULL).
 * @return 1 when known, 0 otherwise
 */
int lab_nvlink_datasheet(int gen, const char **product, int *links, double *total_gbps);

/** @brief A PCIe generation's transfer rate per lane and payload share: 1 when known (1..6). */
int lab_pcie_generation(int gen, double *gt_per_s, double *payload_share);

/** @brief NVLink rate per link and direction (GB/s), 0 when unknown. */
double lab_nvlink_rate(int gen);

/** @brief PCIe rate per lane and direction after line coding (GB/s), 0 when unknown. */
double lab_pcie_lane_rate(int gen);

/**
 * @brief Keep this thread on the CPUs nearest GPU @p dev (sysfs local_cpulist), as nvbandwidth
 *        does: host buffers allocated afterwards land on that NUMA node, and host-side polling
 *        runs close to the GPU. 0, or -1 with the reason in @p why (nothing changed then).
 */
int lab_link_bind_near_cpus(int dev, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* LAB_LINK_H */
