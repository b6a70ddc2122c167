/* SPDX-License-Identifier: MIT */
/* test_report_atomic.c: files written atomically appear whole under their name on commit, never
 * before, and leave no temporaries behind whether they succeed, fail or are abandoned. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "file_util.h"
#include "report/common/report.h"
#include "tickscope.h"

#define EINVAL_U64 ((uint64_t)(int64_t)TKS_EINVAL)
#define EIO_U64 ((uint64_t)(int64_t)TKS_EIO)

static void join(char *out, const char *dir, const char *name)
{
    snprintf(out, PATH_MAX, "%s/%s", dir, name);
}

static void test_commit(const char *dir)
{
    char path[PATH_MAX], buf[64];
    tks__atomic_file af;

    join(path, dir, "out.txt");
    CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
    CHECK(af.f != NULL && af.tmp_path != NULL && af.final_path != NULL);
    if (!af.f)
        return;
    CHECK(strstr(af.tmp_path, "/.out.txt.tmp.") != NULL);
    fputs("hello\n", af.f);
    CHECK_STR(slurp(path, buf, sizeof buf), "(missing)"); /* nothing under the name yet */
    CHECK_EQ_U64(count_entries(dir), 1);                  /* only the temporary */
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK(af.f == NULL && af.tmp_path == NULL && af.final_path == NULL);
    CHECK_STR(slurp(path, buf, sizeof buf), "hello\n");
    CHECK_EQ_U64(count_entries(dir), 1);
    tks__atomic_abort(&af); /* harmless after commit */
    CHECK_STR(slurp(path, buf, sizeof buf), "hello\n");
    unlink(path);
}

/* Replacing a file: the old content stays readable until the commit. */
static void test_replace(const char *dir)
{
    char path[PATH_MAX], buf[64];
    tks__atomic_file af;
    FILE *f;

    join(path, dir, "replace.txt");
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("old\n", f);
    fclose(f);
    CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
    if (!af.f)
        return;
    fputs("new\n", af.f);
    fflush(af.f);
    CHECK_STR(slurp(path, buf, sizeof buf), "old\n");
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK_STR(slurp(path, buf, sizeof buf), "new\n");
    CHECK_EQ_U64(count_entries(dir), 1);
    unlink(path);
}

/* The file gets 0666 less the umask, like any file created with fopen. */
static void test_mode(const char *dir)
{
    static const mode_t masks[] = {022, 027, 0};
    char path[PATH_MAX];
    mode_t old = umask(022);

    join(path, dir, "mode.txt");
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        tks__atomic_file af;
        struct stat st;

        umask(masks[i]);
        CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
        CHECK_EQ_U64(tks__atomic_commit(&af), 0);
        CHECK(stat(path, &st) == 0);
        CHECK_EQ_U64(st.st_mode & 0777, 0666 & ~masks[i]);
        CHECK_EQ_U64(umask(masks[i]), masks[i]); /* the library put the mask back */
        unlink(path);
    }
    umask(old);
}

static void test_abort(const char *dir)
{
    char path[PATH_MAX], buf[64];
    tks__atomic_file af;

    join(path, dir, "aborted.txt");
    CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
    if (!af.f)
        return;
    fputs("half a report", af.f);
    CHECK_EQ_U64(count_entries(dir), 1);
    tks__atomic_abort(&af);
    CHECK(af.f == NULL && af.tmp_path == NULL && af.final_path == NULL);
    CHECK_STR(slurp(path, buf, sizeof buf), "(missing)");
    CHECK_EQ_U64(count_entries(dir), 0);
}

static void test_missing_directory(const char *dir)
{
    char path[PATH_MAX];
    tks__atomic_file af;

    join(path, dir, "no/such/dir/out.txt");
    CHECK_EQ_U64(tks__atomic_open(&af, path), EIO_U64);
    CHECK(af.f == NULL && af.tmp_path == NULL && af.final_path == NULL);
    CHECK_EQ_U64(count_entries(dir), 0);
}

/* A directory is refused when the file is opened, before anything is measured, with the cause
 * the user needs ("Is a directory"), and nothing is created in it or beside it. */
