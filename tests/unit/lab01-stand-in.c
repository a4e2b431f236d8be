/**
 * @file lab01-stand-in.c
 * @brief Lab 01's functions against the stand-in runtime (tests/unit/stand_in.h), on any machine:
 *        two GPUs that answer the same everywhere, so that the clauses a real machine shows only
 *        with two GPUs, or never, are checked on every machine: the current device left as the
 *        contract says, no error left pending (nor an older one taken for the answer), which
 *        call's error is returned, the out-parameters a failed call leaves, each direction.
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1 when any case failed;
 * `lab01-stand-in 01.k` runs only TODO 01.k's cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "peer_checks.h"
#include "stand_in.h"
#include "unit_groups.h"

#include <stdio.h>
#include <string.h>

/** The error a planted failure returns: no path of the stand-in returns it otherwise. */
#define PLANTED cudaErrorNotPermitted
/** A value no call writes. */
#define UNTOUCHED ((cudaError_t)9999)

static int failed;

/* The clauses every contract shares, after a call with GPU @p want_dev to be current: why is
 * empty when the current device is that and no error is pending, else it says what is wrong. */
static const char *state_kept(int want_dev, char *why, size_t len)
{
    why[0] = '\0';
    if (stand_in.last != cudaSuccess)
        snprintf(why, len, "it left %s pending as the last error", cudaGetErrorName(stand_in.last));
    else if (stand_in.current != want_dev)
        snprintf(why, len, "it left GPU %d current; its contract says GPU %d", stand_in.current,
                 want_dev);
    return why;
}

/* TODO 01.1: each GPU described as itself, with the other GPU current, which stays current, and
 * no error left pending. */
static void describe_cases(void)
{
    char why[2][160], calls[512];
    gpu_info info[2];
    cudaError_t err[2];
    int ok = 1, kept = 1;
    unit_case("describe_each_gpu_as_itself");
    for (int dev = 0; dev < 2; dev++) {
        char name[32], bus[16];
        stand_in_start(2, 1 - dev);
        err[dev] = describe_gpu(dev, &info[dev]);
        kept &= !*state_kept(1 - dev, why[dev], sizeof why[dev]);
        snprintf(name, sizeof name, "Stand-in GPU %d", dev);
        snprintf(bus, sizeof bus, "0000:%02x:00.0", 0x10 + dev);
        ok &= err[dev] == cudaSuccess && strcmp(info[dev].name, name) == 0 &&
              info[dev].major == 9 && info[dev].minor == dev && info[dev].unified_addressing == 1 &&
              strcmp(info[dev].pci_bus_id, bus) == 0;
    }
    failed |= !unit_verdict(
        "describe_each_gpu_as_itself", ok,
        "GPU 0 and GPU 1 (name, compute capability, UVA, "
        "PCI id) came back as '%s' %d.%d %d %s (%s) and '%s' %d.%d %d %s (%s); expected "
        "'Stand-in GPU 0' 9.0 1 0000:10:00.0 and 'Stand-in GPU 1' 9.1 1 0000:11:00.0",
        info[0].name, info[0].major, info[0].minor, info[0].unified_addressing, info[0].pci_bus_id,
        cudaGetErrorName(err[0]), info[1].name, info[1].major, info[1].minor,
        info[1].unified_addressing, info[1].pci_bus_id, cudaGetErrorName(err[1]));
    unit_case("describe_keeps_current_device_and_no_error");
    failed |= !unit_verdict("describe_keeps_current_device_and_no_error", kept,
                            "describe_gpu(0) with GPU 1 "
                            "current: %s; describe_gpu(1) with GPU 0 current: %s (calls: %s)",
                            *why[0] ? why[0] : "kept", *why[1] ? why[1] : "kept",
                            stand_in_calls(calls, sizeof calls));

    /* A failed query: its error is returned, and what it would have filled is left alone. */
    static const char *const query[2] = {"cudaGetDeviceProperties", "cudaDeviceGetPCIBusId"};
    for (int q = 0; q < 2; q++) {
        const char *name =
            q ? "describe_returns_the_bus_id_error" : "describe_returns_the_properties_error";
        unit_case(name);
        stand_in_start(2, 0);
        stand_in_fail(query[q], 1, PLANTED);
        gpu_info got;
        memset(&got, 0x5a, sizeof got);
        const gpu_info before = got;
        cudaError_t e = describe_gpu(1, &got);
        ok = e == PLANTED && (q || (memcmp(got.name, before.name, sizeof got.name) == 0 &&
                                    got.major == before.major && got.minor == before.minor &&
                                    got.unified_addressing == before.unified_addressing));
        failed |= !unit_verdict(name, ok, "with %s failing (%s) describe_gpu returned %s%s",
                                query[q], cudaGetErrorName(PLANTED), cudaGetErrorName(e),
                                e == PLANTED ? " but changed the fields that call fills" : "");
    }
    stand_in_stop();
}

