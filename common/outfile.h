/**
 * @file outfile.h
 * @brief Result files written whole or not at all.
 *
 * A run that is interrupted (Ctrl-C, a killed job, a full disk) must never
 * leave a half-written CSV that a plot or a report later reads as if it
 * were complete. So a result file is written under a temporary name beside
 * its final one and renamed into place only once it is complete: rename()
 * within one folder replaces the old file in one step, so a reader sees the
 * previous complete file or the new complete one, never a part.
 */
#ifndef LAB_OUTFILE_H
#define LAB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A result file being written: its final path and its temporary one. */
typedef struct lab_outfile {
    FILE *stream;        /**< write here */
    char path[4096];     /**< where the file goes once complete */
    char tmp_path[4160]; /**< where it is written meanwhile: path.tmp.PID */
} lab_outfile;

/** @brief Open @p path under a temporary name; else "prog: cannot write ..." and exit 1. */
void lab_outfile_open(lab_outfile *file, const char *prog, const char *path);

/**
 * @brief Close the file and rename it into place. On failure (a full disk shows up here)
 *        remove it, print "prog: cannot write ..." and exit 1, leaving the old file as it was.
 */
void lab_outfile_commit(lab_outfile *file, const char *prog);

#ifdef __cplusplus
}
#endif

#endif /* LAB_OUTFILE_H */
