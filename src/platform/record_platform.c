/* SPDX-License-Identifier: MIT */
/* record_platform.c: the machine's facts in a recording (docs/recording.md): the CPU as CPUID
 * named it and the features the methods were chosen by, the TSC's rate and where it came from,
 * the timer's quantum, the core clock with its add check, the cost of CPUID. A replay reports
 * these, not the facts of the machine it runs on. */
#include <math.h>
#include <string.h>

#include "base/record_diags.h"
#include "platform/record_platform.h"

void tks__record_platform_encode(tks__rec_buf *b, const tks_platform *p,
                                 const struct tks_cpu_features *f)
{
    const tks_core_clock *c = &p->core;
    tks__rec_put_str(b, "vendor", p->cpu.vendor);
    tks__rec_put_str(b, "brand", p->cpu.brand);
    tks__rec_put_u64(b, "family", p->cpu.family);
    tks__rec_put_u64(b, "model", p->cpu.model);
    tks__rec_put_u64(b, "stepping", p->cpu.stepping);
    tks__rec_put_i64(b, "hypervisor", p->cpu.hypervisor);
    tks__rec_put_str(b, "hypervisor_vendor", p->cpu.hypervisor_vendor);
    tks__rec_put_u64(b, "hypervisor_max_leaf", p->cpu.hypervisor_max_leaf);
    tks__rec_put_i64(b, "logical_cpus", p->cpu.logical_cpus);
    tks__rec_put_u64(b, "feature_tsc", f->tsc);
    tks__rec_put_u64(b, "feature_rdtscp", f->rdtscp);
    tks__rec_put_u64(b, "feature_invariant_tsc", f->invariant_tsc);
    tks__rec_put_u64(b, "feature_sse2", f->sse2);
    tks__rec_put_u64(b, "feature_serialize", f->serialize);
    tks__rec_put_u64(b, "feature_rdpid", f->rdpid);
    tks__rec_put_u64(b, "feature_lfence_serializing", f->lfence_serializing);
    tks__rec_put_i64(b, "invariant_tsc", p->invariant_tsc);
    tks__rec_put_f64(b, "tsc_hz", p->tsc_hz);
    tks__rec_put_str(b, "tsc_hz_source", tks_hz_source_name(p->tsc_hz_source));
    tks__rec_put_f64(b, "calibration_hz", p->calibration.hz);
    tks__rec_put_f64(b, "calibration_ppm", p->calibration.ppm);
    tks__rec_put_u64(b, "calibration_points", p->calibration.points);
    tks__rec_put_u64(b, "calibration_used", p->calibration.used);
    tks__rec_put_f64(b, "calibration_bracket_ticks", p->calibration.bracket_ticks);
    tks__rec_put_f64(b, "calibration_seconds", p->calibration.seconds);
    tks__rec_put_u64(b, "quantum", p->quantum.quantum);
    tks__rec_put_u64(b, "unfenced_step", p->quantum.unfenced_step);
    tks__rec_put_u64s(b, "fenced_delta", p->quantum.fenced_delta, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "fenced_count", p->quantum.fenced_count, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "unfenced_delta", p->quantum.unfenced_delta, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "unfenced_count", p->quantum.unfenced_count, TKS_TOP_DELTAS);
    tks__rec_put_u64(b, "quantum_reads", p->quantum.reads);
    tks__rec_put_f64(b, "core_cycles_per_tick", c->cycles_per_tick);
    tks__rec_put_f64(b, "core_lo", c->lo);
    tks__rec_put_f64(b, "core_hi", c->hi);
    tks__rec_put_f64(b, "core_spread", c->spread);
    tks__rec_put_u64(b, "core_rounds", c->rounds);
    tks__rec_put_u64(b, "core_attempts", c->attempts);
    tks__rec_put_u64(b, "core_adds_short", c->adds_short);
    tks__rec_put_u64(b, "core_adds_long", c->adds_long);
    tks__rec_put_i64(b, "core_counter", c->counter);
    tks__rec_put_f64(b, "core_counter_cycles_per_tick", c->counter_cycles_per_tick);
    tks__rec_put_u64(b, "core_check_verdict", (uint64_t)c->add_check.verdict);
    tks__rec_put_f64(b, "core_check_mul_adds", c->add_check.mul_adds);
    tks__rec_put_f64(b, "core_check_fp_adds", c->add_check.fp_adds);
    tks__rec_put_f64(b, "core_check_add_cycles", c->add_check.add_cycles);
    tks__rec_put_f64(b, "core_check_add_cycles_se", c->add_check.add_cycles_se);
    tks__rec_put_f64(b, "core_hz", p->core_hz);
    tks__rec_put_f64(b, "cpuid_min_ticks", p->cpuid.min_ticks);
    tks__rec_put_f64(b, "cpuid_median_ticks", p->cpuid.median_ticks);
    tks__rec_put_i64(b, "cpuid_traps", p->cpuid.traps);
    tks__rec_put_i64(b, "cpuid_available", p->cpuid.available);
    /* what the reports say of how these were had */
    tks__rec_put_diags(b, "hz_reason", &p->hz_reason);
    for (size_t i = 0; i < p->n_hz_sources && i < TKS_HZ_SOURCE_COUNT; i++) {
        tks__rec_put_str(b, "hz_source", tks_hz_source_name(p->hz_sources[i].source));
        tks__rec_put_f64(b, "hz_source_hz", p->hz_sources[i].hz);
        tks__rec_put_str(b, "hz_source_detail", p->hz_sources[i].detail);
    }
    tks__rec_put_i64(b, "core_counter_rdpmc", c->counter_rdpmc);
    tks__rec_put_diags(b, "core_counter_diag", &c->counter_diags);
    for (size_t i = 0; i < p->n_env && i < TKS_ENV_MAX; i++) {
        tks__rec_put_str(b, "env_id", p->env[i].id);
        tks__rec_put_i64(b, "env_status", p->env[i].status);
        tks__rec_put_diags(b, "env_found", &p->env[i].found);
        tks__rec_put_diags(b, "env_advice", &p->env[i].advice);
    }
    tks__rec_put_i64(b, "from_cache", p->from_cache);
    tks__rec_put_str(b, "cache_path", p->cache_path);
    tks__rec_put_diags(b, "cache_diag", &p->cache_diags);
    tks__rec_put_i64(b, "pin_status", p->pin_status);
    tks__rec_put_f64(b, "platform_seconds", p->seconds);
}

