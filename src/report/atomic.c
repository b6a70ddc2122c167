/* atomic.c: output files that appear whole or not at all. We write to a temporary in the target's
 * directory (so rename() stays on one filesystem and is atomic) and rename it on commit. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "tickscope.h"

static void atomic_clear(tks__atomic_file *af)
{
    free(af->tmp_path);
    free(af->final_path);
    af->f = NULL;
    af->tmp_path = NULL;
    af->final_path = NULL;
}

/* "<dir>/.<base>.tmp.XXXXXX" for "<dir>/<base>", ".<base>.tmp.XXXXXX" for a bare name.
 * Returns NULL on allocation failure; *bad is set when the path names no file. */
static char *temp_template(const char *path, int *bad)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0; /* keeps the slash */
    static const char suffix[] = ".tmp.XXXXXX";
    char *t;

    *bad = (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0);
    if (*bad)
        return NULL;
    t = malloc(dirlen + 1 + strlen(base) + sizeof suffix);
    if (!t)
        return NULL;
    memcpy(t, path, dirlen);
    t[dirlen] = '.';
    strcpy(t + dirlen + 1, base);
    strcat(t, suffix);
    return t;
}

/* mkstemp creates 0600; ordinary output should get what open(..., 0666) would give. Setting a
 * restrictive mask while we read it means another thread creating a file meanwhile gets
 * permissions too tight rather than too loose. */
static mode_t default_file_mode(void)
{
    mode_t old = umask(077);
    umask(old);
    return 0666 & ~old;
}

int tks__atomic_open(tks__atomic_file *af, const char *path)
{
    int bad, fd;

    if (!af)
        return TKS_EINVAL;
    af->f = NULL;
    af->tmp_path = NULL;
    af->final_path = NULL;
    if (!path || !*path)
        return TKS_EINVAL;
    if (strcmp(path, "-") == 0) {
        af->f = stdout;
        return 0;
    }
    af->tmp_path = temp_template(path, &bad);
    af->final_path = af->tmp_path ? strdup(path) : NULL;
    if (!af->tmp_path || !af->final_path) {
        atomic_clear(af);
        return bad ? TKS_EINVAL : TKS_ENOMEM;
    }
    fd = mkstemp(af->tmp_path);
    if (fd < 0) {
        atomic_clear(af);
        return TKS_EIO;
    }
    if (fchmod(fd, default_file_mode()) != 0 || !(af->f = fdopen(fd, "w"))) {
        close(fd);
        unlink(af->tmp_path);
        atomic_clear(af);
        return TKS_EIO;
    }
    return 0;
}

static int commit_stdout(tks__atomic_file *af)
{
    int failed = fflush(af->f) != 0 || ferror(af->f);

    atomic_clear(af);
    return failed ? TKS_EIO : 0;
}

int tks__atomic_commit(tks__atomic_file *af)
{
    int failed;

    if (!af || !af->f)
        return TKS_EINVAL;
    if (!af->tmp_path)
        return commit_stdout(af);
    /* fsync before rename: otherwise a crash can leave the new name pointing at an empty file. */
    failed = fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) != 0;
    failed |= fclose(af->f) != 0;
    af->f = NULL;
    if (!failed)
        failed = rename(af->tmp_path, af->final_path) != 0;
    if (failed)
        unlink(af->tmp_path);
    atomic_clear(af);
    return failed ? TKS_EIO : 0;
}

void tks__atomic_abort(tks__atomic_file *af)
{
    if (!af)
        return;
    if (af->f && af->tmp_path) {
        fclose(af->f);
        unlink(af->tmp_path);
    }
    atomic_clear(af);
}
