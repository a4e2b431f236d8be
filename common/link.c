/* The links of every GPU and pair: datasheet arithmetic, NVML asked at run time (when nvml.h
 * existed at build time), sysfs for PCIe and for the CPUs near a GPU. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "link.h"
#include "cuda_check.h"
#include "devices.h"

#include <ctype.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<nvml.h>)
#include <nvml.h>
#define LAB_HAVE_NVML 1
#endif
#endif
#ifndef LAB_HAVE_NVML
#define LAB_HAVE_NVML 0 /* NVLinks are unknown, PCIe comes from sysfs */
#endif

/* One datasheet figure: a GPU's total NVLink bandwidth, both directions, and the compute
 * capability of that GPU generation. */
static const struct {
    int gen;
    const char *product;
    int links;
    double total_gbps;
    int cc_major;
} sheets[] = {
    {1, "P100", 4, 160.0, 6},       {2, "V100", 6, 300.0, 7},
    {3, "A100", 12, 600.0, 8},      {4, "H100/H200", 18, 900.0, 9},
    {5, "B200", 18, 1800.0, 10},
};
#define SHEETS (int)(sizeof sheets / sizeof sheets[0])

/* PCIe: transfer rate per lane (GT/s) and the payload share after line coding. */
static const double pcie_gens[][2] = {
    {2.5, 8.0 / 10.0},     {5.0, 8.0 / 10.0},     {8.0, 128.0 / 130.0},
    {16.0, 128.0 / 130.0}, {32.0, 128.0 / 130.0}, {64.0, 242.0 / 256.0},
};

int lab_nvlink_datasheet(int gen, const char **product, int *links, double *total_gbps)
{
    for (int i = 0; i < SHEETS; i++) {
        if (sheets[i].gen != gen)
            continue;
        if (product)
            *product = sheets[i].product;
        if (links)
            *links = sheets[i].links;
        if (total_gbps)
            *total_gbps = sheets[i].total_gbps;
        return 1;
    }
    return 0;
}

int lab_pcie_generation(int gen, double *gt_per_s, double *payload_share)
{
    if (gen < 1 || gen > (int)(sizeof pcie_gens / sizeof pcie_gens[0]))
        return 0;
    if (gt_per_s)
        *gt_per_s = pcie_gens[gen - 1][0];
    if (payload_share)
        *payload_share = pcie_gens[gen - 1][1];
    return 1;
}

double lab_nvlink_rate(int gen)
{
    int links = 0;
    double total = 0.0;
    if (!lab_nvlink_datasheet(gen, NULL, &links, &total))
        return 0.0;
    return total / (double)links / 2.0; /* every link, both directions */
}

double lab_pcie_lane_rate(int gen)
{
    double gt = 0.0, share = 0.0;
    if (!lab_pcie_generation(gen, &gt, &share))
        return 0.0;
    return gt * share / 8.0; /* one bit per transfer and lane */
}

/* nvmlDeviceGetNvLinkVersion has answered the plain generation (4 for Hopper) or an
 * nvmlNvlinkVersion_t code (NVML_NVLINK_VERSION_4_0 is 6) over the driver releases; the
 * architecture settles it when a datasheet row has it. */
static int decode_nvlink_version(unsigned raw, int cc_major)
{
    static const int from_code[] = {0, 1, 2, 2, 3, 3, 4, 5, 6};
    for (int i = 0; i < SHEETS; i++)
        if (sheets[i].cc_major == cc_major)
            return sheets[i].gen;
    if (raw >= 1 && raw <= 5)
        return (int)raw;
    return raw < sizeof from_code / sizeof from_code[0] ? from_code[raw] : 0;
}

/* Read the first line of /sys/bus/pci/devices/<bus>/<name> (bus id lowercase). */
static int sysfs_read(const char *bus_id, const char *name, char *line, size_t len)
{
    char path[160], bus[32];
    size_t i = 0;
    for (; bus_id[i] && i + 1 < sizeof bus; i++)
        bus[i] = (char)tolower((unsigned char)bus_id[i]);
    bus[i] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", bus, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int ok = fgets(line, (int)len, f) != NULL;
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    return ok ? 0 : -1;
}

