/* SPDX-License-Identifier: MIT */
/* record_platform.c: the machine's facts in a recording (docs/recording.md): the CPU as CPUID
 * named it and the features the methods were chosen by, the TSC's rate and where it came from,
 * the timer's quantum, the core clock with its add check, the cost of CPUID. A replay reports
 * these, not the facts of the machine it runs on. */
#include <math.h>
#include <string.h>

#include "base/record_diags.h"
#include "base/record_members.h"
#include "platform/record_platform.h"

/* The machine's scalar facts, each a field of the same name (base/record_members.h). */
#define P(kind, name, member) TKS__REC_MEMBER(tks_platform, kind, name, member)
static const tks__rec_member platform_members[] = {
    P(TEXT, "vendor", cpu.vendor),
    P(TEXT, "brand", cpu.brand),
    P(UNSIGNED, "family", cpu.family),
    P(UNSIGNED, "model", cpu.model),
    P(UNSIGNED, "stepping", cpu.stepping),
    P(SIGNED, "hypervisor", cpu.hypervisor),
    P(TEXT, "hypervisor_vendor", cpu.hypervisor_vendor),
    P(UNSIGNED, "hypervisor_max_leaf", cpu.hypervisor_max_leaf),
    P(SIGNED, "logical_cpus", cpu.logical_cpus),
    P(SIGNED, "invariant_tsc", invariant_tsc),
    P(DOUBLE, "tsc_hz", tsc_hz),
    P(DOUBLE, "calibration_hz", calibration.hz),
    P(DOUBLE, "calibration_ppm", calibration.ppm),
    P(UNSIGNED, "calibration_points", calibration.points),
    P(UNSIGNED, "calibration_used", calibration.used),
    P(DOUBLE, "calibration_bracket_ticks", calibration.bracket_ticks),
    P(DOUBLE, "calibration_seconds", calibration.seconds),
    P(UNSIGNED, "quantum", quantum.quantum),
    P(UNSIGNED, "unfenced_step", quantum.unfenced_step),
    P(UNSIGNED, "quantum_reads", quantum.reads),
    P(DOUBLE, "core_cycles_per_tick", core.cycles_per_tick),
    P(DOUBLE, "core_lo", core.lo),
    P(DOUBLE, "core_hi", core.hi),
    P(DOUBLE, "core_spread", core.spread),
    P(UNSIGNED, "core_rounds", core.rounds),
    P(UNSIGNED, "core_attempts", core.attempts),
    P(UNSIGNED, "core_adds_short", core.adds_short),
    P(UNSIGNED, "core_adds_long", core.adds_long),
    P(SIGNED, "core_counter", core.counter),
    P(SIGNED, "core_counter_rdpmc", core.counter_rdpmc),
    P(DOUBLE, "core_counter_cycles_per_tick", core.counter_cycles_per_tick),
    P(SIGNED, "core_check_verdict", core.add_check.verdict),
    P(DOUBLE, "core_check_mul_adds", core.add_check.mul_adds),
    P(DOUBLE, "core_check_fp_adds", core.add_check.fp_adds),
    P(DOUBLE, "core_check_add_cycles", core.add_check.add_cycles),
    P(DOUBLE, "core_check_add_cycles_se", core.add_check.add_cycles_se),
    P(DOUBLE, "core_hz", core_hz),
    P(DOUBLE, "cpuid_min_ticks", cpuid.min_ticks),
    P(DOUBLE, "cpuid_median_ticks", cpuid.median_ticks),
    P(SIGNED, "cpuid_traps", cpuid.traps),
    P(SIGNED, "cpuid_available", cpuid.available),
    P(SIGNED, "from_cache", from_cache),
    P(TEXT, "cache_path", cache_path),
    P(SIGNED, "pin_status", pin_status),
    P(DOUBLE, "platform_seconds", seconds),
    P(UNSIGNED, "feature_tsc", features.tsc),
    P(UNSIGNED, "feature_rdtscp", features.rdtscp),
    P(UNSIGNED, "feature_invariant_tsc", features.invariant_tsc),
    P(UNSIGNED, "feature_sse2", features.sse2),
    P(UNSIGNED, "feature_serialize", features.serialize),
    P(UNSIGNED, "feature_rdpid", features.rdpid),
    P(UNSIGNED, "feature_lfence_serializing", features.lfence_serializing),
    P(UNSIGNED, "feature_hypervisor", features.hypervisor),
};
#undef P
/* The CPU's features the library went by. */
#define COUNT(a) (sizeof a / sizeof a[0])

