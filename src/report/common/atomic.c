/* SPDX-License-Identifier: MIT */
/* atomic.c: output files that are safe to point anywhere. A regular file appears whole or not at
 * all: we write a temporary in the target's directory (so rename() stays on one filesystem and is
 * atomic) and rename it on commit. Anything else that can take bytes is written directly. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "report/common/report.h"
#include "tickscope.h"

/* Our streams go through a cookie so that the first write error keeps its errno: stdio only
 * keeps a flag, and by the commit errno says something else or nothing. */
struct sink {
    int fd;
    int err;
    int keep_open; /* stdout: flushed, never closed */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    struct sink *s = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(s->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!s->err)
                s->err = w < 0 ? errno : EIO;
            return 0; /* fopencookie: 0 is the error return */
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int sink_close(void *cookie)
{
    struct sink *s = cookie;
    int rc = s->keep_open ? 0 : close(s->fd);
    if (rc != 0 && !s->err)
        s->err = errno;
    s->fd = -1;
    return rc;
}

static void atomic_clear(tks__atomic_file *af)
{
    tks__atomic_untrack(af->slot - 1);
    if (af->f)
        tks__term_stream(af->f, -1);
    free(af->tmp_path);
    free(af->final_path);
    free(af->sink);
    af->f = NULL;
    af->tmp_path = NULL;
    af->final_path = NULL;
    af->sink = NULL;
    af->slot = 0;
}

static int fail(tks__atomic_file *af, int err, int rc)
{
    af->err = err;
    atomic_clear(af);
    return rc;
}

/* A stream over fd that remembers its first error; on failure fd is closed. */
static int open_sink(tks__atomic_file *af, int fd)
{
    static const cookie_io_functions_t io = {NULL, sink_write, NULL, sink_close};
    struct sink *s = malloc(sizeof *s);
    if (!s) {
        close(fd);
        return TKS_ENOMEM;
    }
    s->fd = fd;
    s->err = 0;
    s->keep_open = fd == STDOUT_FILENO;
    af->sink = s;
    if (!(af->f = fopencookie(s, "w", io))) {
        af->err = errno;
        if (!s->keep_open)
            close(fd);
        return TKS_EIO;
    }
    tks__term_stream(af->f, fd); /* a terminal's width for the tables written to it */
    return 0;
}

/* "<dir>/.<base>.tmp.XXXXXX" for "<dir>/<base>". A long base is shortened in the temporary's name
 * so that a name which fits NAME_MAX does not fail for its temporary's sake. */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0; /* keeps the slash */
    size_t baselen = strlen(base) > 200 ? 200 : strlen(base);
    static const char suffix[] = ".tmp.XXXXXX";
    char *t = malloc(dirlen + 1 + baselen + sizeof suffix);

    if (!t)
        return NULL;
    memcpy(t, path, dirlen);
    t[dirlen] = '.';
    memcpy(t + dirlen + 1, base, baselen);
    memcpy(t + dirlen + 1 + baselen, suffix, sizeof suffix);
    return t;
}

/* The name a chain of symbolic links ends at (which need not exist yet: a dangling link is
 * written through, as the shell's > does). NULL with *err set on failure. */
