/* SPDX-License-Identifier: MIT */
/* test_region_run.c: the structure of real region runs, each scenario in a fresh child process
 * (the regions are set up once per process, from the environment): threads, nesting and
 * recursion, an end without a begin, passes never ended, a full table, a report file that cannot
 * be written, the three formats (JSON checked by python3), the report at exit and on a signal.
 * Counts only: never a timing threshold. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tickscope.h"
#include "tickscope/region.h"

static char dir[] = "/tmp/tks_region_XXXXXX";
static volatile unsigned sink;

/* Run fn in a child with stderr to dir/name.err; returns the child's exit status. */
static int in_child(const char *name, int (*fn)(void))
{
    pid_t pid;
    int status;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        char path[256];
        FILE *e;
        snprintf(path, sizeof path, "%s/%s.err", dir, name);
        e = freopen(path, "w", stderr);
        (void)e;
        check_failed = check_passed = 0; /* the child's own checks decide its status */
        exit(fn());
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *name)
{
    char path[256];
    FILE *f;
    char *buf;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = calloc(1, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = 0;
    fclose(f);
    return buf;
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; hay && (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* A python3 one-liner over the JSON file: exit 0 when the assertion holds. */
static int json_check(const char *name, const char *expr)
{
    char path[256], cmd[600];
    FILE *f;
    snprintf(path, sizeof path, "%s/check.py", dir);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "import json, sys\nd = json.load(open('%s/%s'))\n"
               "r = {x['name']: x for x in d['regions']}\nsys.exit(0 if (%s) else 1)\n",
            dir, name, expr);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 '%s'", path);
    return system(cmd);
}

/* The child's checks are CHECKs too: a failure makes the child exit 1. */
#define CHILD_DONE() return check_failed ? 1 : 0

static int stat_of(const char *name, tks_region_stats *s)
{
    return tks_region_stats_get(name, s);
}

/* The rule of every net figure: never negative; raw minus what is subtracted, unless that is
 * below the resolution, which the figure's bit says. */
static void check_net1(const tks_region_stats *s, double net, double raw, double sub, unsigned bit)
{
    if (isnan(raw))
        return;
    CHECK(net >= 0);
    /* the figure as read less what is subtracted from it, clamped at 0: what
     * bench_region_nested counts before the clamp from the raw figures */
    CHECK_NEAR(net, fmax(raw - sub, 0), 1e-9 * raw + 1e-9);
    if (s->below_resolution & bit)
        CHECK(raw - sub < s->resolution && net <= s->resolution);
}

static void check_net(const tks_region_stats *s)
{
    check_net1(s, s->min, s->raw_min, s->overhead_median, TKS_REGION_BELOW_MIN);
    check_net1(s, s->mean, s->raw_mean, s->overhead, TKS_REGION_BELOW_MEAN);
    check_net1(s, s->max, s->raw_max, s->overhead_median, TKS_REGION_BELOW_MAX);
    check_net1(s, s->median, s->raw_median, s->overhead_median, TKS_REGION_BELOW_MEDIAN);
    check_net1(s, s->p90, s->raw_p90, s->overhead_median, TKS_REGION_BELOW_P90);
    check_net1(s, s->p99, s->raw_p99, s->overhead_median, TKS_REGION_BELOW_P99);
    CHECK(s->overhead_min <= s->overhead_median);
}

/* ---------------------------------------------------------------- threads */

#define THREADS 4
#define PASSES 1000

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < PASSES; i++) {
        TKS_REGION_BEGIN("work");
        sink += (unsigned)i;
        TKS_REGION_END("work");
    }
    return NULL;
}

static void *leaves_open(void *arg)
{
    (void)arg;
    TKS_REGION_BEGIN("left open");
    return NULL;
}

