/* SPDX-License-Identifier: MIT */
/* info_formats.c: `tickscope info`'s writer table, and its CSV and Markdown writers: the
 * machine's facts as rows of section, name, value and detail (the rates from every source, the
 * quantum, the core clock, the hypervisor, and every check of the environment). */
#include "report/machine/analysis_report.h"

#include <math.h>
#include <stdlib.h>

#define COLS 4
static const char *const headers[COLS] = {"section", "name", "value", "detail"};

typedef void (*row_fn)(FILE *, int, const char *const *);

static void fact(FILE *f, row_fn row, const char *section, const char *name, const char *value,
                 const char *detail)
{
    const char *cells[COLS] = {section, name, value ? value : "", detail ? detail : ""};
    row(f, COLS, cells);
}

static void fact_double(FILE *f, row_fn row, const char *section, const char *name, double v,
                        const char *detail)
{
    char buf[48];
    fact(f, row, section, name, tks__cell_double(buf, sizeof buf, v), detail);
}

static int rows(FILE *f, const tks_platform *p, row_fn row)
{
    char buf[48];
    fact(f, row, "cpu", "vendor", p->cpu.vendor, NULL);
    fact(f, row, "cpu", "brand", p->cpu.brand, NULL);
    snprintf(buf, sizeof buf, "%d", p->cpu.logical_cpus);
    fact(f, row, "cpu", "logical_cpus", buf, NULL);
    fact(f, row, "tsc", "invariant", p->invariant_tsc ? "yes" : "no", NULL);
    fact_double(f, row, "tsc", "hz", p->tsc_hz > 0 ? p->tsc_hz : NAN,
                p->tsc_hz > 0 ? tks_hz_source_name(p->tsc_hz_source) : NULL);
    for (size_t i = 0; i < p->n_hz_sources; i++)
        fact_double(f, row, "tsc_source", tks_hz_source_name(p->hz_sources[i].source),
                    p->hz_sources[i].hz, p->hz_sources[i].detail);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)p->quantum.quantum);
    fact(f, row, "tsc", "quantum_ticks", buf, NULL);
    fact_double(f, row, "tsc", "quantum_ns", tks_ticks_to_ns(p, (double)p->quantum.quantum), NULL);
    fact_double(f, row, "core", "hz", p->core_hz > 0 ? p->core_hz : NAN, NULL);
    fact_double(f, row, "core", "cycles_per_tick", tks_core_cycles_per_tick(p), NULL);
    fact(f, row, "hypervisor", "present", p->cpu.hypervisor ? "yes" : "no",
         p->cpu.hypervisor ? p->cpu.hypervisor_vendor : NULL);
    fact_double(f, row, "hypervisor", "cpuid_ticks", p->cpuid.median_ticks, NULL);
    for (size_t i = 0; i < p->n_env; i++) { /* the detail: "env.code: the finding in words" */
        const tks_diags *found = &p->env[i].found;
        char *finding = tks__diags_text(found, "; "), *detail = NULL;
        if (asprintf(&detail, "%s: %s", found->n ? tks_diag_info_of(found->items[0].code)->id : "",
                     finding ? finding : "") < 0)
            detail = NULL;
        fact(f, row, "check", p->env[i].id, tks_env_status_name(p->env[i].status),
             detail ? detail : "");
        free(detail);
        free(finding);
    }
    return ferror(f) ? TKS_EIO : 0;
}

static int info_csv(FILE *f, const void *doc)
{
    tks__csv_row(f, COLS, headers);
    return rows(f, doc, tks__csv_row);
}

static int info_markdown(FILE *f, const void *doc)
{
    tks__md_header(f, COLS, headers, "llrl");
    return rows(f, doc, tks__md_row);
}

static int info_console(FILE *f, const void *doc)
{
    tks__report_info_text(doc, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int info_json(FILE *f, const void *doc)
{
    return tks__report_info_json(doc, f);
}

TKS__WRITERS(tks__info_writers, "info", {TKS_FORMAT_CONSOLE, info_console},
             {TKS_FORMAT_JSON, info_json}, {TKS_FORMAT_CSV, info_csv},
             {TKS_FORMAT_MARKDOWN, info_markdown});
