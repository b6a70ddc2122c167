/* SPDX-License-Identifier: MIT */
/* main.c: a program using an installed tickscope, as a user's would: the umbrella header and calls
 * into the library. Prints the version it was built against. */
#include <stdio.h>
#include <string.h>

#include <tickscope.h>

int main(void)
{
    const char *e = tks_strerror(TKS_EINVAL);
    if (!e || !*e || strcmp(tks_format_name(TKS_FORMAT_JSON), "json") != 0)
        return 1;
    printf("tickscope %s: %s\n", TKS_VERSION_STRING, e);
    return 0;
}
