/* SPDX-License-Identifier: MIT */
/* info_report.c: what `tickscope info` says about the machine: the CPU, the TSC rate from every
 * source, the quantum, the core clock, CPUID's cost and the environment; the tour's summary; JSON. */
#include "report/machine/analysis_report.h"

#include <math.h>
#include <string.h>

#include "arch/arch.h"
#include "method/cpu_override.h"

static void mhz(char *buf, size_t n, double hz)
{
    snprintf(buf, n, "%.6f", hz / 1e6);
}

static void print_cpu(const tks_platform *p, FILE *f)
{
    char features[200], overridden[600];
    fprintf(f, "CPU         %s\n", p->cpu.brand[0] ? p->cpu.brand : "(no brand string)");
    fprintf(f, "            %s, family %u model %u stepping %u, %d logical CPUs\n",
            p->cpu.vendor[0] ? p->cpu.vendor : "unknown vendor", p->cpu.family, p->cpu.model,
            p->cpu.stepping, p->cpu.logical_cpus);
    tks__arch_features_text(&p->features, features, sizeof features);
    fprintf(f, "Features    %s\n", features);
    tks__cpu_override_text(tks__cpu_override_get(), overridden, sizeof overridden);
    if (overridden[0])
        fprintf(f, "Overridden  %s\n", overridden);
    if (p->cpu.hypervisor)
        fprintf(f, "Hypervisor  %s (highest leaf 0x%08x)\n",
                p->cpu.hypervisor_vendor[0] ? p->cpu.hypervisor_vendor : "unnamed",
                (unsigned)p->cpu.hypervisor_max_leaf);
    else
        fprintf(f, "Hypervisor  none reported\n");
}

static void print_rate(const tks_platform *p, FILE *f)
{
    static const char *const hdr[] = {"source", "MHz", "vs chosen", "how"};
    tks__table *t;
    char c[4][128];
    const char *cells[4] = {c[0], c[1], c[2], c[3]};
    char missing[256] = "";
    if (p->tsc_hz > 0) {
        mhz(c[1], sizeof c[1], p->tsc_hz);
        fprintf(f, "\nTSC rate    %s MHz, from %s: ", c[1], tks_hz_source_name(p->tsc_hz_source));
    } else {
        fprintf(f, "\nTSC rate    unknown: ");
    }
    tks__diags_join(f, &p->hz_reason, "; ");
    fprintf(f, ".\n");
    t = tks__table_new(4, hdr, "lrrl");
    for (size_t i = 0; t && i < p->n_hz_sources; i++) {
        const tks_hz_reading *r = &p->hz_sources[i];
        snprintf(c[0], sizeof c[0], "%s%s", tks_hz_source_name(r->source),
                 r->source == p->tsc_hz_source && p->tsc_hz > 0 ? " *" : "");
        mhz(c[1], sizeof c[1], r->hz);
        if (p->tsc_hz > 0)
            snprintf(c[2], sizeof c[2], "%+.2f ppm", (r->hz - p->tsc_hz) / p->tsc_hz * 1e6);
        else
            snprintf(c[2], sizeof c[2], "-");
        snprintf(c[3], sizeof c[3], "%s", r->detail);
        tks__table_add_row(t, cells);
    }
    if (t && p->n_hz_sources)
        tks__table_print(t, f, "            ");
    tks__table_free(t);
    for (int s = 0; s < TKS_HZ_SOURCE_COUNT; s++) {
        int found = 0;
        if (s == TKS_HZ_OVERRIDE || !tks__arch_hz_offered((enum tks_hz_source)s))
            continue;
        for (size_t i = 0; i < p->n_hz_sources; i++)
            found |= p->hz_sources[i].source == (enum tks_hz_source)s;
        if (!found)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", tks_hz_source_name((enum tks_hz_source)s));
    }
    if (missing[0])
        fprintf(f, "            Not offered here: %s.\n", missing);
}

