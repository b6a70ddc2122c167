/* SPDX-License-Identifier: MIT */
/* platform.c: everything tickscope knows about the machine, together: identity, the TSC rate from
 * every source and the one chosen, quantum, core clock, CPUID cost and environment findings, with
 * the measured parts cached per boot. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/now.h"
#include "platform/cache.h"
#include "platform/env_internal.h"
#include "platform/tsc_sources.h"
#include "sample/placement.h"
#include "tickscope.h"

/* The measurement is chosen when it is at least this good. */
#define MEASURED_PPM_LIMIT 20.0
/* How far a declared rate may sit from the chosen one before it is worth a warning. CPUID 0x16 is
 * a nominal figure in whole MHz, so it gets a looser bound. */
#define AGREE_PPM 100.0
#define AGREE_PPM_NOMINAL 1000.0
#define CORE_SPREAD_LIMIT 0.02

static const char *const hz_names[TKS_HZ_SOURCE_COUNT] = {
    "override", "measured", "linux-perf", "linux-log", "cpuid-15", "hypervisor", "cpuid-16",
    "cntfrq"};

const char *tks_hz_source_name(enum tks_hz_source s)
{
    return (unsigned)s < TKS_HZ_SOURCE_COUNT ? hz_names[s] : "unknown";
}

void tks_platform_options_init(tks_platform_options *o)
{
    memset(o, 0, sizeof *o);
    o->cpu = -1;
}

double tks_core_cycles_per_tick(const tks_platform *p)
{
    return p->core.counter ? p->core.counter_cycles_per_tick : p->core.cycles_per_tick;
}

double tks_ticks_to_ns(const tks_platform *p, double ticks)
{
    return p && p->tsc_hz > 0 ? ticks * 1e9 / p->tsc_hz : NAN;
}

static double ppm_apart(double a, double b)
{
    return fabs(a - b) / b * 1e6;
}

/* What is cached per boot; measured on the CPU the user will measure on (the caller pins). */
static void measure_stable(const tks_platform_options *o, tks_platform *p)
{
    p->n_hz_sources = tks__tsc_declared(o->root, p->hz_sources, TKS_HZ_SOURCE_COUNT);
    if (tks_tsc_calibrate(0, &p->calibration) != 0)
        memset(&p->calibration, 0, sizeof p->calibration);
    tks_timer_quantum_measure(&p->quantum);
    tks_cpuid_cost_measure(&p->cpuid);
}

/* Measures what the cache does not hold, and keeps it unless the machine was busy meanwhile:
 * figures taken under load would be trusted by every command for the rest of the boot. */
static void measure_and_store(const tks_platform_options *o, tks_platform *p, const char *key,
                              const tks_diags *distrust)
{
    tks__load_sample before, after;
    tks__load_sample_read(o->root, &before);
    measure_stable(o, p);
    tks__load_sample_read(o->root, &after);
    if (!p->cache_path[0])
        return;
    (void)tks__diag0(&p->cache_diags,
                     o->recalibrate ? TKS_DIAG_PLATFORM_RECALIBRATED : TKS_DIAG_PLATFORM_MEASURED);
    (void)tks__diags_append(&p->cache_diags, distrust);
    if (tks__load_was_busy(&before, &after, &p->cache_diags))
        return;
    (void)tks__diag0(&p->cache_diags, tks__cache_store(p->cache_path, key, p) == 0
                                          ? TKS_DIAG_PLATFORM_CACHE_STORED
                                          : TKS_DIAG_PLATFORM_CACHE_UNWRITABLE);
}

/* The TSC rates, quantum and CPUID cost from this boot's cache or measured; the core clock,
 * which drifts with frequency, measured every time. */