static enum tks_hz_source source_named(const char *name)
{
    for (int s = 0; s < TKS_HZ_SOURCE_COUNT; s++)
        if (!strcmp(tks_hz_source_name((enum tks_hz_source)s), name))
            return (enum tks_hz_source)s;
    return TKS_HZ_MEASURED;
}

/* The scalar fields, by name, and where each goes. */
#define U(name, dst) else if (tks__rec_is(&fl, name)) dst = fl.u
#define I(name, dst) else if (tks__rec_is(&fl, name)) dst = as_int(&fl)
#define D(name, dst) else if (tks__rec_is(&fl, name)) dst = tks__rec_number(&fl)
#define S(name, dst) else if (tks__rec_is(&fl, name)) tks__rec_str(&fl, dst, sizeof dst)

/* A number field as an int; 0 when it is none or does not fit. */
static int as_int(const tks__rec_field *fl)
{
    double v = tks__rec_number(fl);
    return v >= -2147483647.0 && v <= 2147483647.0 ? (int)v : 0;
}

static int deltas(const tks__rec_field *fl, uint64_t *out)
{
    return fl->count == TKS_TOP_DELTAS ? tks__rec_u64s(fl, out) : -1;
}

/* The lists of diagnostics and the repeated entries (TSC sources, environment findings). */
struct lists {
    tks__rec_diags_reader hz_reason, counter, cache, found, advice;
    int env_open;
};

static int lists_field(struct lists *l, const tks__rec_field *fl, tks_platform *p)
{
    if (tks__rec_diags_field(&l->hz_reason, fl) || tks__rec_diags_field(&l->counter, fl) ||
        tks__rec_diags_field(&l->cache, fl))
        return 1;
    if (l->env_open && (tks__rec_diags_field(&l->found, fl) || tks__rec_diags_field(&l->advice, fl)))
        return 1;
    if (tks__rec_is(fl, "env_id")) {
        if (l->env_open) {
            tks__rec_diags_end(&l->found);
            tks__rec_diags_end(&l->advice);
        }
        if ((l->env_open = p->n_env < TKS_ENV_MAX)) {
            tks_env_finding *e = &p->env[p->n_env++];
            tks__rec_str(fl, e->id, sizeof e->id);
            tks__rec_diags_begin(&l->found, "env_found", &e->found);
            tks__rec_diags_begin(&l->advice, "env_advice", &e->advice);
        }
        return 1;
    }
    if (tks__rec_is(fl, "env_status")) {
        double v = tks__rec_number(fl);
        if (l->env_open && v >= TKS_ENV_OK && v <= TKS_ENV_UNKNOWN)
            p->env[p->n_env - 1].status = (int)v;
        return 1;
    }
    if (tks__rec_is(fl, "hz_source")) {
        char name[32];
        if (p->n_hz_sources < TKS_HZ_SOURCE_COUNT) {
            tks__rec_str(fl, name, sizeof name);
            p->hz_sources[p->n_hz_sources++].source = source_named(name);
        }
        return 1;
    }
    if (tks__rec_is(fl, "hz_source_hz") && p->n_hz_sources) {
        p->hz_sources[p->n_hz_sources - 1].hz = tks__rec_number(fl);
        return 1;
    }
    if (tks__rec_is(fl, "hz_source_detail") && p->n_hz_sources) {
        tks_hz_reading *h = &p->hz_sources[p->n_hz_sources - 1];
        tks__rec_str(fl, h->detail, sizeof h->detail);
        return 1;
    }
    return 0;
}

