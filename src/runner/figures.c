/* SPDX-License-Identifier: MIT */
/* figures.c: a run's windows turned into its figures: the mode's estimate, the harness gap
 * (latency) or the loop's floor (throughput), the headline in core cycles at the rate measured
 * with the windows, and, for a small latency-mode block, the same block in a stream set beside
 * its fenced windows and combined with them when the two agree. */
#include <math.h>
#include <stdlib.h>

#include "runner/figures.h"
#include "stats/combine.h"
#include "stats/estimate.h"
#include "stats/reference.h"
#include "stats/twice.h"

/* The mode's estimator over windows [0, n). scratch holds 2n values. */
static int run_estimator(enum tks_mode mode, const uint64_t *real, const uint32_t *k,
                         const uint64_t *empty, size_t n, uint64_t quantum, uint64_t *scratch,
                         tks__estimate *est)
{
    return mode == TKS_MODE_LATENCY
               ? tks__estimate_latency(real, empty, n, quantum, scratch, est)
               : tks__estimate_throughput(real, k, empty, n, quantum, scratch, est);
}

/* The mode's headline figure of an estimate: the phase-averaged mean (latency), the slope
 * (throughput). */
static tks_interval mode_figure(enum tks_mode mode, const tks__estimate *est)
{
    return mode == TKS_MODE_LATENCY ? est->mean : est->slope;
}

static int estimate(tks_result *r, const struct tks_state *st, tks_interval *windows)
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
    *windows = mode_figure(st->mode, &est);
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

/* Latency mode's estimate less the add chain's harness gap (see tks_result.harness_gap), the two
 * intervals' half-widths combined; nothing when the gap was not measured, or when the block's
 * windows cannot be told from empty ones (a block the compiler removed leaves the fences as they
 * are around nothing, with no gap to take out: it reads zero, not minus the gap). */
