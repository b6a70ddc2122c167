/* SPDX-License-Identifier: MIT */
/* bench_gate.c: the error rates of `tickscope compare --fail-on-regression` as a CI job uses it.
 * Each comparison runs the benchmark program twice, in fresh processes, each writing its JSON
 * (throughput mode, --repetitions 5: five figures a side, enough for the U test; latency mode's
 * fences cannot resolve 1% of a 200-cycle chain where CPUID is the only fence), then
 * `tickscope compare --fail-on-regression 1` on the two files, and counts exit status 1. A/A:
 * the same chain of 200 dependent adds on both sides (a failed gate is a false positive); A/B:
 * the new side has 1, 2 or 4 more adds in the chain (+0.5%, +1%, +2%: a failed gate is a
 * detection). The kinds take turns, so a machine that drifts meets them all alike. Prints the
 * false-positive rate, the power at each size, how often the verdict alone says "slower", the
 * spread of the A/A changes, and the wall time per comparison. Targets: <= 1% false positives
 * at a 1% gate, >= 95% power at +1%, >= 80% at +0.5%, <= 10 s per comparison.
 * After each round a line of running counts, so that a run stopped early still says something.
 * --processes N: each side is N fresh processes (the program's --processes N) instead of one
 * process's 5 repetitions, so that the U test compares processes: what a gate needs where whole
 * processes run at different speeds (the A/A spread below is then the processes' own).
 * Usage: bench_gate [--quick] [--processes N] [path/to/tickscope]  (default build/tickscope;
 * --quick: 20 A/A and 10 of each A/B instead of 200 and 100). x86 only: the body is x86
 * instructions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "child.h"
#include "result_doc.h"
#include "stats/sort.h"
#include "tickscope.h"

#define GATE "1"            /* --fail-on-regression, percent */
#define REPETITIONS "5"     /* per process: a U test over 5 and 5 can reach p = 0.008 */
#define MIN_TIME "0.05"     /* seconds of sampling per repetition */
#define KINDS 4

/* What one side is: REPETITIONS repetitions of one process, or (--processes N) N fresh
 * processes: the benchmark program's option, its count, and what the figures are. */
static struct {
    const char *option, *count, *figures;
} side_of = {"--repetitions", REPETITIONS, "repetitions"};

#if defined(TKS_ARCH_X86) /* the bodies are x86 instructions */
static const struct kind {
    const char *label, *extra, *target;
    double size;            /* the injected slowdown, relative */
    int aa;
} kinds[KINDS] = {
    {"A/A (same body)", "0", "<= 1% gate failures", 0, 1},
    {"A/B +0.5%", "1", ">= 80% detected", 0.005, 0},
    {"A/B +1%", "2", ">= 95% detected", 0.01, 0},
    {"A/B +2%", "4", "", 0.02, 0},
};

struct tally {
    size_t n, gate, slower, faster, errors;
    double *change;         /* each comparison's change, relative */
};

/* One side: the bodies program with TKS_GATE_EXTRA=extra, its JSON in out. */
static int side(const struct bodies *b, const char *extra, const char *out)
{
    char out_opt[PATH_MAX + 8], exe[sizeof b->exe];
    double secs;
    int rc;
    snprintf(out_opt, sizeof out_opt, "--out=%s", out);
    snprintf(exe, sizeof exe, "%s", b->exe);
    char *args[] = {exe, "--mode", "throughput", (char *)side_of.option, (char *)side_of.count,
                    "--min-time", MIN_TIME, "--format", "json", out_opt, "--quiet", NULL};
    setenv("TKS_GATE_EXTRA", extra, 1);
    rc = bench_run_child(args, &secs);
    unsetenv("TKS_GATE_EXTRA");
    if (rc != 0)
        fprintf(stderr, "bench_gate: the benchmark program exited with %d\n", rc);
    return rc;
}