static void test_target_is_directory(const char *dir)
{
    char path[PATH_MAX];
    tks__atomic_file af;
    struct stat st;

    join(path, dir, "sub");
    CHECK(mkdir(path, 0755) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, path), EIO_U64);
    CHECK(af.f == NULL && af.tmp_path == NULL && af.final_path == NULL);
    CHECK_EQ_U64(af.err, EISDIR);
    CHECK_STR(tks__atomic_why(&af, TKS_EIO), strerror(EISDIR));
    CHECK_EQ_U64(count_entries(dir), 1);
    CHECK_EQ_U64(count_entries(path), 0);
    CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    join(path, dir, "sub/");
    CHECK_EQ_U64(tks__atomic_open(&af, path), EINVAL_U64);
    CHECK_EQ_U64(af.err, EISDIR);
    join(path, dir, "sub");
    rmdir(path);
}

/* The permissions of a file that is replaced are kept, whatever the umask says. */
static void test_keeps_mode(const char *dir)
{
    char path[PATH_MAX];
    tks__atomic_file af;
    struct stat st;
    FILE *f;

    join(path, dir, "private.txt");
    f = fopen(path, "w");
    CHECK(f != NULL && chmod(path, 0600) == 0);
    if (f)
        fclose(f);
    CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK(stat(path, &st) == 0);
    CHECK_EQ_U64(st.st_mode & 0777, 0600);
    unlink(path);
}

/* A name longer than the temporary's prefix and suffix allow still gets written: the temporary's
 * name is shortened, the final name is not. */
static void test_long_name(const char *dir)
{
    char name[256], path[PATH_MAX], buf[16];
    tks__atomic_file af;

    memset(name, 'n', 250);
    name[250] = '\0';
    join(path, dir, name);
    CHECK_EQ_U64(tks__atomic_open(&af, path), 0);
    if (af.f)
        fputs("long\n", af.f);
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK_STR(slurp(path, buf, sizeof buf), "long\n");
    unlink(path);
}

/* A bare file name lives in the current directory, and so does its temporary. */
static void test_bare_name(const char *dir)
{
    char cwd[PATH_MAX], buf[64];
    tks__atomic_file af;

    CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(dir) == 0);
    CHECK_EQ_U64(tks__atomic_open(&af, "bare.txt"), 0);
    if (af.f) {
        CHECK(strncmp(af.tmp_path, ".bare.txt.tmp.", 14) == 0);
        fputs("bare\n", af.f);
    }
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK_STR(slurp("bare.txt", buf, sizeof buf), "bare\n");
    CHECK_EQ_U64(count_entries("."), 1);
    unlink("bare.txt");
    CHECK(chdir(cwd) == 0);
}

static void test_stdout_and_bad_paths(const char *dir)
{
    char path[PATH_MAX];
    tks__atomic_file af;

    CHECK_EQ_U64(tks__atomic_open(&af, "-"), 0);
    CHECK(af.f != NULL && af.tmp_path == NULL && af.final_path == NULL); /* ours, over fd 1 */
    CHECK_EQ_U64(tks__atomic_commit(&af), 0);
    CHECK(af.f == NULL);
    CHECK_EQ_U64(tks__atomic_open(&af, "-"), 0);
    tks__atomic_abort(&af);
    CHECK(af.f == NULL);
    CHECK(fputs("", stdout) != EOF); /* abort must not have closed stdout */

    CHECK_EQ_U64(tks__atomic_open(&af, ""), EINVAL_U64);
    CHECK_EQ_U64(tks__atomic_open(&af, NULL), EINVAL_U64);
    CHECK_EQ_U64(tks__atomic_open(NULL, "x"), EINVAL_U64);
    join(path, dir, "");
    CHECK_EQ_U64(tks__atomic_open(&af, path), EINVAL_U64);
    join(path, dir, "..");
    CHECK_EQ_U64(tks__atomic_open(&af, path), EINVAL_U64);
    CHECK(af.f == NULL);
    CHECK_EQ_U64(tks__atomic_commit(&af), EINVAL_U64);
    CHECK_EQ_U64(count_entries(dir), 0);
}

/* Failures are provoked by paths (missing directories, directories as targets), never by
 * permissions, because the tests may run as root. */
int main(void)
{
    char dir[] = "/tmp/tks_atomic_XXXXXX";

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_commit(dir);
    test_replace(dir);
    test_mode(dir);
    test_abort(dir);
    test_missing_directory(dir);
    test_target_is_directory(dir);
    test_keeps_mode(dir);
    test_long_name(dir);
    test_bare_name(dir);
    test_stdout_and_bad_paths(dir);
    CHECK_EQ_U64(count_entries(dir), 0);
    rmdir(dir);
    CHECK_DONE();
}