/* "32.0 GT/s PCIe" -> 5; 0 when unknown. */
static int gen_of_speed(const char *text)
{
    const double gt = strtod(text, NULL);
    for (int gen = 1; gen <= 6; gen++)
        if (gt > 0.0 && gt > 0.9 * pcie_gens[gen - 1][0] && gt < 1.1 * pcie_gens[gen - 1][0])
            return gen;
    return 0;
}

/* The four PCIe figures in one order: generation and width at most, then now. */
static void pcie_fields(lab_gpu_link *g, int *field[4])
{
    field[0] = &g->pcie_gen;
    field[1] = &g->pcie_width;
    field[2] = &g->pcie_gen_now;
    field[3] = &g->pcie_width_now;
}

/* What NVML did not say about the PCIe link. */
static void sysfs_pcie(lab_gpu_link *g)
{
    static const char *const names[4] = {"max_link_speed", "max_link_width",
                                         "current_link_speed", "current_link_width"};
    char line[64];
    int *field[4];
    pcie_fields(g, field);
    for (int i = 0; i < 4; i++)
        if (*field[i] == 0 && sysfs_read(g->pci_bus_id, names[i], line, sizeof line) == 0)
            *field[i] = i % 2 ? atoi(line) : gen_of_speed(line);
    if (g->pcie_from[0] == '\0' && g->pcie_gen > 0)
        snprintf(g->pcie_from, sizeof g->pcie_from, "sysfs");
}

#if LAB_HAVE_NVML
#ifndef NVML_NVLINK_MAX_LINKS
#define NVML_NVLINK_MAX_LINKS 18
#endif
#if defined(NVML_API_VERSION) && NVML_API_VERSION >= 11
#define NVML_HAS_P2P 1 /* nvmlDeviceGetP2PStatus and the remote device type exist */
#else
#define NVML_HAS_P2P 0
#endif

/* The NVML functions used here, looked up with dlsym (names in nvml_symbols). */
typedef struct nvml_api {
    void *lib;
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*shutdown)(void);
    const char *(*error_string)(nvmlReturn_t);
    nvmlReturn_t (*by_bus_id)(const char *, nvmlDevice_t *);
    nvmlReturn_t (*link_state)(nvmlDevice_t, unsigned int, nvmlEnableState_t *);
    nvmlReturn_t (*link_version)(nvmlDevice_t, unsigned int, unsigned int *);
    nvmlReturn_t (*remote_pci)(nvmlDevice_t, unsigned int, nvmlPciInfo_t *);
    nvmlReturn_t (*pcie[4])(nvmlDevice_t, unsigned int *); /* in pcie_fields' order */
#if NVML_HAS_P2P
    /* Optional: older drivers lack them. */
    nvmlReturn_t (*remote_type)(nvmlDevice_t, unsigned int, nvmlIntNvLinkDeviceType_t *);
    nvmlReturn_t (*p2p_status)(nvmlDevice_t, nvmlDevice_t, nvmlGpuP2PCapsIndex_t,
                               nvmlGpuP2PStatus_t *);
#endif
} nvml_api;

static int find_symbol(void *lib, const char *name, void *slot)
{
    void *symbol = dlsym(lib, name);
    memcpy(slot, &symbol, sizeof symbol);
    return symbol != NULL;
}

