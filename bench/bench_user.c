/* SPDX-License-Identifier: MIT */
/* bench_user.c: the user-benchmark issue's targets, printed. It runs the five bodies of
 * bench/user_bodies.c (the program bodies/bench_user_bodies, next to this one) as child processes
 * with --format json and reads their figures back:
 *   - a 10-add dependent chain within 0.5 core cycles of 10 in throughput mode, and within one
 *     timer quantum in latency mode (with a check of where a latency window's ticks go);
 *   - a run of the five benchmarks at defaults in under 3 s;
 *   - the reported figures reproducible to 1% across 10 process runs;
 *   - the same spreads beside Google Benchmark's on the same bodies (bodies/gbench_bodies, built
 *     when a C++ compiler and Google Benchmark were found).
 * It prints targets and whether they were met, and fails only when something
 * broke (a child failed, its output could not be read).
 * Usage: bench_user [path/to/tickscope]   (the argument is what `make bench` passes every bench;
 * it is not used: the bodies are found through /proc/self/exe) */
#include <limits.h>
#include <math.h>

#include "child.h"
#include "result_doc.h"
#include "tickscope.h"

#ifndef TKS_GBENCH_STATUS /* set by bench/CMakeLists.txt: why gbench_bodies was not built */
#define TKS_GBENCH_STATUS ""
#endif

#define RUNS 10
#define CHAIN_CYCLES 10.0
#define CYCLES_TARGET 0.5    /* core cycles, throughput mode */
#define WALL_TARGET_S 3.0
#define SPREAD_TARGET 0.01   /* (max - min) / median across RUNS processes */
/* Google Benchmark gets the same sampling time per benchmark as tickscope's default (0.2 s), so
 * that neither side's spread comes from simply sampling longer, and the whole run stays near a
 * minute (at its own 0.5 s default, 10 runs take about 50 s alone). */
#define GB_MIN_TIME "0.2"

/* ---------------------------------------------------------------- spread across runs */
/* A relative spread as a percentage, or n/a when the figure is too close to zero for a ratio to
 * mean anything (the empty block in latency mode: a fraction of a tick either side of 0). */
static const char *pct(char *buf, size_t n, double rel, int meaningful)
{
    if (!meaningful || !isfinite(rel))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.2f%%", rel * 100);
    return buf;
}

/* ---------------------------------------------------------------- where latency ticks go
 * Latency mode measures a 10-add chain a few ticks short on some machines. The suspicion is that
 * the end read (RDTSCP) starts before the chain has finished, so part of its cost, paid in full
 * in the empty window, hides behind the chain. Test it directly: time the chain with tickscope's
 * lfence method (LFENCE; RDTSC; LFENCE .. RDTSCP; LFENCE) and with the same end behind one more
 * LFENCE, which keeps RDTSCP from starting until the chain is done. Chains of 10 and 40 adds
 * show whether what is missing is a fixed amount (harness hidden) or grows (a wrong rate). */
#if defined(TKS_ARCH_X86)
#define CHECK_WINDOWS 200000
#define ADD_CHAIN(n) ".rept " #n "\n\tadd %1, %0\n\t.endr"
static volatile unsigned long g_step = 1; /* not a constant to the compiler: no folding */

