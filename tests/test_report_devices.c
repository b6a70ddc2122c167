/* SPDX-License-Identifier: MIT */
/* test_report_devices.c: output files pointed at device nodes of our own (made with mknod in a
 * temporary directory, so root only): a character device is written directly and stays a device,
 * a full one says "No space left on device", a block device is refused before anything is written,
 * and a directory the user may not write to says "Permission denied". */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "report/common/report.h"
#include "tickscope.h"

#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)
#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)

static char dir[] = "/tmp/tks_devices_XXXXXX";

static char *at(const char *name)
{
    static char paths[2][PATH_MAX];
    static int next;
    char *p = paths[next++ % 2];
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

static int kind_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (int)(st.st_mode & S_IFMT) : -1;
}

/* The report: several buffers' worth, so that writes fail in the middle, not only at the end. */
static void fill(FILE *f)
{
    for (int i = 0; i < 2000; i++)
        fprintf(f, "line %d of a report\n", i);
}

static void test_null_and_full(void)
{
    tks__atomic_file af;

    CHECK(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0);
    CHECK(mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, at("null")), 0);
    CHECK(af.tmp_path == NULL); /* written directly */
    if (af.f)
        fill(af.f);
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK_EQ_U64(kind_of(at("null")), S_IFCHR);

    CHECK_EQ_U64(tks__atomic_open(&af, at("full")), 0);
    if (af.f)
        fill(af.f);
    CHECK_EQ_U64(tks__atomic_commit(&af), EIO_U64);
    CHECK_EQ_U64(af.err, ENOSPC);
    CHECK_STR(tks__atomic_why(&af, TKS_EIO), strerror(ENOSPC));
    CHECK_EQ_U64(kind_of(at("full")), S_IFCHR);

    /* A link to the full device: followed, so the device answers, and the link stays. */
    CHECK(symlink("full", at("full.link")) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, at("full.link")), 0);
    if (af.f)
        fputs("x\n", af.f);
    CHECK_EQ_U64(tks__atomic_commit(&af), EIO_U64);
    CHECK_EQ_U64(af.err, ENOSPC);
    CHECK_EQ_U64(kind_of(at("full.link")), S_IFLNK);
    CHECK_EQ_U64(kind_of(at("full")), S_IFCHR);
}

static void test_block_device(void)
{
    tks__atomic_file af;
    CHECK(mknod(at("disk"), S_IFBLK | 0600, makedev(7, 0)) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, at("disk")), EINVAL_U64);
    CHECK(af.f == NULL && af.why != NULL && strstr(af.why, "block device") != NULL);
    CHECK_EQ_U64(kind_of(at("disk")), S_IFBLK);
}

/* As an unprivileged user, in a directory only root may write to. */
static void test_permission_denied(void)
{
    struct passwd *nobody = getpwnam("nobody");
    pid_t pid;
    int status = -1;
    if (!nobody) {
        printf("no user 'nobody': the permission check is left out\n");
        return;
    }
    CHECK(mkdir(at("locked"), 0755) == 0);
    pid = fork();
    if (pid == 0) {
        tks__atomic_file af;
        if (setgid(nobody->pw_gid) != 0 || setuid(nobody->pw_uid) != 0)
            _exit(10);
        if (tks__atomic_open(&af, at("locked/out.txt")) != TKS_EIO)
            _exit(11);
        _exit(af.err == EACCES ? 0 : 12);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(rmdir(at("locked")) == 0);
}

int main(void)
{
    tks__atomic_file af;

    if (geteuid() != 0) {
        printf("SKIP: making device nodes with mknod needs root\n");
        return 77;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    /* A filesystem mounted nodev refuses to open device nodes at all. */
    if (mknod(at("probe"), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        tks__atomic_open(&af, at("probe")) != 0) {
        printf("SKIP: cannot make or open a device node in %s (mounted nodev?)\n", dir);
        unlink(at("probe"));
        rmdir(dir);
        return 77;
    }
    tks__atomic_abort(&af);
    unlink(at("probe"));
    test_null_and_full();
    test_block_device();
    test_permission_denied();
    unlink(at("null"));
    unlink(at("full"));
    unlink(at("full.link"));
    unlink(at("disk"));
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
