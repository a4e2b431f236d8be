/**
 * @file report.c
 * @brief Lab 03: printing the results, and the verdicts on chapter 4.3's
 *        claims that they decide.
 */
#include "peer_kernels.h"

#include <stdio.h>
#include <string.h>

/** The verdict on one of the chapter's claims. */
typedef enum verdict {
    HOLDS,         /**< the measurement agrees with the chapter */
    DOES_NOT_HOLD, /**< the measurement contradicts it */
    NOT_TESTABLE   /**< this run cannot decide it */
} verdict;

/** One claim: its id, its verdict, and the numbers behind it. */
typedef struct claim {
    const char *id;     /**< snake_case id */
    verdict verdict;    /**< what this run found */
    char detail[768];   /**< the measured numbers, in words */
} claim;

/** Number of claims this lab decides. */
#define LAB03_CLAIMS 3

static const char *verdict_word(verdict v)
{
    return v == HOLDS ? "holds" : v == DOES_NOT_HOLD ? "does_not_hold" : "not_testable";
}

static const transfer_result *at(const lab03_results *r, int k, transfer_variant v)
{
    return &r->transfer[k][v];
}

/* Of the three ways that produce the result from b's data (pull, push,
 * copy_then_compute), the one with the smallest median at size k. */
static transfer_variant fastest(const lab03_results *r, int k)
{
    static const transfer_variant ways[] = {VARIANT_PULL, VARIANT_PUSH,
                                            VARIANT_COPY_THEN_COMPUTE};
    transfer_variant best = ways[0];
    for (int i = 1; i < 3; i++)
        if (at(r, k, ways[i])->ms.median < at(r, k, best)->ms.median)
            best = ways[i];
    return best;
}

/* "A kernel on one GPU can read and write another GPU's memory." */
static void claim_access_works(const lab03_pair *pair, const lab03_results *r, claim *c)
{
    c->id = "peer_kernel_access_works";
    if (!r->transfers_run || r->nsizes == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "the transfer sweep was not run (--fault-only)");
        return;
    }
    int good = 0;
    for (int k = 0; k < r->nsizes; k++)
        good += at(r, k, VARIANT_PULL)->verified && at(r, k, VARIANT_PUSH)->verified;
    const int last = r->nsizes - 1;
    char lo[32], hi[32];
    lab_format_size(r->sizes[0], lo, sizeof lo);
    lab_format_size(r->sizes[last], hi, sizeof hi);
    c->verdict = good == r->nsizes ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "GPU %d's kernel read GPU %d's memory (pull) and GPU %d's kernel wrote into "
             "GPU %d's (push) bit-exactly at %d of %d sizes from %s to %s; at %s pull ran "
             "at %.1f GB/s, push at %.1f GB/s (the same kernel on local memory: %.1f GB/s)",
             pair->a, pair->b, pair->b, pair->a, good, r->nsizes, lo, hi, hi,
             at(r, last, VARIANT_PULL)->gbps, at(r, last, VARIANT_PUSH)->gbps,
             at(r, last, VARIANT_LOCAL)->gbps);
}

/* The chapter's advice (4.2, 4.3): move the data with cudaMemcpyPeer and
 * compute where it is. Does copying first beat reading over the link? */
static void claim_pull_vs_copy(const lab03_results *r, claim *c)
{
    c->id = "pull_vs_copy_then_compute";
    if (!r->transfers_run || r->nsizes == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "the transfer sweep was not run (--fault-only)");
        return;
    }
    const int last = r->nsizes - 1;
    char hi[32], judge[32];
    lab_format_size(r->sizes[last], hi, sizeof hi);
    if (r->sizes[last] < LAB03_JUDGE_SIZE) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail,
                 "the largest size, %s, is below %s, where launch costs and not bandwidth "
                 "decide; run with --max-size of at least %s",
                 hi, lab_format_size(LAB03_JUDGE_SIZE, judge, sizeof judge), judge);
        return;
    }
    const transfer_result *pull = at(r, last, VARIANT_PULL);
    const transfer_result *push = at(r, last, VARIANT_PUSH);
    const transfer_result *copy = at(r, last, VARIANT_COPY_ONLY);
    const transfer_result *both = at(r, last, VARIANT_COPY_THEN_COMPUTE);
    int pull_wins = 0;
    for (int k = 0; k < r->nsizes; k++)
        pull_wins += at(r, k, VARIANT_PULL)->ms.median <
                     at(r, k, VARIANT_COPY_THEN_COMPUTE)->ms.median;
    const int copy_first_wins = both->ms.median < pull->ms.median;
    c->verdict = copy_first_wins ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "at %s, %s: copy_then_compute %.3f ms (%.1f GB/s; its copy alone %.3f ms), "
             "pull %.3f ms (%.1f GB/s), push %.3f ms (%.1f GB/s); %s is %.2fx faster; "
             "pull beat copy_then_compute at %d of %d sizes; fastest of the three: %s",
             hi, copy_first_wins ? "copying first wins" : "reading over the link wins",
             both->ms.median, both->gbps, copy->ms.median, pull->ms.median, pull->gbps,
             push->ms.median, push->gbps, copy_first_wins ? "copy_then_compute" : "pull",
             copy_first_wins ? pull->ms.median / both->ms.median
                             : both->ms.median / pull->ms.median,
             pull_wins, r->nsizes, variant_name(fastest(r, last)));
}

