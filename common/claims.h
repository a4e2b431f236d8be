/**
 * @file claims.h
 * @brief The chapter's claims and their one verdict type: a verdict is a function of the result
 *        rows alone, so the verdicts of any recorded run recompute without a GPU (the lab's host
 *        tool does that). The chapter's words for each claim id are in the lab's claims.tsv.
 */
#ifndef LAB_CLAIMS_H
#define LAB_CLAIMS_H

#include "rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The one verdict type. */
typedef enum lab_verdict {
    LAB_UNTESTED = 0,      /**< cannot be tested here: the rows it needs are missing */
    LAB_HOLDS = 1,         /**< the measurement agrees with the chapter's words */
    LAB_DOES_NOT_HOLD = 2  /**< the measurement contradicts them */
} lab_verdict;

/** @brief Judge a claim from the measured rows; @p said: the measurement, or why untested. */
typedef lab_verdict (*lab_judge_fn)(const lab_rows *rows, char *said, size_t said_len);

/** @brief One claim of the chapter, as a lab tests it. */
typedef struct lab_claim {
    const char *id;      /**< key shared with the lab's claims.tsv */
    const char *section; /**< chapter section, e.g. "4.1" */
    lab_judge_fn judge;  /**< the verdict as a function of the rows */
} lab_claim;

/** @brief What a lab's host part offers: its claims and its report section. */
typedef struct lab_host_part {
    const char *name;           /**< the lab's folder name, e.g. "01-peer-checks" */
    const lab_claim *claims;    /**< its claims */
    size_t claim_count;         /**< how many */
    /** Markdown for the report, from the rows alone (NULL: a table of rows). */
    void (*report)(const lab_rows *rows, FILE *out);
    /**
     * The rules every run's rows obey, of physics and of the lab (NULL: none): prints each
     * broken one to @p out, a line each, and returns how many. The host tool's check runs them
     * on any result file, live or recorded, whole or partial (-t).
     */
    int (*plausible)(const lab_rows *rows, FILE *out);
} lab_host_part;

/** Each lab's host part defines this; common/host_tool_main.c runs it. */
extern const lab_host_part lab_host;

/** @brief Set @p said and return @p verdict: judge helpers' common tail. */
lab_verdict lab_say(lab_verdict verdict, char *said, size_t said_len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** @brief LAB_HOLDS when @p holds, else LAB_DOES_NOT_HOLD, with @p said set. */
lab_verdict lab_judge(int holds, char *said, size_t said_len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** @brief Most figures the judges of one lab_claims_judge() may name, all claims together. */
#define LAB_FIGURES_MAX 128

/** @brief The header of the figures' CSV (lab_figures_write_csv()): one row a figure. */
#define LAB_FIGURES_HEADER "claim,figure,value"

/**
 * @brief Name a figure the verdict of the claim being judged rests on, for the decks and
 *        handouts to show: @p name (lowercase letters, digits and '_') and its value printed
 *        with printf's @p fmt, the very format and argument the sentence prints it with, so that
 *        the figure is the number in the sentence. Naming it again replaces it; outside
 *        lab_claims_judge() it does nothing.
 */
void lab_figure(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** @brief The figures named during the last lab_claims_judge(), as CSV under LAB_FIGURES_HEADER. */
void lab_figures_write_csv(FILE *out);

/** @brief Where a lab's row rules (lab_host_part.plausible) say what is broken, and how many. */
typedef struct lab_said {
    FILE *out; /**< one line per broken rule */
    int count; /**< broken rules so far */
} lab_said;

/** @brief Say one broken rule (printf's arguments) on a line of its own, and count it. */
void lab_bad(lab_said *said, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** @brief Are the two strings equal? (The row rules compare fields with words.) */
int lab_is(const char *a, const char *b);

/**
 * @brief The rules every lab's claim rows obey, each broken one said on @p said: each row a
 *        claim @p lab declares, with one of the verdicts holds, does_not_hold or untested and
 *        a detail; each declared claim exactly once. (A host tool's check holds every lab to
 *        them; a lab's own rules need not repeat them.)
 */
void lab_claim_rows_rules(const lab_host_part *lab, const lab_rows *rows, lab_said *said);

/**
 * @brief Replace the "claim" rows of @p rows with one per claim (variant id, mode section,
 *        value verdict, detail said): a recorded run's verdicts recompute as a live run's.
 *        The figures its judges name (lab_figure()) replace those of the last call.
 */
void lab_claims_judge(const lab_host_part *lab, lab_rows *rows);

#ifdef __cplusplus
}
#endif

#endif /* LAB_CLAIMS_H */
