/* SPDX-License-Identifier: MIT */
/* test_sample_procfs.c: the /proc readers the sampler uses (tks__proc_path, tks__proc_read_long,
 * tks__rt_limits) against a fixture tree written here: every answer worked by hand. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfs.h"
#include "check.h"
#include "tickscope.h"
/* Errors as CHECK_EQ_U64 prints them. */
#define E_(code) ((uint64_t)(int64_t)(code))

static char fixture[PATH_MAX];

static void put(const char *rel, const char *text)
{
    char path[PATH_MAX + 64];
    FILE *f;
    snprintf(path, sizeof path, "%s%s", fixture, rel);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

static void drop(const char *rel)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s%s", fixture, rel);
    unlink(path);
}

static void test_procfs(void)
{
    static const char *const dirs[] = {"/proc", "/proc/sys", "/proc/sys/kernel"};
    char path[PATH_MAX + 64], buf[64], longroot[200];
    long v, rt, period;
    size_t i;
    const char *tmp = getenv("TMPDIR");

    snprintf(fixture, sizeof fixture, "%s/tks_test_sample.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fixture)) {
        CHECK(!"mkdtemp failed");
        return;
    }
    for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s%s", fixture, dirs[i]);
        CHECK(mkdir(path, 0755) == 0);
    }

    /* tks__proc_path: "", NULL and "/" all mean the real root. */
    CHECK_EQ_U64(tks__proc_path(buf, sizeof buf, NULL, "/proc/x"), 0);
    CHECK_STR(buf, "/proc/x");
    CHECK_EQ_U64(tks__proc_path(buf, sizeof buf, "", "/proc/x"), 0);
    CHECK_STR(buf, "/proc/x");
    CHECK_EQ_U64(tks__proc_path(buf, sizeof buf, "/", "/proc/x"), 0);
    CHECK_STR(buf, "/proc/x");
    CHECK_EQ_U64(tks__proc_path(buf, sizeof buf, "/r", "/proc/x"), 0);
    CHECK_STR(buf, "/r/proc/x");
    memset(longroot, 'a', sizeof longroot - 1);
    longroot[0] = '/';
    longroot[sizeof longroot - 1] = 0;
    CHECK_EQ_U64(tks__proc_path(buf, sizeof buf, longroot, "/proc/x"), E_(TKS_ERANGE));
    CHECK_EQ_U64(tks__proc_path(buf, 8, NULL, "/proc/x"), 0); /* 7 chars and the NUL just fit */
    CHECK_EQ_U64(tks__proc_path(buf, 7, NULL, "/proc/x"), E_(TKS_ERANGE));

    /* tks__proc_read_long: the first integer in the file. */
    v = 777;
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/missing", &v), E_(TKS_EIO));
    CHECK_EQ_U64(v, 777); /* untouched on error */
    put("/proc/n", "abc");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), E_(TKS_EINVAL));
    CHECK_EQ_U64(v, 777);
    put("/proc/n", "");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), E_(TKS_EINVAL));
    put("/proc/n", "99999999999999999999999\n");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), E_(TKS_EINVAL));
    put("/proc/n", "950000\n");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), 0);
    CHECK_EQ_U64(v, 950000);
    put("/proc/n", "-1");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), 0);
    CHECK(v == -1);
    put("/proc/n", "  42 17\n");
    CHECK_EQ_U64(tks__proc_read_long(fixture, "/proc/n", &v), 0);
    CHECK(v == 42);
    /* A directory is not a number (fopen may succeed on it; fread then fails). */
    CHECK(tks__proc_read_long(fixture, "/proc/sys", &v) != 0);

    /* tks__rt_limits: both files, or the error of the first one missing. */
    rt = period = 0;
    CHECK_EQ_U64(tks__rt_limits(fixture, &rt, &period), E_(TKS_EIO));
    put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
    CHECK_EQ_U64(tks__rt_limits(fixture, &rt, &period), E_(TKS_EIO)); /* no period file */
    put("/proc/sys/kernel/sched_rt_period_us", "1000000\n");
    CHECK_EQ_U64(tks__rt_limits(fixture, &rt, &period), 0);
    CHECK(rt == 950000 && period == 1000000);
    put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
    CHECK_EQ_U64(tks__rt_limits(fixture, &rt, &period), 0);
    CHECK(rt == -1 && period == 1000000);
    put("/proc/sys/kernel/sched_rt_period_us", "abc\n");
    CHECK_EQ_U64(tks__rt_limits(fixture, &rt, &period), E_(TKS_EINVAL));

    drop("/proc/n");
    drop("/proc/sys/kernel/sched_rt_runtime_us");
    drop("/proc/sys/kernel/sched_rt_period_us");
    for (i = sizeof dirs / sizeof dirs[0]; i-- > 0;) {
        snprintf(path, sizeof path, "%s%s", fixture, dirs[i]);
        rmdir(path);
    }
    CHECK(rmdir(fixture) == 0);
}

int main(void)
{
    test_procfs();
    CHECK_DONE();
}
