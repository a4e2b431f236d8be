/* Verdicts as functions of the rows. */
#include "claims.h"

#include <stdarg.h>
#include <stdio.h>
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

void lab_claims_judge(const lab_host_part *lab, lab_rows *rows)
{
    size_t measured = 0;
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->row[i].experiment, "claim") != 0)
            rows->row[measured++] = rows->row[i];
    rows->count = measured;
    /* Judges read the measured rows only; the claim rows go on at the end. */
    for (size_t i = 0; i < lab->claim_count; i++) {
        const lab_claim *claim = &lab->claims[i];
        char said[sizeof rows->row[0].detail] = "";
        lab_rows view = {rows->row, measured, measured, rows->recorded};
        lab_verdict verdict = claim->judge(&view, said, sizeof said);
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

int lab_verdict_word(const char *word)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (lab_is(word, words[i]))
            return 1;
    return 0;
}

int lab_claim_declared(const lab_host_part *lab, const char *id)
{
    for (size_t i = 0; i < lab->claim_count; i++)
        if (lab_is(lab->claims[i].id, id))
            return 1;
    return 0;
}
