/* SPDX-License-Identifier: MIT */
/* test_analysis.c: tks_validate_run and tks_resolution_run on this machine's clock, checked for
 * structure (counts, recommendation, hooks, monotone n, errors on bad options), never speed. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "tickscope/analysis.h"

#define E_(code) ((uint64_t)(int64_t)(code))

#if defined(TKS_ARCH_X86)
#define FENCED TKS_METHOD_LFENCE
#define UNFENCED TKS_METHOD_RDTSC
#else
#define FENCED TKS_METHOD_ISB
#define UNFENCED TKS_METHOD_CNTVCT
#endif

struct counts {
    int stage_begin, stage_end, open; /* labels seen, NULLs seen, a stage is open */
    int bad_nesting;
    char last_label[64];
    int samples_calls;
    int samples_bad;                  /* a run or summary not as asked */
    uint32_t want_ensembles, want_samples;
    int fail_with;                    /* what on_samples returns */
};

static void on_stage(void *ctx, const char *label)
{
    struct counts *c = ctx;
    if (label) {
        c->bad_nesting += c->open;
        c->open = 1;
        c->stage_begin++;
        snprintf(c->last_label, sizeof c->last_label, "%s", label);
    } else {
        c->bad_nesting += !c->open;
        c->open = 0;
        c->stage_end++;
    }
}

static int on_samples(void *ctx, enum tks_method m, const tks_sample_run *run,
                      const tks_summary *ens, uint64_t quantum)
{
    struct counts *c = ctx;
    uint32_t e;
    c->samples_calls++;
    if ((unsigned)m >= TKS_METHOD_COUNT || !run || !run->ticks || !ens || quantum < 1)
        c->samples_bad++;
    else if (run->ensembles != c->want_ensembles || run->samples != c->want_samples)
        c->samples_bad++;
    else
        for (e = 0; e < run->ensembles; e++)
            c->samples_bad += ens[e].n != run->samples || ens[e].min > ens[e].max;
    return c->fail_with;
}

static void small_validation(tks_validate_options *o, struct counts *c)
{
    tks_validate_options_init(o);
    o->methods = TKS_METHOD_BIT(FENCED) | TKS_METHOD_BIT(UNFENCED);
    o->ensembles = 3;
    o->samples = 200;
    o->budget_s = 0;
    o->common.stage = on_stage;
    o->common.progress_ctx = c;
    o->common.on_samples = on_samples;
    o->common.samples_ctx = c;
    memset(c, 0, sizeof *c);
    c->want_ensembles = 3;
    c->want_samples = 200;
}

static void test_validate_defaults(void)
{
    tks_validate_options o;
    memset(&o, 0x5a, sizeof o);
    tks_validate_options_init(&o);
    CHECK_EQ_U64(o.methods, TKS_METHOD_ALL);
    CHECK_EQ_U64(o.ensembles, 100);
    CHECK_EQ_U64(o.samples, 10000);
    CHECK(fabs(o.budget_s - 0.4) < 1e-12); /* not ==: i386 compares in x87 precision */
    CHECK(o.chain == 1);
    CHECK(o.common.pin_cpu == -1);
    CHECK(o.common.fifo == 0);
    CHECK(o.common.where == TKS_WHERE_USER);
    CHECK(o.common.kernel_device == NULL && o.common.stage == NULL && o.common.progress == NULL);
    CHECK(o.common.on_samples == NULL);
}

