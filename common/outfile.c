/**
 * @file outfile.c
 * @brief Result files written under a temporary name, then renamed.
 */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include "lab_exit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(lab_outfile *file, const char *prog, int error)
{
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, file->path, strerror(error));
    exit(LAB_EXIT_FAIL);
}

void lab_outfile_open(lab_outfile *file, const char *prog, const char *path)
{
    memset(file, 0, sizeof *file);
    if (strlen(path) >= sizeof file->path) {
        snprintf(file->path, sizeof file->path, "%.64s...", path);
        fail(file, prog, ENAMETOOLONG);
    }
    snprintf(file->path, sizeof file->path, "%s", path);
    /* The process id keeps two runs writing into one folder apart. */
    snprintf(file->tmp_path, sizeof file->tmp_path, "%s.tmp.%ld", path, (long)getpid());
    file->stream = fopen(file->tmp_path, "w");
    if (file->stream == NULL)
        fail(file, prog, errno);
}

void lab_outfile_commit(lab_outfile *file, const char *prog)
{
    int error = 0;
    if (ferror(file->stream))
        error = EIO;
    if (fclose(file->stream) != 0 && error == 0)
        error = errno;
    file->stream = NULL;
    if (error == 0 && rename(file->tmp_path, file->path) != 0)
        error = errno;
    if (error != 0) {
        remove(file->tmp_path);
        fail(file, prog, error);
    }
}