static int nvml_symbols(nvml_api *api)
{
    static const char *const pcie[4] = {
        "nvmlDeviceGetMaxPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkWidth",
        "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkWidth"};
    void *l = api->lib;
#if NVML_HAS_P2P
    (void)find_symbol(l, "nvmlDeviceGetNvLinkRemoteDeviceType", &api->remote_type);
    (void)find_symbol(l, "nvmlDeviceGetP2PStatus", &api->p2p_status);
#endif
    int ok = find_symbol(l, "nvmlInit_v2", &api->init) &&
             find_symbol(l, "nvmlShutdown", &api->shutdown) &&
             find_symbol(l, "nvmlErrorString", &api->error_string) &&
             find_symbol(l, "nvmlDeviceGetHandleByPciBusId_v2", &api->by_bus_id) &&
             find_symbol(l, "nvmlDeviceGetNvLinkState", &api->link_state) &&
             find_symbol(l, "nvmlDeviceGetNvLinkVersion", &api->link_version) &&
             find_symbol(l, "nvmlDeviceGetNvLinkRemotePciInfo_v2", &api->remote_pci);
    for (int i = 0; ok && i < 4; i++)
        ok = find_symbol(l, pcie[i], &api->pcie[i]);
    return ok;
}

static int nvml_open(nvml_api *api, char *why, size_t why_len)
{
    nvmlReturn_t rc = NVML_SUCCESS;
    memset(api, 0, sizeof *api);
    api->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (api->lib == NULL) {
        const char *err = dlerror();
        snprintf(why, why_len, "unknown: dlopen(libnvidia-ml.so.1) failed: %s",
                 err ? err : "no reason given");
        return 0;
    }
    if (!nvml_symbols(api))
        snprintf(why, why_len, "unknown: libnvidia-ml.so.1 lacks a function used here");
    else if ((rc = api->init()) != NVML_SUCCESS)
        snprintf(why, why_len, "unknown: nvmlInit failed: %s", api->error_string(rc));
    else {
        snprintf(why, why_len, "ok");
        return 1;
    }
    dlclose(api->lib);
    api->lib = NULL;
    return 0;
}

/* Which of our GPUs sits at this PCI address (-1: none, e.g. a switch). */
static int gpu_at(const lab_links *links, const nvmlPciInfo_t *pci)
{
    for (int g = 0; g < links->n; g++) {
        unsigned domain = 0, bus = 0, device = 0, function = 0;
        if (sscanf(links->gpu[g].pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &device,
                   &function) == 4 &&
            domain == pci->domain && bus == pci->bus && device == pci->device)
            return g;
    }
    return -1;
}

/* Where one active link of GPU g goes: a GPU we know (direct[g*n+peer]++), a GPU we cannot
 * match (hidden, or renumbered in a VM), or an NVSwitch port, which reaches every GPU on the
 * switch. A CPU link carries no GPU traffic. */
static void count_link(const nvml_api *api, lab_links *links, int g, nvmlDevice_t dev,
                       unsigned link, int *direct)
{
    int far_is_gpu = -1, peer = -1; /* -1 unknown, 0 no, 1 yes */
    nvmlPciInfo_t pci;
#if NVML_HAS_P2P
    nvmlIntNvLinkDeviceType_t type;
    if (api->remote_type && api->remote_type(dev, link, &type) == NVML_SUCCESS) {
        if (type == NVML_NVLINK_DEVICE_TYPE_IBMNPU)
            return;
        far_is_gpu = type == NVML_NVLINK_DEVICE_TYPE_GPU;
    }
#endif
    if (far_is_gpu != 0 && api->remote_pci(dev, link, &pci) == NVML_SUCCESS)
        peer = gpu_at(links, &pci);
    if (peer >= 0 && peer != g)
        direct[g * links->n + peer]++;
    else if (far_is_gpu == 1)
        links->gpu[g].hidden_links++;
    else
        links->gpu[g].switch_links++;
}

static void query_gpu(const nvml_api *api, lab_links *links, int g, nvmlDevice_t dev,
                      int *direct)
{
    lab_gpu_link *gpu = &links->gpu[g];
    unsigned value = 0;
    int *field[4];
    gpu->nvml = 1;
    for (unsigned link = 0; link < NVML_NVLINK_MAX_LINKS; link++) {
        nvmlEnableState_t active = NVML_FEATURE_DISABLED;
        if (api->link_state(dev, link, &active) != NVML_SUCCESS || active != NVML_FEATURE_ENABLED)
            continue;
        if (gpu->nvlink_active++ == 0)
            (void)api->link_version(dev, link, &gpu->nvlink_raw);
        count_link(api, links, g, dev, link, direct);
    }
    pcie_fields(gpu, field);
    for (int i = 0; i < 4; i++)
        if (api->pcie[i](dev, &value) == NVML_SUCCESS)
            *field[i] = (int)value;
    if (gpu->pcie_gen > 0)
        snprintf(gpu->pcie_from, sizeof gpu->pcie_from, "nvml");
}

