/**
 * @file report.c
 * @brief Lab 02: the verdicts on chapter 4.2's claims, computed from the
 *        rows, and the output as tables or CSV.
 */
#include "lab02.h"

#include <stdio.h>
#include <string.h>

static const char *const HOLDS = "holds";
static const char *const DOES_NOT_HOLD = "does_not_hold";
static const char *const NOT_TESTABLE = "not_testable";

/** One claim of the chapter and what this run says about it. */
typedef struct claim {
    const char *id;      /**< snake_case id */
    const char *verdict; /**< holds, does_not_hold, not_testable */
    char detail[640];    /**< the numbers behind the verdict */
} claim;

/** How many claims of 4.2 the lab decides. */
#define N_CLAIMS 5

static int same(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The timing row of one method, peer state, direction and size. */
static const row *timing_row(const results *out, const char *method, int peer, int src,
                             int dst, size_t bytes)
{
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (same(r->section, "timing") && same(r->method, method) && r->peer == peer &&
            r->src_gpu == src && r->dst_gpu == dst && r->bytes == (long long)bytes)
            return r;
    }
    return NULL;
}

static const row *current_row(const results *out, const char *case_name, int peer, int src)
{
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (same(r->section, "current_device") && same(r->case_name, case_name) &&
            r->peer == peer && r->src_gpu == src)
            return r;
    }
    return NULL;
}

static size_t largest_timed(const lab02_env *env)
{
    return env->n_timing_sizes > 0 ? env->timing_sizes[env->n_timing_sizes - 1] : 0;
}

/* GB/s of @p method at the largest size in both directions; 0 when missing. */
static void both_ways(const lab02_env *env, const results *out, const char *method, int peer,
                      double gbps[2])
{
    int a = env->side[0].dev, b = env->side[1].dev;
    const row *ab = timing_row(out, method, peer, a, b, largest_timed(env));
    const row *ba = timing_row(out, method, peer, b, a, largest_timed(env));
    gbps[0] = ab ? ab->gbps : 0.0;
    gbps[1] = ba ? ba->gbps : 0.0;
}

/* "Faster in both directions by more than @p factor." */
static int faster_both(const double x[2], const double y[2], double factor)
{
    return x[0] > factor * y[0] && x[1] > factor * y[1];
}

static void claim_current_device(const lab02_env *env, const results *out, claim *c)
{
    int copies = 0, dst_ok = 1, other_ok = 1;
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (!same(r->section, "current_device"))
            continue;
        copies += r->reps;
        if (same(r->case_name, "current_dst"))
            dst_ok &= r->verified == 1;
        else
            other_ok &= r->verified == 1;
    }
    c->id = "current_device_required";
    if (copies == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "no copy was made");
        return;
    }
    int peer = env->p2p ? 1 : 0, a = env->side[0].dev;
    const row *s = current_row(out, "current_src", peer, a);
    const row *d = current_row(out, "current_dst", peer, a);
    const row *o = current_row(out, "current_other", peer, a);
    char size_text[32], other_text[96] = "";
    lab_format_size(s ? (size_t)s->bytes : 0, size_text, sizeof size_text);
    if (o)
        snprintf(other_text, sizeof other_text, ", a third GPU current %.3f ms",
                 o->ms.median);
    else
        snprintf(other_text, sizeof other_text, " (no third GPU here)");
    if (other_ok && dst_ok) {
        c->verdict = DOES_NOT_HOLD;
        snprintf(c->detail, sizeof c->detail,
                 "the data arrived in all %d copies whatever the current device (source, "
                 "destination%s); median time until both GPUs were idle, %s GPU%d -> GPU%d "
                 "with peer access %s: source current %.3f ms, destination current %.3f ms%s",
                 copies, env->other >= 0 ? ", a third GPU" : "", size_text, a,
                 env->side[1].dev, peer_word(peer), s ? s->ms.median : 0.0,
                 d ? d->ms.median : 0.0, other_text);
    } else if (dst_ok) {
        c->verdict = HOLDS;
        snprintf(c->detail, sizeof c->detail,
                 "some copies made with another GPU current did not arrive by the time both "
                 "GPUs were idle; all copies made with the destination current did");
    } else {
        c->verdict = DOES_NOT_HOLD;
        snprintf(c->detail, sizeof c->detail,
                 "copies failed even with the destination current: the current device is "
                 "not what decides it (see the errors above)");
    }
}