static void print_deltas(FILE *f, const char *what, const uint64_t *v, const uint64_t *n,
                         size_t reads)
{
    fprintf(f, "            %s:", what);
    for (size_t i = 0; i < TKS_TOP_DELTAS && n[i]; i++)
        fprintf(f, "%s %llu (%.1f%%)", i ? "," : "", (unsigned long long)v[i],
                reads ? 100.0 * (double)n[i] / (double)reads : 0);
    fprintf(f, "\n");
}

static void print_quantum(const tks_platform *p, FILE *f)
{
    const tks_timer_quantum *q = &p->quantum;
    double qns = tks_ticks_to_ns(p, (double)q->quantum);
    double cpt = tks_core_cycles_per_tick(p);
    fprintf(f, "\nQuantum     %llu tick(s)", (unsigned long long)q->quantum);
    if (qns == qns)
        fprintf(f, " = %.2f ns", qns);
    fprintf(f, ": fenced reads advance in steps of %llu", (unsigned long long)q->quantum);
    tks__report_unfenced_phrase(p, f);
    fprintf(f, ".\n");
    print_deltas(f, "back-to-back fenced deltas (ticks, share)", q->fenced_delta,
                 q->fenced_count, q->reads);
    print_deltas(f, "back-to-back unfenced deltas", q->unfenced_delta, q->unfenced_count,
                 q->reads);
    if (q->quantum > 1)
        fprintf(f, "            One pair of reads cannot tell apart durations less than %llu ticks"
                   " (about %.1f core cycles); the minimum and median move in whole steps,\n"
                   "            while the phase-averaged mean over many samples resolves less "
                   "than one step.\n",
                (unsigned long long)q->quantum, cpt > 0 ? cpt * (double)q->quantum : 0);
    else
        fprintf(f, "            The counter moves by single ticks: one pair of reads resolves "
                   "one tick.\n");
}

/* The add check on the chain in one line; the environment's core_adds finding says what it
 * means. */
static void print_add_check(const tks_add_check *c, FILE *f)
{
    if (c->verdict == TKS_ADD_CHECK_NONE)
        fprintf(f, "            add check not read (its windows could not be taken, or a chain "
                   "read no whole number of adds)");
    else
        fprintf(f, "            add check %s", tks__report_add_check_name(c->verdict));
    if (isfinite(c->mul_adds) && isfinite(c->fp_adds))
        fprintf(f, ": multiplies read %.3f adds, floating-point adds %.3f", c->mul_adds,
                c->fp_adds);
    if (c->verdict == TKS_ADD_CHECK_SLOW)
        fprintf(f, "; %.4f core cycles an add, applied above", c->add_cycles);
    else if (c->verdict == TKS_ADD_CHECK_DISAGREE)
        fprintf(f, "; nothing applied");
    fputc('\n', f);
}

static void print_core(const tks_platform *p, FILE *f)
{
    const tks_core_clock *k = &p->core;
    if (!k->rounds) {
        fprintf(f, "\nCore clock  not measured.\n");
    } else {
        fprintf(f, "\nCore clock  %.4f core cycles per TSC tick", tks_core_cycles_per_tick(p));
        if (p->core_hz > 0)
            fprintf(f, " = %.3f GHz", p->core_hz / 1e9);
        fprintf(f, " (%s)\n", k->counter ? "hardware cycle counter" : "estimate from a dependent-add chain");
        fprintf(f, "            chain of %llu vs %llu adds, differenced: %.4f cycles/tick",
                (unsigned long long)k->adds_long, (unsigned long long)k->adds_short,
                k->cycles_per_tick);
        if (k->hi > 0)
            fprintf(f, " [%.4f, %.4f]", k->lo, k->hi);
        fprintf(f, ", spread %.2f%% over %u rounds\n", k->spread * 100, k->rounds);
        if (k->attempts > 1)
            fprintf(f, "            measured %u times: the rounds spread over 2%% (a disturbed "
                       "machine); the calmest is kept\n", k->attempts);
        print_add_check(&k->add_check, f);
        fprintf(f, "            benchmarks measure the core clock again with their own windows; "
                   "this figure converts the other commands' ticks\n");
    }
    fprintf(f, "            ");
    tks__diags_join(f, &k->counter_diags, "; ");
    fputc('\n', f);
}