/* Every GPU's links, and nvlink_ok[a*n+b]: NVML's word on NVLink P2P. */
static void query_nvml(lab_links *links, int *direct, int *nvlink_ok)
{
    nvml_api api;
    if (!nvml_open(&api, links->nvml_status, sizeof links->nvml_status))
        return;
    const int n = links->n;
    nvmlDevice_t *dev = calloc((size_t)n, sizeof *dev);
    int *found = calloc((size_t)n, sizeof *found);
    for (int g = 0; dev && found && g < n; g++) {
        found[g] = api.by_bus_id(links->gpu[g].pci_bus_id, &dev[g]) == NVML_SUCCESS;
        if (found[g])
            query_gpu(&api, links, g, dev[g], direct);
    }
#if NVML_HAS_P2P
    for (int a = 0; dev && found && a < n; a++)
        for (int b = 0; b < n; b++) {
            nvmlGpuP2PStatus_t status;
            if (a != b && found[a] && found[b] && api.p2p_status &&
                api.p2p_status(dev[a], dev[b], NVML_P2P_CAPS_INDEX_NVLINK, &status) ==
                    NVML_SUCCESS)
                nvlink_ok[a * n + b] = status == NVML_P2P_STATUS_OK;
        }
#endif
    free(dev);
    free(found);
    (void)api.shutdown();
    dlclose(api.lib);
}

#else /* !LAB_HAVE_NVML */

static void query_nvml(lab_links *links, int *direct, int *nvlink_ok)
{
    (void)direct;
    (void)nvlink_ok;
    snprintf(links->nvml_status, sizeof links->nvml_status,
             "unknown: built without nvml.h (install the CUDA toolkit's NVML headers and "
             "rebuild); PCIe from sysfs");
}

#endif /* LAB_HAVE_NVML */

static int smaller(int x, int y)
{
    return x < y ? x : y;
}

/* The path and peak of a -> b from what the GPUs said. */
static void fill_pair(lab_links *links, int a, int b, const int *direct, const int *nvlink_ok)
{
    const int n = links->n;
    const lab_gpu_link *ga = &links->gpu[a], *gb = &links->gpu[b];
    lab_pair_link *l = &links->pair[a * n + b];
    snprintf(l->path, sizeof l->path, "unknown");
    l->p2p = lab_can_access_peer(a, b) && lab_can_access_peer(b, a);
    l->nvml_nvlink = nvlink_ok[a * n + b];
    l->nvlinks = direct[a * n + b] + smaller(ga->switch_links, gb->switch_links);
    if (l->nvlinks == 0 && l->nvml_nvlink == 1) {
        /* NVML says NVLink, but not where the links go (e.g. in a VM). */
        const int hidden = smaller(ga->hidden_links, gb->hidden_links);
        l->nvlinks = hidden > 0 ? hidden : smaller(ga->nvlink_active, gb->nvlink_active);
    }
    if (ga->host_peak_gbps > 0.0 && gb->host_peak_gbps > 0.0)
        l->pcie_peak_gbps = ga->host_peak_gbps < gb->host_peak_gbps ? ga->host_peak_gbps
                                                                    : gb->host_peak_gbps;
    if (l->nvlinks > 0) {
        snprintf(l->path, sizeof l->path, "nvlink");
        if (ga->nvlink_gen == gb->nvlink_gen)
            l->rate_gbps = lab_nvlink_rate(ga->nvlink_gen);
        l->peak_gbps = l->rate_gbps * (double)l->nvlinks;
    } else if (ga->nvml && gb->nvml) {
        snprintf(l->path, sizeof l->path, "pcie"); /* NVML saw no NVLink between them */
        l->peak_gbps = l->pcie_peak_gbps;
    }
}