static void claim_peer_vs_default(const lab02_env *env, const results *out, claim *c)
{
    c->id = "memcpypeer_beats_memcpy_default";
    size_t big = largest_timed(env);
    char size_text[32];
    lab_format_size(big, size_text, sizeof size_text);
    if (big < LARGE_BYTES) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail,
                 "the largest size timed is %s; the comparison needs 16 MiB or more", size_text);
        return;
    }
    int peer = env->p2p ? 1 : 0;
    double p[2], d[2];
    both_ways(env, out, "memcpy_peer", peer, p);
    both_ways(env, out, "memcpy_default", peer, d);
    c->verdict = faster_both(p, d, 1.05) ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "at %s with peer access %s: cudaMemcpyPeer %.1f and %.1f GB/s (GPU%d -> GPU%d and "
             "back), cudaMemcpy(Default) %.1f and %.1f GB/s, ratio %.2f and %.2f (holds needs "
             "more than 1.05 both ways)",
             size_text, peer_word(peer), p[0], p[1], env->side[0].dev, env->side[1].dev, d[0],
             d[1], d[0] > 0 ? p[0] / d[0] : 0.0, d[1] > 0 ? p[1] / d[1] : 0.0);
}

static void claim_p2p_vs_staging(const lab02_env *env, const results *out, claim *c)
{
    c->id = "p2p_beats_host_staging";
    size_t big = largest_timed(env);
    char size_text[32];
    lab_format_size(big, size_text, sizeof size_text);
    if (!env->p2p || big < LARGE_BYTES) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "%s",
                 !env->p2p ? "the pair has no peer access"
                           : "the largest size timed is below 16 MiB");
        return;
    }
    double p[2], h[2];
    both_ways(env, out, "memcpy_peer", 1, p);
    both_ways(env, out, "host_staged", 1, h);
    c->verdict = faster_both(p, h, 1.0) ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "at %s: cudaMemcpyPeer with peer access %.1f and %.1f GB/s (GPU%d -> GPU%d and "
             "back), through pinned host memory %.1f and %.1f GB/s: %.1fx and %.1fx",
             size_text, p[0], p[1], env->side[0].dev, env->side[1].dev, h[0], h[1],
             h[0] > 0 ? p[0] / h[0] : 0.0, h[1] > 0 ? p[1] / h[1] : 0.0);
}

static void claim_peer_access(const lab02_env *env, const results *out, claim *c)
{
    c->id = "peer_access_makes_copy_direct";
    size_t big = largest_timed(env);
    char size_text[32];
    lab_format_size(big, size_text, sizeof size_text);
    if (!env->p2p || big < LARGE_BYTES) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "%s",
                 !env->p2p ? "the pair has no peer access to enable"
                           : "the largest size timed is below 16 MiB");
        return;
    }
    double on[2], off[2];
    both_ways(env, out, "memcpy_peer", 1, on);
    both_ways(env, out, "memcpy_peer", 0, off);
    c->verdict = faster_both(on, off, 1.2) ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "cudaMemcpyPeer at %s: %.1f and %.1f GB/s with peer access, %.1f and %.1f GB/s "
             "without (holds needs 1.2x both ways); the copies without peer access were "
             "verified too: enabling changes the path and the speed, not the result",
             size_text, on[0], on[1], off[0], off[1]);
}

static void claim_default_sync(const results *out, claim *c)
{
    int cases = 0, w_peer = 0, w_async = 0, w_default = 0, delay = 0;
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (same(r->section, "info") && same(r->case_name, "delay_ms"))
            sscanf(r->got, "%d", &delay);
        if (!same(r->section, "ordering") || r->waited == NA)
            continue;
        if (same(r->method, "memcpy_peer")) {
            cases++;
            w_peer += r->waited;
        } else if (same(r->method, "memcpy_peer_async")) {
            w_async += r->waited;
        } else if (same(r->method, "memcpy_default")) {
            w_default += r->waited;
        }
    }
    c->id = "memcpy_default_adds_sync";
    if (cases == 0) {
        c->verdict = NOT_TESTABLE;
        snprintf(c->detail, sizeof c->detail, "the ordering experiment did not run");
        return;
    }
    c->verdict = w_default > w_peer ? HOLDS : DOES_NOT_HOLD;
    snprintf(c->detail, sizeof c->detail,
             "with %d ms of work pending in one GPU's legacy default stream, cudaMemcpyPeer "
             "waited for it in %d of %d cases, cudaMemcpy(Default) in %d of %d, "
             "cudaMemcpyPeerAsync on a non-blocking stream in %d of %d",
             delay, w_peer, cases, w_default, cases, w_async, cases);
}

