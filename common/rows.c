/* Result rows: building, CSV out and in, a table for people, and finding rows. */
#include "rows.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

lab_row lab_row_empty(const char *experiment, const char *variant)
{
    lab_row row;
    memset(&row, 0, sizeof row);
    row.src = row.dst = row.verified = -1;
    lab_row_set(row.experiment, sizeof row.experiment, "%s", experiment ? experiment : "");
    lab_row_set(row.variant, sizeof row.variant, "%s", variant ? variant : "");
    return row;
}

/* A comma or a line break would split the CSV field: make it harmless. */
static void clean_field(char *text)
{
    for (; *text; text++)
        if (*text == ',')
            *text = ';';
        else if (*text == '\n' || *text == '\r')
            *text = ' ';
}

void lab_row_set(char *field, size_t size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(field, size, fmt, args);
    va_end(args);
    clean_field(field);
}

lab_row *lab_rows_add(lab_rows *rows, const lab_row *row)
{
    if (rows->count == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 64;
        lab_row *grown = realloc(rows->row, cap * sizeof *grown);
        if (grown == NULL) {
            fprintf(stderr, "error: out of host memory for %zu result rows\n", cap);
            exit(1);
        }
        rows->row = grown;
        rows->cap = cap;
    }
    lab_row *slot = &rows->row[rows->count++];
    *slot = *row;
    char *text[] = {slot->experiment, slot->variant, slot->route, slot->mode, slot->value,
                    slot->detail};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        clean_field(text[i]);
    return slot;
}

void lab_rows_free(lab_rows *rows)
{
    free(rows->row);
    memset(rows, 0, sizeof *rows);
}

/* A time is empty without samples, a rate when it is 0. */
static void put_number(FILE *out, double value, int empty)
{
    if (empty)
        fputs(",", out);
    else
        fprintf(out, ",%.9g", value);
}

static void write_row_csv(const lab_row *r, FILE *out)
{
    fprintf(out, "%s,%s,%s,%d,%d,%s,%zu,%ld,%zu", r->experiment, r->variant, r->route, r->src,
            r->dst, r->mode, r->bytes, r->count, r->us.count);
    put_number(out, r->us.median, r->us.count == 0);
    put_number(out, r->us.min, r->us.count == 0);
    put_number(out, r->us.max, r->us.count == 0);
    put_number(out, r->gbps, r->gbps == 0.0);
    put_number(out, r->peak_gbps, r->peak_gbps == 0.0);
    fprintf(out, ",%d,%s,%s\n", r->verified, r->value, r->detail);
}

void lab_rows_write_csv(const lab_rows *rows, FILE *out)
{
    fprintf(out, "%s\n", LAB_ROWS_HEADER);
    for (size_t i = 0; i < rows->count; i++)
        write_row_csv(&rows->row[i], out);
    fflush(out);
}

/* One line per row; only the columns that hold something are shown. */
static void write_row_text(const lab_row *r, FILE *out)
{
    fprintf(out, "  %-26s", r->variant);
    if (r->route[0])
        fprintf(out, " %-9s", r->route);
    if (r->src >= 0 || r->dst >= 0)
        fprintf(out, " %2d->%-2d", r->src, r->dst);
    if (r->mode[0])
        fprintf(out, " %-10s", r->mode);
    if (r->bytes)
        fprintf(out, " %12zu B", r->bytes);
    if (r->us.count)
        fprintf(out, " %11.3f us [%.3f..%.3f]", r->us.median, r->us.min, r->us.max);
    if (r->gbps > 0.0)
        fprintf(out, " %9.2f GB/s", r->gbps);
    if (r->peak_gbps > 0.0)
        fprintf(out, " (peak %.1f)", r->peak_gbps);
    if (r->verified == 0)
        fputs(" NOT VERIFIED", out);
    if (r->value[0])
        fprintf(out, " = %s", r->value);
    if (r->detail[0])
        fprintf(out, "  %s", r->detail);
    fputc('\n', out);
}

void lab_rows_write_table(const lab_rows *rows, FILE *out)
{
    const char *current = NULL;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (current == NULL || strcmp(current, r->experiment) != 0) {
            fprintf(out, "%s%s\n", current ? "\n" : "", r->experiment);
            current = r->experiment;
        }
        write_row_text(r, out);
    }
    fflush(out);
}

/* Fields of a result row. */
#define ROW_FIELDS 17

/* Split at the commas: the number of fields, or -1 when there are too many. */
static int split_line(char *line, char **field)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line;; *p++ = '\0') {
        if (n == ROW_FIELDS)
            return -1;
        field[n++] = p;
        if ((p = strchr(p, ',')) == NULL)
            return n;
    }
}

static int read_long(const char *text, long *value)
{
    char *end;
    errno = 0;
    *value = strtol(text, &end, 10);
    return (end == text || *end != '\0' || errno) ? -1 : 0;
}

/* An empty field is 0. */
static int read_double(const char *text, double *value)
{
    char *end = NULL;
    errno = 0;
    *value = *text ? strtod(text, &end) : 0.0;
    return *text && (end == text || *end != '\0' || errno) ? -1 : 0;
}