static char *follow_links(const char *path, int *err)
{
    char *cur = strdup(path), target[PATH_MAX];
    int hops;

    for (hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        ssize_t n;
        char *next, *slash;
        size_t dirlen;

        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if ((n = readlink(cur, target, sizeof target - 1)) < 0) {
            *err = errno;
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        slash = strrchr(cur, '/');
        dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        if ((next = malloc(dirlen + (size_t)n + 1)) != NULL) {
            memcpy(next, cur, dirlen);
            memcpy(next + dirlen, target, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    *err = cur ? ELOOP : ENOMEM;
    free(cur);
    return NULL;
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

static int open_temporary(tks__atomic_file *af, const char *target, mode_t mode)
{
    int fd, rc;
    if (!(af->tmp_path = temp_template(target)) || !(af->final_path = strdup(target)))
        return fail(af, ENOMEM, TKS_ENOMEM);
    if ((fd = mkstemp(af->tmp_path)) < 0)
        return fail(af, errno, TKS_EIO);
    af->slot = tks__atomic_track(af->tmp_path) + 1;
    if (fchmod(fd, mode) != 0) {
        int err = errno;
        close(fd);
        unlink(af->tmp_path);
        return fail(af, err, TKS_EIO);
    }
    if ((rc = open_sink(af, fd)) != 0) {
        unlink(af->tmp_path);
        return fail(af, af->err ? af->err : ENOMEM, rc);
    }
    return 0;
}

/* A Unix socket is connected to, as a stream if it takes one, else as datagrams. */
static int connect_socket(const char *path)
{
    struct sockaddr_un sa;
    int fd, type;

    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strcpy(sa.sun_path, path);
    for (type = SOCK_STREAM;; type = SOCK_DGRAM) {
        if ((fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0)) < 0)
            return -1;
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0)
            return fd;
        int err = errno;
        close(fd);
        errno = err;
        if (err != EPROTOTYPE || type == SOCK_DGRAM)
            return -1;
    }
}

static int open_direct(tks__atomic_file *af, const char *target, int is_socket)
{
    int fd = is_socket ? connect_socket(target) : open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int rc;
    if (fd < 0)
        return fail(af, errno, TKS_EIO);
    if ((rc = open_sink(af, fd)) != 0)
        return fail(af, af->err ? af->err : ENOMEM, rc);
    return 0;
}

int tks__atomic_open(tks__atomic_file *af, const char *path)
{
    const char *slash, *base;
    struct stat st;
    char *target;
    int err = 0, rc;

    if (!af)
        return TKS_EINVAL;
    memset(af, 0, sizeof *af);
    if (!path || !*path)
        return TKS_EINVAL;
    if (strcmp(path, "-") == 0) {
        /* Our own stream over descriptor 1, so that a full disk says ENOSPC: what stdout printed
         * before goes out first. */
        fflush(stdout);
        if ((rc = open_sink(af, STDOUT_FILENO)) != 0)
            atomic_clear(af);
        return rc;
    }
    slash = strrchr(path, '/');
    base = slash ? slash + 1 : path;
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        af->err = EISDIR; /* "dir/", "dir/." and "dir/.." all name directories */
        return TKS_EINVAL;
    }
    if (!(target = follow_links(path, &err))) {
        af->err = err;
        return err == ENOMEM ? TKS_ENOMEM : TKS_EIO;
    }
    if (stat(target, &st) != 0) {
        err = errno;
        rc = err == ENOENT ? open_temporary(af, target, default_file_mode()) : fail(af, err, TKS_EIO);
    } else if (S_ISDIR(st.st_mode)) {
        rc = fail(af, EISDIR, TKS_EIO);
    } else if (S_ISBLK(st.st_mode)) {
        af->why = "it is a block device (a disk): tickscope writes reports to files, pipes and "
                  "character devices only";
        rc = TKS_EINVAL;
    } else if (S_ISREG(st.st_mode)) {
        rc = open_temporary(af, target, st.st_mode & 0777); /* the replaced file's permissions */
    } else {
        rc = open_direct(af, target, S_ISSOCK(st.st_mode));
    }
    free(target);
    return rc;
}

/* Flush and close, keeping the first error's errno; 0 if all went well. */
static int finish_stream(tks__atomic_file *af, int sync)
{
    struct sink *s = af->sink;
    int err = 0;
    if (fflush(af->f) != 0 || ferror(af->f))
        err = s->err ? s->err : EIO;
    if (!err && sync && fsync(s->fd) != 0 && errno != EINVAL && errno != EROFS)
        err = errno; /* fsync before rename: else a crash can leave the new name on an empty file */
    if (fclose(af->f) != 0 && !err)
        err = s->err ? s->err : EIO;
    af->f = NULL;
    return err;
}

int tks__atomic_commit(tks__atomic_file *af)
{
    int err = 0;

    if (!af || !af->f || !af->sink)
        return TKS_EINVAL;
    err = finish_stream(af, af->tmp_path != NULL);
    if (af->tmp_path && !err && rename(af->tmp_path, af->final_path) != 0)
        err = errno;
    if (af->tmp_path && err)
        unlink(af->tmp_path);
    af->err = err;
    atomic_clear(af);
    return err ? TKS_EIO : 0;
}

void tks__atomic_abort(tks__atomic_file *af)
{
    if (!af)
        return;
    if (af->f && af->sink) {
        fclose(af->f);
        if (af->tmp_path)
            unlink(af->tmp_path);
    }
    atomic_clear(af);
}

const char *tks__atomic_why(const tks__atomic_file *af, int rc)
{
    const struct sink *s = af ? af->sink : NULL;
    if (af && af->why)
        return af->why;
    if (s && s->err) /* still open: a writer saw its stream fail */
        return strerror(s->err);
    if (af && af->err)
        return strerror(af->err);
    return tks_strerror(rc);
}

const char *tks__atomic_failure(tks__atomic_file *af, int rc, const char *path, char *buf,
                                size_t size)
{
    if (!path || strcmp(path, "-") == 0)
        snprintf(buf, size, "cannot write to standard output: %s", tks__atomic_why(af, rc));
    else
        snprintf(buf, size, "cannot write '%s': %s", path, tks__atomic_why(af, rc));
    if (af && af->f)
        tks__atomic_abort(af);
    return buf;
}