/* The first row of compare's JSON: its change and verdict. */
static int read_row(const char *path, double *change, char *verdict, size_t size)
{
    FILE *f = fopen(path, "rb");
    static char text[1 << 16];
    size_t len;
    tks__jr_doc d;
    int rc = -1;
    if (!f)
        return -1;
    len = fread(text, 1, sizeof text, f);
    fclose(f);
    if (tks__jr_parse(&d, text, len) == 0) {
        size_t row = tks__jr_first(&d, tks__jr_get(&d, 0, "benchmarks"));
        *change = tks__jr_number(&d, tks__jr_get(&d, row, "change"));
        if (tks__jr_string(&d, tks__jr_get(&d, row, "verdict"), verdict, size) == 0)
            rc = 0;
    }
    tks__jr_free(&d);
    return rc;
}

/* One comparison of a kind; its wall time, both processes and compare, in *seconds. */
static int compare_once(const char *tickscope, const struct bodies *b, const struct kind *k,
                        struct tally *t, double *seconds)
{
    char old[PATH_MAX], new_[PATH_MAX], out[PATH_MAX], tks[PATH_MAX], verdict[32];
    double start = bench_now(), secs, change = NAN;
    int rc;
    snprintf(old, sizeof old, "%s/old.json", b->tmp);
    snprintf(new_, sizeof new_, "%s/new.json", b->tmp);
    snprintf(out, sizeof out, "--out=%s/compare.json", b->tmp);
    snprintf(tks, sizeof tks, "%s", tickscope);
    char *args[] = {tks, "compare", "--fail-on-regression", GATE, "--format", "json", out,
                    "--quiet", old, new_, NULL};
    if (side(b, "0", old) != 0 || side(b, k->extra, new_) != 0)
        return -1;
    rc = bench_run_child(args, &secs);
    *seconds = bench_now() - start;
    snprintf(out, sizeof out, "%s/compare.json", b->tmp);
    if ((rc != 0 && rc != 1) || read_row(out, &change, verdict, sizeof verdict) != 0) {
        fprintf(stderr, "bench_gate: tickscope compare exited with %d\n", rc);
        t->errors++;
        return 0;
    }
    t->gate += rc == 1;
    t->slower += !strcmp(verdict, "slower");
    t->faster += !strcmp(verdict, "faster");
    t->change[t->n++] = change;
    return 0;
}

static double sd_of(const double *v, size_t n)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        m += v[i] / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - m) * (v[i] - m);
    return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

static void print_kind(const struct kind *k, struct tally *t)
{
    double med = t->n ? tks__median(t->change, t->n) : NAN;
    double share = t->n ? 100.0 * (double)t->gate / (double)t->n : NAN;
    printf("%-16s %5zu %6zu %7.1f%% %8zu %8zu %+9.3f%% %8.3f%%   %s\n", k->label, t->n, t->gate,
           share, t->slower, t->faster, 100 * med, 100 * sd_of(t->change, t->n), k->target);
}

