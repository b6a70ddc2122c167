/* SPDX-License-Identifier: MIT */
/* strlen_inplace.c: timing strlen in place with TKS_TIME, the white paper's "inline the measured
 * function" style, for when the code to time sits inside your own program and loop rather than
 * in a registered benchmark. The readings go into arrays allocated beforehand and are summarised
 * afterwards with tks_summarize; the empty window is measured the same way and subtracted.
 *
 * Build: part of `make` (build/examples/strlen_inplace). Run: ./build/examples/strlen_inplace
 * The registered-benchmark version, with error bars and options, is strlen.c next to this file. */
#include <stdio.h>
#include <string.h>

#include <tickscope.h>
#include <tickscope/bench.h>

#define SAMPLES 10000
#define LENGTH 256
#define WARMUP 100

/* The clock method is a compile-time name (TKS_TIME pastes it into the read functions): lfence
 * on x86, which every x86-64 CPU has; isb on arm64. */
#if defined(TKS_ARCH_X86)
#define METHOD lfence
#define METHOD_NAME "lfence"
#else
#define METHOD isb
#define METHOD_NAME "isb"
#endif

/* Static arrays: no allocation, I/O or system call between a window's two readings, and none
 * between windows either, so the loop's only work besides the block is two stores. */
static uint64_t empty[SAMPLES], real[SAMPLES], scratch[SAMPLES];
static char text[LENGTH + 1];

static void print(const char *what, const tks_summary *s)
{
    printf("%-7s min %4llu  median %6.1f  mean %7.2f  phase-averaged mean %7.2f +- %.2f ticks"
           "  (%llu outliers)\n",
           what, (unsigned long long)s->min, s->median, s->mean, s->pa_mean, s->pa_ci,
           (unsigned long long)(s->outliers_low + s->outliers_high));
}

int main(void)
{
    tks_summary se, sr;
    uint64_t quantum = 1;
    const char *s = text;

    memset(text, 'x', LENGTH);
    /* The timer's step, so the summary's outlier fences and mean know what one step is. */
    if (tks_timer_quantum_step(tks_method_default(tks_cpu_features_get()), &quantum, NULL) != 0)
        quantum = 1;

    /* The first rounds warm the caches and branch predictors and are dropped (Dr Dobb's: "the
     * datum obtained from the first iteration of the loop should be discarded"). The empty and
     * the real window alternate, so a slow spell of the machine hits both alike. */
    for (int i = -WARMUP; i < SAMPLES; i++) {
        uint64_t e, r;
        TKS_TIME(METHOD, e, {});
        TKS_TIME(METHOD, r, {
            tks_opaque(s); /* the compiler knows the text's length: make it forget */
            tks_do_not_optimize(strlen(s));
        });
        if (i >= 0) {
            empty[i] = e;
            real[i] = r;
        }
    }

    if (tks_summarize(empty, SAMPLES, quantum, scratch, &se) != 0 ||
        tks_summarize(real, SAMPLES, quantum, scratch, &sr) != 0) {
        fprintf(stderr, "strlen_inplace: cannot summarise the samples\n");
        return 1;
    }
    printf("strlen of %d bytes, %d windows each, method %s, timer step %llu tick(s)\n", LENGTH,
           SAMPLES, METHOD_NAME, (unsigned long long)quantum);
    print("empty", &se);
    print("strlen", &sr);
    /* The phase-averaged means resolve below the timer step; their difference is the cost. */
    printf("strlen(%d): %.2f ticks (phase-averaged means, empty window subtracted; "
           "medians give %.1f)\n",
           LENGTH, sr.pa_mean - se.pa_mean, sr.median - se.median);
    return 0;
}
