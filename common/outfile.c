/* Result files written under a temporary name, then renamed into place (rows.h says why). */
#define _POSIX_C_SOURCE 200809L
#include "rows.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static LAB_NORETURN void fail(const lab_outfile *file, const char *prog, int error)
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
    if ((file->stream = fopen(file->tmp_path, "w")) == NULL)
        fail(file, prog, errno);
}

void lab_outfile_commit(lab_outfile *file, const char *prog)
{
    int error = ferror(file->stream) ? EIO : 0;
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
