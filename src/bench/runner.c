/* runner.c: one run of one benchmark: place the thread, let the body drive the state through
 * TKS_MEASURE, then turn the kept windows into estimates and warnings a user can act on. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/runner.h"
#include "bench/state.h"
#include "base/now.h"
#include "stats/estimate.h"
#include "stats/reference.h"

/* A change of the core clock within one run worth saying: a few percent is what a guest sees
 * when its host changes turbo state (issue figures: 1.28 to 1.36 cycles per tick). */
#define CORE_DRIFT_WARN 0.03

void tks_result_free(tks_result *r)
{
    if (!r)
        return;
    free(r->real);
    free(r->empty);
    free(r->k);
    r->real = r->empty = NULL;
    r->k = NULL;
    r->n_samples = 0;
}

void tks__result_warn(tks_result *r, const char *fmt, ...)
{
    va_list ap;
    if (r->n_warnings == TKS_WARN_MAX)
        return;
    va_start(ap, fmt);
    vsnprintf(r->warnings[r->n_warnings++], sizeof r->warnings[0], fmt, ap);
    va_end(ap);
}

static int failed(tks_result *r, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->ok = 0;
    return rc;
}

/* Too small to see, said only when the data say so: zero when the interval holds zero (or lies
 * below it); in throughput mode, the repetition loop's own cost when the estimate is within its
 * uncertainty of the loop's cost measured in the same run (plus 2%: the loop's cost moves with
 * its alignment). A result whose interval excludes both is a result, however small: one
 * dependent add reads 1.0 cycle in either mode. Nonzero when it warned. */
static int warn_small(tks_result *r, double cycles_per_tick)
{
    const tks_interval *e = &r->estimate, *f = &r->loop_floor;
    int thr = r->mode == TKS_MODE_THROUGHPUT;
    char cyc[48] = "";
    if (e->hi < 0 && !thr && isfinite(r->harness_gap.value) && r->mean.lo > 0) {
        tks__result_warn(r, "below the harness gap: its windows read %.3f ticks over empty ones, "
                            "less than the %.3f ticks the fences add around any work; next to "
                            "nothing ran (optimised away?), below what latency mode resolves "
                            "here: check with --mode throughput", r->mean.value,
                         r->harness_gap.value);
        return 1;
    }
    if (e->hi < 0) {
        tks__result_warn(r, "negative (%.3f ticks, interval [%.3f, %.3f]): the block made the "
                            "window shorter than the empty one; it is below what %s mode "
                            "resolves here", e->value, e->lo, e->hi,
                         thr ? "throughput" : "latency");
        return 1;
    }
    if (e->lo <= 0) {
        tks__result_warn(r, "indistinguishable from zero (%.3f ticks, interval [%.3f, %.3f]): "
                            "too small for %s mode to see here, or optimised away; %s",
                         e->value, e->lo, e->hi, thr ? "throughput" : "latency",
                         thr ? "keep its result with tks_do_not_optimize, its inputs with "
                               "tks_opaque"
                             : "check with --mode throughput");
        return 1;
    }
    if (thr && isfinite(f->value)) {
        double hf = (f->hi - f->lo) / 2, he = (e->hi - e->lo) / 2;
        if (e->value > f->value + sqrt(hf * hf + he * he) + 0.02 * f->value)
            return 0;
        if (cycles_per_tick > 0)
            snprintf(cyc, sizeof cyc, " = %.2f core cycles", f->value * cycles_per_tick);
        tks__result_warn(r, "at the repetition loop's own cost (%.3f ticks%s a repetition, "
                            "measured in this run): in a loop the block costs at most this; a "
                            "chain of one single-cycle instruction costs exactly this, anything "
                            "cheaper (or removed by the compiler: tks_do_not_optimize, "
                            "tks_opaque) reads the same", f->value, cyc);
        return 1;
    }
    return 0;
}

/* A small block whose one fenced execution and whose cost in a stream disagree by more than
 * their uncertainties (and 3%): the latency figure is then not the block's cost. */