static int compute_claims(const lab02_env *env, const results *out, claim claims[N_CLAIMS])
{
    memset(claims, 0, N_CLAIMS * sizeof *claims);
    claim_current_device(env, out, &claims[0]);
    claim_peer_vs_default(env, out, &claims[1]);
    claim_p2p_vs_staging(env, out, &claims[2]);
    claim_peer_access(env, out, &claims[3]);
    claim_default_sync(out, &claims[4]);
    return N_CLAIMS;
}

void add_claims(const lab02_env *env, results *out)
{
    claim claims[N_CLAIMS];
    int n = compute_claims(env, out, claims);
    for (int i = 0; i < n; i++) {
        row r = row_blank("claim");
        snprintf(r.case_name, sizeof r.case_name, "%s", claims[i].id);
        r.verdict = claims[i].verdict;
        results_add(out, &r);
    }
}

/* --- CSV ---------------------------------------------------------------------- */

static void csv_int(int value)
{
    if (value != NA)
        printf("%d", value);
    putchar(',');
}

static void csv_ll(long long value)
{
    if (value >= 0)
        printf("%lld", value);
    putchar(',');
}

static void csv_text(const char *text)
{
    if (text)
        lab_csv_field(stdout, text);
    putchar(',');
}

void print_csv(const results *out)
{
    printf("section,case,method,peer,src_gpu,dst_gpu,current_gpu,bytes,src_offset,dst_offset,"
           "reps,median_ms,min_ms,max_ms,gbps,verified,untouched,expected,got,waited,verdict\n");
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        csv_text(r->section);
        csv_text(r->case_name);
        csv_text(r->method);
        csv_text(r->peer == NA ? NULL : peer_word(r->peer));
        csv_int(r->src_gpu);
        csv_int(r->dst_gpu);
        csv_int(r->current_gpu);
        csv_ll(r->bytes);
        csv_ll(r->src_offset);
        csv_ll(r->dst_offset);
        if (r->reps > 0)
            printf("%d,%.7f,%.7f,%.7f,", r->reps, r->ms.median, r->ms.min, r->ms.max);
        else
            printf(",,,,");
        if (r->gbps > 0.0)
            printf("%.3f", r->gbps);
        putchar(',');
        csv_int(r->verified);
        csv_int(r->untouched);
        csv_text(r->expected);
        csv_text(r->got[0] ? r->got : NULL);
        csv_int(r->waited);
        if (r->verdict)
            lab_csv_field(stdout, r->verdict);
        putchar('\n');
    }
}

/* --- tables ------------------------------------------------------------------- */

static const char *yes_no(int value)
{
    return value == NA ? "-" : value ? "yes" : "no";
}

static void print_bad_args(const results *out)
{
    printf("\nBad arguments: each call must be rejected and write nothing\n");
    printf("  %-26s %-16s %-26s %-26s %-9s %s\n", "case", "call", "expected", "got",
           "untouched", "result");
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (same(r->section, "bad_args"))
            printf("  %-26s %-16s %-26s %-26s %-9s %s\n", r->case_name, r->method, r->expected,
                   r->got, yes_no(r->untouched), r->verdict);
    }
    printf("  (valid_copy is the control: it must succeed and write; the other cases must "
           "not)\n");
}