static inline __attribute__((always_inline)) tks_u64 end_behind_lfence(void)
{
    tks_u32 lo, hi, c;
    __asm__ __volatile__("lfence\n\trdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(c) : : "memory");
    (void)c;
    return ((tks_u64)hi << 32) | lo;
}

/* Empty, 10-add and 40-add windows interleaved, so drift hits all three alike. */
#define OVERLAP_WINDOWS(END)                                                                  \
    for (size_t i = 0; i < CHECK_WINDOWS; i++) {                                              \
        tks_u64 t0 = TKS_BEGIN(lfence);                                                       \
        e[i] = (END) - t0;                                                                    \
        t0 = TKS_BEGIN(lfence);                                                               \
        __asm__ __volatile__(ADD_CHAIN(10) : "+r"(acc) : "r"(step));                          \
        a10[i] = (END) - t0;                                                                  \
        t0 = TKS_BEGIN(lfence);                                                               \
        __asm__ __volatile__(ADD_CHAIN(40) : "+r"(acc) : "r"(step));                          \
        a40[i] = (END) - t0;                                                                  \
    }

struct overlap {
    double empty, net10, net40; /* phase-averaged means, ticks; net = chain - empty */
};

static int overlap_check(int behind_lfence, uint64_t quantum, struct overlap *o)
{
    uint64_t *buf = malloc(4 * (size_t)CHECK_WINDOWS * sizeof *buf);
    uint64_t *e = buf, *a10 = buf + CHECK_WINDOWS, *a40 = buf + 2 * CHECK_WINDOWS;
    uint64_t *scratch = buf + 3 * CHECK_WINDOWS;
    unsigned long acc = 0, step = g_step; /* one register wide, i386 included */
    tks_summary se, s10, s40;
    tks_u32 aux;
    int rc;
    if (!buf)
        return TKS_ENOMEM;
    if (behind_lfence) {
        OVERLAP_WINDOWS(end_behind_lfence())
    } else {
        OVERLAP_WINDOWS(TKS_END(lfence, &aux))
    }
    (void)aux;
    rc = tks_summarize(e, CHECK_WINDOWS, quantum, scratch, &se);
    if (!rc)
        rc = tks_summarize(a10, CHECK_WINDOWS, quantum, scratch, &s10);
    if (!rc)
        rc = tks_summarize(a40, CHECK_WINDOWS, quantum, scratch, &s40);
    free(buf);
    if (acc == 42) /* keeps the chains' result alive; never true in practice */
        puts("");
    o->empty = se.pa_mean;
    o->net10 = s10.pa_mean - se.pa_mean;
    o->net40 = s40.pa_mean - se.pa_mean;
    return rc;
}

static void explain_latency(double cpt, uint64_t quantum)
{
    struct overlap o[2];
    double want10 = CHAIN_CYCLES / cpt, want40 = 4 * CHAIN_CYCLES / cpt;
    static const char *const ends[2] = {"RDTSCP; LFENCE (tickscope's lfence)",
                                        "LFENCE; RDTSCP; LFENCE"};
    if (!tks_method_available(TKS_METHOD_LFENCE, tks_cpu_features_get())) {
        printf("  (no check of where the ticks go: this CPU lacks LFENCE or RDTSCP)\n");
        return;
    }
    for (int i = 0; i < 2; i++)
        if (overlap_check(i, quantum, &o[i]) != 0) {
            printf("  (the check of where the ticks go could not run: out of memory)\n");
            return;
        }
    printf("  where the ticks go: own windows, %d each, begin LFENCE; RDTSC; LFENCE, "
           "phase-averaged means:\n", CHECK_WINDOWS);
    printf("    %-36s %8s %10s %8s %10s %8s\n", "end read", "empty", "10 adds", "short",
           "40 adds", "short");
    for (int i = 0; i < 2; i++)
        printf("    %-36s %8.2f %10.3f %8.3f %10.3f %8.3f\n", ends[i], o[i].empty, o[i].net10,
               want10 - o[i].net10, o[i].net40, want40 - o[i].net40);
    printf("    (ticks; 'short' = expected %.3f or %.3f ticks minus the chain's net ticks)\n",
           want10, want40);
    {
        double d_rdtscp = want10 - o[0].net10, d_fenced = want10 - o[1].net10;
        double recovered = d_rdtscp - d_fenced;
        printf("  why: ");
        if (recovered >= 0.25 * d_rdtscp && d_fenced <= 0.5 * (double)quantum)
            printf("an LFENCE before RDTSCP recovers %.2f of the %.2f missing ticks: RDTSCP's "
                   "read overlaps the chain's last cycles (the %.2f left, %.2f for 40 adds, is "
                   "within half a quantum).\n", recovered, d_rdtscp, d_fenced,
                   want40 - o[1].net40);
        else if (recovered >= 0.25 * d_rdtscp)
            printf("an LFENCE before RDTSCP recovers only %.2f of the %.2f missing ticks "
                   "(RDTSCP's read overlaps the chain's tail by that much); %.2f stay short even "
                   "with a fully fenced end, and 40 adds are short by about as much (%.2f): a "
                   "fixed part of the empty window's cost that any chain hides, not a wrong "
                   "cycle rate (throughput mode's 10.00 says the rate is right).\n",
                   recovered, d_rdtscp, d_fenced, want40 - o[0].net40);
        else
            printf("an LFENCE before RDTSCP does not change the chain's figure (%.2f vs %.2f "
                   "ticks short), so RDTSCP overlapping the chain is not the cause here; 40 adds "
                   "are %.2f short: a fixed part of the empty window hidden by any chain.\n",
                   d_rdtscp, d_fenced, want40 - o[0].net40);
    }
}
#else
static void explain_latency(double cpt, uint64_t quantum)
{
    (void)cpt;
    (void)quantum;
    printf("  (the check of where the ticks go is written for x86's RDTSCP)\n");
}
#endif

/* ---------------------------------------------------------------- the driver */
struct paths {
    char dir[PATH_MAX];
    char bodies[PATH_MAX + 32];
    char gbench[PATH_MAX + 32];
    char tmp[64];
    char out[128];
};

static int find_paths(struct paths *p)
{
    ssize_t n = readlink("/proc/self/exe", p->dir, sizeof p->dir - 1);
    char *slash;
    if (n <= 0) {
        fprintf(stderr, "bench_user: cannot read /proc/self/exe: %s\n", strerror(errno));
        return 1;
    }
    p->dir[n] = 0;
    if ((slash = strrchr(p->dir, '/')) != NULL)
        *slash = 0;
    snprintf(p->bodies, sizeof p->bodies, "%s/bodies/bench_user_bodies", p->dir);
    snprintf(p->gbench, sizeof p->gbench, "%s/bodies/gbench_bodies", p->dir);
    snprintf(p->tmp, sizeof p->tmp, "/tmp/tks_bench_user_XXXXXX");
    if (!mkdtemp(p->tmp)) {
        perror("bench_user: temporary directory");
        return 1;
    }
    snprintf(p->out, sizeof p->out, "%s/out.json", p->tmp);
    return 0;
}

/* The 10-add chain in both modes. */
static int chain_targets(const struct paths *p, struct doc *lat)
{
    char *thr_args[] = {(char *)p->bodies, "--quiet", "--format", "json", "--out",
                        (char *)p->out, "--mode", "throughput", "--filter", "^add10$", NULL};
    char *lat_args[] = {(char *)p->bodies, "--quiet", "--format", "json", "--out",
                        (char *)p->out, "--filter", "^add10$", NULL};
    struct doc thr;
    const struct fig *f;
    double s, want, err;

    if (run_json(thr_args, p->out, &thr, &s) || !(f = find(&thr, "add10")) || !f->ok) {
        fprintf(stderr, "bench_user: no throughput figure for add10\n");
        return 1;
    }
    printf("10-add dependent chain (add %%reg,%%reg), throughput mode, method %s:\n", thr.method);
    printf("  $ %s --mode throughput --filter '^add10$' --format json\n", p->bodies);
    err = fabs(f->core_cycles - CHAIN_CYCLES);
    printf("  %.4f core cycles (%.4f ticks x %.4f cycles/tick); |error vs 10| = %.4f; "
           "target <= %.1f: %s\n", f->core_cycles, f->ticks, thr.cycles_per_tick, err,
           CYCLES_TARGET, err <= CYCLES_TARGET ? "MET" : "NOT MET");

    if (run_json(lat_args, p->out, lat, &s) || !(f = find(lat, "add10")) || !f->ok) {
        fprintf(stderr, "bench_user: no latency figure for add10\n");
        return 1;
    }
    want = CHAIN_CYCLES / lat->cycles_per_tick;
    err = fabs(f->ticks - want);
    printf("\n10-add dependent chain, latency mode, method %s:\n", lat->method);
    printf("  $ %s --filter '^add10$' --format json\n", p->bodies);
    printf("  %.3f ticks; 10 cycles = 10 / %.4f = %.3f ticks; |error| = %.3f ticks; "
           "target <= one quantum (%.0f ticks): %s\n", f->ticks, lat->cycles_per_tick, want, err,
           f->quantum, err <= f->quantum ? "MET" : "NOT MET");
    explain_latency(lat->cycles_per_tick, (uint64_t)(f->quantum >= 1 ? f->quantum : 1));
    return 0;
}

/* Across RUNS processes: per benchmark, one value per run. */
struct across {
    size_t n_bench;
    char name[MAX_BENCH][64];
    double v[MAX_BENCH][RUNS];  /* tickscope: headline ticks; Google Benchmark: real_time ns */
    double ns[MAX_BENCH][RUNS]; /* real_time ns (tickscope: the headline in ns) */
    double cpu[MAX_BENCH][RUNS];
    double cycles[MAX_BENCH][RUNS]; /* tickscope: the headline in core cycles */
    size_t n[MAX_BENCH];
};

static void collect(struct across *a, const struct doc *d, int ticks)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct fig *f = &d->b[i];
        size_t j;
        if (!f->ok)
            continue;
        for (j = 0; j < a->n_bench && strcmp(a->name[j], f->name); j++)
            ;
        if (j == a->n_bench) {
            if (a->n_bench == MAX_BENCH)
                continue;
            snprintf(a->name[a->n_bench++], sizeof a->name[0], "%s", f->name);
        }
        if (a->n[j] < RUNS) {
            a->v[j][a->n[j]] = ticks ? f->ticks : f->ns;
            a->ns[j][a->n[j]] = f->ns;
            a->cpu[j][a->n[j]] = f->cpu_ns;
            a->cycles[j][a->n[j]] = f->core_cycles;
            a->n[j]++;
        }
    }
}

