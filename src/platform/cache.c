/* cache.c: the per-boot calibration cache. One text file of "name value" lines after a key line;
 * any mismatch or damage means "measure again", never a wrong figure. */
#include "platform/cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/procfs.h"

#define CACHE_MAGIC "tickscope-calibration 1"
#define CACHE_FILE "calibration"

int tks__cache_key(const char *root, const tks_cpu_identity *id, int cpu, char *key, size_t size)
{
    char boot[64];
    int n;
    if (tks__proc_read_text(root, "/proc/sys/kernel/random/boot_id", boot, sizeof boot) != 0 ||
        !boot[0])
        return TKS_EIO;
    n = snprintf(key, size, "boot=%s cpu=%s/%u/%u/%u/%s hv=%s cpus=%d pin=%d version=%s", boot,
                 id->vendor, id->family, id->model, id->stepping, id->brand,
                 id->hypervisor_vendor, id->logical_cpus, cpu, TKS_VERSION_STRING);
    return n < 0 || (size_t)n >= size ? TKS_ERANGE : 0;
}

int tks__cache_path(const char *dir, char *path, size_t size)
{
    const char *env;
    int n;
    if (dir && !*dir)
        return TKS_EUNAVAIL;
    if (dir)
        n = snprintf(path, size, "%s/%s", dir, CACHE_FILE);
    else if ((env = getenv("TICKSCOPE_CACHE_DIR")) != NULL)
        n = *env ? snprintf(path, size, "%s/%s", env, CACHE_FILE) : -1;
    else if ((env = getenv("XDG_CACHE_HOME")) != NULL && *env)
        n = snprintf(path, size, "%s/tickscope/%s", env, CACHE_FILE);
    else if ((env = getenv("HOME")) != NULL && *env)
        n = snprintf(path, size, "%s/.cache/tickscope/%s", env, CACHE_FILE);
    else
        n = -1;
    return n < 0 || (size_t)n >= size ? TKS_EUNAVAIL : 0;
}

/* ---- writing */

static void put_u64s(FILE *f, const char *name, const uint64_t *v, size_t n)
{
    fprintf(f, "%s", name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %llu", (unsigned long long)v[i]);
    fputc('\n', f);
}

static void write_entries(FILE *f, const char *key, const tks_platform *p)
{
    const tks_tsc_calibration *c = &p->calibration;
    const tks_timer_quantum *q = &p->quantum;
    const tks_core_clock *k = &p->core;
    fprintf(f, "%s\nkey %s\n", CACHE_MAGIC, key);
    for (size_t i = 0; i < p->n_hz_sources; i++)
        fprintf(f, "declared %d %.17g %s\n", (int)p->hz_sources[i].source, p->hz_sources[i].hz,
                p->hz_sources[i].detail);
    fprintf(f, "calibration %.17g %.17g %zu %zu %.17g %.17g\n", c->hz, c->ppm, c->points,
            c->used, c->bracket_ticks, c->seconds);
    fprintf(f, "quantum %llu %llu %zu\n", (unsigned long long)q->quantum,
            (unsigned long long)q->unfenced_step, q->reads);
    put_u64s(f, "fenced_delta", q->fenced_delta, TKS_TOP_DELTAS);
    put_u64s(f, "fenced_count", q->fenced_count, TKS_TOP_DELTAS);
    put_u64s(f, "unfenced_delta", q->unfenced_delta, TKS_TOP_DELTAS);
    put_u64s(f, "unfenced_count", q->unfenced_count, TKS_TOP_DELTAS);
    fprintf(f, "core %.17g %.17g %u %llu %llu %d %d %.17g\n", k->cycles_per_tick, k->spread,
            k->rounds, (unsigned long long)k->adds_short, (unsigned long long)k->adds_long,
            k->counter, k->counter_rdpmc, k->counter_cycles_per_tick);
    fprintf(f, "core_ci %.17g %.17g %u\n", k->lo, k->hi, k->attempts);
    fprintf(f, "core_note %s\n", k->counter_note);
    fprintf(f, "cpuid %.17g %.17g %d %d\nend\n", p->cpuid.min_ticks, p->cpuid.median_ticks,
            p->cpuid.traps, p->cpuid.available);
}

static void make_parent(const char *path)
{
    char dir[512], *slash;
    snprintf(dir, sizeof dir, "%s", path);
    if (!(slash = strrchr(dir, '/')) || slash == dir)
        return;
    *slash = 0;
    if (mkdir(dir, 0700) == 0 || errno != ENOENT)
        return;
    make_parent(dir); /* ~/.cache itself may not exist yet */
    mkdir(dir, 0700);
}

int tks__cache_store(const char *path, const char *key, const tks_platform *p)
{
    char tmp[600];
    FILE *f;
    int bad;
    if (!path || !key || !p || snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >=
                                   (int)sizeof tmp)
        return TKS_EINVAL;
    make_parent(path);
    if (!(f = fopen(tmp, "w")))
        return TKS_EIO;
    write_entries(f, key, p);
    bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return TKS_EIO;
    }
    return TKS_OK;
}

