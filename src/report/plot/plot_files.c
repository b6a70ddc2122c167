/* SPDX-License-Identifier: MIT */
/* plot_files.c: where the gnuplot figures go: the plot directory created and checked, file names
 * made safe, and each figure's data file and script written atomically, both or neither. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/plot/plot_internal.h"
#include "report/common/report.h"
#include "tickscope.h"

/* mkdir -p: each missing component in turn, so a run can name a fresh directory tree. */
static int make_dirs(const char *dir)
{
    char *p = strdup(dir), *s;
    struct stat st;
    int err = 0;

    if (!p)
        return TKS_ENOMEM;
    for (s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            err = errno;
        *s = '/';
        if (err)
            break;
    }
    if (!err && mkdir(p, 0777) != 0 && errno != EEXIST)
        err = errno;
    free(p);
    /* EEXIST also covers a file of that name: only a directory will do. */
    if (!err && stat(dir, &st) != 0)
        err = errno;
    if (!err && !S_ISDIR(st.st_mode))
        err = ENOTDIR;
    errno = err;
    return err ? TKS_EIO : 0;
}

/* A file name from name: characters outside [A-Za-z0-9._-] become '_', and so does a leading
 * '.', which would hide the files and could be mistaken for the atomic writer's temporaries. */
static char *safe_name(const char *name)
{
    char *s = strdup(name), *c;
    if (!s)
        return NULL;
    for (c = s; *c; c++) {
        int ok = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
                 *c == '.' || *c == '_' || *c == '-';
        if (!ok || (c == s && *c == '.'))
            *c = '_';
    }
    return s;
}

static char *join(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + 1 + strlen(name) + strlen(ext) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

int tks__plot_dir_ready(const char *dir, char *why, size_t size)
{
    tks__atomic_file af;
    char *probe;
    int rc;

    if (!dir || !*dir) {
        snprintf(why, size, "no directory given");
        return TKS_EINVAL;
    }
    if ((rc = make_dirs(dir)) != 0) {
        snprintf(why, size, "cannot create the plot directory '%s': %s", dir,
                 rc == TKS_ENOMEM ? tks_strerror(rc) : strerror(errno));
        return rc;
    }
    /* A temporary created and removed at once: what each figure's files will need. */
    if (!(probe = join(dir, "tickscope-probe", ""))) {
        snprintf(why, size, "%s", tks_strerror(TKS_ENOMEM));
        return TKS_ENOMEM;
    }
    rc = tks__atomic_open(&af, probe);
    free(probe);
    if (rc) {
        snprintf(why, size, "cannot write plots to '%s': %s", dir, tks__atomic_why(&af, rc));
        return TKS_EIO;
    }
    tks__atomic_abort(&af);
    return 0;
}

static void figure_free(struct tks__plot_figure *fig)
{
    free(fig->name);
    free(fig->dat_path);
    free(fig->gp_path);
    fig->name = fig->dat_path = fig->gp_path = NULL;
}

void tks__plot_figure_abort(struct tks__plot_figure *fig)
{
    int err = errno;
    tks__atomic_abort(&fig->dat);
    tks__atomic_abort(&fig->gp);
    figure_free(fig);
    errno = err;
}

int tks__plot_figure_open(struct tks__plot_figure *fig, const char *dir, const char *name)
{
    int rc;
    memset(fig, 0, sizeof *fig);
    if (!dir || !*dir || !name || !*name)
        return TKS_EINVAL;
    if ((rc = make_dirs(dir)) != 0)
        return rc;
    fig->name = safe_name(name);
    fig->dat_path = fig->name ? join(dir, fig->name, ".dat") : NULL;
    fig->gp_path = fig->name ? join(dir, fig->name, ".gp") : NULL;
    if (!fig->dat_path || !fig->gp_path) {
        figure_free(fig);
        return TKS_ENOMEM;
    }
    if ((rc = tks__atomic_open(&fig->dat, fig->dat_path)) != 0 ||
        (rc = tks__atomic_open(&fig->gp, fig->gp_path)) != 0) {
        errno = fig->dat.err ? fig->dat.err : fig->gp.err; /* the caller names the cause */
        tks__plot_figure_abort(fig);
        return rc;
    }
    return 0;
}

/* Both files or neither: a data file whose script failed is removed again, so a directory never
 * holds half a figure. */
int tks__plot_figure_commit(struct tks__plot_figure *fig)
{
    int rc = tks__atomic_commit(&fig->dat), err;
    if (rc) {
        errno = fig->dat.err;
        tks__plot_figure_abort(fig);
        return rc;
    }
    rc = tks__atomic_commit(&fig->gp);
    if (rc) {
        err = fig->gp.err;
        unlink(fig->dat_path);
        errno = err;
    }
    figure_free(fig);
    return rc;
}