static void lists_end(struct lists *l)
{
    tks__rec_diags_end(&l->hz_reason);
    tks__rec_diags_end(&l->counter);
    tks__rec_diags_end(&l->cache);
    if (l->env_open) {
        tks__rec_diags_end(&l->found);
        tks__rec_diags_end(&l->advice);
    }
}

int tks__record_platform_decode(const unsigned char *b, size_t n, tks_platform *p,
                                struct tks_cpu_features *f)
{
    tks__rec_field fl;
    size_t pos = 0;
    int rc;
    char src[32] = "";
    tks_core_clock *c = &p->core;
    struct lists l;
    memset(p, 0, sizeof *p);
    memset(f, 0, sizeof *f);
    memset(&l, 0, sizeof l);
    tks__rec_diags_begin(&l.hz_reason, "hz_reason", &p->hz_reason);
    tks__rec_diags_begin(&l.counter, "core_counter_diag", &c->counter_diags);
    tks__rec_diags_begin(&l.cache, "cache_diag", &p->cache_diags);
    while ((rc = tks__rec_field_next(b, n, &pos, &fl)) == 1) {
        if (lists_field(&l, &fl, p))
            continue;
        if (tks__rec_is(&fl, "fenced_delta"))
            rc = deltas(&fl, p->quantum.fenced_delta);
        else if (tks__rec_is(&fl, "fenced_count"))
            rc = deltas(&fl, p->quantum.fenced_count);
        else if (tks__rec_is(&fl, "unfenced_delta"))
            rc = deltas(&fl, p->quantum.unfenced_delta);
        else if (tks__rec_is(&fl, "unfenced_count"))
            rc = deltas(&fl, p->quantum.unfenced_count);
        S("vendor", p->cpu.vendor);
        S("brand", p->cpu.brand);
        U("family", p->cpu.family);
        U("model", p->cpu.model);
        U("stepping", p->cpu.stepping);
        I("hypervisor", p->cpu.hypervisor);
        S("hypervisor_vendor", p->cpu.hypervisor_vendor);
        U("hypervisor_max_leaf", p->cpu.hypervisor_max_leaf);
        I("logical_cpus", p->cpu.logical_cpus);
        U("feature_tsc", f->tsc);
        U("feature_rdtscp", f->rdtscp);
        U("feature_invariant_tsc", f->invariant_tsc);
        U("feature_sse2", f->sse2);
        U("feature_serialize", f->serialize);
        U("feature_rdpid", f->rdpid);
        U("feature_lfence_serializing", f->lfence_serializing);
        I("invariant_tsc", p->invariant_tsc);
        D("tsc_hz", p->tsc_hz);
        S("tsc_hz_source", src);
        D("calibration_hz", p->calibration.hz);
        D("calibration_ppm", p->calibration.ppm);
        U("calibration_points", p->calibration.points);
        U("calibration_used", p->calibration.used);
        D("calibration_bracket_ticks", p->calibration.bracket_ticks);
        D("calibration_seconds", p->calibration.seconds);
        U("quantum", p->quantum.quantum);
        U("unfenced_step", p->quantum.unfenced_step);
        U("quantum_reads", p->quantum.reads);
        D("core_cycles_per_tick", c->cycles_per_tick);
        D("core_lo", c->lo);
        D("core_hi", c->hi);
        D("core_spread", c->spread);
        U("core_rounds", c->rounds);
        U("core_attempts", c->attempts);
        U("core_adds_short", c->adds_short);
        U("core_adds_long", c->adds_long);
        I("core_counter", c->counter);
        D("core_counter_cycles_per_tick", c->counter_cycles_per_tick);
        D("core_check_mul_adds", c->add_check.mul_adds);
        D("core_check_fp_adds", c->add_check.fp_adds);
        D("core_check_add_cycles", c->add_check.add_cycles);
        D("core_check_add_cycles_se", c->add_check.add_cycles_se);
        D("core_hz", p->core_hz);
        D("cpuid_min_ticks", p->cpuid.min_ticks);
        D("cpuid_median_ticks", p->cpuid.median_ticks);
        I("cpuid_traps", p->cpuid.traps);
        I("cpuid_available", p->cpuid.available);
        I("core_counter_rdpmc", c->counter_rdpmc);
        I("from_cache", p->from_cache);
        S("cache_path", p->cache_path);
        I("pin_status", p->pin_status);
        D("platform_seconds", p->seconds);
        else if (tks__rec_is(&fl, "core_check_verdict"))
            c->add_check.verdict = fl.u <= TKS_ADD_CHECK_DISAGREE ? (enum tks_add_check_verdict)fl.u
                                                                 : TKS_ADD_CHECK_NONE;
        if (rc != 0 && rc != 1)
            return -1;
        rc = 1;
    }
    lists_end(&l);
    if (rc != 0)
        return -1;
    p->tsc_hz_source = source_named(src);
    if (!p->quantum.quantum)
        p->quantum.quantum = 1;
    if (!(isfinite(p->tsc_hz) && p->tsc_hz >= 0) || !isfinite(c->cycles_per_tick))
        return -1;
    memcpy(f->vendor, p->cpu.vendor, sizeof f->vendor - 1);
    return 0;
}