/* ---- reading */

static char *rest(char *line, const char *name)
{
    size_t n = strlen(name);
    return strncmp(line, name, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

static int get_u64s(const char *text, uint64_t *v, size_t n)
{
    char *end;
    for (size_t i = 0; i < n; i++) {
        errno = 0;
        v[i] = strtoull(text, &end, 10);
        if (end == text || errno)
            return 0;
        text = end;
    }
    return 1;
}

/* One line into p; returns 1 when understood, 0 when damaged. */
static int parse_line(char *line, tks_platform *p, int *seen_end)
{
    tks_tsc_calibration *c = &p->calibration;
    tks_timer_quantum *q = &p->quantum;
    tks_core_clock *k = &p->core;
    unsigned long long a, b;
    char *v;
    int src, off = 0;
    if ((v = rest(line, "declared"))) {
        tks_hz_reading *r;
        if (p->n_hz_sources >= TKS_HZ_SOURCE_COUNT)
            return 0;
        r = &p->hz_sources[p->n_hz_sources];
        if (sscanf(v, "%d %lf %n", &src, &r->hz, &off) != 2 || src < 0 ||
            src >= TKS_HZ_SOURCE_COUNT || off == 0)
            return 0;
        r->source = (enum tks_hz_source)src;
        snprintf(r->detail, sizeof r->detail, "%.*s", (int)sizeof r->detail - 1, v + off);
        p->n_hz_sources++;
        return 1;
    }
    if ((v = rest(line, "calibration")))
        return sscanf(v, "%lf %lf %zu %zu %lf %lf", &c->hz, &c->ppm, &c->points, &c->used,
                      &c->bracket_ticks, &c->seconds) == 6;
    if ((v = rest(line, "quantum"))) {
        if (sscanf(v, "%llu %llu %zu", &a, &b, &q->reads) != 3)
            return 0;
        q->quantum = a, q->unfenced_step = b;
        return 1;
    }
    if ((v = rest(line, "fenced_delta")))
        return get_u64s(v, q->fenced_delta, TKS_TOP_DELTAS);
    if ((v = rest(line, "fenced_count")))
        return get_u64s(v, q->fenced_count, TKS_TOP_DELTAS);
    if ((v = rest(line, "unfenced_delta")))
        return get_u64s(v, q->unfenced_delta, TKS_TOP_DELTAS);
    if ((v = rest(line, "unfenced_count")))
        return get_u64s(v, q->unfenced_count, TKS_TOP_DELTAS);
    if ((v = rest(line, "core"))) {
        if (sscanf(v, "%lf %lf %u %llu %llu %d %d %lf", &k->cycles_per_tick, &k->spread,
                   &k->rounds, &a, &b, &k->counter, &k->counter_rdpmc,
                   &k->counter_cycles_per_tick) != 8)
            return 0;
        k->adds_short = a, k->adds_long = b;
        return 1;
    }
    if ((v = rest(line, "core_ci")))
        return sscanf(v, "%lf %lf %u", &k->lo, &k->hi, &k->attempts) == 3;
    if ((v = rest(line, "core_note"))) {
        snprintf(k->counter_note, sizeof k->counter_note, "%.*s", (int)sizeof k->counter_note - 1, v);
        return 1;
    }
    if ((v = rest(line, "cpuid")))
        return sscanf(v, "%lf %lf %d %d", &p->cpuid.min_ticks, &p->cpuid.median_ticks,
                      &p->cpuid.traps, &p->cpuid.available) == 4;
    if (strcmp(line, "end") == 0)
        return *seen_end = 1;
    return 0;
}

static int read_line(FILE *f, char *line, size_t size)
{
    if (!fgets(line, (int)size, f))
        return 0;
    line[strcspn(line, "\n")] = 0;
    return 1;
}

int tks__cache_load(const char *path, const char *key, tks_platform *p)
{
    char line[1024];
    FILE *f;
    int ok = 1, seen_end = 0;
    if (!path || !key || !p)
        return TKS_EINVAL;
    if (!(f = fopen(path, "r")))
        return TKS_EUNAVAIL;
    if (!read_line(f, line, sizeof line) || strcmp(line, CACHE_MAGIC) != 0 ||
        !read_line(f, line, sizeof line) || !rest(line, "key") || strcmp(line + 4, key) != 0) {
        fclose(f);
        return TKS_EUNAVAIL;
    }
    p->n_hz_sources = 0;
    while (ok && !seen_end && read_line(f, line, sizeof line))
        ok = parse_line(line, p, &seen_end);
    fclose(f);
    return ok && seen_end ? TKS_OK : TKS_EINVAL;
}
