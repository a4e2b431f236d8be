/**
 * @file lab01.c
 * @brief Unit tests of lab 01's student functions, on any machine: the
 *        clauses of their contracts that a device which does not exist
 *        exercises (every call fails, with or without a GPU).
 *
 * Prints one line per case ("ok NAME", "ok NAME # skip why" or "not ok NAME:
 * why") and exits 1 when any case failed; `lab01 01.k` runs only the cases
 * of that TODO.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "peer_checks.h"
#include "unit_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** A device id no machine has. */
#define NO_DEVICE 4096
/** A value no CUDA call writes. */
#define UNTOUCHED ((cudaError_t)9999)

static int failed;

static void expect(const char *name, int ok, const char *why)
{
    printf("%s %s%s%s\n", ok ? "ok" : "not ok", name, ok ? "" : ": ", ok ? "" : why);
    failed |= !ok;
}

/* TODO 01.2: the answer is 0 whenever the call fails, one fault or two. */
static void test_check_access(void)
{
    static const int cases[3][2] = {{NO_DEVICE, 0}, {0, NO_DEVICE}, {-1, -1}};
    static const char *names[3] = {"check_access_no_such_device", "check_access_no_such_peer",
                                   "check_access_both_ids_negative"};
    for (int k = 0; k < 3; k++) {
        int can = 7;
        unit_case(names[k]);
        cudaError_t err = check_access(cases[k][0], cases[k][1], &can);
        char why[128];
        snprintf(why, sizeof why, "check_access(%d, %d) returned %s with *can_access %d; "
                 "expected an error and 0", cases[k][0], cases[k][1], cudaGetErrorName(err), can);
        expect(names[k], err != cudaSuccess && can == 0, why);
    }
}

/* TODO 01.2 with a GPU: an error answer is cleared (without a driver every
 * call, cudaGetLastError included, reports the missing driver). */
static void test_check_access_clears(void)
{
    int n = 0, can = 7;
    unit_case("check_access_clears_its_error");
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        printf("ok check_access_clears_its_error # skip needs a GPU\n");
        return;
    }
    (void)check_access(0, NO_DEVICE, &can);
    cudaError_t pending = cudaGetLastError();
    char why[128];
    snprintf(why, sizeof why, "check_access(0, %d) left %s pending", NO_DEVICE,
             cudaGetErrorName(pending));
    expect("check_access_clears_its_error", pending == cudaSuccess, why);
}

/* TODOs 01.1 and 01.3: a failing query is returned. */
static void test_queries(const char *todo)
{
    gpu_info info;
    p2p_attributes attr;
    cudaError_t err;
    char why[128];
    if (strcmp(todo, "01.1") == 0) {
        unit_case("describe_gpu_no_such_device");
        err = describe_gpu(NO_DEVICE, &info);
        snprintf(why, sizeof why, "describe_gpu(%d) returned %s", NO_DEVICE, cudaGetErrorName(err));
        expect("describe_gpu_no_such_device", err != cudaSuccess, why);
        return;
    }
    unit_case("query_attributes_no_such_peer");
    err = query_attributes(0, NO_DEVICE, &attr);
    snprintf(why, sizeof why, "query_attributes(0, %d) returned %s", NO_DEVICE,
             cudaGetErrorName(err));
    expect("query_attributes_no_such_peer", err != cudaSuccess, why);
    unit_case("query_attributes_both_ids_bad");
    err = query_attributes(NO_DEVICE, NO_DEVICE, &attr);
    snprintf(why, sizeof why, "query_attributes(%d, %d) returned %s", NO_DEVICE, NO_DEVICE,
             cudaGetErrorName(err));
    expect("query_attributes_both_ids_bad", err != cudaSuccess, why);
}

/* TODOs 01.4-01.6: no current device, no call: cudaSetDevice's error is
 * returned and the results are not written. */
static void test_needs_current_device(const char *todo)
{
    peer_calls calls = {UNTOUCHED, UNTOUCHED};
    cudaError_t result = UNTOUCHED, err;
    const char *fn = strcmp(todo, "01.4") == 0   ? "try_nonzero_flags"
                     : strcmp(todo, "01.5") == 0 ? "enable_twice"
                                                 : "disable_twice";
    char name[64], why[160];
    snprintf(name, sizeof name, "%s_no_such_device", fn);
    unit_case(name);
    if (strcmp(todo, "01.4") == 0)
        err = try_nonzero_flags(NO_DEVICE, 0, &result);
    else
        err = (strcmp(todo, "01.5") == 0 ? enable_twice : disable_twice)(NO_DEVICE, 0, &calls);
    int ok = err != cudaSuccess && result == UNTOUCHED && calls.first == UNTOUCHED &&
             calls.again == UNTOUCHED;
    snprintf(why, sizeof why, "%s(%d, 0) returned %s%s", fn, NO_DEVICE, cudaGetErrorName(err),
             ok || err == cudaSuccess ? "" : " but wrote results of calls it should not make");
    expect(name, ok, why);
}

static void todo_01_1(void) { test_queries("01.1"); }
static void todo_01_2(void)
{
    test_check_access();
    test_check_access_clears();
}
static void todo_01_3(void) { test_queries("01.3"); }
static void todo_01_4(void) { test_needs_current_device("01.4"); }
static void todo_01_5(void) { test_needs_current_device("01.5"); }
static void todo_01_6(void) { test_needs_current_device("01.6"); }

/** @brief Every clause a missing device can check, TODO by TODO; with an argument (01.1 ...
 *         01.6) only that TODO's cases. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"01.1", todo_01_1}, {"01.2", todo_01_2},
                                        {"01.3", todo_01_3}, {"01.4", todo_01_4},
                                        {"01.5", todo_01_5}, {"01.6", todo_01_6}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
