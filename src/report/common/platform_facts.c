/* SPDX-License-Identifier: MIT */
/* platform_facts.c: the machine's facts for people (one line on what a tick is) and for programs (the
 * JSON block `tickscope info --json` writes and every result file carries as its context). */
#include <string.h>

#include "report/common/report.h"

#include "arch/arch.h"

void tks__report_units(const tks_platform *p, FILE *f)
{
    double cpt = tks_core_cycles_per_tick(p);
    if (p->tsc_hz > 0)
        fprintf(f, "One TSC tick = %.4f ns (%.6f MHz, %s)", tks_ticks_to_ns(p, 1), p->tsc_hz / 1e6,
                tks_hz_source_name(p->tsc_hz_source));
    else
        fprintf(f, "One TSC tick = ? ns (rate unknown; --tsc-hz sets it)");
    if (cpt > 0)
        fprintf(f, " = %.3f core cycles (%s)", cpt,
                p->core.counter ? "cycle counter" : "estimate from a dependent-add chain");
    fprintf(f, ".\n");
}

void tks__report_unfenced_phrase(const tks_platform *p, FILE *f)
{
    const tks_timer_quantum *q = &p->quantum;
    for (size_t i = 0; i < TKS_TOP_DELTAS && q->unfenced_count[i]; i++)
        if (q->unfenced_delta[i]) { /* the deltas come commonest first */
            fprintf(f, "; back-to-back unfenced reads most often differ by %llu",
                    (unsigned long long)q->unfenced_delta[i]);
            return;
        }
}