static void warn_modes(tks_result *r, double cpt)
{
    const tks_interval *l = &r->estimate, *t = &r->throughput_alongside;
    double hl = (l->hi - l->lo) / 2, ht = (t->hi - t->lo) / 2, u = cpt > 0 ? cpt : 1;
    if (!isfinite(t->value) || !(l->lo > 0) ||
        fabs(l->value - t->value) <= sqrt(hl * hl + ht * ht) + 0.03 * fmax(l->value, t->value))
        return;
    tks__result_warn(r, "one fenced execution (%.2f %s) and the block in a stream (%.2f a "
                        "repetition, measured alongside) disagree: %s",
                     l->value * u, cpt > 0 ? "core cycles" : "ticks", t->value * u,
                     l->value > t->value
                         ? "its work overlaps from one execution to the next (independent "
                           "instructions), so one window's figure depends on how the fences "
                           "overlap it; for its cost use --mode throughput"
                         : "it costs more repeated (state it consumes, a cache or predictor it "
                           "trains, or a disturbed run); check with --mode throughput");
}

static void warnings(tks_result *r, const struct tks_state *st, int optimized,
                     double cycles_per_tick)
{
    const tks_interval *e = &r->estimate;
    double half = (e->hi - e->lo) / 2;
    uint64_t discarded = r->discarded_migrated + r->discarded_negative;

    if (optimized == 0)
        tks__result_warn(r, "the benchmark was compiled without optimisation: these are the "
                           "costs of a debug build; rebuild its file with -O2");
    if (r->mode == TKS_MODE_LATENCY)
        warn_modes(r, cycles_per_tick);
    if (!warn_small(r, cycles_per_tick) && half > 0.05 * fabs(e->value))
        tks__result_warn(r, "the 95%% interval is +-%.1f%% of the estimate (over 5%%): give it "
                           "more time (--min-time), pin it (--pin CPU) or quiet the machine",
                        100 * half / fabs(e->value));
    if (discarded * 100 > r->windows + discarded)
        tks__result_warn(r, "%.1f%% of the windows were discarded (%llu changed CPU, %llu went "
                           "backwards): pin the benchmark with --pin CPU",
                        100.0 * (double)discarded / (double)(r->windows + discarded),
                        (unsigned long long)r->discarded_migrated,
                        (unsigned long long)r->discarded_negative);
    if (st->mode == TKS_MODE_LATENCY && r->windows < 100)
        tks__result_warn(r, "only %llu windows fitted in the time budget: raise --min-time",
                        (unsigned long long)r->windows);
    /* The drift monitor: the core clock's rate at the start and at the end of the run. */
    if (r->core_source == TKS_CORE_INTERLEAVED && r->cycles_per_tick_start > 0 &&
        fabs(r->cycles_per_tick_end / r->cycles_per_tick_start - 1) > CORE_DRIFT_WARN)
        tks__result_warn(r, "the core clock changed by %+.1f%% during this run (%.3f to %.3f core "
                            "cycles per tick): compare core cycles, not ticks or ns",
                         100 * (r->cycles_per_tick_end / r->cycles_per_tick_start - 1),
                         r->cycles_per_tick_start, r->cycles_per_tick_end);
}

/* The mode's estimator over windows [0, n). scratch holds 2n values. */
static int run_estimator(enum tks_mode mode, const uint64_t *real, const uint32_t *k,
                         const uint64_t *empty, size_t n, uint64_t quantum, uint64_t *scratch,
                         tks__estimate *est)
{
    return mode == TKS_MODE_LATENCY
               ? tks__estimate_latency(real, empty, n, quantum, scratch, est)
               : tks__estimate_throughput(real, k, empty, n, quantum, scratch, est);
}

static int estimate(tks_result *r, const struct tks_state *st)
{
    tks__estimate est;
    uint64_t *scratch = malloc(2 * st->n * sizeof *scratch);
    int rc;
    if (!scratch)
        return TKS_ENOMEM;
    rc = run_estimator(st->mode, st->real, st->k, st->empty, st->n, st->quantum, scratch, &est);
    free(scratch);
    if (rc)
        return rc;
    r->min = est.min;
    r->median = est.median;
    r->mean = est.mean;
    r->slope = est.slope;
    r->intercept = est.intercept;
    r->slope_r2 = est.slope_r2;
    r->estimate = st->mode == TKS_MODE_LATENCY ? est.mean : est.slope;
    r->overhead.value = est.empty.pa_mean;
    r->overhead.lo = est.empty.pa_mean - est.empty.pa_ci;
    r->overhead.hi = est.empty.pa_mean + est.empty.pa_ci;
    r->overhead_median = est.empty.median;
    r->overhead_mad = est.empty.mad;
    r->overhead_min = est.empty.min;
    r->outliers_low = est.real.outliers_low;
    r->outliers_high = est.real.outliers_high;
    return 0;
}