static void load_or_measure(const tks_platform_options *o, tks_platform *p)
{
    struct tks__placement place;
    char key[512];
    tks_diags distrust = {0};
    int rc, lock = -1;
    memset(&place, 0, sizeof place);
    if (o->cpu >= 0)
        p->pin_status = tks__placement_pin(&place, o->cpu);
    if ((rc = tks__cache_path(o->cache_dir, p->cache_path, sizeof p->cache_path)) != 0) {
        p->cache_path[0] = 0;
        (void)tks__diag0(&p->cache_diags, TKS_DIAG_PLATFORM_CACHE_NO_DIR);
    } else if (tks__cache_key(o->root, &p->cpu, o->cpu, key, sizeof key) != 0) {
        (void)tks__diag0(&p->cache_diags, TKS_DIAG_PLATFORM_CACHE_NO_BOOT);
        p->cache_path[0] = 0;
    }
    /* Two commands started together: the second waits for the first's figures. */
    if (p->cache_path[0])
        lock = tks__cache_lock(p->cache_path, 10.0);
    if (p->cache_path[0] && !o->recalibrate &&
        (rc = tks__cache_load(p->cache_path, key, p, &distrust)) == 0) {
        p->from_cache = 1;
        (void)tks__diag0(&p->cache_diags, TKS_DIAG_PLATFORM_CACHE_HIT);
    } else {
        if (rc != TKS_EINVAL)
            tks_diags_free(&distrust); /* absent or another boot's: nothing to say */
        measure_and_store(o, p, key, &distrust);
    }
    tks_diags_free(&distrust);
    tks__cache_unlock(lock);
    tks_core_clock_measure(&p->core);
    tks__placement_restore(&place);
}

static const tks_hz_reading *find_source(const tks_platform *p, enum tks_hz_source s)
{
    for (size_t i = 0; i < p->n_hz_sources; i++)
        if (p->hz_sources[i].source == s)
            return &p->hz_sources[i];
    return NULL;
}

static void add_source(tks_platform *p, enum tks_hz_source s, double hz, const char *detail)
{
    tks_hz_reading *r;
    if (p->n_hz_sources >= TKS_HZ_SOURCE_COUNT || find_source(p, s))
        return;
    r = &p->hz_sources[p->n_hz_sources++];
    r->source = s;
    r->hz = hz;
    snprintf(r->detail, sizeof r->detail, "%s", detail);
}

/* One rate for every conversion: the user's, else the measurement when it is tight (it is what
 * makes our nanoseconds the system clock's), else the most direct declared figure. */
static void choose_rate(const tks_platform_options *o, tks_platform *p)
{
    static const enum tks_hz_source fallback[] = {TKS_HZ_LINUX_PERF, TKS_HZ_LINUX_LOG,
                                                  TKS_HZ_CPUID_15,   TKS_HZ_HYPERVISOR,
                                                  TKS_HZ_CNTFRQ,     TKS_HZ_CPUID_16};
    const tks_tsc_calibration *c = &p->calibration;
    char detail[96];
    if (c->hz > 0) {
        snprintf(detail, sizeof detail, "CLOCK_MONOTONIC_RAW, %zu of %zu pairs over %.0f ms, +-%.2g ppm",
                 c->used, c->points, c->seconds * 1e3, c->ppm);
        add_source(p, TKS_HZ_MEASURED, c->hz, detail);
    }
    if (o->tsc_hz_override > 0) {
        add_source(p, TKS_HZ_OVERRIDE, o->tsc_hz_override, "--tsc-hz");
        p->tsc_hz = o->tsc_hz_override;
        p->tsc_hz_source = TKS_HZ_OVERRIDE;
        (void)tks__diag0(&p->hz_reason, TKS_DIAG_PLATFORM_RATE_GIVEN);
        return;
    }
    if (c->hz > 0 && c->ppm <= MEASURED_PPM_LIMIT) {
        p->tsc_hz = c->hz;
        p->tsc_hz_source = TKS_HZ_MEASURED;
        (void)tks__diag(&p->hz_reason, TKS_DIAG_PLATFORM_RATE_MEASURED, TKS__DN(c->ppm));
        return;
    }
    for (size_t i = 0; i < sizeof fallback / sizeof fallback[0]; i++) {
        const tks_hz_reading *r = find_source(p, fallback[i]);
        if (!r)
            continue;
        p->tsc_hz = r->hz;
        p->tsc_hz_source = r->source;
        if (c->hz > 0)
            (void)tks__diag(&p->hz_reason, TKS_DIAG_PLATFORM_RATE_NOISY, TKS__DN(c->ppm),
                            TKS__DS(tks_hz_source_name(r->source)));
        else
            (void)tks__diag(&p->hz_reason, TKS_DIAG_PLATFORM_RATE_UNMEASURED,
                            TKS__DS(tks_hz_source_name(r->source)));
        return;
    }
    p->tsc_hz = 0;
    (void)tks__diag0(&p->hz_reason, TKS_DIAG_PLATFORM_RATE_NONE);
}

