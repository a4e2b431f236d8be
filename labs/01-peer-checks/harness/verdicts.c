/**
 * @file verdicts.c
 * @brief Lab 01's host part: chapter 4.1's claims judged from the rows, and the report section
 *        (the P2P matrix and attributes). Plain C, so the host tool recomputes both from any
 *        recorded run; a row whose check failed (verified 0) is no measurement.
 */
#include "claims.h"

#include <stdio.h>
#include <string.h>

/* The checked row of one experiment and variant for src -> dst (NULL: none). */
static const lab_row *find(const lab_rows *rows, const char *exp, const char *variant,
                           int src, int dst)
{
    for (size_t i = 0; i < rows->count; i++)
        if (rows->row[i].verified &&
            lab_row_matches(&rows->row[i], exp, variant, NULL, NULL, src, dst, 0))
            return &rows->row[i];
    return NULL;
}

/* GPUs in the matrix: one more than the highest device id in it. */
static int matrix_size(const lab_rows *rows)
{
    int n = 0;
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].experiment, "matrix") == 0 && rows->row[i].src >= n)
            n = rows->row[i].src + 1;
    return n;
}

/* "The flags argument must be 0": flags 1 refused on every pair. On one GPU, the call on the
 * GPU itself tells only when flags 1 is answered differently from flags 0. */
static lab_verdict judge_flags(const lab_rows *rows, char *said, size_t len)
{
    int pairs = 0, accepted = 0;
    const char *refusal = "";
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (strcmp(r->experiment, "flags") != 0 || strcmp(r->route, "peer") != 0 || !r->verified)
            continue;
        pairs++;
        accepted += strcmp(r->value, "cudaSuccess") == 0;
        refusal = strcmp(r->value, "cudaSuccess") ? r->value : refusal;
    }
    if (pairs > 0 && refusal[0]) /* what flags=1 returned where it was refused */
        lab_figure("flags1", "%s", refusal);
    if (pairs > 0)
        return lab_judge(accepted == 0, said, len, "flags=1 was %s on %d of %d directions with "
                         "peer access%s%s", accepted ? "accepted" : "refused",
                         accepted ? accepted : pairs, pairs,
                         !refusal[0] ? "" : accepted ? "; the others return " : ": ", refusal);
    const lab_row *one = find(rows, "flags", "enable_flags_1", 0, 0);
    const lab_row *zero = find(rows, "self_access", "enable_first", 0, 0);
    if (one == NULL || zero == NULL)
        return lab_say(LAB_UNTESTED, said, len, "needs a pair with peer access or GPU 0's "
                       "flags and self_access rows: %s", lab_rows_skip_reason(rows, "flags", NULL));
    if (strcmp(one->value, zero->value) == 0)
        return lab_say(LAB_UNTESTED, said, len, "on GPU 0 itself flags 1 and flags 0 both "
                       "return %s: the call fails before the flags matter; needs a pair",
                       one->value);
    lab_figure("flags1", "%s", one->value);
    return lab_judge(strcmp(one->value, "cudaSuccess") != 0, said, len, "on GPU 0 itself "
                     "flags=1 returns %s where flags=0 returns %s: the flags value alone is "
                     "refused", one->value, zero->value);
}

/* "Once enabled, the memories are visible to each other": right after a -> b is enabled, is
 * b -> a on? */
static lab_verdict judge_mutual(const lab_rows *rows, char *said, size_t len)
{
    const lab_row *probe = lab_rows_find(rows, "one_way", "reverse_disable", NULL, NULL, 0);
    if (probe == NULL)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs with peer access: %s",
                       lab_rows_skip_reason(rows, "one_way", NULL));
    int a = probe->dst, b = probe->src;
    const lab_row *on = find(rows, "one_way", "enable_first", a, b);
    if (on == NULL) /* a run recorded before one_way was its own experiment */
        on = find(rows, "enable_twice", "enable_first", a, b);
    if (on == NULL || strcmp(on->value, "cudaSuccess") != 0)
        return lab_say(LAB_UNTESTED, said, len, "%d->%d was not enabled before the probe", a, b);
    if (strcmp(probe->value, "cudaErrorPeerAccessNotEnabled") == 0) {
        const char *access = "one-way"; /* the word a headline shows */
        lab_figure("access", "%s", access);
        return lab_say(LAB_DOES_NOT_HOLD, said, len, "enabling %d->%d left %d->%d off (disabling "
                       "it returned %s): access is %s; enable it from both sides", a, b, b,
                       a, probe->value, access);
    }
    if (strcmp(probe->value, "cudaSuccess") == 0)
        return lab_say(LAB_HOLDS, said, len, "enabling %d->%d turned %d->%d on as well", a, b,
                       b, a);
    return lab_say(LAB_UNTESTED, said, len, "disabling %d->%d returned %s, which says neither",
                   b, a, probe->value);
}

/* "P2P needs UVA": only a GPU without UVA could show it. */
static lab_verdict judge_uva(const lab_rows *rows, char *said, size_t len)
{
    int gpus = (int)lab_rows_count(rows, "gpus", "unified_addressing"), uva = 0;
    for (size_t i = 0; i < rows->count; i++)
        uva += lab_row_matches(&rows->row[i], "gpus", "unified_addressing", NULL, NULL, LAB_ANY,
                               LAB_ANY, 0) && strcmp(rows->row[i].value, "1") == 0;
    if (gpus == 0)
        return lab_say(LAB_UNTESTED, said, len, "no GPU was described: %s",
                       lab_rows_skip_reason(rows, "gpus", NULL));
    return lab_say(LAB_UNTESTED, said, len, "%d of %d GPUs have UVA: the case without it "
                   "cannot be run here", uva, gpus);
}