static void print_sweep(const lab02_env *env, const results *out)
{
    printf("\nEvery size, every byte: the wrapper, with the source GPU current\n");
    printf("  %-4s %-12s %-15s %6s  %-22s %4s %9s  %s\n", "peer", "direction", "call",
           "copies", "sizes", "odd", "unaligned", "result");
    for (int peer = 0; peer <= 1; peer++)
        for (int dir = 0; dir < 2; dir++)
            for (int async = 0; async < 2; async++) {
                const char *method = async ? "p2p_copy_async" : "p2p_copy";
                int copies = 0, odd = 0, unaligned = 0, verified = 0;
                long long lo = -1, hi = -1;
                for (size_t i = 0; i < out->count; i++) {
                    const row *r = &out->rows[i];
                    if (!same(r->section, "sweep") || r->peer != peer ||
                        r->src_gpu != env->side[dir].dev || !same(r->method, method))
                        continue;
                    copies++;
                    odd += r->bytes % 2 == 1 && r->src_offset == 0;
                    unaligned += r->src_offset > 0;
                    verified += r->verified == 1 && r->untouched == 1;
                    lo = lo < 0 || r->bytes < lo ? r->bytes : lo;
                    hi = r->bytes > hi ? r->bytes : hi;
                }
                if (copies == 0)
                    continue;
                char dir_text[24], lo_text[32], hi_text[32], sizes[72];
                snprintf(dir_text, sizeof dir_text, "GPU%d->GPU%d", env->side[dir].dev,
                         env->side[1 - dir].dev);
                snprintf(sizes, sizeof sizes, "%s .. %s",
                         lab_format_size((size_t)lo, lo_text, sizeof lo_text),
                         lab_format_size((size_t)hi, hi_text, sizeof hi_text));
                printf("  %-4s %-12s %-15s %6d  %-22s %4d %9d  %s\n", peer_word(peer),
                       dir_text, method, copies, sizes, odd, unaligned,
                       verified == copies ? "all verified, guards intact" : "FAILED");
            }
}

static void print_stream_order(const results *out)
{
    printf("\nStream order: a delay, then an upload of new source data, then p2p_copy_async, "
           "all in one stream\n");
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (!same(r->section, "stream_order"))
            continue;
        char size_text[32];
        printf("  peer %-3s GPU%d->GPU%d, %s: %s\n", peer_word(r->peer), r->src_gpu,
               r->dst_gpu, lab_format_size((size_t)r->bytes, size_text, sizeof size_text),
               r->verified == 1 ? "the copy moved the new data: it ran in stream order"
                                : "FAILED");
    }
}

static void print_timing(const lab02_env *env, const results *out)
{
    printf("\nFour ways to copy: GB/s of the median event time (%d repetitions after a "
           "warm-up; bytes counted once)\n",
           env->cfg->reps);
    printf("  %-9s %-12s %-4s", "size", "direction", "peer");
    for (int m = 0; m < n_copy_methods; m++)
        printf(" %20s", copy_methods[m].label);
    printf("\n");
    for (int s = 0; s < env->n_timing_sizes; s++)
        for (int dir = 0; dir < 2; dir++)
            for (int peer = 0; peer <= 1; peer++) {
                int src = env->side[dir].dev, dst = env->side[1 - dir].dev;
                if (!timing_row(out, copy_methods[0].key, peer, src, dst, env->timing_sizes[s]))
                    continue;
                char size_text[32], dir_text[24];
                snprintf(dir_text, sizeof dir_text, "GPU%d->GPU%d", src, dst);
                printf("  %-9s %-12s %-4s",
                       lab_format_size(env->timing_sizes[s], size_text, sizeof size_text),
                       dir_text, peer_word(peer));
                for (int m = 0; m < n_copy_methods; m++) {
                    const row *r = timing_row(out, copy_methods[m].key, peer, src, dst,
                                              env->timing_sizes[s]);
                    printf(" %20.2f", r ? r->gbps : 0.0);
                }
                printf("\n");
            }
    size_t big = largest_timed(env);
    char size_text[32];
    printf("\n  at %s, event times in ms: median (min .. max)\n",
           lab_format_size(big, size_text, sizeof size_text));
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (!same(r->section, "timing") || r->bytes != (long long)big)
            continue;
        printf("  GPU%d->GPU%d peer %-3s %-20s %9.4f (%.4f .. %.4f)\n", r->src_gpu, r->dst_gpu,
               peer_word(r->peer), r->method, r->ms.median, r->ms.min, r->ms.max);
    }
}

static const char *role(const lab02_env *env, int gpu, int src, int dst)
{
    (void)env;
    return gpu == src ? "source" : gpu == dst ? "destination" : "third GPU";
}

