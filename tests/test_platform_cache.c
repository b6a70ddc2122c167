/* SPDX-License-Identifier: MIT */
/* test_platform_cache.c: the per-boot calibration cache. A file round-trips exactly; a damaged,
 * truncated, foreign, older or future-format file is refused with a reason and leaves the platform
 * untouched; the core clock is not kept; writers racing each other never expose a torn file; the
 * lock serialises calibrations; and the busy-machine test reads load and steal under a root. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fixture_util.h"
#include "platform/cache.h"
#include "tickscope.h"

static char dir[] = "/tmp/tks_cache_XXXXXX";

static void fill_platform(tks_platform *p, double hz)
{
    memset(p, 0, sizeof *p);
    p->n_hz_sources = 2;
    p->hz_sources[0].source = TKS_HZ_LINUX_LOG;
    p->hz_sources[0].hz = 2.3e9;
    snprintf(p->hz_sources[0].detail, sizeof p->hz_sources[0].detail, "kernel log: \"x y\"");
    p->hz_sources[1].source = TKS_HZ_CPUID_16;
    p->hz_sources[1].hz = 2.2e9;
    p->calibration.hz = hz;
    p->calibration.ppm = 0.0017720347048675786;
    p->calibration.points = 2107, p->calibration.used = 2100;
    p->calibration.bracket_ticks = 44, p->calibration.seconds = 0.0499;
    p->quantum.quantum = 2, p->quantum.unfenced_step = 20, p->quantum.reads = 20000;
    p->quantum.fenced_delta[0] = 52, p->quantum.fenced_count[0] = 16765;
    p->quantum.unfenced_delta[4] = 28, p->quantum.unfenced_count[4] = 40;
    p->core.cycles_per_tick = 1.30303, p->core.rounds = 15;
    p->cpuid.median_ticks = 18516, p->cpuid.min_ticks = 17982, p->cpuid.traps = 1;
    p->cpuid.available = 1;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static char *read_all(const char *path, size_t *len)
{
    static char buf[16384];
    FILE *f = fopen(path, "rb");
    *len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[*len] = 0;
    if (f)
        fclose(f);
    return buf;
}

static void write_all(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

/* The one code in why, or -1. */
static int why_code(const tks_diags *why)
{
    return why->n == 1 ? (int)why->items[0].code : -1;
}

/* Loading must refuse with TKS_EINVAL, say why (the code want), and leave p alone. */
static void expect_refused(const char *path, const char *key, enum tks_diag_code want,
                           const char *what)
{
    static tks_platform p, untouched;
    tks_diags why = {0};
    int rc;
    memset(&p, 0x5a, sizeof p);
    memset(&untouched, 0x5a, sizeof untouched);
    rc = tks__cache_load(path, key, &p, &why);
    if (rc != TKS_EINVAL || why_code(&why) != (int)want)
        fprintf(stderr, "%s: rc %d, why %s\n", what, rc,
                why.n ? tks_diag_info_of(why.items[0].code)->id : "none");
    CHECK(rc == TKS_EINVAL && why_code(&why) == (int)want);
    CHECK(memcmp(&p, &untouched, sizeof p) == 0);
    tks_diags_free(&why);
}