/* One check_access call from a state with GPU 1 current, with @p pending already pending. */
static void access_case(const char *name, int dev, int peer, cudaError_t pending, cudaError_t want,
                        int want_can)
{
    char why[160];
    unit_case(name);
    stand_in_start(2, 1);
    stand_in.last = pending;
    int can = 7;
    cudaError_t err = check_access(dev, peer, &can);
    const stand_in_call *asked = stand_in_find("cudaDeviceCanAccessPeer", 0);
    int ok = err == want && can == want_can && asked != NULL && (int)asked->arg[1] == dev &&
             (int)asked->arg[2] == peer && !*state_kept(1, why, sizeof why);
    failed |= !unit_verdict(
        name, ok,
        "check_access(%d, %d)%s returned %s with *can_access %d%s%s%s; expected %s "
        "and %d from cudaDeviceCanAccessPeer(%d, %d) asked, GPU 1 still current, nothing "
        "pending",
        dev, peer, pending ? " with an earlier error pending" : "", cudaGetErrorName(err), can,
        asked ? "" : ", cudaDeviceCanAccessPeer not asked", *why ? "; " : "", why,
        cudaGetErrorName(want), want_can, dev, peer);
}

/* TODO 01.2: every cell asked, the diagonal too; the call's own answer; the state kept. */
static void access_cases(void)
{
    access_case("check_access_asks_a_pair", 0, 1, cudaSuccess, cudaSuccess, 1);
    access_case("check_access_asks_the_diagonal", 1, 1, cudaSuccess, cudaSuccess, 0);
    access_case("check_access_answers_its_own_call", 0, 1, cudaErrorInvalidDevice, cudaSuccess, 1);
    access_case("check_access_failure_is_cleared", 0, 3, cudaSuccess, cudaErrorInvalidDevice, 0);
    stand_in_stop();
}

/* TODO 01.3: both directions, source first; the first failing query's error returned. */
static void attribute_cases(void)
{
    char why[160];
    unit_case("attributes_source_first_both_ways");
    stand_in_start(2, 1);
    p2p_attributes a[2];
    cudaError_t err[2] = {query_attributes(0, 1, &a[0]), query_attributes(1, 0, &a[1])};
    /* The stand-in's values: rank 2 + 3 src + dst, access 1, atomics src < dst, array src > dst. */
    int ok = err[0] == cudaSuccess && err[1] == cudaSuccess;
    for (int d = 0; ok && d < 2; d++)
        ok = a[d].performance_rank == 2 + 3 * d + (1 - d) && a[d].access_supported == 1 &&
             a[d].native_atomics == (d < 1 - d) && a[d].array_access == (d > 1 - d);
    failed |= !unit_verdict(
        "attributes_source_first_both_ways", ok,
        "0 -> 1 gave rank %d access %d atomics %d "
        "array %d, 1 -> 0 gave %d %d %d %d (returned %s, %s); the runtime answers 3 1 1 0 "
        "and 5 1 0 1",
        a[0].performance_rank, a[0].access_supported, a[0].native_atomics, a[0].array_access,
        a[1].performance_rank, a[1].access_supported, a[1].native_atomics, a[1].array_access,
        cudaGetErrorName(err[0]), cudaGetErrorName(err[1]));
    failed |= !unit_verdict("attributes_keep_current_device_and_no_error",
                            !*state_kept(1, why, sizeof why),
                            "query_attributes with GPU 1 current: %s", why);

    unit_case("attributes_return_the_first_failure");
    stand_in_start(2, 0);
    stand_in_fail("cudaDeviceGetP2PAttribute", 2, PLANTED);
    p2p_attributes got = {-7, -7, -7, -7};
    cudaError_t e = query_attributes(0, 1, &got);
    int kept = (got.performance_rank == -7) + (got.access_supported == -7) +
               (got.native_atomics == -7) + (got.array_access == -7);
    failed |= !unit_verdict(
        "attributes_return_the_first_failure", e == PLANTED && kept == 3,
        "with the second cudaDeviceGetP2PAttribute failing (%s) query_attributes returned %s "
        "and changed %d of the 4 values (the one query that succeeded may write 1)",
        cudaGetErrorName(PLANTED), cudaGetErrorName(e), 4 - kept);
    stand_in_stop();
}