static void take_gap(const tks_result *r, const tks_interval *gap, tks_interval *e)
{
    double g = gap->value, hg = (gap->hi - gap->lo) / 2, he = (e->hi - e->lo) / 2;
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

/* The run's reference chains fitted, each add at the core cycles the add check found it took
 * (one, unless the check found the chain slow), that check's error in the rate's (when it holds,
 * how far from one cycle it could not tell). 0, or -1 (no reference). */
static int fit_reference(const struct tks_state *st, tks__reference *ref)
{
    double add = tks__add_check_cycles(&st->check);
    if (!st->n_ref || tks__reference_fit(st->ref, st->n_ref, TKS_REF_ADDS * add, st->quantum, ref))
        return -1;
    ref->rel_se = hypot(ref->rel_se, st->check.add_se / add);
    return 0;
}

/* The gap is measured on the reference chains and taken out of every block: how well it carries
 * over moves from one process to the next by more than one run's scatter says. One dependent add
 * on a Zen 5 guest, 10 processes: the gap 8.34-8.65 ticks (sd 1.3% of it) against in-run
 * half-widths of 0.05-0.08 ticks, and the add's window figure 0.77-1.28 cycles. So the gap's
 * interval also holds a carry-over term of 2.5% of the gap (two of those sds). Measured again on
 * a bhyve Zen 5 guest (10 processes of tks_bench_prog --filter '^add40$' --method rdtsc): sd
 * 0.98% of the gap, range 3.4%, so 2.5% holds there too; it is a measured figure of these guests,
 * not a property of every machine. */
#define GAP_CARRY 0.025

/* ref: the run's fitted reference, NULL when none could be fitted. */
static void harness_gap(tks_result *r, const struct tks_state *st, const tks__reference *ref)
{
    double g, half;
    r->harness_gap.value = r->harness_gap.lo = r->harness_gap.hi = NAN;
    /* the gap is the short chain less its adds at the chains' rate: no rate, no gap */
    if (st->mode != TKS_MODE_LATENCY || !ref ||
        tks__reference_gap(st->ref_gap, st->n_ref, st->quantum, &g, &half) != 0)
        return;
    half = hypot(half, GAP_CARRY * g);
    r->harness_gap.value = g;
    r->harness_gap.lo = g - half;
    r->harness_gap.hi = g + half;
}

/* Latency mode's correction (issue 30), chosen in step 2 and applied again to the windows brought
 * to the run's rate in step 4: the add chain's harness gap (adds, its gap and the overlap term
 * that widens the interval), or the block's own windows once and twice (source TKS_GAP_BLOCK). */
struct correction {
    enum tks_gap_source source;
    tks_interval adds_gap; /* the reference chains' gap, ticks */
    double overlap;        /* ticks: how far the block's overlap can differ from the adds' */
};

/* Latency mode, step 2: the windows' figure less the add chain's gap, then the choice between it
 * and the block's own windows once and twice (tks__twice_choose). With the block's own, the
 * result's harness gap is the block's: its windows' mean less twice-less-once. */
static void correct_latency(tks_result *r, const struct tks_state *st, const tks__reference *ref,
                            double calibrated, tks_interval *windows, struct correction *cor)
{
    tks_interval t = {NAN, NAN, NAN};
    double cpt = ref ? ref->cycles_per_tick : calibrated, half; /* the run's rate, else the boot's */
    uint64_t *scratch;
    cor->source = TKS_GAP_NONE;
    cor->adds_gap = r->harness_gap;
    cor->overlap = TKS__OVERLAP_CYCLES / (cpt > 0 ? cpt : 1); /* figures.h */
    r->latency_twice = t;
    r->twice_windows = st->t_n;
    if (r->mode != TKS_MODE_LATENCY)
        return;
    take_gap(r, &cor->adds_gap, windows);
    if (st->t_n >= 2 && (scratch = malloc(st->t_n * sizeof *scratch)) != NULL) {
        if (tks__estimate_twice(st->t_once, st->t_twice, st->t_n, st->quantum, scratch, &t) != 0)
            t = (tks_interval){NAN, NAN, NAN};
        free(scratch);
    }
    r->latency_twice = t;
    if (!isfinite(t.value) && !isfinite(cor->adds_gap.value))
        return; /* neither correction: the windows as they are */
    if (!tks__twice_choose(&t, windows, cor->overlap, windows)) {
        /* the windows stand: less the adds' gap, or (no rate, so no gap) as they are */
        cor->source = isfinite(cor->adds_gap.value) ? TKS_GAP_ADDS : TKS_GAP_NONE;
        return;
    }
    cor->source = TKS_GAP_BLOCK;
    half = hypot((r->mean.hi - r->mean.lo) / 2, (t.hi - t.lo) / 2);
    r->harness_gap = (tks_interval){r->mean.value - t.value, r->mean.value - t.value - half,
                                    r->mean.value - t.value + half};
}

/* The headline in core cycles. With the interleaved reference, every window is first brought
 * to the run's rate with the reference measured around it (a core clock that drifted during the
 * run then tilts nothing, not even a throughput fit whose repetition counts took turns), the
 * estimator runs again on those windows, and the run's rate converts the result; the interval
 * combines the estimate's error with the rate's, widened to the spread between stretches of the
 * run when that is wider. Without a reference, the platform's per-boot rate and the estimate's
 * interval alone. */
#define REF_RADIUS 4 /* batches either side whose reference sets a window's rate */

/* The mode's headline estimate of windows [0, n) of real/k/empty, or NaN. */
static double headline(enum tks_mode mode, const uint64_t *real, const uint32_t *k,
                       const uint64_t *empty, size_t n, uint64_t quantum, uint64_t *scratch,
                       tks_interval *e)
{
    tks__estimate est;
    tks_interval x;
    if (run_estimator(mode, real, k, empty, n, quantum, scratch, &est) != 0)
        return NAN;
    x = mode_figure(mode, &est);
    if (e)
        *e = x;
    return x.value;
}

/* The half-width of a t interval over BLOCKS consecutive stretches of windows [0, n) estimated
 * apart: what moves from one stretch of time to the next, which an interval made of the
 * windows' scatter alone does not see. 0 when a stretch cannot be estimated. */
#define BLOCKS 8
static double between_blocks(enum tks_mode mode, const uint64_t *real, const uint32_t *k,
                             const uint64_t *empty, size_t n, uint64_t quantum, uint64_t *scratch)
{
    double v[BLOCKS];
    for (size_t blk = 0; blk < BLOCKS; blk++) {
        size_t a = n * blk / BLOCKS, z = n * (blk + 1) / BLOCKS;
        if (!isfinite(v[blk] = headline(mode, real + a, k + a, empty + a, z - a, quantum, scratch,
                                        NULL)))
            return 0;
    }
    /* t times the standard error of the blocks' mean (sample variance, n - 1) */
    return tks__t975(BLOCKS - 1) * sqrt(tks_variance_double(v, BLOCKS) / (double)(BLOCKS - 1));
}

/* A figure in ticks at the run's rate (e) in core cycles: the estimate's error and the rate's
 * (rel95, relative), or the spread between stretches of the run when that is wider: the
 * run-to-run part the scatter alone does not show. */
static tks_interval in_cycles(const tks_interval *e, double rel95, double between, double cpt)
{
    double half = fmax(hypot((e->hi - e->lo) / 2, e->value * rel95), between) * cpt;
    return (tks_interval){e->value * cpt, e->value * cpt - half, e->value * cpt + half};
}

/* The windows of the run (the block against the empty window) or, twice, the windows of the block
 * once and twice, brought to the run's rate (window i scaled by the factor of the first batch whose
 * reference came after it; past the last reference, the last one's rate), the mode's estimate of
 * them, corrected as cor says (the add chain's gap taken out of the run's windows, and when wide
 * cor->overlap added to the interval; nothing to take out of twice less once), in core cycles at
 * cpt; NaN when memory runs out or the estimator fails. */
static tks_interval rate_corrected(const tks_result *r, const struct tks_state *st,
                                   const double *factor, double rel95, double cpt,
                                   const struct correction *cor, int twice, int wide)
{
    tks_interval e = {NAN, NAN, NAN}, c = {NAN, NAN, NAN};
    size_t n = twice ? st->t_n : st->n, b = 0;
    const uint64_t *sr = twice ? st->t_twice : st->real, *se = twice ? st->t_once : st->empty;
    uint64_t *real = malloc(n * sizeof *real), *empty = malloc(n * sizeof *empty);
    uint64_t *scratch = malloc(2 * n * sizeof *scratch);
    if (n && real && empty && scratch) {
        for (size_t i = 0; i < n; i++) {
            if (twice)
                b = st->t_ref[i] < st->n_ref ? st->t_ref[i] : st->n_ref - 1;
            else
                while (b + 1 < st->n_ref && i >= st->ref_end[b])
                    b++;
            real[i] = (uint64_t)llround((double)sr[i] * factor[b]);
            empty[i] = (uint64_t)llround((double)se[i] * factor[b]);
        }
        if (isfinite(headline(r->mode, real, st->k, empty, n, st->quantum, scratch, &e))) {
            if (!twice)
                take_gap(r, &cor->adds_gap, &e);
            if (wide) /* without a twice figure, the choice is the adds' figure widened */
                tks__twice_choose(&(tks_interval){NAN, NAN, NAN}, &e, cor->overlap, &e);
            c = in_cycles(&e, rel95,
                          between_blocks(r->mode, real, st->k, empty, n, st->quantum, scratch),
                          cpt);
        }
    }
    free(real);
    free(empty);
    free(scratch);
    return c;
}

/* The companion's throughput figure in ticks; its interval widened to the spread between
 * stretches of the run when that is wider (as the headline's core-cycle interval is). */
static void alongside(tks_result *r, const struct tks_state *st)
{
    tks__estimate est;
    uint64_t *scratch;
    r->throughput_alongside.value = r->throughput_alongside.lo = r->throughput_alongside.hi = NAN;
    if (!st->companion || st->c_n < 2 || !(scratch = malloc(2 * st->c_n * sizeof *scratch)))
        return;
    if (tks__estimate_throughput(st->c_real, st->c_k, st->c_empty, st->c_n, st->quantum, scratch,
                                 &est) == 0) {
        double half = fmax((est.slope.hi - est.slope.lo) / 2,
                           between_blocks(TKS_MODE_THROUGHPUT, st->c_real, st->c_k, st->c_empty,
                                          st->c_n, st->quantum, scratch));
        r->throughput_alongside.value = est.slope.value;
        r->throughput_alongside.lo = est.slope.value - half;
        r->throughput_alongside.hi = est.slope.value + half;
    }
    free(scratch);
}

/* Fills r's core-cycle fields, and *stream with the companion's figure in core cycles at the
 * run's rate (NaN without a companion or a core clock). The companion's windows are not brought
 * to the rate one by one as the run's are: it has a window in every fourth batch only, and
 * scaling them by the batches' references made one dependent add read 0.977-1.008 cycles in 10
 * processes instead of 0.997-1.002 (Zen 5 guest, one run of each). Converted at the run's mean
 * rate instead, its interval also holds half the rate's movement between the run's quarters:
 * one batch in four need not sample them as the reference did (without it, 3 of 10 loaded
 * processes read one add 0.6-1.0% low with intervals of +-0.3%, their rate 1-2% below the
 * others'). */
static void core_cycles(tks_result *r, const struct tks_state *st, const tks__reference *ref,
                        double calibrated, const struct correction *cor,
                        const tks_interval *windows, tks_interval *stream)
{
    double *factor, rel95 = 0;
    *stream = (tks_interval){NAN, NAN, NAN};
    r->core_cycles = r->latency_adds_cycles = *stream;
    r->cycles_per_tick = r->cycles_per_tick_start = r->cycles_per_tick_end = NAN;
    r->cycles_per_tick_range = NAN;
    r->reference_windows = st->ref_windows;
    r->core_source = TKS_CORE_NONE;
    if (ref) {
        r->core_source = TKS_CORE_INTERLEAVED;
        r->cycles_per_tick = ref->cycles_per_tick;
        r->cycles_per_tick_start = ref->start;
        r->cycles_per_tick_end = ref->end;
        r->cycles_per_tick_range = ref->range;
        rel95 = 1.96 * ref->rel_se;
        if ((factor = malloc(st->n_ref * sizeof *factor)) != NULL) {
            tks__reference_factors(st->ref, st->n_ref, ref, REF_RADIUS, factor);
            r->core_cycles = rate_corrected(r, st, factor, rel95, ref->cycles_per_tick, cor,
                                            cor->source == TKS_GAP_BLOCK,
                                            cor->source == TKS_GAP_ADDS);
            if (r->mode == TKS_MODE_LATENCY) /* the add chain's correction, for comparison */
                r->latency_adds_cycles =
                    rate_corrected(r, st, factor, rel95, ref->cycles_per_tick, cor, 0, 0);
            free(factor);
        }
    } else if (calibrated > 0) {
        r->core_source = TKS_CORE_CALIBRATED;
        r->cycles_per_tick = calibrated;
    } else {
        return;
    }
    if (!isfinite(r->core_cycles.value)) /* the platform's rate, or no memory to correct */
        r->core_cycles = in_cycles(windows, rel95, 0, r->cycles_per_tick);
    if (isfinite(r->throughput_alongside.value))
        *stream = in_cycles(&r->throughput_alongside,
                            hypot(rel95, isfinite(r->cycles_per_tick_range)
                                             ? r->cycles_per_tick_range / 2 : 0),
                            0, r->cycles_per_tick);
}

/* How far the two modes may differ beyond their intervals: 3% of the larger figure. */
#define MODES_SLACK_REL 0.03

/* Latency mode, a resolved block measured in a stream alongside: 1 when the fenced windows'
 * figure and the stream's agree, 0 when they disagree, -1 when there is nothing to compare. In
 * core cycles where there are any (those intervals also hold the run's drift). */
static int modes_agree(const tks_result *r, const tks_interval *stream)
{
    const tks_interval *l = &r->latency_window, *t = &r->throughput_alongside;
    if (r->mode != TKS_MODE_LATENCY || !isfinite(t->value) || !isfinite(l->value) || !(l->lo > 0))
        return -1;
    if (isfinite(r->latency_window_cycles.value) && isfinite(stream->value)) {
        l = &r->latency_window_cycles;
        t = stream;
    }
    return tks__intervals_agree(l, t, MODES_SLACK_REL);
}

/* Latency mode: when the block costs the same alone and in a stream, the headline combines the
 * two figures, in ticks and in core cycles. Returns modes_agree's verdict. */
static int combine_modes(tks_result *r, const tks_interval *stream)
{
    const tks_interval *t = &r->throughput_alongside, *l = &r->latency_window;
    int agree = modes_agree(r, stream);
    if (agree != 1)
        return agree;
    r->estimate = tks__intervals_combine(l, t);
    if (isfinite(r->core_cycles.value) && isfinite(stream->value))
        r->core_cycles = tks__intervals_combine(&r->core_cycles, stream);
    r->modes_combined = 1;
    return agree;
}

/* Latency mode on a shared core: the add check found the reference's adds slow (another thread
 * took part of the core's dispatch), and the rate holds that, but the block's own instructions
 * lost to the other thread too, as much as the adds did or less (a chain of multiplies, nothing
 * seen). So what the block costs on a core of its own lies between the figure at the adds'
 * slowdown and the figure: the interval reaches down that far. On the Zen 5 guest, 10 processes
 * of bench_latency's add100 of which 8 found the adds slow read 101.1-102.4 cycles with
 * intervals of +-0.2%, none holding 100; of 52 figures of chains of adds, imul and L1 loads
 * taken with the adds slow, 16 intervals held the published cost before and 49 after (two load
 * chains lost 6-7%, more than the adds: the note core.add_chain_slow stays with the result). */
static void shared_core(tks_result *r, const struct tks_state *st)
{
    double add = tks__add_check_cycles(&st->check); /* 1 unless the check found them slow */
    if (r->mode != TKS_MODE_LATENCY || !(add > 1))
        return;
    r->estimate.lo = fmin(r->estimate.lo, r->estimate.lo / add);
    r->core_cycles.lo = fmin(r->core_cycles.lo, r->core_cycles.lo / add);
}

/* The figures of a run, each computed once, in this order, each step reading only what the
 * steps before it wrote:
 *   0. the reference chains fitted, once: the run's rate (none: the boot's), which steps 2 and
 *      4 read;
 *   1. the windows' estimators (min, median, mean, slope, the empty window) and the mode's
 *      figure of the windows;
 *   2. latency mode: the harness gap, measured on the reference chains, taken out of it, or
 *      the block's own correction (its windows twice less once) where the two agree;
 *   3. the loop floor, and the stream measured alongside (throughput_alongside);
 *   4. the core clock: the figure of step 2 in core cycles (core_cycles), and the stream's;
 *   5. the headline (estimate, and core_cycles again): the fenced windows' figure of steps 2 and
 *      4 (latency_window), or its combination with the stream when the two agree; in latency
 *      mode on a shared core, its interval reaching down to the figure at the adds' slowdown;
 *   6. the headline in ns, at the platform's TSC rate: the one conversion of ticks to ns.
 * r->estimate is written in step 5 only. */
int tks__bench_figures(tks_result *r, const struct tks_state *st, double calibrated, int *modes)
{
    tks_interval windows, stream;
    struct correction cor;
    tks__reference fit;
    const tks__reference *ref = fit_reference(st, &fit) == 0 ? &fit : NULL; /* fitted once */
    int rc = estimate(r, st, &windows);                   /* 1 */
    *modes = -1;
    r->estimate = (tks_interval){NAN, NAN, NAN};
    if (rc)
        return rc;
    harness_gap(r, st, ref);                              /* 2 */
    correct_latency(r, st, ref, calibrated, &windows, &cor);
    r->gap_source = cor.source;
    loop_floor(r, st);                                    /* 3 */
    alongside(r, st);
    core_cycles(r, st, ref, calibrated, &cor, &windows, &stream); /* 4 */
    r->estimate = windows;                                /* 5 */
    r->latency_window = windows;
    r->latency_window_cycles = r->core_cycles;
    if (r->mode != TKS_MODE_LATENCY)
        r->latency_window = r->latency_window_cycles = (tks_interval){NAN, NAN, NAN};
    *modes = combine_modes(r, &stream);
    shared_core(r, st);
    r->ns = (tks_interval){NAN, NAN, NAN};                /* 6 */
    if (st->tsc_hz > 0)
        r->ns = (tks_interval){r->estimate.value * 1e9 / st->tsc_hz,
                               r->estimate.lo * 1e9 / st->tsc_hz, r->estimate.hi * 1e9 / st->tsc_hz};
    return 0;
}
