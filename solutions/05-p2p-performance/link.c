/**
 * @file link.c
 * @brief The link's theoretical peak: datasheet arithmetic, and NVML asked
 *        at run time about every GPU's NVLinks and PCIe link.
 *
 * NVML is opened with dlopen("libnvidia-ml.so.1") when the program runs,
 * never linked: the binary must start on machines without a driver (the
 * CI machine), where it exits 77 before any of this. Its types come from
 * nvml.h when that header exists at build time (`__has_include`); without
 * the header, every peak is reported as unknown and no percentage of peak
 * is printed.
 *
 * Where the per-link rate comes from: NVIDIA's datasheets give one number
 * per GPU, the total NVLink bandwidth over all links counting both
 * directions (A100: 600 GB/s over 12 links; H100 and H200: 900 GB/s over
 * 18 links). One link in one direction is that total / links / 2: 25 GB/s
 * for NVLink 2, 3 and 4, 50 GB/s for NVLink 5.
 */
#include "p2p_perf.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<nvml.h>)
#include <nvml.h>
/** 1: nvml.h was found at build time, NVML's types are known. */
#define LAB05_HAVE_NVML 1
#endif
#endif
#ifndef LAB05_HAVE_NVML
/** 0: built without nvml.h; every peak is unknown. */
#define LAB05_HAVE_NVML 0
#endif
#if LAB05_HAVE_NVML && !defined(NVML_NVLINK_MAX_LINKS)
#define NVML_NVLINK_MAX_LINKS 18
#endif

/** One datasheet figure: a GPU's total NVLink bandwidth, both directions. */
typedef struct nvlink_sheet {
    int gen;            /**< NVLink generation */
    const char *product; /**< the GPU the datasheet is for */
    int links;          /**< NVLinks per GPU */
    double total_gbps;  /**< all links, both directions counted */
    int cc_major;       /**< compute capability of that GPU generation */
    int cc_minor;       /**< (used to tell the generation of this machine's links) */
} nvlink_sheet;

static const nvlink_sheet sheets[] = {
    {1, "P100", 4, 160.0, 6, 0},
    {2, "V100", 6, 300.0, 7, 0},
    {3, "A100", 12, 600.0, 8, 0},
    {4, "H100/H200", 18, 900.0, 9, 0},
    {5, "B200", 18, 1800.0, 10, 0},
};
/** Number of datasheet rows. */
#define SHEET_COUNT ((int)(sizeof sheets / sizeof sheets[0]))