static void print_hypervisor_cost(const tks_platform *p, FILE *f)
{
    if (!p->cpuid.available)
        return;
    fprintf(f, "\nCPUID       %.0f ticks (median; minimum %.0f)", p->cpuid.median_ticks,
            p->cpuid.min_ticks);
    if (p->tsc_hz > 0)
        fprintf(f, " = %.2f us", tks_ticks_to_ns(p, p->cpuid.median_ticks) / 1e3);
    fprintf(f, ": %s\n", p->cpuid.traps ? "it traps to the hypervisor, so a CPUID near a window "
                                          "disturbs it"
                                        : "it does not trap");
}

static void print_environment(const tks_platform *p, FILE *f)
{
    size_t warn = 0, i;
    for (i = 0; i < p->n_env; i++)
        warn += p->env[i].status == TKS_ENV_WARN;
    fprintf(f, "\nEnvironment %zu checks, %zu warning(s)\n", p->n_env, warn);
    for (i = 0; i < p->n_env; i++) {
        const tks_env_finding *e = &p->env[i];
        fprintf(f, "  %-7s %-14s ", tks_env_status_name(e->status), e->id);
        tks__diags_join(f, &e->found, "; ");
        fputc('\n', f);
        if (e->status != TKS_ENV_OK && e->advice.n) {
            fprintf(f, "  %-7s %-14s -> ", "", "");
            tks__diags_join(f, &e->advice, " ");
            fputc('\n', f);
        }
    }
}

void tks__report_info_summary(const tks_platform *p, FILE *f)
{
    fprintf(f, "CPU: %s (%s)%s%s.\n", p->cpu.brand[0] ? p->cpu.brand : "unnamed",
            p->cpu.vendor[0] ? p->cpu.vendor : "unknown vendor",
            p->cpu.hypervisor ? ", under the hypervisor " : "",
            p->cpu.hypervisor ? p->cpu.hypervisor_vendor : "");
    if (p->tsc_hz > 0)
        fprintf(f, "TSC: %.6f MHz from %s (%zu source(s) consulted)%s.\n", p->tsc_hz / 1e6,
                tks_hz_source_name(p->tsc_hz_source), p->n_hz_sources,
                p->invariant_tsc ? ", invariant" : ", NOT invariant: ticks are not time");
    fprintf(f, "Quantum: %llu tick(s). ", (unsigned long long)p->quantum.quantum);
    tks__report_units(p, f);
    if (p->cpuid.available)
        fprintf(f, "CPUID: %.0f ticks%s.\n", p->cpuid.median_ticks,
                p->cpuid.traps ? " (traps to the hypervisor)" : "");
    for (size_t i = 0; i < p->n_env; i++)
        if (p->env[i].status == TKS_ENV_WARN)
        {
            fprintf(f, "Warning (%s): ", p->env[i].id);
            tks__diags_join(f, &p->env[i].found, "; ");
            fprintf(f, ".\n");
        }
    fprintf(f, "('tickscope info' gives the details and a remedy for each warning.)\n");
}

void tks__report_info_text(const tks_platform *p, FILE *f)
{
    print_cpu(p, f);
    print_rate(p, f);
    print_quantum(p, f);
    print_core(p, f);
    print_hypervisor_cost(p, f);
    print_environment(p, f);
    fprintf(f, "\nCalibration ");
    tks__diags_join(f, &p->cache_diags, "; ");
    fprintf(f, ", in %.0f ms%s%s.\n", p->seconds * 1e3, p->cache_path[0] ? "; cache file " : "",
            p->cache_path);
}

int tks__report_info_json(const tks_platform *p, FILE *f)
{
    tks__json j;
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", "info");
    tks__report_platform_json(&j, p);
    tks__json_double(&j, "seconds", p->seconds);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