static int bench_main(const char *tickscope, int quick)
{
    size_t want[KINDS] = {200, 100, 100, 100}, total = 0, done = 0;
    struct tally t[KINDS];
    struct bodies b;
    double *secs;
    char cpu[256] = "?";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[512];
        while (fgets(line, sizeof line, ci))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
                cpu[strcspn(cpu, "\n")] = 0;
                break;
            }
        fclose(ci);
    }
    if (quick)
        want[0] = 20, want[1] = want[2] = want[3] = 10;
    if (bench_check_exe("bench_gate", tickscope) ||
        bodies_open("bench_gate", "bench_gate_bodies", &b))
        return 1;
    memset(t, 0, sizeof t);
    for (int k = 0; k < KINDS; k++) {
        total += want[k];
        if (!(t[k].change = calloc(want[k], sizeof *t[k].change)))
            return 1;
    }
    if (!(secs = calloc(total, sizeof *secs)))
        return 1;
    printf("bench_gate: %zu A/A and %zu A/B comparisons on %s, each: two sides of a 200-add "
           "chain (--mode throughput %s %s --min-time " MIN_TIME ", JSON files), then `tickscope "
           "compare --fail-on-regression " GATE "`.\n", want[0], want[1] + want[2] + want[3], cpu,
           side_of.option, side_of.count);
    /* round robin over the kinds until each has its count */
    while (done < total) {
        for (int k = 0; k < KINDS; k++) {
            if (t[k].n + t[k].errors >= want[k])
                continue;
            if (compare_once(tickscope, &b, &kinds[k], &t[k], &secs[done]) != 0) {
                bodies_close(&b);
                return 1;
            }
            done++;
        }
        printf("  after %zu comparisons (%.0f s each, median so far): gate failed in", done,
               tks__median(secs, done));
        for (int k = 0; k < KINDS; k++)
            printf(" %s %zu/%zu%s", kinds[k].label, t[k].gate, t[k].n, k + 1 < KINDS ? "," : "\n");
    }
    bodies_close(&b);
    printf("\n%-16s %5s %6s %8s %8s %8s %10s %9s   %s\n", "case", "runs", "gate", "(exit 1)",
           "slower", "faster", "median", "sd of", "target");
    printf("%-16s %5s %6s %8s %8s %8s %10s %9s\n", "", "", "fails", "", "verdict", "verdict",
           "change", "change");
    for (int k = 0; k < KINDS; k++)
        print_kind(&kinds[k], &t[k]);
    for (int k = 0; k < KINDS; k++)
        if (t[k].errors)
            printf("(%s: %zu comparisons failed to run)\n", kinds[k].label, t[k].errors);
    qsort(secs, done, sizeof *secs, bench_cmp_double);
    printf("\nWall time per comparison (both sides and compare): median %.2f s, longest %.2f s "
           "(target <= 10 s).\n", secs[done / 2], secs[done - 1]);
    printf("The A/A changes spread with a standard deviation of %.3f%% of the body: a coefficient "
           "of variation of %.3f%% for each side's median of %s %s.\n",
           100 * sd_of(t[0].change, t[0].n), 100 * sd_of(t[0].change, t[0].n) / sqrt(2),
           side_of.count, side_of.figures);
    printf("(gate fails: compare exited 1, the 95%% interval of the change above +" GATE "%%; "
           "slower: the verdict, significant and at least half the threshold of 1%%.)\n");
    for (int k = 0; k < KINDS; k++)
        free(t[k].change);
    free(secs);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    static const char usage[] =
        "usage: bench_gate [--quick] [--processes N] [path/to/tickscope]\n"
        "The false-positive rate and power of `tickscope compare --fail-on-regression 1` over\n"
        "200 A/A comparisons and 100 A/B comparisons at each of +0.5%, +1%, +2% (--quick: 20 and\n"
        "10), each from two fresh processes writing JSON files (--processes N: N a side).\n";
    char *rest[4] = {argv[0], NULL, NULL, NULL};
    int quick = 0, n = 1, status;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--processes")) {
            char *end = NULL;
            long v = i + 1 < argc ? strtol(argv[++i], &end, 10) : 0;
            if (!end || end == argv[i] || *end || v < 2 || v > 100) {
                fprintf(stderr, "bench_gate: --processes wants a count from 2 to 100\n");
                return 2;
            }
            side_of.option = "--processes";
            side_of.count = argv[i];
            side_of.figures = "processes";
        } else if (n < 3)
            rest[n++] = argv[i];
    }
    if ((status = bench_start(n, rest, usage)) >= 0)
        return status;
#if defined(TKS_ARCH_X86)
    return bench_main(n > 1 ? rest[1] : "build/tickscope", quick);
#else
    (void)quick;
    puts("bench_gate: the body is x86 instructions; nothing to measure on this target");
    return 0;
#endif
}
