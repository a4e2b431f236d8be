/**
 * @file plausible.c
 * @brief Lab 01's rules of its rows, for however many GPUs the run had, which the host tool's
 *        check runs on any run, live or recorded, whole or partial (plain C, no CUDA). An
 *        experiment may be absent (a run of some -t keys, or one recorded before it existed);
 *        what is there must be whole and right.
 */
#include "claims.h"

#include <string.h>

/** @brief A check in progress: its rows, where broken rules are said, and how many. */
typedef struct check {
    const lab_rows *rows; /**< the run's rows */
    lab_said said;        /**< where broken rules are said, and how many */
} check;


/** @brief The value of the row @p experiment, @p variant from @p src to @p dst ("" none). */
static const char *value(const check *c, const char *experiment, const char *variant, int src,
                         int dst)
{
    const lab_row *r = lab_rows_pick(c->rows, experiment, variant, NULL, NULL, src, dst, 0);
    return r != NULL ? r->value : "";
}

/** @brief Did @p experiment run: it has rows, and none says it was skipped? */
static int ran(const check *c, const char *experiment)
{
    return lab_rows_count(c->rows, experiment, NULL) > 0 &&
           lab_rows_count(c->rows, experiment, "skipped") == 0;
}

/** @brief Is @p text a CUDA error name (it starts with "cuda")? */
static int cuda(const char *text)
{
    return strncmp(text, "cuda", 4) == 0;
}

/** @brief Is @p text an integer: digits, a '-' before them or not? */
static int integer(const char *text)
{
    const char *p = text + (*text == '-');
    const size_t n = strspn(p, "0123456789");
    return n > 0 && p[n] == '\0';
}

/** @brief Is @p text a compute capability: digits, a '.', digits? */
static int capability(const char *text)
{
    const size_t n = strspn(text, "0123456789");
    return n > 0 && text[n] == '.' && text[n + 1] != '-' && integer(text + n + 1);
}

/** @brief The rules of one row by itself; counts the GPUs of gpus and matrix in @p gpus and
 *         @p n, and the flags rows a GPU has of itself in @p self_flags. */
static void row_rules(check *c, const lab_row *r, int *gpus, int *n, int *self_flags)
{
    const char *e = r->experiment;
    if (strcmp(r->variant, "skipped") == 0) {
        if (r->detail[0] == '\0')
            lab_bad(&c->said, "skipped %s without a reason", e);
        return;
    }
    if (r->verified == 0)
        lab_bad(&c->said, "not verified: %s %s %d->%d: %s", e, r->variant, r->src, r->dst,
                r->detail);
    if (strcmp(e, "gpus") == 0 && r->src + 1 > *gpus)
        *gpus = r->src + 1;
    if (strcmp(e, "matrix") == 0 && r->src + 1 > *n)
        *n = r->src + 1;
    if (strcmp(e, "flags") == 0 && strcmp(r->route, "loopback") == 0)
        ++*self_flags;
}

/** @brief GPU @p i has each of its gpus fields, and a compute capability such as 9.0. */
static void gpu(check *c, int i)
{
    static const char *const field[] = {"name", "compute_capability", "unified_addressing",
                                        "pci_bus_id"};
    for (size_t k = 0; k < sizeof field / sizeof field[0]; k++)
        if (value(c, "gpus", field[k], i, -1)[0] == '\0')
            lab_bad(&c->said, "GPU %d has no %s", i, field[k]);
    const char *cc = value(c, "gpus", "compute_capability", i, -1);
    if (!capability(cc))
        lab_bad(&c->said, "GPU %d compute capability is %s", i, cc);
}

/** @brief GPU @p i asked about itself: not its own peer, with flags and self_access rows
 *         where the run has them (@p self_flags: it has flags rows of a GPU itself). */
static void itself(check *c, int i, const char *can, int self_flags)
{
    if (strcmp(can, "0") != 0)
        lab_bad(&c->said, "GPU %d is listed as its own peer", i);
    if (self_flags && !cuda(value(c, "flags", "enable_flags_1", i, i)))
        lab_bad(&c->said, "no flags row for GPU %d itself", i);
    if (ran(c, "self_access") && !cuda(value(c, "self_access", "disable_again", i, i)))
        lab_bad(&c->said, "no self_access rows for GPU %d", i);
}

