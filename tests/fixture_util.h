/* SPDX-License-Identifier: MIT */
/* fixture_util.h: where a test's fixture trees are: under $TKS_SOURCE_DIR (CTest sets it), or
 * beside this file when a test is run by hand. */
#ifndef TKS_TESTS_FIXTURE_UTIL_H
#define TKS_TESTS_FIXTURE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/fixtures/TREE as a path, into buf. */
static const char *fixture(const char *tree, char *buf, size_t size)
{
    const char *src = getenv("TKS_SOURCE_DIR");
    if (src)
        snprintf(buf, size, "%s/tests/fixtures/%s", src, tree);
    else /* run by hand: the fixtures sit beside this file */
        snprintf(buf, size, "%.*sfixtures/%s", (int)(strrchr(__FILE__, '/') + 1 - __FILE__),
                 __FILE__, tree);
    return buf;
}

#endif
