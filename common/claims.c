/* Verdicts as functions of the rows. */
#include "claims.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vsay(char *said, size_t said_len, const char *fmt, va_list args)
{
    if (said != NULL && said_len > 0)
        vsnprintf(said, said_len, fmt, args);
}

lab_verdict lab_say(lab_verdict verdict, char *said, size_t said_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsay(said, said_len, fmt, args);
    va_end(args);
    return verdict;
}

lab_verdict lab_judge(int holds, char *said, size_t said_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsay(said, said_len, fmt, args);
    va_end(args);
    return holds ? LAB_HOLDS : LAB_DOES_NOT_HOLD;
}

/* A verdict's word in a claim row, indexed by lab_verdict. */
static const char *const words[] = {"untested", "holds", "does_not_hold"};

/** One figure a judge named (lab_figure()). */
typedef struct lab_named_figure {
    const char *claim; /**< the id of the claim being judged when it was named */
    char name[48];     /**< its name, as a headline template writes it */
    char value[sizeof ((lab_row *)0)->detail]; /**< as the sentence prints it */
} lab_named_figure;

/* The host tool is single-threaded and judges one lab's claims at a time: one table serves. */
static lab_named_figure figures[LAB_FIGURES_MAX];
static size_t figure_count;
static const char *judging; /* the claim being judged; NULL outside lab_claims_judge() */

void lab_figure(const char *name, const char *fmt, ...)
{
    char text[sizeof figures[0].value];
    size_t i = 0;
    if (judging == NULL)
        return;
    while (i < figure_count && !(figures[i].claim == judging && lab_is(figures[i].name, name)))
        i++;
    if (i == LAB_FIGURES_MAX) { /* a lab's judges name more figures than the table holds */
        fprintf(stderr, "error: claim %s: more than %d figures named (LAB_FIGURES_MAX)\n",
                judging, LAB_FIGURES_MAX);
        exit(1);
    }
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    figures[i].claim = judging;
    snprintf(figures[i].name, sizeof figures[i].name, "%s", name);
    /* Cleaned as the claim row's detail is, so the figure stays the sentence's text. */
    lab_row_set(figures[i].value, sizeof figures[i].value, "%s", text);
    figure_count += i == figure_count;
}

void lab_figures_write_csv(FILE *out)
{
    fprintf(out, "%s\n", LAB_FIGURES_HEADER);
    for (size_t i = 0; i < figure_count; i++)
        fprintf(out, "%s,%s,%s\n", figures[i].claim, figures[i].name, figures[i].value);
}

void lab_claims_judge(const lab_host_part *lab, lab_rows *rows)
{
    size_t measured = 0;
    figure_count = 0;
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].experiment, "claim") != 0)
            rows->row[measured++] = rows->row[i];
    rows->count = measured;
    /* Judges read the measured rows only; the claim rows go on at the end. */
    for (size_t i = 0; i < lab->claim_count; i++) {
        const lab_claim *claim = &lab->claims[i];
        char said[sizeof rows->row[0].detail] = "";
        lab_rows view = {rows->row, measured, measured, rows->recorded};
        judging = claim->id;
        lab_verdict verdict = claim->judge(&view, said, sizeof said);
        judging = NULL;
        lab_row row = lab_row_empty("claim", claim->id);
        lab_row_set(row.mode, sizeof row.mode, "%s", claim->section);
        lab_row_set(row.value, sizeof row.value, "%s",
                    (unsigned)verdict <= LAB_DOES_NOT_HOLD ? words[verdict] : "untested");
        lab_row_set(row.detail, sizeof row.detail, "%s", said[0] ? said : "no detail");
        lab_rows_add(rows, &row);
    }
}

void lab_bad(lab_said *said, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfprintf(said->out, fmt, args);
    va_end(args);
    fputc('\n', said->out);
    said->count++;
}

int lab_is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* Is WORD a verdict a claim row may hold: holds, does_not_hold or untested? */
static int verdict_word(const char *word)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (lab_is(word, words[i]))
            return 1;
    return 0;
}

/* Does LAB declare a claim of id ID? */
static int declared(const lab_host_part *lab, const char *id)
{
    for (size_t i = 0; i < lab->claim_count; i++)
        if (lab_is(lab->claims[i].id, id))
            return 1;
    return 0;
}

void lab_claim_rows_rules(const lab_host_part *lab, const lab_rows *rows, lab_said *said)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (!lab_is(r->experiment, "claim"))
            continue;
        /* An id the lab does not declare is said once, at its first row. */
        if (!declared(lab, r->variant) &&
            lab_rows_pick(rows, "claim", r->variant, NULL, NULL, LAB_ANY, LAB_ANY, 0) == r)
            lab_bad(said, "claim %s is not one of the lab's claims", r->variant);
        if (!verdict_word(r->value))
            lab_bad(said, "claim %s has verdict %s", r->variant, r->value);
        if (r->detail[0] == '\0')
            lab_bad(said, "claim %s has no detail", r->variant);
    }
    for (size_t k = 0; k < lab->claim_count; k++) {
        const size_t n = lab_rows_count(rows, "claim", lab->claims[k].id);
        if (n != 1)
            lab_bad(said, "claim %s appears %zu times", lab->claims[k].id, n);
    }
}
