/**
 * @file stand_in.h
 * @brief A stand-in for the CUDA runtime, for unit tests that need GPUs which behave the same on
 *        every machine, with or without a GPU: a small model of a machine of a few GPUs, with a
 *        current device, a last error, peer access per direction, memory regions of a chosen
 *        type and owner, and a failure planted in one call.
 *
 * A driver that includes this file (tests/unit/labNN-stand-in.c) defines __wrap_NAME for each
 * runtime call below, and the Makefile links it with ld --wrap=NAME: the student's objects then
 * call these. While stand_in.on is 0 each call goes to the runtime (__real_NAME); stand_in_start()
 * turns the model on. The model answers as the runtime does where the course has recorded it
 * (tests/fixtures: flags 1 before anything else is cudaErrorInvalidValue, a GPU enabling access
 * to itself cudaErrorPeerAccessUnsupported, disabling it cudaErrorPeerAccessNotEnabled).
 * Pointers it does not know are unregistered host memory; copies between regions it knows are
 * made with memcpy. Every call is logged (name and arguments) for the tests to read.
 *
 * A driver defines _DEFAULT_SOURCE before its first #include (unit_groups.h).
 */
#ifndef STAND_IN_H
#define STAND_IN_H

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/** The most GPUs the model has. */
#define STAND_IN_GPUS 4
/** The most calls the log keeps (later ones are counted, not kept). */
#define STAND_IN_LOG 64
/** The most memory regions it knows. */
#define STAND_IN_REGIONS 8

/** One logged call: its name and up to six arguments, as integers. */
typedef struct stand_in_call {
    const char *name;
    uintptr_t arg[6];
} stand_in_call;

/** A memory region the model knows: where it is, its type and its device. */
typedef struct stand_in_region {
    const void *base;
    size_t bytes;
    enum cudaMemoryType type;
    int device;
} stand_in_region;

/** The model's whole state. */
typedef struct stand_in_state {
    int on;                                             /**< the model answers */
    int gpus;                                           /**< devices it has */
    int current;                                        /**< the current device */
    cudaError_t last;                                   /**< the last error */
    unsigned char access[STAND_IN_GPUS][STAND_IN_GPUS]; /**< peer access on, dev -> peer */
    const char *fail_call;                              /**< the call a failure is planted in */
    int fail_nth;                                       /**< which of its calls fails (1: first) */
    cudaError_t fail_err;                               /**< the error it returns */
    int fail_seen;                                      /**< its calls so far */
    stand_in_call log[STAND_IN_LOG];                    /**< the calls, in order */
    int calls;                                          /**< how many were made */
    stand_in_region region[STAND_IN_REGIONS];           /**< the memory it knows */
    int regions;                                        /**< how many */
} stand_in_state;

static stand_in_state stand_in;

/** @brief Turn the model on: @p gpus GPUs, GPU @p current current, no access, nothing
 *         pending, nothing planted, an empty log, no memory. */
static inline void stand_in_start(int gpus, int current)
{
    memset(&stand_in, 0, sizeof stand_in);
    stand_in.on = 1;
    stand_in.gpus = gpus;
    stand_in.current = current;
}

/** @brief Give the calls back to the runtime. */
static inline void stand_in_stop(void)
{
    stand_in.on = 0;
}

/** @brief Plant a failure: the @p nth call (1: the first) of @p call returns @p err. */
static inline void stand_in_fail(const char *call, int nth, cudaError_t err)
{
    stand_in.fail_call = call;
    stand_in.fail_nth = nth;
    stand_in.fail_err = err;
    stand_in.fail_seen = 0;
}

/** @brief Make @p bytes at @p base memory of @p type owned by @p device. */
static inline void stand_in_memory(const void *base, size_t bytes, enum cudaMemoryType type,
                                   int device)
{
    if (stand_in.regions < STAND_IN_REGIONS)
        stand_in.region[stand_in.regions++] = (stand_in_region){base, bytes, type, device};
}