static void test_validate_run(void)
{
    tks_validate_options o;
    struct counts c;
    tks_validation *v = (tks_validation *)&c; /* must be replaced */
    int m, measured = 0;

    small_validation(&o, &c);
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), 0);
    if (!v) {
        CHECK(v != NULL);
        return;
    }
    CHECK(v->quantum >= 1);
    CHECK(v->where == TKS_WHERE_USER);
    CHECK(v->chain == 1);
    CHECK_EQ_U64(v->chain_adds, TKS_VALIDATE_CHAIN_ADDS);
    CHECK(v->kernel.cpu == -1 && v->kernel.sections == 0);
    CHECK(v->seconds > 0);
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const tks_method_validation *r = &v->methods[m];
        int asked = m == FENCED || m == UNFENCED;
        CHECK_EQ_U64(r->selected, asked);
        if (!asked || !r->available) {
            CHECK(r->ensembles == 0 && r->chain_done == 0);
            continue;
        }
        CHECK_EQ_U64(E_(r->rc), 0);
        CHECK_EQ_U64(r->ensembles, 3);
        CHECK_EQ_U64(r->samples, 200);
        CHECK_EQ_U64(r->discarded, r->discarded_migrated + r->discarded_negative);
        CHECK_EQ_U64(r->across.ensembles, 3);
        CHECK(r->across.min_of_minimums <= r->across.max_of_minimums);
        CHECK(r->chain_done == 1);
        CHECK(r->eligible == (r->ineligible_reason == NULL));
        measured++;
    }
    /* The unfenced method may never be recommended; it says why. */
    if (v->methods[UNFENCED].available) {
        CHECK(!v->methods[UNFENCED].eligible);
        CHECK(v->methods[UNFENCED].ineligible_reason != NULL);
    }
    CHECK(v->recommended != UNFENCED);
    if (v->recommended >= 0) {
        const tks_method_validation *r = &v->methods[v->recommended];
        const char *name = tks_method_info((enum tks_method)v->recommended)->name;
        CHECK(r->selected && r->available && r->eligible && r->rc == 0);
        /* why: one validate.* code naming the method */
        CHECK(v->diags.n == 1);
        if (v->diags.n == 1) {
            const tks_diag *d = &v->diags.items[0];
            CHECK(d->code == TKS_DIAG_VALIDATE_ERGODIC_BEST || d->code == TKS_DIAG_VALIDATE_ERGODIC_ONLY ||
                  d->code == TKS_DIAG_VALIDATE_NOT_ERGODIC);
            CHECK(d->code == TKS_DIAG_VALIDATE_NOT_ERGODIC ? !r->erg.ergodic : r->erg.ergodic);
            CHECK_STR(d->values[0].str, name);
            CHECK_NEAR(tks_diag_number(d, "overhead"), (double)r->across.min_of_minimums, 0);
        }
        CHECK_EQ_U64(v->reference, v->recommended);
    } else {
        CHECK(v->diags.n == 1 && v->diags.items[0].code == TKS_DIAG_VALIDATE_NONE);
    }
    /* One hook call and one stage per measured method. */
    CHECK_EQ_U64(c.samples_calls, measured);
    CHECK_EQ_U64(c.samples_bad, 0);
    CHECK_EQ_U64(c.stage_begin, measured);
    CHECK_EQ_U64(c.stage_end, measured);
    CHECK_EQ_U64(c.bad_nesting, 0);
    if (measured)
        CHECK(strncmp(c.last_label, "validate ", 9) == 0);
    tks_validation_free(v);
}

static void test_validate_no_chain_and_hook_stop(void)
{
    tks_validate_options o;
    struct counts c;
    tks_validation *v = NULL;
    int m;

    small_validation(&o, &c);
    o.chain = 0;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), 0);
    for (m = 0; v && m < TKS_METHOD_COUNT; m++)
        CHECK(v->methods[m].chain_done == 0);
    tks_validation_free(v);

    /* A hook that fails stops the run with its error, and nothing is returned. */
    small_validation(&o, &c);
    c.fail_with = TKS_EIO;
    v = (tks_validation *)&c;
    if (tks_method_runnable(FENCED, TKS_WHERE_USER, 0) ||
        tks_method_runnable(UNFENCED, TKS_WHERE_USER, 0)) {
        CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EIO));
        CHECK(v == NULL);
        CHECK_EQ_U64(c.samples_calls, 1);
        c.fail_with = -1234;
        c.samples_calls = 0;
        CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(-1234));
        CHECK_EQ_U64(c.samples_calls, 1);
    }
}