static int threads(void)
{
    pthread_t t[THREADS];
    tks_region_stats s;
    tks_region_set_output("none", -1);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK(stat_of("work", &s) == 0);
    CHECK_EQ_U64(s.passes, THREADS * PASSES);
    CHECK_EQ_U64(s.threads, THREADS);
    /* Each net figure has its own subtraction (README), so the ordering holds for the raw ones. */
    CHECK(s.raw_min <= s.raw_mean && s.raw_mean <= s.raw_max);
    check_net(&s);
    CHECK(s.variance >= 0);
    CHECK(isnan(s.median)); /* no reservoir */
    /* Blocks outlive their threads and are adopted by new ones: nothing lost, nothing doubled. */
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK(stat_of("work", &s) == 0);
    CHECK_EQ_U64(s.passes, 2 * THREADS * PASSES);
    CHECK_EQ_U64(s.threads, 2 * THREADS);
    /* A thread that ends inside a region leaves one unterminated pass. */
    pthread_create(&t[0], NULL, leaves_open, NULL);
    pthread_join(t[0], NULL);
    CHECK(stat_of("left open", &s) == 0);
    CHECK_EQ_U64(s.unterminated, 1);
    CHECK_EQ_U64(s.passes, 0);
    CHILD_DONE();
}

/* ---------------------------------------------------------------- nesting */

static unsigned recurse(unsigned depth)
{
    unsigned r = depth;
    TKS_REGION_BEGIN("recursive");
    if (depth)
        r += recurse(depth - 1);
    TKS_REGION_END("recursive");
    return r;
}

static int nesting(void)
{
    tks_region_stats s;
    tks_region_set_output("none", -1);
    for (int i = 0; i < 100; i++) {
        TKS_REGION_BEGIN("outer");
        for (int k = 0; k < 10; k++) {
            TKS_REGION_BEGIN("inner");
            sink += (unsigned)k;
            TKS_REGION_END("inner");
        }
        TKS_REGION_END("outer");
    }
    CHECK(stat_of("outer", &s) == 0);
    CHECK_EQ_U64(s.passes, 100);
    check_net(&s);
    CHECK(stat_of("inner", &s) == 0);
    CHECK_EQ_U64(s.passes, 1000);
    check_net(&s); /* a short region: its minimum is often below resolution, never negative */
    /* Recursion: only the outermost pass is timed, so time is not counted twice. */
    for (int i = 0; i < 7; i++)
        sink += recurse(3);
    CHECK(stat_of("recursive", &s) == 0);
    CHECK_EQ_U64(s.passes, 7);
    CHECK_EQ_U64(s.ends_without_begin, 0);
    CHECK_EQ_U64(s.unterminated, 0);
    CHILD_DONE();
}

/* ---------------------------------------------------------------- misuse */

static int misuse(void)
{
    tks_region_stats s;
    tks_region_set_output("none", -1);
    TKS_REGION_END("never begun");
    TKS_REGION_END("never begun");
    TKS_REGION_BEGIN("never ended");
    TKS_REGION_BEGIN("pair");
    TKS_REGION_END("pair");
    TKS_REGION_END("pair"); /* one end too many */
    CHECK(stat_of("never begun", &s) == 0);
    CHECK_EQ_U64(s.ends_without_begin, 2);
    CHECK_EQ_U64(s.passes, 0);
    CHECK(stat_of("never ended", &s) == 0);
    CHECK_EQ_U64(s.unterminated, 1);
    CHECK(stat_of("pair", &s) == 0);
    CHECK_EQ_U64(s.passes, 1);
    CHECK_EQ_U64(s.ends_without_begin, 1);
    CHECK(stat_of("no such region", &s) == TKS_EINVAL);
    CHECK(tks_region_report(NULL, 7) == TKS_EINVAL);
    CHECK(tks_region_set_output("", -1) == TKS_EINVAL);
    /* Reset zeroes the figures; the regions stay. */
    tks_region_reset();
    CHECK(stat_of("pair", &s) == 0);
    CHECK_EQ_U64(s.passes, 0);
    CHECK_EQ_U64(s.ends_without_begin, 0);
    CHILD_DONE();
}

/* The table fills: later call sites (a begin and an end here) are counted once each and skipped;
 * the program goes on. */