/* "Without cudaDeviceEnablePeerAccess a kernel touching peer memory fails." */
static void claim_no_access(const lab03_pair *pair, const lab03_results *r, claim *c)
{
    const fault_result *f = &r->fault;
    c->id = "access_without_enable_fails";
    if (!f->outcome[0]) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "the demonstration was not run (--no-fault-demo)");
    } else if (strcmp(f->outcome, "fault") == 0) {
        const int sticky = strcmp(f->after_a, "cudaSuccess") != 0;
        c->verdict = HOLDS;
        snprintf(c->detail, sizeof c->detail,
                 "in a child process, GPU %d's kernel reading GPU %d's memory without "
                 "cudaDeviceEnablePeerAccess: launch returned %s, synchronize returned %s; "
                 "a later cudaMalloc on GPU %d returned %s (%s), GPU %d answered %s; this "
                 "process was not affected",
                 pair->a, pair->b, f->launch, f->sync, pair->a, f->after_a,
                 sticky ? "the error is sticky: that context is lost"
                        : "the error did not stick",
                 pair->b, f->after_b);
    } else if (strcmp(f->outcome, "silent_success") == 0 ||
               strcmp(f->outcome, "wrong_data") == 0) {
        c->verdict = DOES_NOT_HOLD;
        snprintf(c->detail, sizeof c->detail,
                 "in a child process, GPU %d's kernel read GPU %d's memory without "
                 "cudaDeviceEnablePeerAccess and no error came (launch %s, synchronize %s); "
                 "the data was %s. This system maps peer memory without the call; the CUDA "
                 "API still requires it, so do not rely on this",
                 pair->a, pair->b, f->launch, f->sync, f->data);
    } else if (strcmp(f->outcome, "hang") == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail,
                 "the child did not finish within %d s and was killed (last report: launch "
                 "%s, synchronize %s); this process carried on",
                 f->timeout_s, f->launch, f->sync);
    } else if (strcmp(f->outcome, "crash") == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail,
                 "the child was ended by signal %d before it finished (last report: launch "
                 "%s, synchronize %s); this process carried on",
                 f->signal, f->launch, f->sync);
    } else {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "not run: %s", f->reason);
    }
}

static void decide(const lab03_pair *pair, const lab03_results *r, claim c[LAB03_CLAIMS])
{
    claim_access_works(pair, r, &c[0]);
    claim_pull_vs_copy(r, &c[1]);
    claim_no_access(pair, r, &c[2]);
}

/* ------------------------------------------------------------------ table -- */

static void print_transfers(const lab03_config *cfg, const lab03_results *r)
{
    printf("\nlocal = 2 x peer, five ways: median time of %d runs (ms)\n", cfg->reps);
    printf("  %-10s", "size");
    for (int v = 0; v < LAB03_VARIANTS; v++)
        printf(" %18s", variant_name((transfer_variant)v));
    printf("  fastest of pull/push/copy_then_compute\n");
    for (int k = 0; k < r->nsizes; k++) {
        char size[32];
        printf("  %-10s", lab_format_size(r->sizes[k], size, sizeof size));
        for (int v = 0; v < LAB03_VARIANTS; v++)
            printf(" %18.4f", at(r, k, (transfer_variant)v)->ms.median);
        printf("  %s\n", variant_name(fastest(r, k)));
    }

    printf("\nthe same as GB/s (array bytes / median time; every result checked bit for bit)\n");
    printf("  %-10s", "size");
    for (int v = 0; v < LAB03_VARIANTS; v++)
        printf(" %18s", variant_name((transfer_variant)v));
    printf("\n");
    for (int k = 0; k < r->nsizes; k++) {
        char size[32];
        printf("  %-10s", lab_format_size(r->sizes[k], size, sizeof size));
        for (int v = 0; v < LAB03_VARIANTS; v++)
            printf(" %18.1f", at(r, k, (transfer_variant)v)->gbps);
        printf("\n");
    }
}