static cudaError_t describe_gpu(lab_gpu_link *g, int dev)
{
    struct cudaDeviceProp prop;
    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    g->cc_major = prop.major;
    g->cc_minor = prop.minor;
    return cudaDeviceGetPCIBusId(g->pci_bus_id, (int)sizeof g->pci_bus_id, dev);
}

cudaError_t lab_links_query(lab_links *links, int n)
{
    const size_t gpus = n > 0 ? (size_t)n : 0, nn = gpus * gpus;
    memset(links, 0, sizeof *links);
    links->gpu = calloc(gpus ? gpus : 1, sizeof *links->gpu);
    links->pair = calloc(nn ? nn : 1, sizeof *links->pair);
    int *direct = calloc(nn ? nn : 1, sizeof *direct);
    int *nvlink_ok = calloc(nn ? nn : 1, sizeof *nvlink_ok);
    cudaError_t err = links->gpu && links->pair && direct && nvlink_ok ? cudaSuccess
                                                                        : cudaErrorMemoryAllocation;
    links->n = n;
    for (int g = 0; err == cudaSuccess && g < n; g++)
        err = describe_gpu(&links->gpu[g], g);
    for (size_t i = 0; err == cudaSuccess && i < nn; i++)
        nvlink_ok[i] = -1;
    if (err == cudaSuccess)
        query_nvml(links, direct, nvlink_ok);
    for (int g = 0; err == cudaSuccess && g < n; g++) {
        lab_gpu_link *gpu = &links->gpu[g];
        sysfs_pcie(gpu);
        if (gpu->nvlink_active > 0)
            gpu->nvlink_gen = decode_nvlink_version(gpu->nvlink_raw, gpu->cc_major);
        gpu->host_peak_gbps = lab_pcie_lane_rate(gpu->pcie_gen) * (double)gpu->pcie_width;
    }
    for (int a = 0; err == cudaSuccess && a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b)
                fill_pair(links, a, b, direct, nvlink_ok);
    free(direct);
    free(nvlink_ok);
    if (err != cudaSuccess)
        lab_links_free(links);
    return err;
}

void lab_links_free(lab_links *links)
{
    free(links->gpu);
    free(links->pair);
    memset(links, 0, sizeof *links);
}

const lab_pair_link *lab_links_pair(const lab_links *links, int a, int b)
{
    if (a < 0 || b < 0 || a >= links->n || b >= links->n || a == b)
        return NULL;
    return &links->pair[a * links->n + b];
}

/* "0-7,16-23" -> the set; 0 when at least one CPU was read. */
static int parse_cpulist(const char *text, cpu_set_t *set)
{
    int any = 0;
    CPU_ZERO(set);
    while (*text && *text != '\n') {
        char *end = NULL;
        long lo = strtol(text, &end, 10), hi = lo;
        if (end == text)
            return -1;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && c < CPU_SETSIZE; c++, any = 1)
            CPU_SET((int)c, set);
        text = *end == ',' ? end + 1 : end;
    }
    return any ? 0 : -1;
}

int lab_link_bind_near_cpus(int dev, char *why, size_t why_len)
{
    char bus[32], line[1024];
    cpu_set_t set, allowed;
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(why, why_len, "GPU %d has no PCI id", dev);
        return -1;
    }
    if (sysfs_read(bus, "local_cpulist", line, sizeof line) != 0 ||
        parse_cpulist(line, &set) != 0) {
        snprintf(why, why_len, "sysfs does not say which CPUs are near GPU %d", dev);
        return -1;
    }
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        CPU_AND(&set, &set, &allowed); /* only CPUs this process may use */
    if (CPU_COUNT(&set) == 0) {
        snprintf(why, why_len, "none of the CPUs near GPU %d (%s) is allowed here", dev, line);
        return -1;
    }
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        snprintf(why, why_len, "sched_setaffinity refused the CPUs %s", line);
        return -1;
    }
    return 0;
}