/** @brief How many times @p name was called since stand_in_start(). */
static inline int stand_in_count(const char *name)
{
    int n = 0;
    for (int i = 0; i < stand_in.calls && i < STAND_IN_LOG; i++)
        n += strcmp(stand_in.log[i].name, name) == 0;
    return n;
}

/** @brief The @p k-th logged call of @p name (0: the first), or NULL. */
static inline const stand_in_call *stand_in_find(const char *name, int k)
{
    for (int i = 0; i < stand_in.calls && i < STAND_IN_LOG; i++)
        if (strcmp(stand_in.log[i].name, name) == 0 && k-- == 0)
            return &stand_in.log[i];
    return NULL;
}

/** @brief The log as "name, name, ..." into @p text, for a failure's message. */
static inline const char *stand_in_calls(char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < stand_in.calls && i < STAND_IN_LOG && used < size; i++)
        used +=
            (size_t)snprintf(text + used, size - used, "%s%s", i ? ", " : "", stand_in.log[i].name);
    return stand_in.calls ? text : "no call";
}

/* Log a call; the planted failure's error when this is the call it is planted in, else
 * cudaSuccess. */
static inline cudaError_t stand_in_enter(const char *name, uintptr_t a0, uintptr_t a1, uintptr_t a2,
                                         uintptr_t a3, uintptr_t a4, uintptr_t a5)
{
    if (stand_in.calls < STAND_IN_LOG)
        stand_in.log[stand_in.calls] = (stand_in_call){name, {a0, a1, a2, a3, a4, a5}};
    stand_in.calls++;
    if (stand_in.fail_call == NULL || strcmp(stand_in.fail_call, name) != 0)
        return cudaSuccess;
    return ++stand_in.fail_seen == stand_in.fail_nth ? stand_in.fail_err : cudaSuccess;
}

/* A call's error: it becomes the last error, as the runtime's do. */
static inline cudaError_t stand_in_error(cudaError_t err)
{
    if (err != cudaSuccess)
        stand_in.last = err;
    return err;
}

static inline int stand_in_valid(int dev)
{
    return dev >= 0 && dev < stand_in.gpus;
}

/* The region that holds the @p bytes (at least one) at @p p, or NULL. */
static inline const stand_in_region *stand_in_region_of(const void *p, size_t bytes)
{
    const size_t need = bytes ? bytes : 1;
    for (int i = 0; i < stand_in.regions; i++) {
        const stand_in_region *r = &stand_in.region[i];
        uintptr_t at = (uintptr_t)p, base = (uintptr_t)r->base;
        if (at >= base && at - base < r->bytes && need <= r->bytes - (at - base))
            return r;
    }
    return NULL;
}

/* A copy between two regions the model knows, of the right devices (-1: any). */
static inline cudaError_t stand_in_copy(void *dst, int dst_dev, const void *src, int src_dev,
                                        size_t bytes)
{
    const stand_in_region *d = stand_in_region_of(dst, bytes), *s = stand_in_region_of(src, bytes);
    if (d == NULL || s == NULL || (dst_dev >= 0 && d->device != dst_dev) ||
        (src_dev >= 0 && s->device != src_dev))
        return stand_in_error(cudaErrorInvalidValue);
    memmove(dst, src, bytes);
    return cudaSuccess;
}

/* Declares __real_NAME and __wrap_NAME (the name as the header spells it after its macros). */
#define STAND_IN_CAT_(a, b) a##b
#define STAND_IN_CAT(a, b) STAND_IN_CAT_(a, b)
#define STAND_IN_DECLARE(name, params)                                                             \
    cudaError_t STAND_IN_CAT(__real_, name) params;                                                \
    cudaError_t STAND_IN_CAT(__wrap_, name) params