/* Latency mode's estimate less the harness gap (see tks_result.harness_gap), the two
 * intervals' half-widths combined; nothing when the gap was not measured, or when the block's
 * windows cannot be told from empty ones (a block the compiler removed leaves the fences as they
 * are around nothing, with no gap to take out: it reads zero, not minus the gap). */
static void take_gap(const tks_result *r, tks_interval *e)
{
    double g = r->harness_gap.value, hg = (r->harness_gap.hi - r->harness_gap.lo) / 2,
           he = (e->hi - e->lo) / 2;
    if (r->mode != TKS_MODE_LATENCY || !isfinite(g) || !(r->mean.lo > 0))
        return;
    e->value -= g;
    e->lo = e->value - sqrt(he * he + hg * hg);
    e->hi = e->value + sqrt(he * he + hg * hg);
}

static void loop_floor(tks_result *r, const struct tks_state *st)
{
    double f, half;
    r->loop_floor.value = r->loop_floor.lo = r->loop_floor.hi = NAN;
    if (st->mode != TKS_MODE_THROUGHPUT || !st->n_ref ||
        tks__reference_gap(st->ref_floor, st->n_ref, 0, &f, &half) != 0)
        return;
    r->loop_floor.value = f;
    r->loop_floor.lo = f - half;
    r->loop_floor.hi = f + half;
}

static void alongside(tks_result *r, const struct tks_state *st)
{
    tks__estimate est;
    uint64_t *scratch;
    r->throughput_alongside.value = r->throughput_alongside.lo = r->throughput_alongside.hi = NAN;
    if (!st->companion || st->c_n < 2 || !(scratch = malloc(2 * st->c_n * sizeof *scratch)))
        return;
    if (tks__estimate_throughput(st->c_real, st->c_k, st->c_empty, st->c_n, st->quantum, scratch,
                                 &est) == 0)
        r->throughput_alongside = est.slope;
    free(scratch);
}

static void harness_gap(tks_result *r, const struct tks_state *st)
{
    double g, half;
    r->harness_gap.value = r->harness_gap.lo = r->harness_gap.hi = NAN;
    if (st->mode != TKS_MODE_LATENCY || !st->n_ref ||
        tks__reference_gap(st->ref_gap, st->n_ref, st->quantum, &g, &half) != 0)
        return;
    r->harness_gap.value = g;
    r->harness_gap.lo = g - half;
    r->harness_gap.hi = g + half;
    take_gap(r, &r->estimate);
}

/* The headline in core cycles. With the interleaved reference, every window is first brought
 * to the run's rate with the reference measured around it (a core clock that drifted during the
 * run then tilts nothing, not even a throughput fit whose repetition counts took turns), the
 * estimator runs again on those windows, and the run's rate converts the result; the interval
 * combines the estimate's error with the rate's, widened to the spread between stretches of the
 * run when that is wider. Without a reference, the platform's per-boot rate and the estimate's
 * interval alone. */
#define REF_RADIUS 4 /* batches either side whose reference sets a window's rate */

/* The headline estimate of windows [0, n) of real/k/empty, or NaN. */
static double headline(const tks_result *r, const uint64_t *real, const uint32_t *k,
                       const uint64_t *empty, size_t n, uint64_t quantum, uint64_t *scratch,
                       tks_interval *e)
{
    tks__estimate est;
    if (run_estimator(r->mode, real, k, empty, n, quantum, scratch, &est) != 0)
        return NAN;
    if (e)
        *e = r->mode == TKS_MODE_LATENCY ? est.mean : est.slope;
    return r->mode == TKS_MODE_LATENCY ? est.mean.value : est.slope.value;
}

/* The headline estimate again, from the windows scaled to the run's rate (into *e), and the
 * half-width of a t interval over BLOCKS consecutive stretches of the run estimated apart
 * (*between; 0 when they cannot be): what moves from one stretch of time to the next, which an
 * interval made of the windows' scatter alone does not see. *e is left alone when memory runs
 * out or the estimator fails. */