static void print_current_device(const lab02_env *env, const results *out)
{
    printf("\nThe current device: cudaMemcpyPeer with each GPU current; host time until both "
           "GPUs are idle\n");
    printf("  %-4s %-12s %-22s %-9s %5s %11s %9s\n", "peer", "direction", "current", "arrived",
           "reps", "median ms", "GB/s");
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (!same(r->section, "current_device"))
            continue;
        char dir_text[24], cur_text[40];
        snprintf(dir_text, sizeof dir_text, "GPU%d->GPU%d", r->src_gpu, r->dst_gpu);
        snprintf(cur_text, sizeof cur_text, "GPU%d (%s)", r->current_gpu,
                 role(env, r->current_gpu, r->src_gpu, r->dst_gpu));
        printf("  %-4s %-12s %-22s %-9s %5d %11.4f %9.2f\n", peer_word(r->peer), dir_text,
               cur_text, r->verified == 1 ? "always" : "NOT ALWAYS", r->reps, r->ms.median,
               r->gbps);
    }
}

static void print_ordering(const lab02_env *env, const results *out)
{
    char size_text[32] = "";
    for (size_t i = 0; i < out->count; i++)
        if (same(out->rows[i].section, "ordering")) {
            lab_format_size((size_t)out->rows[i].bytes, size_text, sizeof size_text);
            break;
        }
    if (!size_text[0])
        return;
    printf("\nWhat the current device orders: %d ms of work pending in one GPU's legacy "
           "default stream, then a %s copy GPU%d->GPU%d\n",
           env->delay_ms, size_text, env->side[0].dev, env->side[1].dev);
    printf("  %-4s %-24s %-24s %-22s %-22s %-22s\n", "peer", "work pending on", "current",
           "cudaMemcpyPeer", "cudaMemcpyPeerAsync", "cudaMemcpy(Default)");
    for (size_t i = 0; i < out->count; i++) {
        const row *r = &out->rows[i];
        if (!same(r->section, "ordering") || !same(r->method, "memcpy_peer"))
            continue;
        /* The pending GPU is named by the case; find it from the case name. */
        int pending = same(r->case_name, "pending_on_src")   ? r->src_gpu
                      : same(r->case_name, "pending_on_dst") ? r->dst_gpu
                                                             : env->other;
        char pend_text[40], cur_text[40];
        snprintf(pend_text, sizeof pend_text, "GPU%d (%s)", pending,
                 role(env, pending, r->src_gpu, r->dst_gpu));
        snprintf(cur_text, sizeof cur_text, "GPU%d (%s)", r->current_gpu,
                 role(env, r->current_gpu, r->src_gpu, r->dst_gpu));
        printf("  %-4s %-24s %-24s", peer_word(r->peer), pend_text, cur_text);
        for (size_t j = 0; j < out->count; j++) {
            const row *q = &out->rows[j];
            if (!same(q->section, "ordering") || !same(q->case_name, r->case_name) ||
                q->peer != r->peer)
                continue;
            char cell[40];
            if (q->waited == NA)
                snprintf(cell, sizeof cell, "not seen");
            else
                snprintf(cell, sizeof cell, "%s %.3f ms", q->waited ? "waited" : "arrived",
                         q->ms.median);
            printf(" %-22s", cell);
        }
        printf("\n");
    }
    printf("  (\"waited\": the data landed only after the pending work ended; \"arrived\": "
           "it did not wait)\n");
}

void print_table(const lab02_env *env, const results *out)
{
    printf("Lab 02: cudaMemcpyPeer, checked and measured (chapter 4.2)\n");
    if (env->n_gpus >= 2 && !env->cfg->bad_args_only) {
        char size_text[32];
        printf("GPU a = %d (%s), GPU b = %d (%s); %d GPUs visible; peer access both ways: %s\n",
               env->side[0].dev, env->name[0], env->side[1].dev, env->name[1], env->n_gpus,
               env->p2p ? "yes" : "no");
        printf("largest copy %s; %d timed repetitions; seed %llu\n",
               lab_format_size(env->cap, size_text, sizeof size_text), env->cfg->reps,
               (unsigned long long)env->cfg->seed);
    } else {
        printf("%d GPU(s) visible%s\n", env->n_gpus,
               env->n_gpus < 2 ? ": the cases that need more GPUs are skipped" : "");
    }
    print_bad_args(out);
    if (env->cfg->bad_args_only)
        return;
    print_sweep(env, out);
    print_stream_order(out);
    print_timing(env, out);
    print_current_device(env, out);
    print_ordering(env, out);

    claim claims[N_CLAIMS];
    int n = compute_claims(env, out, claims);
    printf("\nChapter 4.2, claim by claim\n");
    for (int i = 0; i < n; i++)
        printf("claim %s: %s: %s\n", claims[i].id, claims[i].verdict, claims[i].detail);
}
