/* SPDX-License-Identifier: MIT */
/* registry.c: the table of registered benchmarks and their runs. Registration happens in
 * constructors before main, one thread, so the table needs no lock. */
#include "runner/registry.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 95
#define RUN_NAME_SIZE 128 /* tks_result.name */

static tks__family *g_fams;
static size_t g_count, g_cap;
static char g_error[400], g_why[240];

size_t tks__registry_count(void) { return g_count; }
const tks_benchmark_spec *tks__registry_get(size_t i) { return i < g_count ? &g_fams[i].spec : NULL; }
const char *tks__registry_error(void) { return g_error; }
const char *tks_register_why(void) { return g_why; }
size_t tks__registry_runs(size_t f) { return f < g_count ? g_fams[f].runs : 0; }

void tks__registry_clear(void)
{
    for (size_t i = 0; i < g_count; i++)
        free(g_fams[i].values);
    free(g_fams);
    g_fams = NULL;
    g_count = g_cap = 0;
    g_error[0] = g_why[0] = 0;
}

int tks__args_name(char *buf, size_t size, const char *family, const tks_args *args)
{
    size_t used;
    int n = snprintf(buf, size, "%s", family);
    if (n < 0 || (size_t)n >= size)
        return TKS_ERANGE;
    used = (size_t)n;
    for (size_t i = 0; args && i < args->n; i++) {
        const char *name = args->names[i] && *args->names[i] ? args->names[i] : NULL;
        n = snprintf(buf + used, size - used, "/%s%s%lld", name ? name : "", name ? ":" : "",
                     args->v[i]);
        if (n < 0 || (size_t)n >= size - used)
            return TKS_ERANGE;
        used += (size_t)n;
    }
    return 0;
}

static void family_args(const tks__family *f, size_t i, tks_args *args)
{
    memset(args, 0, sizeof *args);
    args->n = f->arity;
    for (size_t k = 0; k < f->arity; k++) {
        args->v[k] = f->values[i * f->arity + k];
        args->names[k] = k < f->n_names ? f->names[k] : NULL;
    }
}

void tks__registry_run(size_t f, size_t i, tks_args *args, char *name, size_t size)
{
    family_args(&g_fams[f], i, args);
    tks__args_name(name, size, g_fams[f].spec.name, args);
}

static int why(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int why(int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_why, sizeof g_why, fmt, ap);
    va_end(ap);
    return rc;
}

int tks_register_steps(const tks_benchmark_spec *spec, const tks_args_step *steps, size_t n)
{
    tks__family f;
    tks_args_step legacy[TKS_ARGS_MAX + 1];
    char run_name[RUN_NAME_SIZE];
    int rc;

    g_why[0] = 0;
    if (!spec || !spec->name || !*spec->name || !spec->fn || strlen(spec->name) > NAME_MAX_LEN)
        return why(TKS_EINVAL, "no body, or no name or one over 95 characters");
    if ((spec->n_args && !spec->args) || spec->n_args > TKS_ARGS_MAX)
        return why(TKS_ERANGE, "more than 64 arguments");
    if (spec->args && n)
        return why(TKS_EINVAL, "both spec->args and steps");
    for (size_t i = 0; i < g_count; i++)
        if (strcmp(g_fams[i].spec.name, spec->name) == 0)
            return why(TKS_EINVAL, "a benchmark named '%s' is registered already", spec->name);
    if (g_count == TKS_BENCHMARKS_MAX)
        return why(TKS_ERANGE, "more than 1024 benchmarks");
    /* The spec's own list (TKS_BENCHMARK_ARGS) is one TKS_ARG step an argument. */
    if (spec->args) {
        memset(legacy, 0, sizeof legacy);
        for (size_t i = 0; i < spec->n_args; i++) {
            legacy[i].kind = TKS_STEP_ARGS;
            legacy[i].n = 1;
            legacy[i].v[0] = spec->args[i];
        }
        steps = legacy;
        n = spec->n_args;
    }
    memset(&f, 0, sizeof f);
    f.spec = *spec;
    if ((rc = tks__args_expand(steps, n, &f, g_why, sizeof g_why)) != 0)
        return rc;
    for (size_t i = 0; i < f.runs; i++) {
        tks_args a;
        family_args(&f, i, &a);
        if (tks__args_name(run_name, sizeof run_name, spec->name, &a) != 0) {
            free(f.values);
            snprintf(g_why, sizeof g_why, "run %zu's name is over %d characters", i + 1,
                     RUN_NAME_SIZE - 1);
            return TKS_ERANGE;
        }
    }
    if (g_count == g_cap) {
        size_t cap = g_cap ? g_cap * 2 : 16;
        tks__family *v = realloc(g_fams, cap * sizeof *v);
        if (!v) {
            free(f.values);
            return why(TKS_ENOMEM, "out of memory");
        }
        g_fams = v;
        g_cap = cap;
    }
    g_fams[g_count++] = f;
    return 0;
}

int tks_register(const tks_benchmark_spec *spec) { return tks_register_steps(spec, NULL, 0); }

void tks__register_steps_or_remember(const tks_benchmark_spec *spec, const tks_args_step *steps,
                                     size_t n)
{
    int rc = tks_register_steps(spec, steps, n);
    if (rc && !g_error[0])
        snprintf(g_error, sizeof g_error, "cannot register benchmark '%s': %s (%s)",
                 spec && spec->name ? spec->name : "(null)", tks_strerror(rc), g_why);
}

void tks__register_or_remember(const tks_benchmark_spec *spec)
{
    tks__register_steps_or_remember(spec, NULL, 0);
}