static void json_deltas(tks__json *j, const char *key, const uint64_t *v, const uint64_t *n,
                        size_t reads)
{
    tks__json_begin_array(j, key);
    for (size_t i = 0; i < TKS_TOP_DELTAS && n[i]; i++) {
        tks__json_begin_object(j, NULL);
        tks__json_u64(j, "ticks", v[i]);
        tks__json_u64(j, "count", n[i]);
        tks__json_double(j, "fraction", reads ? (double)n[i] / (double)reads : 0);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
}

static void json_cpu(tks__json *j, const tks_platform *p)
{
    const struct tks_cpu_features *f = &p->features;
    tks__json_begin_object(j, "cpu");
    tks__json_string(j, "vendor", p->cpu.vendor);
    tks__json_string(j, "brand", p->cpu.brand);
    tks__json_u64(j, "family", p->cpu.family);
    tks__json_u64(j, "model", p->cpu.model);
    tks__json_u64(j, "stepping", p->cpu.stepping);
    tks__json_u64(j, "logical_cpus", (uint64_t)p->cpu.logical_cpus);
    tks__json_begin_object(j, "features");
    tks__json_bool(j, "invariant_tsc", f->invariant_tsc);
    tks__json_bool(j, "rdtscp", f->rdtscp);
    tks__json_bool(j, "serialize", f->serialize);
    tks__json_bool(j, "lfence_serializing", f->lfence_serializing);
    tks__json_bool(j, "rdpid", f->rdpid);
    tks__json_end_object(j);
    tks__json_end_object(j);
}

static void json_tsc(tks__json *j, const tks_platform *p)
{
    const tks_timer_quantum *q = &p->quantum;
    tks__json_begin_object(j, "tsc");
    tks__json_bool(j, "invariant", p->invariant_tsc);
    if (p->tsc_hz > 0) {
        tks__json_double(j, "hz", p->tsc_hz);
        tks__json_string(j, "hz_source", tks_hz_source_name(p->tsc_hz_source));
    } else {
        tks__json_null(j, "hz");
        tks__json_null(j, "hz_source");
    }
    tks__json_diags_text(j, "hz_reason", &p->hz_reason, "; ");
    tks__json_diags(j, &p->hz_reason);
    tks__json_begin_array(j, "hz_sources");
    for (size_t i = 0; i < p->n_hz_sources; i++) {
        tks__json_begin_object(j, NULL);
        tks__json_string(j, "source", tks_hz_source_name(p->hz_sources[i].source));
        tks__json_double(j, "hz", p->hz_sources[i].hz);
        tks__json_string(j, "detail", p->hz_sources[i].detail);
        tks__json_end_object(j);
    }
    tks__json_end_array(j);
    if (p->calibration.hz > 0)
        tks__json_double(j, "calibration_ppm", p->calibration.ppm);
    else
        tks__json_null(j, "calibration_ppm");
    tks__json_u64(j, "quantum_ticks", q->quantum);
    tks__json_double(j, "quantum_ns", tks_ticks_to_ns(p, (double)q->quantum));
    tks__json_u64(j, "unfenced_step_ticks", q->unfenced_step);
    json_deltas(j, "fenced_deltas", q->fenced_delta, q->fenced_count, q->reads);
    json_deltas(j, "unfenced_deltas", q->unfenced_delta, q->unfenced_count, q->reads);
    tks__json_end_object(j);
}

static void json_core(tks__json *j, const tks_platform *p)
{
    const tks_core_clock *k = &p->core;
    tks__json_begin_object(j, "core");
    if (p->core_hz > 0)
        tks__json_double(j, "hz", p->core_hz);
    else
        tks__json_null(j, "hz");
    if (k->rounds)
        tks__json_double(j, "cycles_per_tick", tks_core_cycles_per_tick(p));
    else
        tks__json_null(j, "cycles_per_tick");
    tks__json_string(j, "source", k->counter ? "perf-counter" : k->rounds ? "add-chain" : "none");
    tks__json_bool(j, "estimate", !k->counter);
    tks__json_double(j, "chain_cycles_per_tick", k->cycles_per_tick);
    tks__json_double(j, "chain_spread", k->spread);
    tks__json_range(j, "chain_ci", k->lo, k->hi);
    tks__json_u64(j, "chain_attempts", k->attempts);
    tks__json_u64(j, "chain_rounds", k->rounds);
    tks__json_u64(j, "chain_adds_short", k->adds_short);
    tks__json_u64(j, "chain_adds_long", k->adds_long);
    tks__json_begin_object(j, "counter");
    tks__json_bool(j, "available", k->counter);
    tks__json_bool(j, "rdpmc", k->counter_rdpmc);
    if (k->counter)
        tks__json_double(j, "cycles_per_tick", k->counter_cycles_per_tick);
    tks__json_diags_text(j, "note", &k->counter_diags, "; ");
    tks__json_diags(j, &k->counter_diags);
    tks__json_end_object(j);
    if (k->rounds)
        tks__report_add_check_json(j, &k->add_check);
    tks__json_end_object(j);
}

const char *tks__report_add_check_name(enum tks_add_check_verdict v)
{
    switch (v) {
    case TKS_ADD_CHECK_HOLDS: return "holds";
    case TKS_ADD_CHECK_SLOW: return "slow";
    case TKS_ADD_CHECK_DISAGREE: return "disagree";
    default: return "none";
    }
}

void tks__report_add_check_json(tks__json *j, const tks_add_check *c)
{
    tks__json_begin_object(j, "add_check");
    tks__json_string(j, "verdict", tks__report_add_check_name(c->verdict));
    tks__json_double(j, "mul_adds", c->mul_adds);
    tks__json_double(j, "fp_adds", c->fp_adds);
    tks__json_double(j, "add_cycles", c->add_cycles);
    tks__json_double(j, "add_cycles_se", c->add_cycles_se);
    tks__json_end_object(j);
}

static void json_hypervisor(tks__json *j, const tks_platform *p)
{
    tks__json_begin_object(j, "hypervisor");
    tks__json_bool(j, "present", p->cpu.hypervisor);
    tks__json_string(j, "vendor", p->cpu.hypervisor ? p->cpu.hypervisor_vendor : NULL);
    if (p->cpuid.available) {
        tks__json_double(j, "cpuid_ticks", p->cpuid.median_ticks);
        tks__json_double(j, "cpuid_ticks_min", p->cpuid.min_ticks);
        tks__json_bool(j, "cpuid_traps", p->cpuid.traps);
    } else {
        tks__json_null(j, "cpuid_ticks");
    }
    tks__json_end_object(j);
}

void tks__report_finding(FILE *f, const tks_env_finding *e, const char *sep)
{
    tks__diags_join(f, &e->found, "; ");
    if (e->advice.n) {
        fputs(sep, f);
        tks__diags_join(f, &e->advice, " ");
    }
}

static void json_finding(tks__json *j, const tks_env_finding *e)
{
    tks__json_begin_object(j, NULL);
    tks__json_string(j, "id", e->id);
    tks__json_string(j, "status", tks_env_status_name(e->status));
    tks__json_string(j, "code", e->found.n ? tks_diag_info_of(e->found.items[0].code)->id : NULL);
    tks__json_diags_text(j, "finding", &e->found, "; ");
    tks__json_diags_text(j, "advice", &e->advice, " ");
    /* what was found, then the remedy (its codes end in .fix) */
    tks__json_begin_array(j, "diagnostics");
    tks__json_diag_items(j, &e->found);
    tks__json_diag_items(j, &e->advice);
    tks__json_end_array(j);
    tks__json_end_object(j);
}

void tks__report_platform_json(tks__json *j, const tks_platform *p)
{
    size_t i;
    tks__json_string(j, "tickscope_version", TKS_VERSION_STRING);
    tks__json_string(j, "arch", tks__arch_name());
    json_cpu(j, p);
    json_tsc(j, p);
    json_core(j, p);
    json_hypervisor(j, p);
    /* Warnings are what a user must act on; checks are everything, for the record. */
    tks__json_begin_array(j, "warnings");
    for (i = 0; i < p->n_env; i++)
        if (p->env[i].status == TKS_ENV_WARN)
            json_finding(j, &p->env[i]);
    tks__json_end_array(j);
    tks__json_begin_array(j, "checks");
    for (i = 0; i < p->n_env; i++)
        json_finding(j, &p->env[i]);
    tks__json_end_array(j);
    tks__json_begin_object(j, "calibration_cache");
    tks__json_bool(j, "used", p->from_cache);
    tks__json_string(j, "path", p->cache_path[0] ? p->cache_path : NULL);
    tks__json_diags_text(j, "note", &p->cache_diags, "; ");
    tks__json_diags(j, &p->cache_diags);
    tks__json_end_object(j);
}
