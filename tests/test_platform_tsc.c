/* test_platform_tsc.c: the TSC-rate maths on synthetic clock pairs with known slope and noise, the
 * kernel-log parser, the commonest-deltas helper and the per-boot calibration cache. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "platform/cache.h"
#include "platform/tsc_sources.h"
#include "tickscope.h"

#define N 2000

static uint64_t lo[N], hi[N], ns[N];

/* Pairs of a clock of `hz` ticks per second, sampled every 20 us, with the midpoint of each TSC
 * bracket displaced by `noise(i)` ticks and a bracket of 40 ticks. */
static void make_pairs(double hz, size_t n, int (*noise)(size_t))
{
    for (size_t i = 0; i < n; i++) {
        ns[i] = 5000000000ull + 20000ull * i;
        double mid = 1e12 + (double)(ns[i] - ns[0]) * hz / 1e9 + noise(i);
        lo[i] = (uint64_t)(mid - 20);
        hi[i] = (uint64_t)(mid + 20);
    }
}

static int no_noise(size_t i) { (void)i; return 0; }

/* Deterministic, roughly uniform on -10..10 ticks (sd about 6). */
static int lcg_noise(size_t i)
{
    static uint32_t s = 12345;
    (void)i;
    s = s * 1103515245u + 12345u;
    return (int)((s >> 16) % 21) - 10;
}

static void test_exact_slope(void)
{
    tks_tsc_calibration c;
    make_pairs(2.5e9, N, no_noise);
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_NEAR(c.hz, 2.5e9, 1e-3);
    CHECK_NEAR(c.ppm, 0, 1e-6);
    CHECK_EQ_U64(c.points, N);
    CHECK_EQ_U64(c.used, N);
    CHECK_NEAR(c.bracket_ticks, 40, 1);
    /* 2000 points, 20 us apart: 39.98 ms from first to last. */
    CHECK_NEAR(c.seconds, 0.03998, 1e-9);
}

static void test_noisy_slope(void)
{
    /* 2.3 GHz plus 7 ppm. With noise sd ~6.06 ticks (uniform on 21 values) and the reference
     * times spread with sd 40 ms / sqrt(12) = 11.55 ms over 2000 points, the slope's standard
     * error is 6.06 / (sqrt(2000) * 1.155e7 ns) = 1.17e-8 ticks/ns, 0.0051 ppm of 2.3 ticks/ns;
     * the 95% figure is 1.96 times that: about 0.010 ppm. */
    double truth = 2.3e9 * (1 + 7e-6);
    tks_tsc_calibration c;
    make_pairs(truth, N, lcg_noise);
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK(c.ppm > 0.007 && c.ppm < 0.014);
    CHECK(fabs(c.hz - truth) / truth * 1e6 < 3 * c.ppm);
    /* 7 ppm off 2.3 GHz is told apart from 2.3 GHz itself. */
    CHECK(fabs(c.hz - 2.3e9) / 2.3e9 * 1e6 > 6.9);
}

static void test_wide_brackets_dropped(void)
{
    tks_tsc_calibration c;
    make_pairs(3e9, N, no_noise);
    /* An interrupt between the reads: the bracket is huge and its midpoint far off. */
    for (size_t i = 7; i < N; i += 97)
        hi[i] += 50000;
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_EQ_U64(c.used, N - 21); /* i = 7, 104, ..., 1947: 21 of them */
    CHECK_NEAR(c.hz, 3e9, 1e-3);
    /* An end reading before the begin reading is not a bracket at all. */
    hi[3] = lo[3] - 1;
    CHECK(tks_tsc_fit(lo, hi, ns, N, &c) == 0);
    CHECK_EQ_U64(c.used, N - 22);
}

static void test_fit_errors(void)
{
    tks_tsc_calibration c;
    make_pairs(2e9, N, no_noise);
    CHECK(tks_tsc_fit(NULL, hi, ns, N, &c) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, N, NULL) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, 2, &c) == TKS_EINVAL);
    CHECK(tks_tsc_fit(lo, hi, ns, 0, &c) == TKS_EINVAL);
    for (size_t i = 0; i < 10; i++)
        ns[i] = ns[0];
    CHECK(tks_tsc_fit(lo, hi, ns, 10, &c) == TKS_EINVAL); /* no reference time passed */
}