#define BLOCKS 8
static void drift_corrected(const tks_result *r, const struct tks_state *st,
                            const tks__reference *ref, tks_interval *e, double *between)
{
    double *factor = malloc(st->n_ref * sizeof *factor);
    uint64_t *real = malloc(st->n * sizeof *real), *empty = malloc(st->n * sizeof *empty);
    uint64_t *scratch = malloc(2 * st->n * sizeof *scratch);
    double v[BLOCKS];
    size_t b = 0, nb = 0;
    *between = 0;
    if (factor && real && empty && scratch) {
        tks__reference_factors(st->ref, st->n_ref, ref, REF_RADIUS, factor);
        /* Window i belongs to the first batch whose reference came after it (past the last
         * reference: the last one's rate). */
        for (size_t i = 0; i < st->n; i++) {
            while (b + 1 < st->n_ref && i >= st->ref_end[b])
                b++;
            real[i] = (uint64_t)llround((double)st->real[i] * factor[b]);
            empty[i] = (uint64_t)llround((double)st->empty[i] * factor[b]);
        }
        if (isfinite(headline(r, real, st->k, empty, st->n, st->quantum, scratch, e)))
            take_gap(r, e);
        for (size_t blk = 0; blk < BLOCKS; blk++) {
            size_t a = st->n * blk / BLOCKS, z = st->n * (blk + 1) / BLOCKS;
            double x = headline(r, real + a, st->k + a, empty + a, z - a, st->quantum, scratch,
                                NULL);
            if (isfinite(x))
                v[nb++] = x;
        }
        /* t times the standard error of the blocks' mean (sample variance, n - 1) */
        if (nb == BLOCKS)
            *between = tks__t975(nb - 1) * sqrt(tks_variance_double(v, nb) / (double)(nb - 1));
    }
    free(factor);
    free(real);
    free(empty);
    free(scratch);
}

static void core_cycles(tks_result *r, const struct tks_state *st, double calibrated)
{
    tks__reference ref;
    tks_interval e = r->estimate;
    double half_r = 0, cpt, half, between = 0;
    r->core_cycles.value = r->core_cycles.lo = r->core_cycles.hi = NAN;
    r->cycles_per_tick = r->cycles_per_tick_start = r->cycles_per_tick_end = NAN;
    r->cycles_per_tick_range = NAN;
    r->reference_windows = st->ref_windows;
    if (st->n_ref && tks__reference_fit(st->ref, st->n_ref, TKS_REF_ADDS, st->quantum, &ref) == 0) {
        r->core_source = TKS_CORE_INTERLEAVED;
        cpt = ref.cycles_per_tick;
        half_r = 1.96 * ref.rel_se;
        r->cycles_per_tick_start = ref.start;
        r->cycles_per_tick_end = ref.end;
        r->cycles_per_tick_range = ref.range;
        drift_corrected(r, st, &ref, &e, &between);
    } else if (calibrated > 0) {
        r->core_source = TKS_CORE_CALIBRATED;
        cpt = calibrated;
    } else {
        r->core_source = TKS_CORE_NONE;
        return;
    }
    r->cycles_per_tick = cpt;
    /* The windows' scatter and the reference's error, or the spread between stretches of the
     * run when that is wider: the run-to-run part the scatter alone does not show. */
    half = fmax(sqrt(pow((e.hi - e.lo) / 2, 2) + pow(e.value * half_r, 2)), between) * cpt;
    r->core_cycles.value = e.value * cpt;
    r->core_cycles.lo = e.value * cpt - half;
    r->core_cycles.hi = e.value * cpt + half;
}

static void name_result(tks_result *r, const tks_benchmark_spec *spec, long long arg)
{
    r->family = spec->name;
    r->has_arg = spec->args != NULL;
    r->arg = r->has_arg ? arg : 0;
    if (r->has_arg)
        snprintf(r->name, sizeof r->name, "%s/%lld", spec->name, arg);
    else
        snprintf(r->name, sizeof r->name, "%s", spec->name);
}