static int table_full(void)
{
    char name[32];
    tks_region_stats s;
    int full = 0;
    tks_region_set_output("none", -1);
    for (int i = 0; i < TKS_REGION_MAX; i++) {
        snprintf(name, sizeof name, "r%d", i);
        CHECK(tks_region_set_reservoir(name, 0) == 0); /* registers the name */
    }
    CHECK(tks_region_set_reservoir("one more", 0) == TKS_ERANGE);
    for (int i = 0; i < 3; i++) {
        TKS_REGION_BEGIN("overflow");
        sink++;
        TKS_REGION_END("overflow");
        full++;
    }
    CHECK_EQ_U64(full, 3);
    CHECK(stat_of("overflow", &s) == TKS_EINVAL);
    CHECK(stat_of("r0", &s) == 0);
    CHECK(tks_region_report("table_full.json", TKS_REGION_JSON) == 0);
    CHILD_DONE();
}

/* ---------------------------------------------------------------- reports */

static void some_regions(void)
{
    for (int i = 0; i < 500; i++) {
        TKS_REGION_BEGIN("alpha");
        sink += (unsigned)i;
        TKS_REGION_END("alpha");
    }
    for (int i = 0; i < 50; i++) {
        TKS_REGION_BEGIN("beta, with a comma");
        sink += (unsigned)i;
        TKS_REGION_END("beta, with a comma");
    }
}

static int formats(void)
{
    tks_region_stats s;
    tks_region_set_output("none", -1);
    CHECK(tks_region_set_reservoir("alpha", 256) == 0);
    some_regions();
    CHECK(stat_of("alpha", &s) == 0);
    CHECK_EQ_U64(s.kept, 256);
    CHECK(s.median <= s.p90 && s.p90 <= s.p99);
    CHECK(tks_region_report("r.json", TKS_REGION_JSON) == 0);
    CHECK(tks_region_report("r.csv", TKS_REGION_CSV) == 0);
    CHECK(tks_region_report("r.txt", TKS_REGION_TEXT) == 0);
    CHILD_DONE();
}

static int unwritable(void)
{
    tks_region_set_output("none", -1);
    some_regions();
    CHECK(tks_region_report("/nonexistent-dir/x/r.json", TKS_REGION_JSON) == TKS_EIO);
    CHECK(tks_region_report("/nonexistent-dir/x/r.json", TKS_REGION_JSON) == TKS_EIO);
    CHILD_DONE();
}

static int at_exit_env(void)
{
    setenv("TICKSCOPE_REGION_OUT", "exit.json", 1);
    setenv("TICKSCOPE_REGION_FORMAT", "json", 1);
    setenv("TICKSCOPE_REGION_RESERVOIR", "64", 1);
    tks_region_set_output("api.txt", TKS_REGION_TEXT); /* the environment wins */
    some_regions();
    return 0; /* the report is written by exit() */
}

static int compiled_method(void)
{
    /* A call site with the method compiled in, beside the start-up choice. */
    static tks__region_site b, e;
    tks_region_stats s;
    tks_region_set_output("none", -1);
#if defined(TKS_ARCH_X86) /* lfence_rdtsc: fenced, and it needs nothing SSE2 does not bring */
    for (int i = 0; i < 10; i++) {
        tks__region_begin(&b, "compiled", TKS_METHOD_LFENCE_RDTSC);
        (void)tks__region_end(&e, "compiled", TKS_METHOD_LFENCE_RDTSC);
    }
#else
    for (int i = 0; i < 10; i++) {
        tks__region_begin(&b, "compiled", TKS_METHOD_ISB);
        (void)tks__region_end(&e, "compiled", TKS_METHOD_ISB);
    }
#endif
    CHECK(stat_of("compiled", &s) == 0);
    CHECK_EQ_U64(s.passes, 10);
    /* A counter slower than the reads (arm64 under QEMU: 62.5 MHz) makes the overhead 0 ticks;
     * the resolution is then at least the counter's one tick. */
    CHECK(s.overhead >= 0 && s.resolution >= 1);
    check_net(&s);
    CHILD_DONE();
}