static int parse_row(char **f, lab_row *r)
{
    long src, dst, bytes, count, reps, verified;
    *r = lab_row_empty(f[0], f[1]);
    snprintf(r->route, sizeof r->route, "%s", f[2]);
    snprintf(r->mode, sizeof r->mode, "%s", f[5]);
    snprintf(r->value, sizeof r->value, "%s", f[15]);
    snprintf(r->detail, sizeof r->detail, "%s", f[16]);
    if (read_long(f[3], &src) || read_long(f[4], &dst) || read_long(f[6], &bytes) ||
        read_long(f[7], &count) || read_long(f[8], &reps) || read_long(f[14], &verified) ||
        bytes < 0 || reps < 0)
        return -1;
    r->src = (int)src;
    r->dst = (int)dst;
    r->bytes = (size_t)bytes;
    r->count = count;
    r->us.count = (size_t)reps;
    r->verified = (int)verified;
    if (read_double(f[9], &r->us.median) || read_double(f[10], &r->us.min) ||
        read_double(f[11], &r->us.max) || read_double(f[12], &r->gbps) ||
        read_double(f[13], &r->peak_gbps))
        return -1;
    r->us.mean = r->us.median;
    return 0;
}

int lab_rows_read_csv(FILE *in, lab_rows *rows, char *why, size_t why_len)
{
    char line[2048];
    char *field[ROW_FIELDS];
    if (fgets(line, sizeof line, in) == NULL) {
        snprintf(why, why_len, "empty file: expected the header '%s'", LAB_ROWS_HEADER);
        return -1;
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, LAB_ROWS_HEADER) != 0) {
        snprintf(why, why_len, "line 1 is not the result header '%s'", LAB_ROWS_HEADER);
        return -1;
    }
    for (long number = 2; fgets(line, sizeof line, in) != NULL; number++) {
        lab_row row;
        if (strchr(line, '\n') == NULL && !feof(in)) {
            snprintf(why, why_len, "line %ld: longer than %zu characters", number,
                     sizeof line - 2);
            return -1;
        }
        if (line[0] == '\n' || line[0] == '\0')
            continue;
        if (split_line(line, field) != ROW_FIELDS || parse_row(field, &row) != 0) {
            snprintf(why, why_len, "line %ld: not a result row of %d fields", number,
                     ROW_FIELDS);
            return -1;
        }
        lab_rows_add(rows, &row);
    }
    return 0;
}

int lab_row_matches(const lab_row *r, const char *experiment, const char *variant,
                    const char *route, const char *mode, int src, int dst, size_t bytes)
{
    return !((experiment && strcmp(r->experiment, experiment)) ||
             (variant && strcmp(r->variant, variant)) || (route && strcmp(r->route, route)) ||
             (mode && strcmp(r->mode, mode)) || (src != LAB_ANY && r->src != src) ||
             (dst != LAB_ANY && r->dst != dst) || (bytes && r->bytes != bytes));
}

const lab_row *lab_rows_pick(const lab_rows *rows, const char *experiment, const char *variant,
                             const char *route, const char *mode, int src, int dst, size_t bytes)
{
    for (size_t i = 0; i < rows->count; i++)
        if (lab_row_matches(&rows->row[i], experiment, variant, route, mode, src, dst, bytes))
            return &rows->row[i];
    return NULL;
}

const lab_row *lab_rows_largest(const lab_rows *rows, const char *experiment,
                                const char *variant, const char *route, const char *mode,
                                int src, int dst)
{
    const lab_row *best = NULL;
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (lab_row_matches(r, experiment, variant, route, mode, src, dst, 0) && r->us.count &&
            (best == NULL || r->bytes > best->bytes))
            best = r;
    }
    return best;
}

/* lab_rows_find's "" matches anything, as NULL does. */
static const char *any(const char *text)
{
    return text && text[0] ? text : NULL;
}

const lab_row *lab_rows_find(const lab_rows *rows, const char *experiment,
                             const char *variant, const char *route, const char *mode,
                             size_t bytes)
{
    return lab_rows_pick(rows, any(experiment), any(variant), any(route), any(mode), LAB_ANY,
                         LAB_ANY, bytes);
}

const char *lab_rows_skip_reason(const lab_rows *rows, const char *experiment,
                                 const char *route)
{
    for (size_t i = 0; i < rows->count; i++) {
        const lab_row *r = &rows->row[i];
        if (lab_row_matches(r, experiment, "skipped", NULL, NULL, LAB_ANY, LAB_ANY, 0) &&
            (route == NULL || r->route[0] == '\0' || strcmp(r->route, route) == 0))
            return r->detail;
    }
    if (lab_rows_count(rows, experiment, NULL) == 0) /* e.g. a recording older than it */
        return "the run has no rows of this experiment (it was not chosen with -t or the "
               "recording is older than the experiment)";
    return "the experiment did not run";
}

size_t lab_rows_count(const lab_rows *rows, const char *experiment, const char *variant)
{
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++)
        n += lab_row_matches(&rows->row[i], any(experiment), variant, NULL, NULL, LAB_ANY,
                             LAB_ANY, 0);
    return n;
}

const char *lab_rows_machine(const lab_rows *rows)
{
    return rows->recorded ? "that machine" : "this machine";
}

/* The measuring program's words for its own machine, in a detail, as another machine says
 * them: "this" becomes "that" (as long: the text stays in place). */
static void of_that_machine(char *detail)
{
    static const char *const own[] = {"this machine", "This machine"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        for (char *at = strstr(detail, own[i]); at != NULL; at = strstr(at, own[i]))
            memcpy(at, i == 0 ? "that" : "That", 4);
}

void lab_rows_mark_recorded(lab_rows *rows)
{
    if (rows->recorded)
        return;
    rows->recorded = 1;
    for (size_t i = 0; i < rows->count; i++)
        of_that_machine(rows->row[i].detail);
}