/* Enter the model (or go to the runtime with @p args), log, and return a planted failure. */
#define STAND_IN_ENTER(name, args, a0, a1, a2, a3, a4, a5)                                         \
    do {                                                                                           \
        if (!stand_in.on)                                                                          \
            return STAND_IN_CAT(__real_, name) args;                                               \
        cudaError_t planted_ =                                                                     \
            stand_in_enter(#name, (uintptr_t)(a0), (uintptr_t)(a1), (uintptr_t)(a2),               \
                           (uintptr_t)(a3), (uintptr_t)(a4), (uintptr_t)(a5));                     \
        if (planted_ != cudaSuccess)                                                               \
            return stand_in_error(planted_);                                                       \
    } while (0)

STAND_IN_DECLARE(cudaGetDeviceCount, (int *count));
cudaError_t STAND_IN_CAT(__wrap_, cudaGetDeviceCount)(int *count)
{
    STAND_IN_ENTER(cudaGetDeviceCount, (count), count, 0, 0, 0, 0, 0);
    *count = stand_in.gpus;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaGetDevice, (int *device));
cudaError_t STAND_IN_CAT(__wrap_, cudaGetDevice)(int *device)
{
    STAND_IN_ENTER(cudaGetDevice, (device), device, 0, 0, 0, 0, 0);
    *device = stand_in.current;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaSetDevice, (int device));
cudaError_t STAND_IN_CAT(__wrap_, cudaSetDevice)(int device)
{
    STAND_IN_ENTER(cudaSetDevice, (device), device, 0, 0, 0, 0, 0);
    if (!stand_in_valid(device))
        return stand_in_error(cudaErrorInvalidDevice);
    stand_in.current = device;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaGetLastError, (void));
cudaError_t STAND_IN_CAT(__wrap_, cudaGetLastError)(void)
{
    STAND_IN_ENTER(cudaGetLastError, (), 0, 0, 0, 0, 0, 0);
    cudaError_t last = stand_in.last;
    stand_in.last = cudaSuccess;
    return last;
}

STAND_IN_DECLARE(cudaPeekAtLastError, (void));
cudaError_t STAND_IN_CAT(__wrap_, cudaPeekAtLastError)(void)
{
    STAND_IN_ENTER(cudaPeekAtLastError, (), 0, 0, 0, 0, 0, 0);
    return stand_in.last;
}

/* GPU d: "Stand-in GPU d", compute capability 9.d, UVA, not integrated, bus 0x10 + d. */
STAND_IN_DECLARE(cudaGetDeviceProperties, (struct cudaDeviceProp * prop, int device));
cudaError_t STAND_IN_CAT(__wrap_, cudaGetDeviceProperties)(struct cudaDeviceProp *prop, int device)
{
    STAND_IN_ENTER(cudaGetDeviceProperties, (prop, device), prop, device, 0, 0, 0, 0);
    if (!stand_in_valid(device))
        return stand_in_error(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "Stand-in GPU %d", device);
    prop->major = 9;
    prop->minor = device;
    prop->unifiedAddressing = 1;
    prop->integrated = 0;
    prop->pciBusID = 0x10 + device;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaDeviceGetAttribute, (int *value, enum cudaDeviceAttr attr, int device));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceGetAttribute)(int *value, enum cudaDeviceAttr attr,
                                                          int device)
{
    STAND_IN_ENTER(cudaDeviceGetAttribute, (value, attr, device), value, attr, device, 0, 0, 0);
    if (!stand_in_valid(device))
        return stand_in_error(cudaErrorInvalidDevice);
    *value = attr == cudaDevAttrComputeCapabilityMajor   ? 9
             : attr == cudaDevAttrComputeCapabilityMinor ? device
             : attr == cudaDevAttrUnifiedAddressing      ? 1
             : attr == cudaDevAttrPciBusId               ? 0x10 + device
                                                         : 0;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaDeviceGetPCIBusId, (char *pciBusId, int len, int device));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceGetPCIBusId)(char *pciBusId, int len, int device)
{
    STAND_IN_ENTER(cudaDeviceGetPCIBusId, (pciBusId, len, device), pciBusId, len, device, 0, 0, 0);
    if (!stand_in_valid(device))
        return stand_in_error(cudaErrorInvalidDevice);
    if (len < 13)
        return stand_in_error(cudaErrorInvalidValue);
    snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", 0x10 + device);
    return cudaSuccess;
}

