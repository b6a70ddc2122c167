/* SPDX-License-Identifier: MIT */
/* check.h: the smallest test harness that says what failed and where.
 * Each test program ends with CHECK_DONE(), which prints "N passed, N failed" and exits 1 on a
 * failure, else 77 (a skip) when a part could not run here (CHECK_SKIP), else 0. */
#ifndef TKS_CHECK_H
#define TKS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed, check_skipped;

/* A part of the test that cannot run here: "SKIP: <reason>" (what make check lists) and the test
 * ends as a skip, never as a pass for the part that did not run. */
#define CHECK_SKIP(...)                                                               \
    do {                                                                              \
        check_skipped++;                                                              \
        printf("SKIP: ");                                                             \
        printf(__VA_ARGS__);                                                          \
        printf("\n");                                                                 \
    } while (0)

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) check_passed++;                                                     \
        else { check_failed++; fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                            \
    do {                                                                              \
        unsigned long long check_a_ = (unsigned long long)(a), check_b_ = (unsigned long long)(b); \
        if (check_a_ == check_b_) check_passed++;                                     \
        else { check_failed++; fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
                                       __FILE__, __LINE__, #a, check_a_, #b, check_b_); } \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                         \
    do {                                                                              \
        double check_a_ = (double)(a), check_b_ = (double)(b);                        \
        if (fabs(check_a_ - check_b_) <= (tol)) check_passed++;                       \
        else { check_failed++; fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g (+-%g)\n", \
                                       __FILE__, __LINE__, #a, check_a_, check_b_, (double)(tol)); } \
    } while (0)

#define CHECK_STR(a, b)                                                               \
    do {                                                                              \
        const char *check_a_ = (a), *check_b_ = (b);                                  \
        if (check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0) check_passed++;  \
        else { check_failed++; fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
                                       __FILE__, __LINE__, #a, check_a_ ? check_a_ : "(null)", \
                                       check_b_ ? check_b_ : "(null)"); }             \
    } while (0)

#define CHECK_DONE()                                                                  \
    do {                                                                              \
        printf("%d passed, %d failed, %d part(s) skipped\n", check_passed, check_failed, \
               check_skipped);                                                        \
        return check_failed ? 1 : check_skipped ? 77 : 0;                             \
    } while (0)

#endif