static void test_validate_bad_options(void)
{
    tks_validate_options o;
    tks_validation *v = (tks_validation *)&o;

    tks_validate_options_init(&o);
    o.ensembles = 0;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    CHECK(v == NULL);
    tks_validate_options_init(&o);
    o.samples = 1;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    tks_validate_options_init(&o);
    o.methods = TKS_METHOD_BIT(FENCED) | (1u << TKS_METHOD_COUNT); /* unknown method bit */
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    o.methods = 0x80000000u;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    o.methods = 0;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    tks_validate_options_init(&o);
    o.budget_s = -1;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    tks_validate_options_init(&o);
    o.ensembles = TKS_ENSEMBLES_MAX + 1;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_ERANGE));
    tks_validate_options_init(&o);
    o.common.where = (enum tks_where)42;
    CHECK_EQ_U64(E_(tks_validate_run(&o, &v)), E_(TKS_EINVAL));
    CHECK_EQ_U64(E_(tks_validate_run(NULL, &v)), E_(TKS_EINVAL));
    CHECK_EQ_U64(E_(tks_validate_run(&o, NULL)), E_(TKS_EINVAL));
    /* A kernel run without the module: the probe's error, before anything is measured. */
    tks_validate_options_init(&o);
    o.common.where = TKS_WHERE_KERNEL_IRQ_OFF;
    o.common.kernel_device = "/nonexistent/tickscope";
    CHECK(tks_validate_run(&o, &v) < 0);
    CHECK(v == NULL);
    tks_validation_free(NULL);
}

static void test_methods(void)
{
#if defined(TKS_ARCH_X86)
    CHECK(tks_method_listed(TKS_METHOD_LFENCE, TKS_WHERE_USER));
    CHECK(!tks_method_listed(TKS_METHOD_CR0, TKS_WHERE_USER));
    CHECK(tks_method_listed(TKS_METHOD_CR0, TKS_WHERE_KERNEL_IRQ_OFF));
    CHECK(!tks_method_listed(TKS_METHOD_ISB, TKS_WHERE_USER));
    CHECK(!tks_method_runnable(TKS_METHOD_CR0, TKS_WHERE_USER, 0));
    CHECK(tks_method_runnable(TKS_METHOD_CR0, TKS_WHERE_KERNEL_IRQ_OFF, TKS_METHOD_BIT(TKS_METHOD_CR0)));
    CHECK(!tks_method_runnable(TKS_METHOD_LFENCE, TKS_WHERE_KERNEL_IRQ_OFF, TKS_METHOD_BIT(TKS_METHOD_CR0)));
#else
    CHECK(tks_method_listed(TKS_METHOD_ISB, TKS_WHERE_USER));
    CHECK(!tks_method_listed(TKS_METHOD_LFENCE, TKS_WHERE_USER));
#endif
    CHECK(!tks_method_listed((enum tks_method)TKS_METHOD_COUNT, TKS_WHERE_USER));
    CHECK(!tks_method_runnable((enum tks_method)TKS_METHOD_COUNT, TKS_WHERE_USER, ~0u));
}

static void check_points(const tks_resolution_result *r, uint32_t max_work)
{
    uint32_t i;
    CHECK_EQ_U64(r->max_work, max_work);
    CHECK_EQ_U64(r->npoints, max_work + 1);
    CHECK(r->points != NULL && r->ensembles != NULL);
    for (i = 0; r->points && r->ensembles && i < r->npoints; i++) {
        CHECK_EQ_U64(r->points[i].n, i);
        CHECK_EQ_U64(r->points[i].min, r->ensembles[i].min);
        CHECK_EQ_U64(r->ensembles[i].n, r->samples_taken);
        if (i > 0)
            CHECK(r->points[i].n > r->points[i - 1].n);
    }
    CHECK(r->quantum >= 1);
    CHECK(r->spurious_minimums < r->npoints);
    /* The line goes through n >= 1 (the empty window is off it by the harness gap), through
     * both points when there are only two; the gap is its intercept less the empty window's. */
    CHECK_EQ_U64(r->fit_mean.n, r->npoints > 2 ? r->npoints - 1 : r->npoints);
    if (r->npoints > 2 && r->points)
        CHECK(fabs(r->harness_gap - (r->fit_mean.intercept - r->points[0].mean)) < 1e-9);
    CHECK_EQ_U64(r->fit_min.n, r->npoints);
    CHECK(r->res_min <= r->npoints / 2 && r->res_mean <= r->npoints / 2);
    CHECK(r->where == TKS_WHERE_USER && r->kernel.cpu == -1);
}