/* Every pair of distinct GPUs can reach each other; a GPU is not its own peer. */
STAND_IN_DECLARE(cudaDeviceCanAccessPeer, (int *canAccessPeer, int device, int peerDevice));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceCanAccessPeer)(int *canAccessPeer, int device,
                                                           int peerDevice)
{
    STAND_IN_ENTER(cudaDeviceCanAccessPeer, (canAccessPeer, device, peerDevice), canAccessPeer,
                   device, peerDevice, 0, 0, 0);
    if (!stand_in_valid(device) || !stand_in_valid(peerDevice))
        return stand_in_error(cudaErrorInvalidDevice);
    *canAccessPeer = device != peerDevice;
    return cudaSuccess;
}

/* Values that tell the attributes and the two directions apart: the rank is 2 + 3 src + dst;
 * access 1; native atomics only from a lower id to a higher, array access only the other way. */
STAND_IN_DECLARE(cudaDeviceGetP2PAttribute,
                 (int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceGetP2PAttribute)(int *value,
                                                             enum cudaDeviceP2PAttr attr,
                                                             int srcDevice, int dstDevice)
{
    STAND_IN_ENTER(cudaDeviceGetP2PAttribute, (value, attr, srcDevice, dstDevice), value, attr,
                   srcDevice, dstDevice, 0, 0);
    if (!stand_in_valid(srcDevice) || !stand_in_valid(dstDevice) || srcDevice == dstDevice)
        return stand_in_error(cudaErrorInvalidDevice);
    *value = attr == cudaDevP2PAttrPerformanceRank         ? 2 + 3 * srcDevice + dstDevice
             : attr == cudaDevP2PAttrAccessSupported       ? 1
             : attr == cudaDevP2PAttrNativeAtomicSupported ? srcDevice < dstDevice
                                                           : srcDevice > dstDevice;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaDeviceEnablePeerAccess, (int peerDevice, unsigned int flags));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceEnablePeerAccess)(int peerDevice, unsigned int flags)
{
    STAND_IN_ENTER(cudaDeviceEnablePeerAccess, (peerDevice, flags), peerDevice, flags,
                   stand_in.current, 0, 0, 0);
    if (flags != 0)
        return stand_in_error(cudaErrorInvalidValue);
    if (!stand_in_valid(peerDevice))
        return stand_in_error(cudaErrorInvalidDevice);
    if (peerDevice == stand_in.current)
        return stand_in_error(cudaErrorPeerAccessUnsupported);
    if (stand_in.access[stand_in.current][peerDevice])
        return stand_in_error(cudaErrorPeerAccessAlreadyEnabled);
    stand_in.access[stand_in.current][peerDevice] = 1;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaDeviceDisablePeerAccess, (int peerDevice));
cudaError_t STAND_IN_CAT(__wrap_, cudaDeviceDisablePeerAccess)(int peerDevice)
{
    STAND_IN_ENTER(cudaDeviceDisablePeerAccess, (peerDevice), peerDevice, stand_in.current, 0, 0, 0,
                   0);
    if (!stand_in_valid(peerDevice))
        return stand_in_error(cudaErrorInvalidDevice);
    if (!stand_in.access[stand_in.current][peerDevice])
        return stand_in_error(cudaErrorPeerAccessNotEnabled);
    stand_in.access[stand_in.current][peerDevice] = 0;
    return cudaSuccess;
}

/* Memory it knows has its type and device; anything else is unregistered host memory (device
 * -2, as the runtime says for it). */