static int on_signal(void)
{
    char path[256];
    struct stat st;
    setenv("TICKSCOPE_REGION_SIGNAL", "USR1", 1);
    setenv("TICKSCOPE_REGION_OUT", "signal.csv", 1);
    setenv("TICKSCOPE_REGION_FORMAT", "csv", 1);
    some_regions();
    raise(SIGUSR1);
    snprintf(path, sizeof path, "%s/signal.csv", dir);
    for (int i = 0; i < 300 && stat(path, &st) != 0; i++)
        usleep(20000);
    CHECK(stat(path, &st) == 0);
    setenv("TICKSCOPE_REGION_OUT", "none", 1); /* read once: the exit report still goes there */
    CHILD_DONE();
}

int main(void)
{
    char *s;
    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        printf("SKIP: python3 checks the JSON reports (Debian package python3)\n");
        return 77;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (chdir(dir) != 0)
        return 1;

    CHECK_EQ_U64(in_child("threads", threads), 0);
    CHECK_EQ_U64(in_child("nesting", nesting), 0);
    CHECK_EQ_U64(in_child("misuse", misuse), 0);
    CHECK_EQ_U64(in_child("compiled", compiled_method), 0);

    CHECK_EQ_U64(in_child("table_full", table_full), 0);
    CHECK(json_check("table_full.json",
                     "d['dropped_call_sites'] == 2 and d['first_dropped'] == 'overflow' and "
                     "len(d['regions']) == 256") == 0);

    CHECK_EQ_U64(in_child("formats", formats), 0);
    CHECK(json_check("r.json", "r['alpha']['passes'] == 500 and r['alpha']['kept'] == 256 and "
                               "r['beta, with a comma']['passes'] == 50 and "
                               "r['beta, with a comma']['median_ticks'] is None and "
                               "d['clock'][0]['overhead_ticks'] >= 0 and "
                               "d['clock'][0]['resolution_ticks'] >= 1 and "
                               "r['alpha']['raw_min_ticks'] <= r['alpha']['raw_mean_ticks'] <= "
                               "r['alpha']['raw_max_ticks'] and "
                               "min(r['alpha'][k] for k in ('min_ticks', 'mean_ticks', "
                               "'median_ticks', 'p99_ticks', 'max_ticks')) >= 0") == 0);
    s = slurp("r.csv");
    CHECK(s && strncmp(s, "region,method,passes,", 21) == 0);
    CHECK_EQ_U64(count_of(s, "\n"), 3);
    CHECK(s && strstr(s, "\nalpha,") && strstr(s, "\n\"beta, with a comma\","));
    free(s);
    s = slurp("r.txt");
    CHECK(s && strstr(s, "tickscope regions") && strstr(s, "overhead"));
    CHECK(s && strstr(s, "alpha: 256 of 500 passes kept")); /* the histogram */
    free(s);

    CHECK_EQ_U64(in_child("unwritable", unwritable), 0);
    s = slurp("unwritable.err");
    CHECK_EQ_U64(count_of(s, "cannot write '/nonexistent-dir/x/r.json': No such file or "
                             "directory"), 1);
    CHECK(s && strstr(s, "\"report_failures\": 2")); /* the second report, sent to stderr */
    free(s);

    CHECK_EQ_U64(in_child("at_exit", at_exit_env), 0);
    CHECK(json_check("exit.json", "r['alpha']['passes'] == 500 and r['alpha']['kept'] == 64") == 0);
    s = slurp("api.txt");
    CHECK(s == NULL);
    free(s);

    CHECK_EQ_U64(in_child("signal", on_signal), 0);
    s = slurp("signal.csv");
    CHECK(s && strstr(s, "\nalpha,"));
    free(s);

    if (check_failed == 0) {
        /* Leave nothing behind when everything passed; keep the files to look at otherwise. */
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    } else {
        fprintf(stderr, "files kept in %s\n", dir);
    }
    CHECK_DONE();
}