static void test_round_trip_and_refusals(void)
{
    char path[300], root[4096], key[512], good[16384], *text;
    tks_diags why = {0};
    tks_platform a, b;
    tks_cpu_identity id;
    size_t len, i;

    memset(&id, 0, sizeof id);
    snprintf(id.vendor, sizeof id.vendor, "GenuineIntel");
    snprintf(id.brand, sizeof id.brand, "Intel(R) Xeon(R) Processor");
    id.family = 6, id.model = 207, id.stepping = 2, id.logical_cpus = 2;
    CHECK(tks__cache_key(fixture("boot", root, sizeof root), &id, -1, key, sizeof key) == 0);
    CHECK(strstr(key, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0") != NULL);
    CHECK(tks__cache_key("/nonexistent-root", &id, -1, key + 256, 256) == TKS_EIO);

    /* The directory does not exist yet: storing creates it. */
    snprintf(path, sizeof path, "%s/sub/dir/calibration", dir);
    fill_platform(&a, 2299999921.434448);
    CHECK(tks__cache_store(path, key, &a) == 0);
    memset(&b, 0, sizeof b);
    b.core.cycles_per_tick = 7.5; /* measured this run: the cache must not overwrite it */
    CHECK(tks__cache_load(path, key, &b, &why) == 0);
    CHECK_EQ_U64(why.n, 0);
    CHECK_EQ_U64(b.n_hz_sources, 2);
    CHECK(b.hz_sources[0].source == TKS_HZ_LINUX_LOG);
    CHECK_STR(b.hz_sources[0].detail, "kernel log: \"x y\"");
    CHECK(b.calibration.hz == a.calibration.hz); /* %.17g round-trips exactly */
    CHECK(b.calibration.ppm == a.calibration.ppm);
    CHECK_EQ_U64(b.calibration.used, 2100);
    CHECK_EQ_U64(b.quantum.quantum, 2);
    CHECK_EQ_U64(b.quantum.fenced_count[0], 16765);
    CHECK_EQ_U64(b.quantum.unfenced_delta[4], 28);
    CHECK(b.cpuid.median_ticks == 18516 && b.cpuid.traps == 1 && b.cpuid.available == 1);
    CHECK(b.core.cycles_per_tick == 7.5);
    text = read_all(path, &len);
    CHECK(strstr(text, "\ncore") == NULL); /* the core clock drifts: not kept */
    CHECK(strncmp(text, "tickscope-calibration 2\n", 24) == 0);
    memcpy(good, text, len + 1);

    /* Another boot or machine: stale, not damaged. Absent: no reason to give. */
    CHECK(tks__cache_load(path, "boot=other", &b, &why) == TKS_EUNAVAIL);
    CHECK(why_code(&why) == TKS_DIAG_PLATFORM_CACHE_OTHER_BOOT);
    tks_diags_free(&why);
    CHECK(tks__cache_load("/nonexistent/calibration", key, &b, &why) == TKS_EUNAVAIL);
    CHECK_EQ_U64(why.n, 0);

    /* Every truncation of the file is refused: no prefix is ever trusted. */
    for (i = 0; i < len; i++) {
        write_all(path, good, i);
        expect_refused(path, key,
                       i < 24 ? TKS_DIAG_PLATFORM_CACHE_FOREIGN : TKS_DIAG_PLATFORM_CACHE_DAMAGED,
                       "truncated");
    }
    /* Every single flipped bit in the body is caught. */
    for (i = 24; i < len; i += 7) {
        good[i] ^= 0x04;
        write_all(path, good, len);
        expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_DAMAGED, "bit flip");
        good[i] ^= 0x04;
    }
    /* A digit changed by hand, with the checksum left alone. */
    text = strstr(good, "quantum 2");
    text[8] = '4';
    write_all(path, good, len);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_DAMAGED, "edited");
    text[8] = '2';
    /* Foreign files, future and older formats. */
    write_all(path, "garbage\n", 8);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_FOREIGN, "garbage");
    write_all(path, "", 0);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_FOREIGN, "empty");
    write_all(path, "tickscope-calibration 99\nkey x\nwhatever a future version writes\n", 63);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_NEWER, "future");
    write_all(path, "tickscope-calibration 1\nkey x\nend\n", 34);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_OLDER, "format 1");
    write_all(path, "tickscope-calibration two\n", 26);
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_FOREIGN, "no number");
    memset(good, 'x', sizeof good);
    write_all(path, good, sizeof good); /* bigger than any cache file */
    expect_refused(path, key, TKS_DIAG_PLATFORM_CACHE_FOREIGN, "huge");

    CHECK(tks__cache_path("", path, sizeof path) == TKS_EUNAVAIL);
    CHECK(tks__cache_path(dir, path, sizeof path) == 0);
    CHECK(strncmp(path, dir, strlen(dir)) == 0);
}

/* Four writers store different figures as fast as they can while a reader loads: every load
 * finds one writer's whole file, never a torn one, and no temporary is left. */
static void test_racing_writers(void)
{
    char path[300], cmd[400];
    pid_t kids[4];
    int i, loads = 0, bad = 0;
    snprintf(path, sizeof path, "%s/race/calibration", dir);
    for (i = 0; i < 4; i++) {
        if ((kids[i] = fork()) == 0) {
            tks_platform p;
            fill_platform(&p, 1e9 * (i + 1));
            for (int n = 0; n < 300; n++)
                if (tks__cache_store(path, "k", &p) != 0)
                    _exit(1);
            _exit(0);
        }
    }
    for (;;) {
        tks_platform p;
        int rc, done = 1, st;
        memset(&p, 0, sizeof p);
        rc = tks__cache_load(path, "k", &p, NULL);
        if (rc == 0) {
            loads++;
            bad += !(p.calibration.hz == 1e9 || p.calibration.hz == 2e9 ||
                     p.calibration.hz == 3e9 || p.calibration.hz == 4e9);
        } else if (rc != TKS_EUNAVAIL) { /* absent before the first rename; never damaged */
            bad++;
            fprintf(stderr, "racing load: %d\n", rc);
        }
        for (i = 0; i < 4; i++)
            if (kids[i] > 0) {
                if (waitpid(kids[i], &st, WNOHANG) == kids[i]) {
                    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
                    kids[i] = 0;
                } else {
                    done = 0;
                }
            }
        if (done)
            break;
    }
    CHECK(loads > 0);
    CHECK_EQ_U64(bad, 0);
    /* Only the file itself: the temporaries were all renamed. */
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s/race')\" = calibration", dir);
    CHECK(system(cmd) == 0);
}