/* The spread of one benchmark's real_time (cpu: cpu_time) in ns; n = 0 if it is not there. */
static struct spread spread_named(const struct across *a, const char *name, int cpu)
{
    for (size_t j = 0; j < a->n_bench; j++)
        if (!strcmp(a->name[j], name))
            return spread_of(cpu ? a->cpu[j] : a->ns[j], a->n[j]);
    return spread_of(NULL, 0);
}

static void print_repro(const struct across *lat, double quantum)
{
    int met = 0, judged = 0;
    char b1[32], b2[32];
    printf("\n%-10s %12s %10s %10s %10s %14s %8s  %s\n", "benchmark", "median ticks", "ns",
           "min", "max", "(max-min)/med", "cv", "target 1%");
    for (size_t j = 0; j < lat->n_bench; j++) {
        struct spread s = spread_of(lat->v[j], lat->n[j]);
        struct spread sn = spread_of(lat->ns[j], lat->n[j]);
        int meaningful = fabs(s.median) >= quantum; /* a ratio to a sub-quantum figure is noise */
        const char *verdict = !meaningful ? "n/a (below one quantum)"
                              : s.range <= SPREAD_TARGET ? "met" : "NOT MET";
        judged += meaningful;
        met += meaningful && s.range <= SPREAD_TARGET;
        printf("%-10s %12.4f %10.4f %10.4f %10.4f %14s %8s  %s\n", lat->name[j], s.median,
               sn.median, s.min, s.max, pct(b1, sizeof b1, s.range, meaningful),
               pct(b2, sizeof b2, s.cv, meaningful), verdict);
    }
    printf("target: medians reproducible to 1%% ((max-min)/median) across %d processes: %s "
           "(%d of %d benchmarks)\n", RUNS, met == judged ? "MET" : "NOT MET", met, judged);
}

