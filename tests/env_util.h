/* SPDX-License-Identifier: MIT */
/* env_util.h: what the environment-check tests share: the fixture trees, and reading the
 * findings back. */
#ifndef TKS_TESTS_ENV_UTIL_H
#define TKS_TESTS_ENV_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, mkdtemp, sched_setaffinity */
#endif
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tickscope.h"

#define N_CHECKS 14

/* The same test the library makes, so the expected "build" finding follows the build. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static char fixtures[4096];
static tks_env_finding out[TKS_ENV_MAX];
static size_t n_out;

static inline void find_fixtures(void)
{
    const char *src = getenv("TKS_SOURCE_DIR");
    const char *slash;
    if (src && *src) {
        snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures/env", src);
        return;
    }
    /* Run by hand: the fixtures sit next to this file. */
    slash = strrchr(__FILE__, '/');
    if (slash)
        snprintf(fixtures, sizeof fixtures, "%.*s/fixtures/env", (int)(slash - __FILE__), __FILE__);
    else
        snprintf(fixtures, sizeof fixtures, "fixtures/env");
}

static tks_env_input input(const char *root, int cpu, int hypervisor, const char *vendor,
                           int invariant, int optimized)
{
    tks_env_input in;
    in.root = root;
    in.cpu = cpu;
    in.hypervisor = hypervisor;
    in.hypervisor_vendor = vendor;
    in.invariant_tsc = invariant;
    in.optimized_build = optimized;
    return in;
}

static inline size_t run_root(const char *root, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    tks_env_input in = input(root, cpu, hypervisor, vendor, invariant, optimized);
    memset(out, 0x5a, sizeof out); /* garbage, so an unwritten field shows */
    n_out = tks_env_check(&in, out, TKS_ENV_MAX);
    return n_out;
}

static inline size_t run_tree(const char *tree, int cpu, int hypervisor, const char *vendor,
                       int invariant, int optimized)
{
    char root[4200];
    snprintf(root, sizeof root, "%s/%s", fixtures, tree);
    return run_root(root, cpu, hypervisor, vendor, invariant, optimized);
}

static inline const tks_env_finding *find(const char *id)
{
    for (size_t i = 0; i < n_out; i++)
        if (strcmp(out[i].id, id) == 0)
            return &out[i];
    return NULL;
}

/* One finding: its status, and substrings of the finding and advice (NULL: not checked; "" for the
 * advice: must be empty). Says what it saw when it fails. */
static inline int expect_(int line, const char *id, int status, const char *text, const char *advice)
{
    const tks_env_finding *f = find(id);
    int ok = f && f->status == status && (!text || strstr(f->finding, text)) &&
             (!advice || (advice[0] ? strstr(f->advice, advice) != NULL : f->advice[0] == 0));
    if (!ok && f)
        fprintf(stderr, "line %d: %s: %s \"%s\" / \"%s\"; expected %s with \"%s\" / \"%s\"\n", line,
                id, tks_env_status_name(f->status), f->finding, f->advice,
                tks_env_status_name(status), text ? text : "", advice ? advice : "");
    else if (!ok)
        fprintf(stderr, "line %d: no finding \"%s\"\n", line, id);
    return ok;
}
#define EXPECT(id, status, text, advice) CHECK(expect_(__LINE__, id, status, text, advice))

/* What every run must satisfy, whatever the tree: terminated strings, known statuses, unique
 * non-empty ids, advice exactly when something is not OK. */
static inline void check_shape(void)
{
    for (size_t i = 0; i < n_out; i++) {
        const tks_env_finding *f = &out[i];
        CHECK(memchr(f->id, 0, sizeof f->id) && memchr(f->finding, 0, sizeof f->finding) &&
              memchr(f->advice, 0, sizeof f->advice));
        CHECK(f->id[0] != 0 && f->finding[0] != 0);
        CHECK(f->status >= TKS_ENV_OK && f->status <= TKS_ENV_UNKNOWN);
        CHECK((f->status == TKS_ENV_OK) == (f->advice[0] == 0));
        CHECK(strchr(f->finding, '\n') == NULL && strchr(f->advice, '\n') == NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(out[j].id, f->id) != 0);
    }
}

static inline void expect_build(int optimized)
{
#ifdef ASAN
    (void)optimized;
    EXPECT("build", TKS_ENV_WARN, "AddressSanitizer", "plain build");
#else
    if (optimized)
        EXPECT("build", TKS_ENV_OK, "with optimisation", "");
    else
        EXPECT("build", TKS_ENV_WARN, "without optimisation", "CMAKE_BUILD_TYPE=Release");
#endif
}

#endif /* TKS_TESTS_ENV_UTIL_H */
