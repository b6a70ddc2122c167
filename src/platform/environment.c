/* SPDX-License-Identifier: MIT */
/* environment.c: what on this machine can disturb a cycle count, each a finding with a remedy
 * (coded diagnostics):
 * the checks in their order (env_cpu.c, env_sched.c, env_process.c) and the helpers they share. */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "platform/env_internal.h"
#include "base/procfs.h"
#include "tickscope.h"

typedef void (*env_check_fn)(const struct tks__env_ctx *c, tks_env_finding *f);

const char *tks_env_status_name(int status)
{
    switch (status) {
    case TKS_ENV_OK: return "ok";
    case TKS_ENV_INFO: return "info";
    case TKS_ENV_WARN: return "warn";
    default: return "unknown";
    }
}

int tks_build_optimized(void)
{
#ifdef __OPTIMIZE__
    return 1;
#else
    return 0;
#endif
}

/* ---------------------------------------------------------------- writing findings */

void tks__env_put(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

void tks__env_append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    if (len + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

void tks__env_found(tks_env_finding *f, int status, enum tks_diag_code code,
                    const tks_diag_value *v, size_t n)
{
    tks_diags_free(&f->found);
    tks_diags_free(&f->advice);
    f->status = status;
    tks__env_add(&f->found, code, v, n);
}

void tks__env_add(tks_diags *ds, enum tks_diag_code code, const tks_diag_value *v, size_t n)
{
    /* Out of memory leaves the finding without this part; the status still says what it is. */
    (void)tks__diag_add(ds, code, v, n);
}

void tks__env_unknown(tks_env_finding *f, const char *what, const char *path)
{
    FINDING(f, TKS_ENV_UNKNOWN, ENV_UNREADABLE, TKS__DS(f->id), TKS__DS(what), TKS__DS(path));
    ADVICE(f, ENV_UNREADABLE_FIX, TKS__DS(path));
}

void tks_env_findings_free(tks_env_finding *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        tks_diags_free(&f[i].found);
        tks_diags_free(&f[i].advice);
    }
}

/* ---------------------------------------------------------------- reading files */

int tks__env_exists(const struct tks__env_ctx *c, const char *path)
{
    char full[4096];
    struct stat st;
    return tks__proc_path(full, sizeof full, c->root, path) == 0 && stat(full, &st) == 0;
}

int tks__env_read_text(const struct tks__env_ctx *c, const char *path, char *buf, size_t size)
{
    int rc = tks__proc_read_text(c->root, path, buf, size);
    size_t n = strlen(buf);
    while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = 0;
    return rc;
}

int tks__env_read_long(const struct tks__env_ctx *c, const char *path, long *v)
{
    return tks__proc_read_long(c->root, path, v);
}

void tks__env_cpu_path(const struct tks__env_ctx *c, const char *rest, char *buf, size_t size)
{
    tks__env_put(buf, size, CPU_DIR "/cpu%d%s", c->cpu, rest);
}

int tks__env_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
            return 1;
        p += n;
    }
    return 0;
}

/* ---------------------------------------------------------------- all together */

static const struct {
    const char *id;
    env_check_fn fn;
} checks[] = {
    {"hypervisor", tks__env_check_hypervisor},     {"invariant_tsc", tks__env_check_invariant_tsc},
    {"clocksource", tks__env_check_clocksource},   {"governor", tks__env_check_governor},
    {"frequency", tks__env_check_frequency},       {"turbo", tks__env_check_turbo},
    {"smt", tks__env_check_smt},                   {"isolation", tks__env_check_isolation},
    {"nmi_watchdog", tks__env_check_nmi_watchdog}, {"perf_counters", tks__env_check_perf_counters},
    {"aslr", tks__env_check_aslr},                 {"load", tks__env_check_load},
    {"rt_throttling", tks__env_check_rt_throttling}, {"build", tks__env_check_build},
};

static int measuring_cpu(int cpu)
{
    if (cpu >= 0)
        return cpu;
    cpu = sched_getcpu();
    return cpu >= 0 ? cpu : 0;
}

size_t tks_env_check(const tks_env_input *in, tks_env_finding *out, size_t max)
{
    struct tks__env_ctx c;
    size_t i, n = sizeof checks / sizeof checks[0];
    if (!in || !out)
        return 0;
    c.in = in;
    c.root = in->root;
    c.cpu = measuring_cpu(in->cpu);
    for (i = 0; i < n && i < max; i++) {
        memset(&out[i], 0, sizeof out[i]);
        tks__env_put(out[i].id, sizeof out[i].id, "%s", checks[i].id);
        out[i].status = TKS_ENV_UNKNOWN;
        checks[i].fn(&c, &out[i]);
    }
    return i;
}