static void print_side_by_side(const struct across *lat, const struct across *thr,
                               const struct across *gb, int have_gb, double quantum)
{
    char b[6][32];
    printf("\n%-10s | %-32s | %-22s", "", "tickscope latency (default)", "tickscope throughput");
    if (have_gb)
        printf(" | %-22s | %s", "Google Benchmark", "GB cpu_time");
    printf("\n%-10s | %9s %8s %6s %6s | %8s %6s %6s", "benchmark", "ticks", "ns", "range", "cv",
           "ns", "range", "cv");
    if (have_gb)
        printf(" | %8s %6s %6s | %6s", "ns", "range", "cv", "cv");
    printf("\n");
    for (size_t j = 0; j < lat->n_bench; j++) {
        struct spread l = spread_of(lat->v[j], lat->n[j]), ln = spread_of(lat->ns[j], lat->n[j]);
        struct spread tn = spread_named(thr, lat->name[j], 0);
        struct spread gn = spread_named(gb, lat->name[j], 0);
        struct spread gc = spread_named(gb, lat->name[j], 1);
        int ml = fabs(l.median) >= quantum;
        printf("%-10s | %9.3f %8.3f %6s %6s | %8.3f %6s %6s", lat->name[j], l.median, ln.median,
               pct(b[0], sizeof b[0], l.range, ml), pct(b[1], sizeof b[1], l.cv, ml), tn.median,
               pct(b[2], sizeof b[2], tn.range, 1), pct(b[3], sizeof b[3], tn.cv, 1));
        if (have_gb)
            printf(" | %8.3f %6s %6s | %6s", gn.median, pct(b[4], sizeof b[4], gn.range, 1),
                   pct(b[5], sizeof b[5], gn.cv, 1), pct(b[0], sizeof b[0], gc.cv, 1));
        printf("\n");
    }
    printf("range = (max-min)/median and cv = stddev/mean across the %d processes; n/a: the "
           "figure is within one quantum of 0.\n", RUNS);
    printf("Latency mode times one execution per window; throughput mode%s a loop of them, "
           "so %s ns, not latency's, are the ones to compare.\n",
           have_gb ? " and Google Benchmark time" : " times", have_gb ? "their" : "its");
    /* The same processes' figures in core cycles: the core clock measured with each run. */
    printf("\n%-10s | %-25s | %-25s\n", "", "tickscope latency, cycles", "tickscope throughput, cycles");
    printf("%-10s | %10s %6s %6s | %10s %6s %6s\n", "benchmark", "cycles", "range", "cv",
           "cycles", "range", "cv");
    for (size_t j = 0; j < lat->n_bench; j++) {
        struct spread l = spread_of(lat->cycles[j], lat->n[j]);
        size_t k;
        struct spread t = {0};
        for (k = 0; k < thr->n_bench && strcmp(thr->name[k], lat->name[j]); k++)
            ;
        if (k < thr->n_bench)
            t = spread_of(thr->cycles[k], thr->n[k]);
        printf("%-10s | %10.3f %6s %6s | %10.3f %6s %6s\n", lat->name[j], l.median,
               pct(b[0], sizeof b[0], l.range, fabs(l.median) >= 1),
               pct(b[1], sizeof b[1], l.cv, fabs(l.median) >= 1), t.median,
               pct(b[2], sizeof b[2], t.range, fabs(t.median) >= 1),
               pct(b[3], sizeof b[3], t.cv, fabs(t.median) >= 1));
    }
    printf("(the issue's goal: ten times steadier than Google Benchmark's ns range above, in core "
           "cycles)\n");
}