static void print_strides(const lab03_config *cfg, const lab03_results *r)
{
    char size[32];
    printf("\nread pattern: neighbouring threads read STRIDE elements apart, %s, "
           "GB/s of array bytes\n", lab_format_size(cfg->stride_bytes, size, sizeof size));
    printf("  %6s  %10s  %12s  %12s  %14s\n", "stride", "bytes apart", "peer GB/s",
           "local GB/s", "peer vs stride 1");
    for (int s = 0; s < LAB03_STRIDES; s++) {
        const stride_result *peer = &r->stride[s][0], *local = &r->stride[s][1];
        printf("  %6d  %10d  %12.1f  %12.1f  %13.2fx\n", peer->stride,
               peer->stride * (int)sizeof(float), peer->gbps, local->gbps,
               peer->gbps / r->stride[0][0].gbps);
    }
}

static void print_fault(const lab03_pair *pair, const fault_result *f)
{
    printf("\nno peer access: a child process runs the kernel on GPU %d reading GPU %d's "
           "memory, never having called cudaDeviceEnablePeerAccess\n", pair->a, pair->b);
    if (!f->ran) {
        printf("  not run: %s\n", f->reason);
        return;
    }
    printf("  cudaDeviceCanAccessPeer(%d, %d) in the child: %d (%s)\n", pair->a, pair->b,
           f->can_access_peer,
           f->can_access_peer == 1 ? "access is possible, but nobody enabled it"
                                   : "this pair has no peer access at all");
    printf("  launch (cudaGetLastError):        %s\n", f->launch);
    printf("  cudaDeviceSynchronize:            %s\n", f->sync);
    printf("  result data:                      %s\n", f->data);
    printf("  then cudaMalloc on GPU %d:         %s\n", pair->a, f->after_a);
    printf("  then cudaMemset on GPU %d:         %s\n", pair->b, f->after_b);
    if (strcmp(f->outcome, "hang") == 0)
        printf("  outcome: hang: the child did not finish in %d s and was killed\n",
               f->timeout_s);
    else if (strcmp(f->outcome, "crash") == 0)
        printf("  outcome: crash: the child was ended by signal %d\n", f->signal);
    else if (f->signal)
        printf("  outcome: %s; the child reported every step, then was ended by signal %d "
               "after %.1f s; this process is unaffected\n", f->outcome, f->signal,
               f->seconds);
    else
        printf("  outcome: %s; the child exited with status %d after %.1f s; this process "
               "is unaffected\n", f->outcome, f->exit_status, f->seconds);
}

void print_report_table(const lab03_config *cfg, const lab03_pair *pair,
                        const lab03_results *r)
{
    printf("Lab 03: kernels that read and write another GPU's memory\n");
    printf("GPU a = %d (%s) runs the kernels and holds the result; GPU b = %d (%s) holds "
           "the source\n", pair->a, pair->name_a, pair->b, pair->name_b);
    if (r->transfers_run) {
        printf("peer access enabled both ways; grid-stride kernels of at most %d x %d "
               "threads on a, %d x %d on b\n", pair->blocks_a, LAB03_THREADS, pair->blocks_b,
               LAB03_THREADS);
        print_transfers(cfg, r);
    }
    if (r->strides_run)
        print_strides(cfg, r);
    if (r->fault.outcome[0])
        print_fault(pair, &r->fault);

    claim c[LAB03_CLAIMS];
    decide(pair, r, c);
    printf("\nChapter 4.3, claim by claim\n");
    for (int i = 0; i < LAB03_CLAIMS; i++)
        printf("claim %s: %s: %s\n", c[i].id, verdict_word(c[i].verdict), c[i].detail);
}

/* -------------------------------------------------------------------- CSV -- */

