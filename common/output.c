/**
 * @file output.c
 * @brief CSV writing.
 */
#include "output.h"

#include <stdarg.h>
#include <string.h>

void lab_csv_field(FILE *out, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out); /* a quote inside a field is written twice */
        fputc(*c, out);
    }
    fputc('"', out);
}

void lab_csv_row(FILE *out, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfprintf(out, fmt, args);
    va_end(args);
    fputc('\n', out);
}