static tks_env_finding *next_finding(tks_platform *p, const char *id)
{
    tks_env_finding *e;
    if (p->n_env >= TKS_ENV_MAX)
        return NULL;
    e = &p->env[p->n_env++];
    memset(e, 0, sizeof *e);
    snprintf(e->id, sizeof e->id, "%s", id);
    return e;
}

/* Declared rates that disagree with the chosen one mean a scaled TSC or a bad calibration. */
static void rate_finding(tks_platform *p)
{
    const tks_hz_reading *worst = NULL;
    double worst_ppm = 0;
    tks_env_finding *e;
    for (size_t i = 0; i < p->n_hz_sources; i++) {
        const tks_hz_reading *r = &p->hz_sources[i];
        double d, limit = r->source == TKS_HZ_CPUID_16 ? AGREE_PPM_NOMINAL : AGREE_PPM;
        if (r->source == p->tsc_hz_source || !(p->tsc_hz > 0))
            continue;
        d = ppm_apart(r->hz, p->tsc_hz);
        if (d > limit && d > worst_ppm)
            worst = r, worst_ppm = d;
    }
    if (!(p->tsc_hz > 0)) {
        if ((e = next_finding(p, "tsc_rate"))) {
            FINDING0(e, TKS_ENV_WARN, ENV_RATE_UNKNOWN);
            ADVICE0(e, ENV_RATE_UNKNOWN_FIX);
        }
    } else if (worst) {
        if ((e = next_finding(p, "tsc_rate"))) {
            FINDING(e, TKS_ENV_WARN, ENV_RATE_DISAGREE, TKS__DS(tks_hz_source_name(worst->source)),
                    TKS__DN(worst->hz / 1e6), TKS__DS(tks_hz_source_name(p->tsc_hz_source)),
                    TKS__DN(p->tsc_hz / 1e6), TKS__DN(worst_ppm));
            ADVICE(e, ENV_RATE_DISAGREE_FIX, TKS__DS(tks_hz_source_name(p->tsc_hz_source)));
        }
    } else if ((e = next_finding(p, "tsc_rate"))) {
        if (p->n_hz_sources > 1)
            FINDING(e, TKS_ENV_OK, ENV_RATE_AGREE, TKS__DN(p->tsc_hz / 1e6),
                    TKS__DS(tks_hz_source_name(p->tsc_hz_source)), TKS__DN(p->n_hz_sources));
        else
            FINDING(e, TKS_ENV_OK, ENV_RATE_ALONE, TKS__DN(p->tsc_hz / 1e6),
                    TKS__DS(tks_hz_source_name(p->tsc_hz_source)));
    }
}

/* What the add check found of the core clock's chain (core_check.h); nothing where it was not
 * read. The whole numbers due are the two chains' figures in cycles, rounded. */
static void adds_finding(tks_platform *p)
{
    const tks_add_check *c = &p->core.add_check;
    double mlat = round(c->mul_adds * c->add_cycles), flat = round(c->fp_adds * c->add_cycles);
    tks_env_finding *e;
    if (!p->core.rounds || c->verdict == TKS_ADD_CHECK_NONE || !(e = next_finding(p, "core_adds")))
        return;
    if (c->verdict == TKS_ADD_CHECK_HOLDS) {
        FINDING(e, TKS_ENV_OK, ENV_CORE_ADDS_HOLD, TKS__DN(c->mul_adds), TKS__DN(c->fp_adds),
                TKS__DN(mlat), TKS__DN(flat));
    } else if (c->verdict == TKS_ADD_CHECK_SLOW) {
        FINDING(e, TKS_ENV_WARN, ENV_CORE_ADDS_SLOW, TKS__DN(c->add_cycles), TKS__DN(c->mul_adds),
                TKS__DN(c->fp_adds), TKS__DN(mlat), TKS__DN(flat));
        ADVICE0(e, ENV_CORE_ADDS_SLOW_FIX);
    } else {
        FINDING(e, TKS_ENV_WARN, ENV_CORE_ADDS_UNCHECKED, TKS__DN(c->mul_adds),
                TKS__DN(c->fp_adds));
        ADVICE0(e, ENV_CORE_ADDS_UNCHECKED_FIX);
    }
}