static void csv_config(const char *key, const char *value)
{
    printf("config,%s,,,,,,,,,", key);
    lab_csv_field(stdout, value);
    printf("\n");
}

static void csv_config_num(const char *key, unsigned long long value)
{
    printf("config,%s,,,,,,,,,%llu\n", key, value);
}

static void csv_timed(const char *section, const char *variant, size_t bytes, int stride,
                      int reps, const lab_stats *ms, double gbps, int verified)
{
    printf("%s,%s,%zu,", section, variant, bytes);
    if (stride > 0)
        printf("%d", stride);
    printf(",%d,%.6f,%.6f,%.6f,%.3f,%d,\n", reps, ms->median, ms->min, ms->max, gbps,
           verified);
}

static void csv_fault(const char *key, const char *value)
{
    printf("fault,%s,,,,,,,,,", key);
    lab_csv_field(stdout, value);
    printf("\n");
}

void print_report_csv(const lab03_config *cfg, const lab03_pair *pair,
                      const lab03_results *r)
{
    printf("section,variant,bytes,stride,reps,median_ms,min_ms,max_ms,gbps,verified,value\n");
    csv_config_num("gpu_a", (unsigned long long)pair->a);
    csv_config_num("gpu_b", (unsigned long long)pair->b);
    csv_config("gpu_a_name", pair->name_a);
    csv_config("gpu_b_name", pair->name_b);
    csv_config_num("threads_per_block", LAB03_THREADS);
    csv_config_num("max_blocks_a", (unsigned long long)pair->blocks_a);
    csv_config_num("max_blocks_b", (unsigned long long)pair->blocks_b);
    csv_config_num("reps", (unsigned long long)cfg->reps);
    csv_config_num("min_bytes", (unsigned long long)cfg->min_bytes);
    csv_config_num("max_bytes", (unsigned long long)cfg->max_bytes);
    csv_config_num("stride_bytes", (unsigned long long)cfg->stride_bytes);
    csv_config_num("fault_timeout_s", (unsigned long long)cfg->fault_timeout_s);
    csv_config_num("seed", (unsigned long long)cfg->seed);
    csv_config_num("quick", (unsigned long long)cfg->quick);

    if (r->transfers_run) {
        for (int k = 0; k < r->nsizes; k++)
            for (int v = 0; v < LAB03_VARIANTS; v++) {
                const transfer_result *t = at(r, k, (transfer_variant)v);
                csv_timed("transfer", variant_name((transfer_variant)v), t->bytes, 0, t->reps,
                          &t->ms, t->gbps, t->verified);
            }
        for (int k = 0; k < r->nsizes; k++)
            printf("fastest,%s,%zu,,,,,,,,\n", variant_name(fastest(r, k)), r->sizes[k]);
    }
    if (r->strides_run)
        for (int s = 0; s < LAB03_STRIDES; s++)
            for (int where = 0; where < 2; where++) {
                const stride_result *t = &r->stride[s][where];
                csv_timed("stride", where == 0 ? "peer" : "local", t->bytes, t->stride,
                          t->reps, &t->ms, t->gbps, t->verified);
            }
    if (r->fault.outcome[0]) {
        const fault_result *f = &r->fault;
        char num[32];
        csv_fault("outcome", f->outcome);
        if (f->ran) {
            snprintf(num, sizeof num, "%d", f->can_access_peer);
            csv_fault("can_access_peer", num);
            csv_fault("launch", f->launch);
            csv_fault("sync", f->sync);
            csv_fault("data", f->data);
            csv_fault("after_a", f->after_a);
            csv_fault("after_b", f->after_b);
            snprintf(num, sizeof num, "%d", f->exit_status);
            csv_fault("exit_status", num);
            snprintf(num, sizeof num, "%d", f->signal);
            csv_fault("signal", num);
            snprintf(num, sizeof num, "%.3f", f->seconds);
            csv_fault("seconds", num);
            snprintf(num, sizeof num, "%d", f->timeout_s);
            csv_fault("timeout_s", num);
        } else {
            csv_fault("reason", f->reason);
        }
    }

    claim c[LAB03_CLAIMS];
    decide(pair, r, c);
    for (int i = 0; i < LAB03_CLAIMS; i++)
        printf("claim,%s,,,,,,,,,%s\n", c[i].id, verdict_word(c[i].verdict));
}