static void init_state(struct tks_state *st, const tks_options *o, const tks_platform *p,
                       const tks_result *r)
{
    tks__state_init(st);
    st->name = r->name;
    st->arg = r->arg;
    st->method = r->method;
    st->mode = r->mode;
    st->min_time = o->min_time > 0 ? o->min_time : 0.2;
    st->quantum = p && p->quantum.quantum ? p->quantum.quantum : 1;
    st->tsc_hz = p ? p->tsc_hz : 0;
    st->check_aux = tks_cpu_features_get()->rdtscp;
}

/* Pin and raise the thread as asked; a refusal is a warning, not a failure. */
static void place(struct tks_state *st, struct tks__placement *pl, const tks_options *o,
                  tks_result *r)
{
    int e;
    memset(pl, 0, sizeof *pl);
    if (o->pin_cpu >= 0 && (e = tks__placement_pin(pl, o->pin_cpu)) != 0)
        tks__result_warn(r, "could not pin to CPU %d (%s): ran unpinned", o->pin_cpu, strerror(e));
    if (o->fifo) {
        if ((e = tks__placement_fifo(pl)) != 0)
            tks__result_warn(r, "could not run under SCHED_FIFO (%s): ran at normal priority",
                            strerror(e));
        tks__pacing_init(&st->pacing, NULL, pl->fifo);
    }
}

int tks_run_benchmark(const tks_options *o, const tks_platform *p, const tks_benchmark_spec *spec,
                      long long arg, tks_result *r)
{
    struct tks_state st;
    struct tks__placement pl;
    double t0;
    int rc;

    if (!r)
        return TKS_EINVAL;
    memset(r, 0, sizeof *r);
    if (!o || !spec || !spec->fn || !spec->name)
        return failed(r, TKS_EINVAL, "no options or no benchmark");
    name_result(r, spec, arg);
    r->mode = o->mode;
    r->optimized = spec->optimized;
    r->method = o->method >= 0 ? (enum tks_method)o->method : tks_method_default(tks_cpu_features_get());
    if ((unsigned)r->method >= TKS_METHOD_COUNT ||
        !tks_method_available(r->method, tks_cpu_features_get()) || r->method == TKS_METHOD_CR0)
        return failed(r, TKS_EUNAVAIL, "method %s is not available on this CPU in user space",
                      (unsigned)r->method < TKS_METHOD_COUNT ? tks_method_info(r->method)->name
                                                             : "?");
    if (o->mode != TKS_MODE_LATENCY && o->mode != TKS_MODE_THROUGHPUT)
        return failed(r, TKS_EINVAL, "unknown mode");

    init_state(&st, o, p, r);
    r->quantum = st.quantum;
    place(&st, &pl, o, r);
    t0 = tks__now_s();
    spec->fn(&st);
    r->seconds = tks__now_s() - t0;
    tks__placement_restore(&pl);

    r->discarded_migrated = st.migrated;
    r->discarded_negative = st.negative;
    r->warmup = st.warmup;
    r->windows = st.n;
    for (size_t i = 0; i < st.n; i++)
        r->executions += st.k[i];
    r->n_ks = st.nk;
    memcpy(r->ks, st.ks, sizeof r->ks);

    if (st.skipped) {
        r->skipped = 1;
        rc = failed(r, TKS_EINVAL, "skipped: %s", st.reason);
    } else if (!st.entered) {
        rc = failed(r, TKS_EINVAL, "the body never reached TKS_MEASURE");
    } else if (st.error) {
        rc = failed(r, st.error, "%s", st.reason);
    } else if ((rc = estimate(r, &st)) != 0) {
        rc = failed(r, rc, "too few windows to estimate from (%zu kept): %s", st.n,
                    tks_strerror(rc));
    } else {
        r->ok = 1;
        harness_gap(r, &st);
        loop_floor(r, &st);
        alongside(r, &st);
        core_cycles(r, &st, p ? tks_core_cycles_per_tick(p) : 0);
        /* core_cycles fell back on the platform's rate already; NaN when there is none */
        warnings(r, &st, spec->optimized, r->cycles_per_tick);
    }
    /* The windows go with the result, for --raw, --histogram and --plot. */
    r->real = st.real;
    r->empty = st.empty;
    r->k = st.k;
    r->n_samples = st.n;
    st.real = st.empty = NULL;
    st.k = NULL;
    tks__state_release(&st);
    return rc;
}