static void test_top_values(void)
{
    static const uint64_t s[] = {1, 1, 2, 2, 2, 3, 5, 5, 5};
    uint64_t v[5], c[5];
    CHECK_EQ_U64(tks_top_values(s, 9, v, c, 2), 2);
    CHECK_EQ_U64(v[0], 2);
    CHECK_EQ_U64(c[0], 3);
    CHECK_EQ_U64(v[1], 5);
    CHECK_EQ_U64(c[1], 3);
    CHECK_EQ_U64(tks_top_values(s, 9, v, c, 5), 4);
    CHECK_EQ_U64(v[2], 1);
    CHECK_EQ_U64(c[2], 2);
    CHECK_EQ_U64(v[3], 3);
    CHECK_EQ_U64(c[3], 1);
    CHECK_EQ_U64(tks_top_values(s, 0, v, c, 5), 0);
    CHECK_EQ_U64(tks_top_values(s + 5, 4, v, c, 1), 1); /* 3, 5, 5, 5 */
    CHECK_EQ_U64(v[0], 5);
    CHECK_EQ_U64(c[0], 3);
}

static void test_kernel_log(void)
{
    double hz = 0;
    int refined = -1;
    CHECK(tks__parse_kernel_log_tsc("6,1,2,-;tsc: Detected 2300.000 MHz processor\n", &hz, &refined));
    CHECK_NEAR(hz, 2.3e9, 1e-3);
    CHECK(refined == 0);
    /* The refined figure wins wherever it appears. */
    CHECK(tks__parse_kernel_log_tsc("tsc: Refined TSC clocksource calibration: 2595.998 MHz\n"
                                   "tsc: Detected 2596.102 MHz processor\n", &hz, &refined));
    CHECK_NEAR(hz, 2595.998e6, 1e-3);
    CHECK(refined == 1);
    CHECK(!tks__parse_kernel_log_tsc("tsc: Detected lots of MHz\nclocksource: tsc\n", &hz, &refined));
    CHECK(!tks__parse_kernel_log_tsc("", &hz, &refined));
    CHECK(!tks__parse_kernel_log_tsc(NULL, &hz, &refined));
}

static const char *fixture(const char *tree, char *buf, size_t size)
{
    const char *src = getenv("TKS_SOURCE_DIR");
    if (src)
        snprintf(buf, size, "%s/tests/fixtures/%s", src, tree);
    else /* run by hand: the fixtures sit beside this file */
        snprintf(buf, size, "%.*sfixtures/%s", (int)(strrchr(__FILE__, '/') + 1 - __FILE__),
                 __FILE__, tree);
    return buf;
}

static void test_declared_from_kernel_log(void)
{
    char root[4096];
    tks_hz_reading r[TKS_HZ_SOURCE_COUNT];
    size_t n = tks__tsc_declared(fixture("boot", root, sizeof root), r, TKS_HZ_SOURCE_COUNT), i;
    for (i = 0; i < n && r[i].source != TKS_HZ_LINUX_LOG; i++)
        ;
    CHECK(i < n);
    if (i < n) {
        CHECK_NEAR(r[i].hz, 2595.998e6, 1e-3);
        CHECK(strstr(r[i].detail, "Refined") != NULL);
    }
    /* A root without a kernel log gives no linux-log reading, and no error. */
    n = tks__tsc_declared("/nonexistent-root", r, TKS_HZ_SOURCE_COUNT);
    for (i = 0; i < n; i++)
        CHECK(r[i].source != TKS_HZ_LINUX_LOG);
    CHECK_EQ_U64(tks__tsc_declared(NULL, r, 0), 0);
}

static void fill_platform(tks_platform *p)
{
    memset(p, 0, sizeof *p);
    p->n_hz_sources = 2;
    p->hz_sources[0].source = TKS_HZ_LINUX_LOG;
    p->hz_sources[0].hz = 2.3e9;
    snprintf(p->hz_sources[0].detail, sizeof p->hz_sources[0].detail, "kernel log: \"x y\"");
    p->hz_sources[1].source = TKS_HZ_CPUID_16;
    p->hz_sources[1].hz = 2.2e9;
    p->calibration.hz = 2299999921.434448;
    p->calibration.ppm = 0.0017720347048675786;
    p->calibration.points = 2107, p->calibration.used = 2100;
    p->calibration.bracket_ticks = 44, p->calibration.seconds = 0.0499;
    p->quantum.quantum = 2, p->quantum.unfenced_step = 20, p->quantum.reads = 20000;
    p->quantum.fenced_delta[0] = 52, p->quantum.fenced_count[0] = 16765;
    p->quantum.unfenced_delta[4] = 28, p->quantum.unfenced_count[4] = 40;
    p->core.cycles_per_tick = 1.30303, p->core.spread = 0.001, p->core.rounds = 15;
    p->core.adds_short = 16384, p->core.adds_long = 65536;
    snprintf(p->core.counter_note, sizeof p->core.counter_note, "no counter: because");
    p->cpuid.median_ticks = 18516, p->cpuid.min_ticks = 17982, p->cpuid.traps = 1;
    p->cpuid.available = 1;
}

