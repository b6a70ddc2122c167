/* SPDX-License-Identifier: MIT */
/* cc_util.h: what the tests that compile users' programs share: the build's compilers, nm and
 * emulator (tests/CMakeLists.txt passes them; the cross tools and QEMU in a cross build), a
 * scratch directory, and running a shell command there with its output in dir/log. */
#ifndef TKS_TESTS_CC_UTIL_H
#define TKS_TESTS_CC_UTIL_H

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char cc_dir[] = "/tmp/tks_cc_XXXXXX";
static char cc_inc[1024], cc_lib[1024];
/* The C compiler with this build's flags (-m32 for i386), the C++ one ("" when there is none),
 * the nm that reads the target's objects, and the prefix that runs the target's programs. */
static char cc_c[1024], cc_cxx[1024], cc_nm[512], cc_run[512];
static int cc_cross;
static const char *cc_san = ""; /* the sanitizers, when the library was built with them */

static int cc_have(const char *tool)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static int cc_write(const char *name, const char *text)
{
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", cc_dir, name);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Run a shell command in the scratch directory, output appended to its log; its exit status. */
static int cc_sh(const char *cmd)
{
    char c2[8300];
    int rc;
    snprintf(c2, sizeof c2, "cd '%s' && (%s) >>log 2>&1", cc_dir, cmd);
    rc = system(c2);
    if (rc != 0)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc;
}

/* Set up from the environment CTest gives; prints SKIP and exits 77 when run by hand without it
 * or when the build's compiler is not there. */
static void cc_setup(void)
{
    const char *src = getenv("TKS_SOURCE_DIR"), *bin = getenv("TKS_TICKSCOPE");
    const char *c = getenv("TKS_CC"), *cxx = getenv("TKS_CXX"), *nm = getenv("TKS_NM");
    const char *emu = getenv("TKS_EMULATOR"), *flags = getenv("TKS_C_FLAGS");
    const char *cross = getenv("TKS_CROSS");
    const char *slash;
    char cmd[2200];

    if (!src || !bin || !c || !*c || !(slash = strrchr(bin, '/'))) {
        printf("SKIP: TKS_SOURCE_DIR, TKS_TICKSCOPE and TKS_CC are not set (run it through ctest)\n");
        exit(77);
    }
    if (!cc_have(c)) {
        printf("SKIP: the build's C compiler %s is not on this machine\n", c);
        exit(77);
    }
    cc_cross = cross && strcmp(cross, "1") == 0;
    snprintf(cc_c, sizeof cc_c, "'%s' %s", c, flags ? flags : "");
    if (cxx && *cxx && cc_have(cxx))
        snprintf(cc_cxx, sizeof cc_cxx, "'%s' %s", cxx, flags ? flags : "");
    snprintf(cc_nm, sizeof cc_nm, "%s", nm && *nm ? nm : "nm");
    snprintf(cc_run, sizeof cc_run, "%s", emu ? emu : "");
    snprintf(cc_inc, sizeof cc_inc, "%s/include", src);
    snprintf(cc_lib, sizeof cc_lib, "%.*s/libtickscope.a", (int)(slash - bin), bin);
    if (!mkdtemp(cc_dir))
        exit(1);
    snprintf(cmd, sizeof cmd, "'%s' '%s' 2>/dev/null | grep -q __asan_report", cc_nm, cc_lib);
    if (system(cmd) == 0)
        cc_san = " -fsanitize=address,undefined";
}

/* Remove the scratch directory when everything passed; otherwise keep it and say where. */
static int cc_finish(void)
{
    char cmd[1100];
    if (check_failed == 0) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", cc_dir);
        if (system(cmd) != 0)
            return 1;
    } else {
        fprintf(stderr, "files kept in %s (see log)\n", cc_dir);
    }
    return 0;
}

#endif