STAND_IN_DECLARE(cudaPointerGetAttributes,
                 (struct cudaPointerAttributes * attributes, const void *ptr));
cudaError_t STAND_IN_CAT(__wrap_,
                         cudaPointerGetAttributes)(struct cudaPointerAttributes *attributes,
                                                   const void *ptr)
{
    STAND_IN_ENTER(cudaPointerGetAttributes, (attributes, ptr), attributes, ptr, 0, 0, 0, 0);
    const stand_in_region *r = stand_in_region_of(ptr, 0);
    memset(attributes, 0, sizeof *attributes);
    attributes->type = r ? r->type : cudaMemoryTypeUnregistered;
    attributes->device = r ? r->device : -2;
    attributes->devicePointer = r && r->type != cudaMemoryTypeUnregistered ? (void *)ptr : NULL;
    attributes->hostPointer = !r || r->type != cudaMemoryTypeDevice ? (void *)ptr : NULL;
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaMemcpyPeer,
                 (void *dst, int dstDevice, const void *src, int srcDevice, size_t count));
cudaError_t STAND_IN_CAT(__wrap_, cudaMemcpyPeer)(void *dst, int dstDevice, const void *src,
                                                  int srcDevice, size_t count)
{
    STAND_IN_ENTER(cudaMemcpyPeer, (dst, dstDevice, src, srcDevice, count), dst, dstDevice, src,
                   srcDevice, count, 0);
    if (!stand_in_valid(dstDevice) || !stand_in_valid(srcDevice))
        return stand_in_error(cudaErrorInvalidDevice);
    return stand_in_copy(dst, dstDevice, src, srcDevice, count);
}

STAND_IN_DECLARE(cudaMemcpyPeerAsync, (void *dst, int dstDevice, const void *src, int srcDevice,
                                       size_t count, cudaStream_t stream));
cudaError_t STAND_IN_CAT(__wrap_, cudaMemcpyPeerAsync)(void *dst, int dstDevice, const void *src,
                                                       int srcDevice, size_t count,
                                                       cudaStream_t stream)
{
    STAND_IN_ENTER(cudaMemcpyPeerAsync, (dst, dstDevice, src, srcDevice, count, stream), dst,
                   dstDevice, src, srcDevice, count, stream);
    if (!stand_in_valid(dstDevice) || !stand_in_valid(srcDevice))
        return stand_in_error(cudaErrorInvalidDevice);
    return stand_in_copy(dst, dstDevice, src, srcDevice, count);
}

STAND_IN_DECLARE(cudaMemcpyAsync, (void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream));
cudaError_t STAND_IN_CAT(__wrap_, cudaMemcpyAsync)(void *dst, const void *src, size_t count,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    STAND_IN_ENTER(cudaMemcpyAsync, (dst, src, count, kind, stream), dst, src, count, kind, stream,
                   0);
    return stand_in_copy(dst, -1, src, -1, count);
}

/* Events and streams are only logged: the tests read their order from the log. */
STAND_IN_DECLARE(cudaEventRecord, (cudaEvent_t event, cudaStream_t stream));
cudaError_t STAND_IN_CAT(__wrap_, cudaEventRecord)(cudaEvent_t event, cudaStream_t stream)
{
    STAND_IN_ENTER(cudaEventRecord, (event, stream), event, stream, 0, 0, 0, 0);
    return cudaSuccess;
}

STAND_IN_DECLARE(cudaStreamWaitEvent, (cudaStream_t stream, cudaEvent_t event, unsigned int flags));
cudaError_t STAND_IN_CAT(__wrap_, cudaStreamWaitEvent)(cudaStream_t stream, cudaEvent_t event,
                                                       unsigned int flags)
{
    STAND_IN_ENTER(cudaStreamWaitEvent, (stream, event, flags), stream, event, flags, 0, 0, 0);
    return cudaSuccess;
}

#endif
