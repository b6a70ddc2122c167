/* SPDX-License-Identifier: MIT */
/* registry.c: the table of registered benchmarks. Registration happens in constructors before
 * main, one thread, so the table needs no lock. */
#include "runner/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 95

static tks_benchmark_spec *g_specs;
static size_t g_count, g_cap;
static char g_error[256];

size_t tks__registry_count(void) { return g_count; }
const tks_benchmark_spec *tks__registry_get(size_t i) { return i < g_count ? &g_specs[i] : NULL; }
const char *tks__registry_error(void) { return g_error; }

void tks__registry_clear(void)
{
    free(g_specs);
    g_specs = NULL;
    g_count = g_cap = 0;
    g_error[0] = 0;
}

int tks_register(const tks_benchmark_spec *spec)
{
    if (!spec || !spec->name || !*spec->name || !spec->fn || strlen(spec->name) > NAME_MAX_LEN)
        return TKS_EINVAL;
    if ((spec->n_args && !spec->args) || spec->n_args > TKS_ARGS_MAX)
        return TKS_ERANGE;
    for (size_t i = 0; i < g_count; i++)
        if (strcmp(g_specs[i].name, spec->name) == 0)
            return TKS_EINVAL;
    if (g_count == TKS_BENCHMARKS_MAX)
        return TKS_ERANGE;
    if (g_count == g_cap) {
        size_t cap = g_cap ? g_cap * 2 : 16;
        tks_benchmark_spec *s = realloc(g_specs, cap * sizeof *s);
        if (!s)
            return TKS_ENOMEM;
        g_specs = s;
        g_cap = cap;
    }
    g_specs[g_count++] = *spec;
    return 0;
}

void tks__register_or_remember(const tks_benchmark_spec *spec)
{
    int rc = tks_register(spec);
    if (rc && !g_error[0])
        snprintf(g_error, sizeof g_error, "cannot register benchmark '%s': %s%s",
                 spec && spec->name ? spec->name : "(null)", tks_strerror(rc),
                 rc == TKS_EINVAL ? " (no body, a name over 95 characters, or a duplicate name)"
                 : rc == TKS_ERANGE ? " (more than 64 arguments or 1024 benchmarks)" : "");
}