int lab05_nvlink_datasheet(int gen, const char **product, int *links, double *total_gbps)
{
    for (int i = 0; i < SHEET_COUNT; i++)
        if (sheets[i].gen == gen) {
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

/** PCIe: transfer rate per lane (GT/s) and the share left after line coding. */
typedef struct pcie_gen_info {
    int gen;           /**< generation */
    double gt_per_s;   /**< giga-transfers per second per lane */
    double coding;     /**< payload share: 8b/10b, 128b/130b, FLIT 242/256 */
} pcie_gen_info;

static const pcie_gen_info pcie_gens[] = {
    {1, 2.5, 8.0 / 10.0},    {2, 5.0, 8.0 / 10.0},    {3, 8.0, 128.0 / 130.0},
    {4, 16.0, 128.0 / 130.0}, {5, 32.0, 128.0 / 130.0}, {6, 64.0, 242.0 / 256.0},
};

double lab05_nvlink_rate(int gen)
{
    double total = 0.0;
    int links = 0;
    if (!lab05_nvlink_datasheet(gen, NULL, &links, &total))
        return 0.0;
#ifndef LAB_SKELETON
    /* The datasheet counts every link and both directions. */
    return total / (double)links / 2.0;
#else
    LAB_TODO("05.1");
#endif
}

double lab05_pcie_lane_rate(int gen)
{
    for (size_t i = 0; i < sizeof pcie_gens / sizeof pcie_gens[0]; i++)
        if (pcie_gens[i].gen == gen) {
#ifndef LAB_SKELETON
            /* One transfer carries one bit per lane; 8 bits to the byte. */
            return pcie_gens[i].gt_per_s * pcie_gens[i].coding / 8.0;
#else
            LAB_TODO("05.1");
#endif
        }
    return 0.0;
}

/* The NVLink generation of a GPU from its architecture (the datasheet row
 * with the same compute capability), 0 when this lab has none. */
static int gen_of_arch(int cc_major, int cc_minor)
{
    for (int i = 0; i < SHEET_COUNT; i++)
        if (sheets[i].cc_major == cc_major && sheets[i].cc_minor == cc_minor)
            return sheets[i].gen;
    return 0;
}

/* nvmlDeviceGetNvLinkVersion has answered in two ways over the driver
 * releases: the plain generation (4 for Hopper) or an nvmlNvlinkVersion_t
 * code (NVML_NVLINK_VERSION_4_0 is 6). The GPU's architecture settles it
 * when this lab knows it; the raw answer is reported beside it. */
static int decode_nvlink_version(unsigned raw, int arch_gen)
{
    static const int from_code[] = {0, 1, 2, 2, 3, 3, 4, 5, 6};
    if (arch_gen)
        return arch_gen;
    if (raw >= 1 && raw <= 5)
        return (int)raw;
    return raw < sizeof from_code / sizeof from_code[0] ? from_code[raw] : 0;
}

#if LAB05_HAVE_NVML

/** The NVML functions this lab calls, looked up with dlsym. */
typedef struct nvml_api {
    void *lib;
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*shutdown)(void);
    const char *(*error_string)(nvmlReturn_t);
    nvmlReturn_t (*by_bus_id)(const char *, nvmlDevice_t *);
    nvmlReturn_t (*link_state)(nvmlDevice_t, unsigned int, nvmlEnableState_t *);
    nvmlReturn_t (*link_version)(nvmlDevice_t, unsigned int, unsigned int *);
    nvmlReturn_t (*remote_pci)(nvmlDevice_t, unsigned int, nvmlPciInfo_t *);
#if defined(NVML_API_VERSION) && NVML_API_VERSION >= 11
    nvmlReturn_t (*remote_type)(nvmlDevice_t, unsigned int, nvmlIntNvLinkDeviceType_t *);
    nvmlReturn_t (*p2p_status)(nvmlDevice_t, nvmlDevice_t, nvmlGpuP2PCapsIndex_t,
                               nvmlGpuP2PStatus_t *);
#endif
    nvmlReturn_t (*pcie_gen_max)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*pcie_width_max)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*pcie_gen_now)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*pcie_width_now)(nvmlDevice_t, unsigned int *);
} nvml_api;

static int find_symbol(void *lib, const char *name, void *slot)
{
    void *symbol = dlsym(lib, name);
    memcpy(slot, &symbol, sizeof symbol);
    return symbol != NULL;
}