/* "The GPUs must be physically connected": only a pair known to be unconnected could show it. */
static lab_verdict judge_link(const lab_rows *rows, char *said, size_t len)
{
    int n = matrix_size(rows), on = 0;
    if (n < 2)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs; the matrix has %d", n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const lab_row *r = find(rows, "matrix", "can_access_peer", i, j);
            on += i != j && r != NULL && strcmp(r->value, "1") == 0;
        }
    return lab_say(LAB_UNTESTED, said, len, "%d of %d directions have peer access; %s", on,
                   n * (n - 1), on == n * (n - 1)
                       ? "no unconnected pair exists here to show the failure"
                       : "the matrix does not say whether a link or the platform is missing");
}

/* "Visible, but you still allocate and manage the memory yourself": with access on, a peer's
 * buffer stays the peer's own; freed by its owner, it is gone for the other GPU too. */
static lab_verdict judge_explicit(const lab_rows *rows, char *said, size_t len)
{
    const size_t pairs = lab_rows_count(rows, "explicit_memory", "owner_with_access");
    size_t kept = 0;
    for (size_t i = 0; i < rows->count; i++)
        kept += rows->row[i].verified == 1 &&
                lab_row_matches(&rows->row[i], "explicit_memory", "owner_with_access", NULL,
                                NULL, LAB_ANY, LAB_ANY, 0);
    const lab_row *after = lab_rows_find(rows, "explicit_memory", "after_owner_free", NULL,
                                         NULL, 0);
    if (pairs == 0)
        return lab_say(LAB_UNTESTED, said, len, "needs two GPUs with peer access: %s",
                       lab_rows_skip_reason(rows, "explicit_memory", NULL));
    lab_figure("kept", "%zu", kept);
    lab_figure("pairs", "%zu", pairs);
    return lab_judge(kept == pairs, said, len, "on %zu of %zu directions with access on, the "
                     "peer's cudaMalloc buffer was still the peer's device memory; after the "
                     "peer freed it the other GPU saw %s", kept, pairs,
                     after ? after->value : "?");
}

static const lab_claim claims[] = {
    {"flags_must_be_zero", "4.1", judge_flags},
    {"access_is_mutual", "4.1", judge_mutual},
    {"uva_required", "4.1", judge_uva},
    {"physical_link_required", "4.1", judge_link},
    {"memory_still_explicit", "4.1", judge_explicit},
};

static const char *value_of(const lab_rows *rows, const char *exp, const char *variant,
                            int src, int dst)
{
    const lab_row *r = find(rows, exp, variant, src, dst);
    return r ? r->value : "?";
}

static void report_attributes(const lab_rows *rows, int n, FILE *out)
{
    static const char *attr[] = {"performance_rank", "access_supported",
                                 "native_atomic_supported", "cuda_array_access_supported"};
    if (n < 2 || find(rows, "attributes", "access_supported", 0, 1) == NULL) {
        fprintf(out, "\nThe P2P attributes describe a pair of GPUs: %s.\n",
                lab_rows_skip_reason(rows, "attributes", NULL));
        return;
    }
    fprintf(out, "\n| pair | performance rank | access | native atomics | CUDA arrays |\n"
                 "| --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j) {
                fprintf(out, "| %d → %d", i, j);
                for (int k = 0; k < 4; k++)
                    fprintf(out, " | %s", value_of(rows, "attributes", attr[k], i, j));
                fprintf(out, " |\n");
            }
}

static void report(const lab_rows *rows, FILE *out)
{
    int n = matrix_size(rows);
    if (n == 0) {
        fprintf(out, "The matrix has no rows: %s.\n", lab_rows_skip_reason(rows, "matrix", NULL));
        return;
    }
    fprintf(out, "Peer access, `cudaDeviceCanAccessPeer` (row: device, column: peer):\n\n|");
    for (int j = 0; j < n; j++)
        fprintf(out, " | GPU %d", j);
    fprintf(out, " |\n| ---");
    for (int j = 0; j < n; j++)
        fprintf(out, " | ---");
    for (int i = 0; i < n; i++) {
        fprintf(out, " |\n| **GPU %d**", i);
        for (int j = 0; j < n; j++)
            fprintf(out, " | %s%s", value_of(rows, "matrix", "can_access_peer", i, j),
                    i == j ? " (itself)" : "");
    }
    const lab_row *d = find(rows, "matrix", "can_access_peer", 0, 0);
    if (d == NULL)
        fprintf(out, " |\n");
    else
        fprintf(out, " |\n\nOn the diagonal a GPU is asked about itself: the answer is %s "
                "(%.*s)%s.\n", d->value, (int)strcspn(d->detail, ";"), d->detail,
                strcmp(d->value, "0") ? ""
                : ": a GPU reaches its own memory without P2P, so it is not its own peer");
    report_attributes(rows, n, out);
}

/* The rules of the rows (plausible.c). */
int lab01_plausible(const lab_rows *rows, FILE *out);

const lab_host_part lab_host = {"01-peer-checks", claims, sizeof claims / sizeof claims[0],
                                report, lab01_plausible};