void tks__record_platform_encode(tks__rec_buf *b, const tks_platform *p)
{
    const tks_core_clock *c = &p->core;
    tks__rec_put_members(b, p, platform_members, COUNT(platform_members));
    tks__rec_put_str(b, "tsc_hz_source", tks_hz_source_name(p->tsc_hz_source));
    tks__rec_put_u64s(b, "fenced_delta", p->quantum.fenced_delta, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "fenced_count", p->quantum.fenced_count, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "unfenced_delta", p->quantum.unfenced_delta, TKS_TOP_DELTAS);
    tks__rec_put_u64s(b, "unfenced_count", p->quantum.unfenced_count, TKS_TOP_DELTAS);
    /* what the reports say of how these were had */
    tks__rec_put_diags(b, "hz_reason", &p->hz_reason);
    for (size_t i = 0; i < p->n_hz_sources && i < TKS_HZ_SOURCE_COUNT; i++) {
        tks__rec_put_str(b, "hz_source", tks_hz_source_name(p->hz_sources[i].source));
        tks__rec_put_f64(b, "hz_source_hz", p->hz_sources[i].hz);
        tks__rec_put_str(b, "hz_source_detail", p->hz_sources[i].detail);
    }
    tks__rec_put_diags(b, "core_counter_diag", &c->counter_diags);
    for (size_t i = 0; i < p->n_env && i < TKS_ENV_MAX; i++) {
        tks__rec_put_str(b, "env_id", p->env[i].id);
        tks__rec_put_i64(b, "env_status", p->env[i].status);
        tks__rec_put_diags(b, "env_found", &p->env[i].found);
        tks__rec_put_diags(b, "env_advice", &p->env[i].advice);
    }
    tks__rec_put_diags(b, "cache_diag", &p->cache_diags);
}

static enum tks_hz_source source_named(const char *name)
{
    for (int s = 0; s < TKS_HZ_SOURCE_COUNT; s++)
        if (!strcmp(tks_hz_source_name((enum tks_hz_source)s), name))
            return (enum tks_hz_source)s;
    return TKS_HZ_MEASURED;
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

int tks__record_platform_decode(const unsigned char *b, size_t n, tks_platform *p)
{
    tks__rec_field fl;
    size_t pos = 0;
    int rc;
    char src[32] = "";
    tks_core_clock *c = &p->core;
    struct lists l;
    int m;
    memset(p, 0, sizeof *p);
    memset(&l, 0, sizeof l);
    tks__rec_diags_begin(&l.hz_reason, "hz_reason", &p->hz_reason);
    tks__rec_diags_begin(&l.counter, "core_counter_diag", &c->counter_diags);
    tks__rec_diags_begin(&l.cache, "cache_diag", &p->cache_diags);
    while ((rc = tks__rec_field_next(b, n, &pos, &fl)) == 1) {
        if (lists_field(&l, &fl, p))
            continue;
        m = tks__rec_get_member(&fl, p, platform_members, COUNT(platform_members));
        if (m < 0)
            return -1;
        if (m > 0)
            continue;
        if (tks__rec_is(&fl, "fenced_delta"))
            rc = deltas(&fl, p->quantum.fenced_delta);
        else if (tks__rec_is(&fl, "fenced_count"))
            rc = deltas(&fl, p->quantum.fenced_count);
        else if (tks__rec_is(&fl, "unfenced_delta"))
            rc = deltas(&fl, p->quantum.unfenced_delta);
        else if (tks__rec_is(&fl, "unfenced_count"))
            rc = deltas(&fl, p->quantum.unfenced_count);
        else if (tks__rec_is(&fl, "tsc_hz_source"))
            tks__rec_str(&fl, src, sizeof src);
        if (rc != 0 && rc != 1)
            return -1;
        rc = 1;
    }
    lists_end(&l);
    if (rc != 0)
        return -1;
    p->tsc_hz_source = source_named(src);
    if (c->add_check.verdict < TKS_ADD_CHECK_NONE || c->add_check.verdict > TKS_ADD_CHECK_DISAGREE)
        c->add_check.verdict = TKS_ADD_CHECK_NONE;
    if (!p->quantum.quantum)
        p->quantum.quantum = 1;
    if (!(isfinite(p->tsc_hz) && p->tsc_hz >= 0) || !isfinite(c->cycles_per_tick))
        return -1;
    memcpy(p->features.vendor, p->cpu.vendor, sizeof p->features.vendor - 1);
    p->features.intel = !strcmp(p->cpu.vendor, "GenuineIntel");
    p->features.amd = !strcmp(p->cpu.vendor, "AuthenticAMD");
    return 0;
}