static void test_resolution(void)
{
    tks_resolution_options o;
    tks_resolution_result *r = NULL;
    struct counts c;

    memset(&o, 0x5a, sizeof o);
    tks_resolution_options_init(&o);
    CHECK(o.method == -1 && o.method_reason == NULL);
    CHECK_EQ_U64(o.max_work, 100);
    CHECK_EQ_U64(o.samples, 20000);
    CHECK(o.common.pin_cpu == -1 && o.common.fifo == 0 && o.common.where == TKS_WHERE_USER);

    if (!tks_method_runnable(FENCED, TKS_WHERE_USER, 0))
        return;
    /* A given method: 10 interleaved rounds of 4 samples, one hook call with all of them. */
    memset(&c, 0, sizeof c);
    c.want_ensembles = 5;
    c.want_samples = 40;
    o.method = FENCED;
    o.method_reason = "given by the test";
    o.max_work = 4;
    o.samples = 40;
    o.common.stage = on_stage;
    o.common.progress_ctx = &c;
    o.common.on_samples = on_samples;
    o.common.samples_ctx = &c;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), 0);
    if (r) {
        CHECK_EQ_U64(r->method, FENCED);
        CHECK_STR(r->method_reason, "given by the test");
        CHECK_EQ_U64(r->samples_taken, 40);
        check_points(r, 4);
    }
    CHECK_EQ_U64(c.samples_calls, 1);
    CHECK_EQ_U64(c.samples_bad, 0);
    CHECK_EQ_U64(c.stage_begin, 1);
    CHECK_EQ_U64(c.stage_end, 1);
    CHECK_STR(c.last_label, "resolution");
    tks_resolution_result_free(r);

    /* No method: a short validation chooses one, fenced at both ends. */
    tks_resolution_options_init(&o);
    o.max_work = 4;
    o.samples = 10;
    r = NULL;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), 0);
    if (r) {
        unsigned fl = tks_method_info(r->method)->flags;
        CHECK(strcmp(r->method_reason, "recommended by a short validation") == 0 ||
              strcmp(r->method_reason, "no fenced method validated; using the quantum probe's") == 0);
        if (strcmp(r->method_reason, "recommended by a short validation") == 0)
            CHECK((fl & TKS_MF_FENCED_BEGIN) && (fl & TKS_MF_FENCED_END));
        CHECK_EQ_U64(r->samples_taken, 10); /* too few to interleave: one round */
        check_points(r, 4);
    }
    tks_resolution_result_free(r);
    tks_resolution_result_free(NULL);
}

static void test_resolution_bad_options(void)
{
    tks_resolution_options o;
    tks_resolution_result *r = (tks_resolution_result *)&o;

    tks_resolution_options_init(&o);
    o.max_work = 0;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_EINVAL));
    CHECK(r == NULL);
    o.max_work = TKS_WORK_MAX + 1;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_ERANGE));
    tks_resolution_options_init(&o);
    o.samples = 1;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_EINVAL));
    tks_resolution_options_init(&o);
    o.method = TKS_METHOD_COUNT;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_EINVAL));
    o.method = -2;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_EINVAL));
    CHECK_EQ_U64(E_(tks_resolution_run(NULL, &r)), E_(TKS_EINVAL));
#if defined(TKS_ARCH_X86)
    /* A ring-0 method in user space. */
    tks_resolution_options_init(&o);
    o.method = TKS_METHOD_CR0;
    o.max_work = 2;
    o.samples = 10;
    CHECK_EQ_U64(E_(tks_resolution_run(&o, &r)), E_(TKS_EUNAVAIL));
    CHECK(r == NULL);
#endif
}

int main(void)
{
    test_validate_defaults();
    test_validate_run();
    test_validate_no_chain_and_hook_stop();
    test_validate_bad_options();
    test_methods();
    test_resolution();
    test_resolution_bad_options();
    CHECK_DONE();
}