/* Cut a file after its first n lines. */
static int keep_lines(const char *path, int n)
{
    char buf[8192];
    size_t len, i;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (i = 0; i < len && n > 0; i++)
        n -= buf[i] == '\n';
    if (!(f = fopen(path, "w")))
        return -1;
    fwrite(buf, 1, i, f);
    return fclose(f);
}

static void test_cache(void)
{
    char dir[] = "/tmp/tks_cache_XXXXXX", path[256], root[4096], key[512], cmd[300];
    tks_platform a, b;
    tks_cpu_identity id;
    FILE *f;
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    memset(&id, 0, sizeof id);
    snprintf(id.vendor, sizeof id.vendor, "GenuineIntel");
    snprintf(id.brand, sizeof id.brand, "Intel(R) Xeon(R) Processor");
    id.family = 6, id.model = 207, id.stepping = 2, id.logical_cpus = 2;
    CHECK(tks__cache_key(fixture("boot", root, sizeof root), &id, -1, key, sizeof key) == 0);
    CHECK(strstr(key, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0") != NULL);
    CHECK(tks__cache_key("/nonexistent-root", &id, -1, key + 256, 256) == TKS_EIO);

    /* The directory does not exist yet: storing creates it. */
    snprintf(path, sizeof path, "%s/sub/dir/calibration", dir);
    fill_platform(&a);
    CHECK(tks__cache_store(path, key, &a) == 0);
    memset(&b, 0xff, sizeof b);
    CHECK(tks__cache_load(path, key, &b) == 0);
    CHECK_EQ_U64(b.n_hz_sources, 2);
    CHECK(b.hz_sources[0].source == TKS_HZ_LINUX_LOG);
    CHECK_STR(b.hz_sources[0].detail, "kernel log: \"x y\"");
    CHECK(b.calibration.hz == a.calibration.hz); /* %.17g round-trips exactly */
    CHECK(b.calibration.ppm == a.calibration.ppm);
    CHECK_EQ_U64(b.calibration.used, 2100);
    CHECK_EQ_U64(b.quantum.quantum, 2);
    CHECK_EQ_U64(b.quantum.fenced_count[0], 16765);
    CHECK_EQ_U64(b.quantum.unfenced_delta[4], 28);
    CHECK(b.core.cycles_per_tick == a.core.cycles_per_tick);
    CHECK_EQ_U64(b.core.adds_long, 65536);
    CHECK_STR(b.core.counter_note, "no counter: because");
    CHECK(b.cpuid.median_ticks == 18516 && b.cpuid.traps == 1 && b.cpuid.available == 1);

    /* Another boot or machine: stale. */
    CHECK(tks__cache_load(path, "boot=other", &b) == TKS_EUNAVAIL);
    CHECK(tks__cache_load("/nonexistent/calibration", key, &b) == TKS_EUNAVAIL);
    /* Cut short (no "end"): damaged, not trusted. */
    CHECK(keep_lines(path, 4) == 0);
    CHECK(tks__cache_load(path, key, &b) == TKS_EINVAL);
    /* A garbled line is damage too. */
    if ((f = fopen(path, "w"))) {
        fprintf(f, "tickscope-calibration 1\nkey %s\ncalibration two point three\nend\n", key);
        fclose(f);
    }
    CHECK(tks__cache_load(path, key, &b) == TKS_EINVAL);

    CHECK(tks__cache_path("", path, sizeof path) == TKS_EUNAVAIL);
    CHECK(tks__cache_path(dir, path, sizeof path) == 0);
    CHECK(strncmp(path, dir, strlen(dir)) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static void test_names_and_units(void)
{
    tks_platform p;
    CHECK_STR(tks_hz_source_name(TKS_HZ_MEASURED), "measured");
    CHECK_STR(tks_hz_source_name(TKS_HZ_HYPERVISOR), "hypervisor");
    CHECK_STR(tks_hz_source_name(TKS_HZ_SOURCE_COUNT), "unknown");
    memset(&p, 0, sizeof p);
    CHECK(isnan(tks_ticks_to_ns(&p, 10)));
    p.tsc_hz = 2.5e9;
    CHECK_NEAR(tks_ticks_to_ns(&p, 10), 4.0, 1e-12);
}

int main(void)
{
    test_exact_slope();
    test_noisy_slope();
    test_wide_brackets_dropped();
    test_fit_errors();
    test_top_values();
    test_kernel_log();
    test_declared_from_kernel_log();
    test_cache();
    test_names_and_units();
    CHECK_DONE();
}