/* While a child holds the lock, the parent cannot take it without waiting; once the child lets
 * go, it can. The order is shown by files, not by timing. */
static void test_lock(void)
{
    char path[300], held[320], released[320];
    int fds[2], fd;
    pid_t kid;
    char c;
    snprintf(path, sizeof path, "%s/lock/calibration", dir);
    snprintf(held, sizeof held, "%s/lock/held", dir);
    snprintf(released, sizeof released, "%s/lock/released", dir);
    CHECK(pipe(fds) == 0);
    if ((kid = fork()) == 0) {
        int l = tks__cache_lock(path, 0);
        write_all(held, "", 0);
        if (read(fds[0], &c, 1) != 1) /* until the parent has failed to take it */
            _exit(1);
        write_all(released, "", 0);
        tks__cache_unlock(l);
        _exit(l >= 0 ? 0 : 2);
    }
    while (file_size(held) < 0)
        usleep(1000);
    CHECK(tks__cache_lock(path, 0) == -1); /* held: no waiting allowed, so no lock */
    CHECK(write(fds[1], "x", 1) == 1);
    fd = tks__cache_lock(path, 600); /* waits for the child */
    CHECK(fd >= 0);
    CHECK(file_size(released) == 0); /* the child had let go before we got it */
    tks__cache_unlock(fd);
    {
        int st;
        CHECK(waitpid(kid, &st, 0) == kid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
}

static void put(const char *root, const char *name, const char *text)
{
    char p[400];
    snprintf(p, sizeof p, "%s/proc", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/proc/%s", root, name);
    write_all(p, text, strlen(text));
}

/* Load and steal under a root that the test rewrites between the two samples. */
static void test_busy(void)
{
    char root[300];
    tks_diags why = {0};
    tks__load_sample a, b;
    snprintf(root, sizeof root, "%s/root", dir);
    mkdir(root, 0755);
    put(root, "stat", "cpu  10 0 10 1000 0 0 0 5 0 0\ncpu0 5 0 5 500 0 0 0 5 0 0\nprocs_running 1\n");
    put(root, "loadavg", "0.00 0.01 0.05 1/312 4242\n");
    tks__load_sample_read(root, &a);
    CHECK_EQ_U64(a.others, 0);
    CHECK_EQ_U64(a.steal, 5);
    tks__load_sample_read(root, &b);
    CHECK(tks__load_was_busy(&a, &b, &why) == 0);
    CHECK_EQ_U64(why.n, 0);
    /* Steal grows between the samples. */
    put(root, "stat", "cpu  10 0 10 1000 0 0 0 8 0 0\nprocs_running 1\n");
    tks__load_sample_read(root, &b);
    CHECK(tks__load_was_busy(&a, &b, &why) == 1);
    CHECK(why_code(&why) == TKS_DIAG_PLATFORM_CACHE_BUSY_STEAL);
    CHECK(tks_diag_number(&why.items[0], "jiffies") == 3);
    tks_diags_free(&why);
    /* Others runnable, seen by procs_running or by loadavg. */
    put(root, "stat", "cpu  10 0 10 1000 0 0 0 5 0 0\nprocs_running 4\n");
    tks__load_sample_read(root, &b);
    CHECK(tks__load_was_busy(&a, &b, &why) == 1);
    CHECK(why_code(&why) == TKS_DIAG_PLATFORM_CACHE_BUSY_TASKS);
    CHECK(tks_diag_number(&why.items[0], "tasks") == 3);
    tks_diags_free(&why);
    put(root, "stat", "cpu  10 0 10 1000 0 0 0 5 0 0\nprocs_running 1\n");
    put(root, "loadavg", "0.00 0.01 0.05 2/312 4242\n");
    tks__load_sample_read(root, &b);
    CHECK(tks__load_was_busy(&b, &a, &why) == 1);
    CHECK(tks_diag_number(&why.items[0], "tasks") == 1);
    tks_diags_free(&why);
    /* Nothing readable: unknown is not busy (a container without /proc/stat still caches). */
    tks__load_sample_read("/nonexistent-root", &a);
    CHECK(a.others == -1 && a.steal == -1);
    CHECK(tks__load_was_busy(&a, &a, &why) == 0);
    CHECK_EQ_U64(why.n, 0);
}

int main(void)
{
    char cmd[300];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip_and_refusals();
    test_racing_writers();
    test_lock();
    test_busy();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    CHECK_DONE();
}
