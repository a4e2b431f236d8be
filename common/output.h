/**
 * @file output.h
 * @brief Machine-readable output: CSV that tests, plots and the report read.
 *
 * Every lab prints a table for people by default and CSV with --csv. The
 * CSV has one header line and then one record per line; text fields are
 * quoted only when they hold a comma, a quote or a line break (RFC 4180).
 */
#ifndef LAB_OUTPUT_H
#define LAB_OUTPUT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief How a program prints its results. */
typedef enum lab_format {
    LAB_FORMAT_TABLE = 0, /**< aligned text for people */
    LAB_FORMAT_CSV = 1    /**< CSV for tests and plots */
} lab_format;

/**
 * @brief Write one CSV text field, quoted when it needs to be.
 */
void lab_csv_field(FILE *out, const char *text);

/**
 * @brief Write a CSV record: the format is printf-style, fields separated by
 *        commas; use lab_csv_field() for free text such as GPU names.
 */
void lab_csv_row(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif /* LAB_OUTPUT_H */