static int nvml_open(nvml_api *api, char *why, size_t why_len)
{
    memset(api, 0, sizeof *api);
    api->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (api->lib == NULL) {
        const char *err = dlerror();
        snprintf(why, why_len, "unknown: dlopen(libnvidia-ml.so.1) failed: %s",
                 err ? err : "no reason given");
        return 0;
    }
    int ok = find_symbol(api->lib, "nvmlInit_v2", &api->init) &&
             find_symbol(api->lib, "nvmlShutdown", &api->shutdown) &&
             find_symbol(api->lib, "nvmlErrorString", &api->error_string) &&
             find_symbol(api->lib, "nvmlDeviceGetHandleByPciBusId_v2", &api->by_bus_id) &&
             find_symbol(api->lib, "nvmlDeviceGetNvLinkState", &api->link_state) &&
             find_symbol(api->lib, "nvmlDeviceGetNvLinkVersion", &api->link_version) &&
             find_symbol(api->lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2", &api->remote_pci) &&
             find_symbol(api->lib, "nvmlDeviceGetMaxPcieLinkGeneration", &api->pcie_gen_max) &&
             find_symbol(api->lib, "nvmlDeviceGetMaxPcieLinkWidth", &api->pcie_width_max) &&
             find_symbol(api->lib, "nvmlDeviceGetCurrPcieLinkGeneration", &api->pcie_gen_now) &&
             find_symbol(api->lib, "nvmlDeviceGetCurrPcieLinkWidth", &api->pcie_width_now);
    if (!ok) {
        snprintf(why, why_len, "unknown: libnvidia-ml.so.1 lacks a function this lab needs");
        dlclose(api->lib);
        api->lib = NULL;
        return 0;
    }
#if defined(NVML_API_VERSION) && NVML_API_VERSION >= 11
    /* Optional: older drivers do not have them. */
    (void)find_symbol(api->lib, "nvmlDeviceGetNvLinkRemoteDeviceType", &api->remote_type);
    (void)find_symbol(api->lib, "nvmlDeviceGetP2PStatus", &api->p2p_status);
#endif
    nvmlReturn_t rc = api->init();
    if (rc != NVML_SUCCESS) {
        snprintf(why, why_len, "unknown: nvmlInit failed: %s", api->error_string(rc));
        dlclose(api->lib);
        api->lib = NULL;
        return 0;
    }
    snprintf(why, why_len, "ok");
    return 1;
}

static void nvml_close(nvml_api *api)
{
    if (api->lib) {
        (void)api->shutdown();
        dlclose(api->lib);
        api->lib = NULL;
    }
}

/* Which of our GPUs sits at this PCI address (-1: none, e.g. a switch). */
static int gpu_at(const lab05_ctx *ctx, const nvmlPciInfo_t *pci)
{
    for (int g = 0; g < ctx->n; g++) {
        unsigned domain = 0, bus = 0, device = 0, function = 0;
        if (sscanf(ctx->gpu[g].pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4)
            continue;
        if (domain == pci->domain && bus == pci->bus && device == pci->device)
            return g;
    }
    return -1;
}

/* One GPU's links; direct[g * n + peer] counts links that end at that peer. */
static void query_gpu(const nvml_api *api, lab05_ctx *ctx, int g, nvmlDevice_t dev, int *direct)
{
    lab05_gpu *gpu = &ctx->gpu[g];
    gpu->nvml = 1;
    for (unsigned link = 0; link < NVML_NVLINK_MAX_LINKS; link++) {
        nvmlEnableState_t active = NVML_FEATURE_DISABLED;
        if (api->link_state(dev, link, &active) != NVML_SUCCESS || active != NVML_FEATURE_ENABLED)
            continue;
        if (gpu->nvlink_active++ == 0)
            (void)api->link_version(dev, link, &gpu->nvlink_raw);
        int far_is_gpu = -1; /* -1 unknown, 0 no, 1 yes */
#if defined(NVML_API_VERSION) && NVML_API_VERSION >= 11
        nvmlIntNvLinkDeviceType_t type;
        if (api->remote_type && api->remote_type(dev, link, &type) == NVML_SUCCESS) {
            if (type == NVML_NVLINK_DEVICE_TYPE_IBMNPU)
                continue; /* a CPU link carries no GPU-to-GPU traffic */
            far_is_gpu = type == NVML_NVLINK_DEVICE_TYPE_GPU;
        }
#endif
        nvmlPciInfo_t pci;
        int peer = -1;
        if (far_is_gpu != 0 && api->remote_pci(dev, link, &pci) == NVML_SUCCESS)
            peer = gpu_at(ctx, &pci);
        if (peer >= 0 && peer != g)
            direct[g * ctx->n + peer]++;
        else if (far_is_gpu == 1)
            gpu->hidden_links++; /* a GPU we cannot match (hidden, or renumbered in a VM) */
        else
            gpu->switch_links++; /* an NVSwitch port: reaches every GPU on the switch */
    }
    unsigned value = 0;
    if (api->pcie_gen_max(dev, &value) == NVML_SUCCESS)
        gpu->pcie_gen = (int)value;
    if (api->pcie_width_max(dev, &value) == NVML_SUCCESS)
        gpu->pcie_width = (int)value;
    if (api->pcie_gen_now(dev, &value) == NVML_SUCCESS)
        gpu->pcie_gen_now = (int)value;
    if (api->pcie_width_now(dev, &value) == NVML_SUCCESS)
        gpu->pcie_width_now = (int)value;
}

/* Every GPU's links, and nvlink_ok[a * n + b]: 1 when NVML says the pair
 * talks over NVLink, 0 when it says no, -1 when it cannot tell. */
static void query_nvml(const nvml_api *api, lab05_ctx *ctx, int *direct, int *nvlink_ok)
{
    const int n = ctx->n;
    nvmlDevice_t *dev = calloc((size_t)n, sizeof *dev);
    int *found = calloc((size_t)n, sizeof *found);
    if (dev == NULL || found == NULL) {
        fprintf(stderr, "%s: out of memory\n", ctx->opt.prog);
        exit(LAB_EXIT_FAIL);
    }
    for (int g = 0; g < n; g++) {
        found[g] = api->by_bus_id(ctx->gpu[g].pci_bus_id, &dev[g]) == NVML_SUCCESS;
        if (found[g])
            query_gpu(api, ctx, g, dev[g], direct);
    }
#if defined(NVML_API_VERSION) && NVML_API_VERSION >= 11
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            nvmlGpuP2PStatus_t status;
            if (a != b && found[a] && found[b] && api->p2p_status &&
                api->p2p_status(dev[a], dev[b], NVML_P2P_CAPS_INDEX_NVLINK, &status) == NVML_SUCCESS)
                nvlink_ok[a * n + b] = status == NVML_P2P_STATUS_OK;
        }
#endif
    free(dev);
    free(found);
}

#endif /* LAB05_HAVE_NVML */

static double pcie_peak(const lab05_gpu *gpu)
{
    if (gpu->pcie_gen <= 0 || gpu->pcie_width <= 0)
        return 0.0;
    return lab05_pcie_lane_rate(gpu->pcie_gen) * (double)gpu->pcie_width;
}

void lab05_query_links(lab05_ctx *ctx)
{
    const int n = ctx->n;
    int *direct = calloc((size_t)n * (size_t)n, sizeof *direct);
    int *nvlink_ok = malloc((size_t)n * (size_t)n * sizeof *nvlink_ok);
    if (direct == NULL || nvlink_ok == NULL) {
        fprintf(stderr, "%s: out of memory\n", ctx->opt.prog);
        exit(LAB_EXIT_FAIL);
    }
    for (int i = 0; i < n * n; i++)
        nvlink_ok[i] = -1;
#if LAB05_HAVE_NVML
    nvml_api api;
    if (nvml_open(&api, ctx->nvml_status, sizeof ctx->nvml_status)) {
        query_nvml(&api, ctx, direct, nvlink_ok);
        nvml_close(&api);
    }
#else
    snprintf(ctx->nvml_status, sizeof ctx->nvml_status,
             "unknown: built without nvml.h (install the CUDA toolkit's NVML headers and rebuild)");
#endif
    for (int g = 0; g < n; g++) {
        lab05_gpu *gpu = &ctx->gpu[g];
        if (gpu->nvlink_active > 0)
            gpu->nvlink_gen = decode_nvlink_version(gpu->nvlink_raw,
                                                    gen_of_arch(gpu->cc_major, gpu->cc_minor));
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            lab05_link *l = &ctx->link[a * n + b];
            const lab05_gpu *ga = &ctx->gpu[a], *gb = &ctx->gpu[b];
            snprintf(l->path, sizeof l->path, "unknown");
            if (a == b)
                continue;
            l->p2p = lab_can_access_peer(a, b) && lab_can_access_peer(b, a);
            int sw = ga->switch_links < gb->switch_links ? ga->switch_links : gb->switch_links;
            l->nvlinks = direct[a * n + b] + sw;
            if (l->nvlinks == 0 && nvlink_ok[a * n + b] == 1) {
                /* NVML says NVLink but we could not tell where the links
                 * go (e.g. in a VM): count those to GPUs we cannot match,
                 * or else every active link. */
                int hidden = ga->hidden_links < gb->hidden_links ? ga->hidden_links
                                                                 : gb->hidden_links;
                int active = ga->nvlink_active < gb->nvlink_active ? ga->nvlink_active
                                                                   : gb->nvlink_active;
                l->nvlinks = hidden > 0 ? hidden : active;
            }
            l->nvml_nvlink = nvlink_ok[a * n + b];
            double pa = pcie_peak(ga), pb = pcie_peak(gb);
            l->pcie_peak_gbps = (pa > 0 && pb > 0) ? (pa < pb ? pa : pb) : 0.0;
            if (l->nvlinks > 0) {
                snprintf(l->path, sizeof l->path, "nvlink");
                if (ga->nvlink_gen == gb->nvlink_gen)
                    l->rate_gbps = lab05_nvlink_rate(ga->nvlink_gen);
                l->peak_gbps = l->rate_gbps * (double)l->nvlinks;
            } else if (ga->nvml && gb->nvml) {
                snprintf(l->path, sizeof l->path, "pcie");
                l->peak_gbps = l->pcie_peak_gbps;
            }
        }
    free(direct);
    free(nvlink_ok);
}

static void add_number(lab05_ctx *ctx, const char *variant, int src, int dst, double value,
                       const char *detail)
{
    char text[48];
    snprintf(text, sizeof text, "%g", value);
    lab05_add_value(ctx, "link", variant, src, dst, text, detail);
}

void lab05_run_link(lab05_ctx *ctx)
{
    const int n = ctx->n;
    lab05_add_value(ctx, "link", "nvml", -1, -1, strcmp(ctx->nvml_status, "ok") == 0 ? "ok"
                                                                                    : "unknown",
                    ctx->nvml_status);
    for (int gen = 1; gen <= 5; gen++) {
        const char *product = NULL;
        int links = 0;
        double total = 0.0;
        if (!lab05_nvlink_datasheet(gen, &product, &links, &total))
            continue;
        char variant[32], detail[200];
        snprintf(variant, sizeof variant, "datasheet_nvlink%d", gen);
        snprintf(detail, sizeof detail,
                 "NVLink %d: NVIDIA's %s datasheet gives %g GB/s over %d links counting both "
                 "directions: %g / %d / 2 per link and direction",
                 gen, product, total, links, total, links);
        add_number(ctx, variant, -1, -1, lab05_nvlink_rate(gen), detail);
    }
    for (int gen = 1; gen <= 6; gen++) {
        char variant[32], detail[160];
        snprintf(variant, sizeof variant, "datasheet_pcie%d", gen);
        snprintf(detail, sizeof detail, "PCIe gen %d: GB/s per lane and direction after line coding",
                 gen);
        add_number(ctx, variant, -1, -1, lab05_pcie_lane_rate(gen), detail);
    }
    for (int g = 0; g < n; g++) {
        const lab05_gpu *gpu = &ctx->gpu[g];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", gpu->cc_major, gpu->cc_minor);
        lab05_add_value(ctx, "link", "name", g, -1, gpu->name, gpu->pci_bus_id);
        lab05_add_value(ctx, "link", "compute_capability", g, -1, cc, "");
        if (!gpu->nvml)
            continue;
        char detail[120];
        snprintf(detail, sizeof detail, "nvmlDeviceGetNvLinkVersion answered %u", gpu->nvlink_raw);
        add_number(ctx, "nvlink_gen", g, -1, gpu->nvlink_gen, detail);
        add_number(ctx, "nvlink_active", g, -1, gpu->nvlink_active, "");
        add_number(ctx, "nvlink_switch_links", g, -1, gpu->switch_links,
                   "active links whose far end is not a GPU");
        add_number(ctx, "pcie_gen", g, -1, gpu->pcie_gen, "the most the link can reach");
        add_number(ctx, "pcie_width", g, -1, gpu->pcie_width, "the most the link can reach");
        add_number(ctx, "pcie_gen_now", g, -1, gpu->pcie_gen_now,
                   "at the query (an idle link trains down)");
        add_number(ctx, "pcie_width_now", g, -1, gpu->pcie_width_now, "at the query");
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (a == b)
                continue;
            const lab05_link *l = &ctx->link[a * n + b];
            lab05_add_value(ctx, "link", "path", a, b, l->path, "");
            add_number(ctx, "p2p", a, b, l->p2p, "cudaDeviceCanAccessPeer both ways");
            add_number(ctx, "nvlinks", a, b, l->nvlinks, "links that carry this pair's traffic");
            add_number(ctx, "nvml_p2p_nvlink", a, b, l->nvml_nvlink,
                       "nvmlDeviceGetP2PStatus over NVLink: 1 ok; 0 no; -1 unknown");
            add_number(ctx, "rate_gbps", a, b, l->rate_gbps, "per link and direction; 0 unknown");
            char detail[256];
            if (l->peak_gbps > 0 && l->nvlinks > 0)
                snprintf(detail, sizeof detail, "%d links x %g GB/s per direction", l->nvlinks,
                         l->rate_gbps);
            else if (l->peak_gbps > 0)
                snprintf(detail, sizeof detail, "PCIe gen %d x%d (the smaller of the two GPUs)",
                         ctx->gpu[a].pcie_gen, ctx->gpu[a].pcie_width);
            else
                snprintf(detail, sizeof detail, "%s", ctx->nvml_status);
            lab05_row *row = lab05_add_row(ctx, "link", "peak_gbps");
            row->src = a;
            row->dst = b;
            row->peak_gbps = l->peak_gbps;
            snprintf(row->value, sizeof row->value, "%g", l->peak_gbps);
            snprintf(row->detail, sizeof row->detail, "%s", detail);
            add_number(ctx, "pcie_peak_gbps", a, b, l->pcie_peak_gbps,
                       "the host path (peer access off) is bounded by PCIe");
        }
}
