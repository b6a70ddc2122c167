/* SPDX-License-Identifier: MIT */
/* event_names.c: an event's name into perf_event_attr's type and configs: the generic hardware
 * and software events under perf's names (and Google Benchmark's capitals), raw events as rHEX,
 * and the events the kernel names in sysfs (PMU/TERMS/ or a bare name under the core PMU's
 * events/), whose terms ("event=0x3c,umask=0x01") the PMU's format/ files place in the configs
 * ("config:0-7"). */
#include <ctype.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/procfs.h"
#include "sample/events.h"
#include "tickscope/common.h"

#define SYSFS_PMUS "/sys/bus/event_source/devices/"

static const struct {
    const char *name, *alias;
    uint32_t type;
    uint64_t config;
} generic[] = {
    {"cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"branches", "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"stalled-cycles-frontend", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
};

/* a and b alike but for case and '-' against '_' (Google Benchmark's users write
 * BRANCH_MISSES or BRANCH-MISSES, perf's branch-misses). */
static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
        if ((x == '_' ? '-' : x) != (y == '_' ? '-' : y))
            return 0;
    }
    return *a == *b;
}

/* Scatter value's low bits over the bit positions a format file lists ("config1:0-7,21"). */
static int place_bits(struct tks__event_code *out, const char *format, uint64_t value)
{
    uint64_t *field;
    const char *p = strchr(format, ':');
    if (!p)
        return TKS_EINVAL;
    if (!strncmp(format, "config:", 7))
        field = &out->config;
    else if (!strncmp(format, "config1:", 8))
        field = &out->config1;
    else if (!strncmp(format, "config2:", 8))
        field = &out->config2;
    else
        return TKS_EINVAL;
    for (p++; *p;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p || lo > 63)
            return TKS_EINVAL;
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 10);
            if (end == p || hi > 63 || hi < lo)
                return TKS_EINVAL;
        }
        for (unsigned long b = lo; b <= hi; b++, value >>= 1)
            *field |= (value & 1) << b;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return TKS_EINVAL;
    }
    return value ? TKS_EINVAL : 0; /* bits left over: the value does not fit the field */
}

/* One "term=value" (or "term", which is 1) of PMU pmu into out. */
static int put_term(const char *root, const char *pmu, char *term, struct tks__event_code *out)
{
    char path[512], format[128], *eq = strchr(term, '='), *end;
    uint64_t value = 1;
    if (eq) {
        *eq = 0;
        value = strtoull(eq + 1, &end, 0);
        if (end == eq + 1 || *end)
            return TKS_EINVAL; /* "?" asks for a value the user has to give */
    }
    if (!*term || strchr(term, '/') || strchr(term, '.') ||
        snprintf(path, sizeof path, SYSFS_PMUS "%s/format/%s", pmu, term) >= (int)sizeof path ||
        tks__proc_read_text(root, path, format, sizeof format) != 0)
        return TKS_EINVAL;
    return place_bits(out, format, value);
}

/* terms ("event=0x3c,umask=1" or an event name listed in PMU pmu's events/) into out. */
static int pmu_event(const char *root, const char *pmu, const char *terms,
                     struct tks__event_code *out)
{
    char path[512], text[512], *save = NULL, *t;
    long type;
    if (!*pmu || strchr(pmu, '.') || strchr(terms, '.') ||
        snprintf(path, sizeof path, SYSFS_PMUS "%s/type", pmu) >= (int)sizeof path ||
        tks__proc_read_long(root, path, &type) != 0 || type < 0)
        return TKS_EINVAL;
    memset(out, 0, sizeof *out);
    out->type = (uint32_t)type;
    out->software = type == PERF_TYPE_SOFTWARE;
    if (!strchr(terms, '=') && !strchr(terms, ',')) { /* a name: its terms are in events/ */
        if (!*terms || snprintf(path, sizeof path, SYSFS_PMUS "%s/events/%s", pmu, terms) >=
                           (int)sizeof path ||
            tks__proc_read_text(root, path, text, sizeof text) != 0)
            return TKS_EINVAL;
    } else if (snprintf(text, sizeof text, "%s", terms) >= (int)sizeof text) {
        return TKS_EINVAL;
    }
    for (t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (put_term(root, pmu, t, out) != 0)
            return TKS_EINVAL;
    return 0;
}

int tks__event_resolve(const char *name, const char *root, struct tks__event_code *out)
{
    static const char *const cores[] = {"cpu", "cpu_core", "cpu_atom"};
    char pmu[TKS__EVENT_NAME_MAX], *slash;
    size_t len = strlen(name);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (same_name(name, generic[i].name) || (generic[i].alias && same_name(name, generic[i].alias))) {
            out->type = generic[i].type;
            out->config = generic[i].config;
            out->software = generic[i].type == PERF_TYPE_SOFTWARE;
            return 0;
        }
    if (name[0] == 'r' && len > 1 && len <= 17 && strspn(name + 1, "0123456789abcdefABCDEF") == len - 1) {
        out->type = PERF_TYPE_RAW;
        out->config = strtoull(name + 1, NULL, 16);
        return 0;
    }
    /* PMU/TERMS/, as perf writes "msr/tsc/" or "cpu/event=0x3c,umask=0x00/". */
    if (len >= sizeof pmu)
        return TKS_EINVAL;
    memcpy(pmu, name, len + 1);
    if ((slash = strchr(pmu, '/')) != NULL) {
        if (len < 3 || pmu[len - 1] != '/' || slash == pmu + len - 1)
            return TKS_EINVAL;
        *slash = 0;
        pmu[len - 1] = 0;
        return pmu_event(root, pmu, slash + 1, out);
    }
    if (strchr(name, '=') || strchr(name, ','))
        return TKS_EINVAL;
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
        if (pmu_event(root, cores[i], name, out) == 0)
            return 0;
    return TKS_EINVAL;
}