static void core_and_cpuid_findings(tks_platform *p)
{
    const tks_core_clock *k = &p->core;
    tks_env_finding *e;
    if (k->rounds && k->spread > CORE_SPREAD_LIMIT && (e = next_finding(p, "core_clock"))) {
        FINDING(e, TKS_ENV_WARN, ENV_CORE_VARIED, TKS__DN(k->spread * 100));
        ADVICE0(e, ENV_CORE_VARIED_FIX);
    } else if (k->counter && k->cycles_per_tick > 0 &&
               fabs(k->counter_cycles_per_tick / k->cycles_per_tick - 1) > CORE_SPREAD_LIMIT &&
               (e = next_finding(p, "core_clock"))) {
        FINDING(e, TKS_ENV_WARN, ENV_CORE_DISAGREE, TKS__DN(k->counter_cycles_per_tick),
                TKS__DN(k->cycles_per_tick));
        ADVICE0(e, ENV_CORE_DISAGREE_FIX);
    } else if (k->rounds && (e = next_finding(p, "core_clock"))) {
        FINDING(e, TKS_ENV_OK, ENV_CORE_STEADY, TKS__DN(k->spread * 100), TKS__DN(k->rounds));
    }
    adds_finding(p);
    if (!p->cpuid.available || !(e = next_finding(p, "cpuid_cost")))
        return;
    if (p->cpuid.traps) {
        FINDING(e, TKS_ENV_WARN, ENV_CPUID_TRAPS, TKS__DN(p->cpuid.median_ticks));
        ADVICE0(e, ENV_CPUID_TRAPS_FIX);
    } else {
        FINDING(e, TKS_ENV_OK, ENV_CPUID_COST, TKS__DN(p->cpuid.median_ticks));
    }
}

int tks_platform_probe(const tks_platform_options *o, tks_platform *p)
{
    tks_platform_options defaults;
    tks_env_input in;
    tks_env_finding *e;
    double start = tks__now_s();
    if (!p)
        return TKS_EINVAL;
    if (!o) {
        tks_platform_options_init(&defaults);
        o = &defaults;
    }
    if (o->tsc_hz_override < 0 || isnan(o->tsc_hz_override))
        return TKS_EINVAL;
    memset(p, 0, sizeof *p);
    tks_cpu_identity_probe(&p->cpu);
    p->features = *tks_cpu_features_get();
    p->invariant_tsc = p->features.invariant_tsc;
    load_or_measure(o, p);
    choose_rate(o, p);
    p->core_hz = p->tsc_hz * tks_core_cycles_per_tick(p);

    memset(&in, 0, sizeof in);
    in.root = o->root;
    in.cpu = o->cpu;
    in.hypervisor = p->cpu.hypervisor;
    in.hypervisor_vendor = p->cpu.hypervisor_vendor;
    in.invariant_tsc = p->invariant_tsc;
    in.optimized_build = tks_build_optimized();
    p->n_env = tks_env_check(&in, p->env, TKS_ENV_MAX);
    rate_finding(p);
    core_and_cpuid_findings(p);
    if (p->pin_status && (e = next_finding(p, "pin"))) { /* the measuring CPU refused */
        FINDING(e, TKS_ENV_WARN, ENV_PIN_REFUSED, TKS__DN(o->cpu), TKS__DN(p->pin_status));
        ADVICE0(e, ENV_PIN_REFUSED_FIX);
    }
    p->seconds = tks__now_s() - start;
    return TKS_OK;
}

void tks_platform_free(tks_platform *p)
{
    if (!p)
        return;
    tks_env_findings_free(p->env, p->n_env);
    tks_diags_free(&p->hz_reason);
    tks_diags_free(&p->cache_diags);
    tks_diags_free(&p->core.counter_diags);
}