/** @brief The attributes of @p i -> @p j: each an integer, access_supported that of
 *         can_access_peer (@p can). */
static void attributes(check *c, int i, int j, const char *can)
{
    static const char *const attr[] = {"performance_rank", "access_supported",
                                       "native_atomic_supported", "cuda_array_access_supported"};
    if (!ran(c, "attributes"))
        return;
    for (size_t k = 0; k < sizeof attr / sizeof attr[0]; k++)
        if (!integer(value(c, "attributes", attr[k], i, j)))
            lab_bad(&c->said, "no %s for %d->%d", attr[k], i, j);
    if (strcmp(value(c, "attributes", "access_supported", i, j), can) != 0)
        lab_bad(&c->said, "access_supported and can_access_peer disagree for %d->%d", i, j);
}

/** @brief Does @p experiment's row @p variant of @p i -> @p j, where it ran, say @p want?
 *         Else says "@p what I->J[ failed]: VALUE". */
static void expect(check *c, const char *experiment, const char *variant, int i, int j,
                   const char *want, const char *what)
{
    const char *got = value(c, experiment, variant, i, j);
    if (ran(c, experiment) && strcmp(got, want) != 0)
        lab_bad(&c->said, what, i, j, got);
}

/** @brief A direction @p i -> @p j with peer access: flags=1 refused, enabling and disabling
 *         each work once and are refused twice, and the pair has a one-way probe. */
static void direction(check *c, int i, int j)
{
    const char *flags = value(c, "flags", "enable_flags_1", i, j);
    if (ran(c, "flags") && !cuda(flags))
        lab_bad(&c->said, "no flags row for %d->%d", i, j);
    if (strcmp(flags, "cudaSuccess") == 0)
        lab_bad(&c->said, "flags=1 accepted for %d->%d", i, j);
    expect(c, "enable_twice", "enable_first", i, j, "cudaSuccess", "enabling %d->%d failed: %s");
    expect(c, "enable_twice", "enable_again", i, j, "cudaErrorPeerAccessAlreadyEnabled",
           "second enable %d->%d: %s");
    expect(c, "disable_twice", "disable_first", i, j, "cudaSuccess",
           "disabling %d->%d failed: %s");
    expect(c, "disable_twice", "disable_again", i, j, "cudaErrorPeerAccessNotEnabled",
           "second disable %d->%d: %s");
    if (ran(c, "one_way") && i < j && !cuda(value(c, "one_way", "reverse_disable", j, i)))
        lab_bad(&c->said, "no one_way probe for the pair %d,%d", i, j);
}

/** @brief The matrix of @p n GPUs: a row per pair, 0 or 1, and each pair's own rules. */
static void matrix(check *c, int n, int self_flags)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (lab_rows_pick(c->rows, "matrix", "can_access_peer", NULL, NULL, i, j, 0) == NULL) {
                lab_bad(&c->said, "no matrix row for %d->%d", i, j);
                continue;
            }
            const char *can = value(c, "matrix", "can_access_peer", i, j);
            if (strcmp(can, "0") != 0 && strcmp(can, "1") != 0)
                lab_bad(&c->said, "can_access_peer %d->%d is %s", i, j, can);
            if (i == j) {
                itself(c, i, can, self_flags);
                continue;
            }
            attributes(c, i, j, can);
            if (strcmp(can, "1") == 0)
                direction(c, i, j);
        }
}

/**
 * @brief Lab 01's rules of its rows (lab_host_part::plausible): skips with a reason, nothing
 *        unverified, every GPU described, a whole 0/1 matrix of as many GPUs, and for each
 *        direction with peer access what the CUDA calls must return. Prints each broken one;
 *        returns how many.
 */
int lab01_plausible(const lab_rows *rows, FILE *out)
{
    check c = {rows, {out, 0}};
    int gpus = 0, n = 0, self_flags = 0;
    for (size_t i = 0; i < rows->count; i++)
        row_rules(&c, &rows->row[i], &gpus, &n, &self_flags);
    for (int i = 0; i < gpus; i++)
        gpu(&c, i);
    if (ran(&c, "gpus") && ran(&c, "matrix") && gpus != n)
        lab_bad(&c.said, "the matrix has %d GPUs, gpus lists %d", n, gpus);
    matrix(&c, n, self_flags);
    return c.said.count;
}