static int bench_main(int argc, char **argv)
{
    struct paths p;
    struct doc lat1, d;
    struct across lat, thr, gb;
    double t_start = bench_now(), wall, secs[RUNS], quantum;
    int have_gb, rc = 0;
    char *plain_args[2];
    char *lat_args[7], *thr_args[9];
    char *gb_args[] = {p.gbench, "--benchmark_format=json", "--benchmark_min_time=" GB_MIN_TIME,
                       "--benchmark_out_format=json", NULL, NULL};
    char gb_out[160];

    if (find_paths(&p))
        return 1;
    if (bench_check_exe("bench_user", p.bodies))
        return 1;
    have_gb = access(p.gbench, X_OK) == 0;
    snprintf(gb_out, sizeof gb_out, "--benchmark_out=%s", p.out);
    gb_args[4] = gb_out;
    plain_args[0] = p.bodies;
    plain_args[1] = NULL;
    {
        char *l[] = {p.bodies, "--quiet", "--format", "json", "--out", p.out, NULL};
        char *t[] = {p.bodies, "--quiet", "--format", "json", "--out", p.out, "--mode",
                     "throughput", NULL};
        memcpy(lat_args, l, sizeof l);
        memcpy(thr_args, t, sizeof t);
    }

    printf("bench_user: the user-benchmark targets, on the bodies in bench/user_bodies.c\n");
    printf("reproduce: %s%s%s\n\n", argv[0], argc > 1 ? " " : "", argc > 1 ? argv[1] : "");

    if (chain_targets(&p, &lat1)) {
        rc = 1;
        goto out;
    }
    quantum = lat1.quantum >= 1 ? lat1.quantum : 1;

    /* One run exactly as a user would start it: defaults, console report (to /dev/null). */
    if (bench_run_child(plain_args, &wall) != 0) {
        fprintf(stderr, "bench_user: %s failed at defaults\n", p.bodies);
        rc = 1;
        goto out;
    }
    printf("\nA run of the five benchmarks at defaults (process start to exit):\n");
    printf("  $ %s\n", p.bodies);
    printf("  %.2f s; target < %.0f s: %s\n", wall, WALL_TARGET_S,
           wall < WALL_TARGET_S ? "MET" : "NOT MET");

    /* RUNS processes of each; the three harnesses interleaved, so a slow spell of the machine
     * falls on all of them rather than on one. */
    memset(&lat, 0, sizeof lat);
    memset(&thr, 0, sizeof thr);
    memset(&gb, 0, sizeof gb);
    for (int i = 0; i < RUNS; i++) {
        double s;
        if (run_json(lat_args, p.out, &d, &secs[i])) {
            rc = 1;
            goto out;
        }
        collect(&lat, &d, 1);
        if (run_json(thr_args, p.out, &d, &s)) {
            rc = 1;
            goto out;
        }
        collect(&thr, &d, 1);
        if (have_gb) {
            if (run_json(gb_args, p.out, &d, &s)) {
                rc = 1;
                have_gb = 0;
            } else {
                collect(&gb, &d, 0);
            }
        }
    }
    {
        struct spread w = spread_of(secs, RUNS);
        printf("  (the %d JSON runs below: median %.2f s, max %.2f s)\n", RUNS, w.median, w.max);
    }

    printf("\nReported figures across %d processes at defaults (latency mode), headline ticks "
           "(the phase-averaged mean):\n", RUNS);
    printf("  $ for i in $(seq %d); do %s --format json; done\n", RUNS, p.bodies);
    print_repro(&lat, quantum);

    printf("\nSide by side with Google Benchmark on the same bodies, %d processes each%s:\n", RUNS,
           have_gb ? "" : " (Google Benchmark skipped)");
    printf("  $ %s --format json [--mode throughput]\n", p.bodies);
    if (have_gb)
        printf("  $ %s --benchmark_format=json --benchmark_min_time=%s\n", p.gbench, GB_MIN_TIME);
    print_side_by_side(&lat, &thr, &gb, have_gb, quantum);
    if (!have_gb && !rc)
        printf("Google Benchmark comparison skipped: %s. To enable it: apt-get install g++ "
               "libbenchmark-dev, then reconfigure (rm build/CMakeCache.txt; make build).\n",
               TKS_GBENCH_STATUS[0] ? TKS_GBENCH_STATUS : "bodies/gbench_bodies is missing");
    else if (have_gb)
        printf("Google Benchmark runs %s s per benchmark here (tickscope's default), not its own "
               "0.5 s; its real_time includes time the CPU was taken away (cpu_time does not).\n",
               GB_MIN_TIME);

out:
    printf("\nbench_user took %.1f s (target: about a minute at most).\n", bench_now() - t_start);
    remove(p.out);
    rmdir(p.tmp);
    return rc;
}

int main(int argc, char **argv)
{
    int status = bench_start(argc, argv, "usage: bench_user [path/to/tickscope]\nThe user-benchmark targets, on the bodies in bench/user_bodies.c (the argument is not used).\n");
    return status >= 0 ? status : bench_main(argc, argv);
}
