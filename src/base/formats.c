/* SPDX-License-Identifier: MIT */
/* formats.c: the names of the output formats (tickscope/common.h), one table for the benchmark
 * runner's --format, the regions' TICKSCOPE_REGION_FORMAT and the command's options. */
#include <string.h>

#include "tickscope/common.h"

static const char *const names[] = {"console", "json", "csv", "markdown", "html", "xml"};

const char *tks_format_name(enum tks_format f)
{
    return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : NULL;
}

int tks_format_from_name(const char *name)
{
    size_t i;
    if (!name)
        return -1;
    if (strcmp(name, "text") == 0) /* the regions' word for console */
        return TKS_FORMAT_CONSOLE;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}