/* TODO 01.4: flags 1 asked from dev, on a pair and on a GPU itself; dev left current. */
static void flags_case(const char *name, int dev, int peer)
{
    char why[160];
    unit_case(name);
    stand_in_start(2, 1 - dev);
    cudaError_t result = UNTOUCHED;
    cudaError_t err = try_nonzero_flags(dev, peer, &result);
    const stand_in_call *asked = stand_in_find("cudaDeviceEnablePeerAccess", 0);
    int ok = err == cudaSuccess && result == cudaErrorInvalidValue && asked != NULL &&
             (int)asked->arg[0] == peer && asked->arg[1] == 1 && (int)asked->arg[2] == dev &&
             !stand_in.access[dev][peer] && !*state_kept(dev, why, sizeof why);
    failed |= !unit_verdict(
        name, ok,
        "try_nonzero_flags(%d, %d) with GPU %d current returned %s, *result %s%s"
        "%s%s; expected cudaSuccess, *result cudaErrorInvalidValue from "
        "cudaDeviceEnablePeerAccess(%d, 1) made with GPU %d current, GPU %d left current, "
        "nothing pending",
        dev, peer, 1 - dev, cudaGetErrorName(err),
        result == UNTOUCHED ? "not written" : cudaGetErrorName(result),
        asked ? "" : ", flags 1 never asked", *why ? "; " : "", why, peer, dev, dev);
}

static void flags_cases(void)
{
    flags_case("flags_on_a_pair", 0, 1);
    flags_case("flags_on_the_gpu_itself", 1, 1);
    stand_in_stop();
}

/* TODOs 01.5 and 01.6: both results, the direction asked for and no other, dev left current. */
static void twice_case(const char *name, int enable, int dev, int peer, cudaError_t first,
                       cudaError_t again)
{
    char why[160];
    unit_case(name);
    stand_in_start(2, 1 - dev);
    if (!enable && dev != peer)
        stand_in.access[dev][peer] = 1;
    peer_calls got = {UNTOUCHED, UNTOUCHED};
    cudaError_t err = (enable ? enable_twice : disable_twice)(dev, peer, &got);
    int on = dev != peer && stand_in.access[dev][peer], reverse = stand_in.access[peer][dev];
    int ok = err == cudaSuccess && got.first == first && got.again == again &&
             on == (enable && dev != peer) && (!enable || !reverse) &&
             !*state_kept(dev, why, sizeof why);
    failed |= !unit_verdict(
        name, ok,
        "%s(%d, %d) with GPU %d current returned %s, results %s and %s, access "
        "%d->%d %s%s%s%s; expected cudaSuccess, %s and %s, access %d->%d %s%s, GPU %d current, "
        "nothing pending",
        enable ? "enable_twice" : "disable_twice", dev, peer, 1 - dev, cudaGetErrorName(err),
        got.first == UNTOUCHED ? "not written" : cudaGetErrorName(got.first),
        got.again == UNTOUCHED ? "not written" : cudaGetErrorName(got.again), dev, peer,
        on ? "on" : "off", enable && reverse ? ", the reverse direction on too" : "",
        *why ? "; " : "", why, cudaGetErrorName(first), cudaGetErrorName(again), dev, peer,
        enable && dev != peer ? "on" : "off", enable ? " and the reverse off" : "", dev);
}

static void enable_cases(void)
{
    twice_case("enable_twice_on_a_pair", 1, 0, 1, cudaSuccess, cudaErrorPeerAccessAlreadyEnabled);
    twice_case("enable_twice_on_the_gpu_itself", 1, 1, 1, cudaErrorPeerAccessUnsupported,
               cudaErrorPeerAccessUnsupported);
    stand_in_stop();
}

static void disable_cases(void)
{
    twice_case("disable_twice_on_a_pair", 0, 0, 1, cudaSuccess, cudaErrorPeerAccessNotEnabled);
    twice_case("disable_twice_on_the_gpu_itself", 0, 1, 1, cudaErrorPeerAccessNotEnabled,
               cudaErrorPeerAccessNotEnabled);
    stand_in_stop();
}

/** @brief Each TODO's cases against the stand-in; with an argument (01.1 ... 01.6) that TODO's. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"01.1", describe_cases},  {"01.2", access_cases},
                                        {"01.3", attribute_cases}, {"01.4", flags_cases},
                                        {"01.5", enable_cases},    {"01.6", disable_cases}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
