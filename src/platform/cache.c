/* SPDX-License-Identifier: MIT */
/* cache.c: the per-boot calibration cache. One text file: a format line, a key line, "name value"
 * lines, "end", and a checksum of everything before it. Any mismatch or damage means "measure
 * again", never a wrong figure. */
#include "platform/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/procfs.h"

#define CACHE_MAGIC "tickscope-calibration "
#define CACHE_FILE "calibration"
#define CACHE_MAX 16384 /* a real file is under 2 KB */

int tks__cache_key(const char *root, const tks_cpu_identity *id, int cpu, char *key, size_t size)
{
    char boot[64];
    int n;
    if (tks__proc_read_text(root, "/proc/sys/kernel/random/boot_id", boot, sizeof boot) != 0 ||
        !boot[0] || boot[strcspn(boot, "\n\r")])
        return TKS_EIO; /* a line break would split the key's line of the file */
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

/* FNV-1a, 64 bits: not against an adversary (whoever can write the file can recompute it), against
 * a torn write, a truncation, a flipped bit or an edit by hand. */
static unsigned long long checksum(const char *s, size_t n)
{
    unsigned long long h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

/* ---- writing */

static void put_u64s(FILE *f, const char *name, const uint64_t *v, size_t n)
{
    fprintf(f, "%s", name);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %llu", (unsigned long long)v[i]);
    fputc('\n', f);
}

/* The body, up to and including "end\n", into a memory stream; NULL on allocation failure. */
static char *body(const char *key, const tks_platform *p, size_t *len)
{
    const tks_tsc_calibration *c = &p->calibration;
    const tks_timer_quantum *q = &p->quantum;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fprintf(f, "%s%d\nkey %s\n", CACHE_MAGIC, TKS__CACHE_FORMAT, key);
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
    fprintf(f, "cpuid %.17g %.17g %d %d\nend\n", p->cpuid.min_ticks, p->cpuid.median_ticks,
            p->cpuid.traps, p->cpuid.available);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
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

/* A unique temporary (two processes may store at once), synced before the rename so that a crash
 * leaves the old file or the new one, never an empty one. */
int tks__cache_store(const char *path, const char *key, const tks_platform *p)
{
    char tmp[600], *text;
    size_t len;
    FILE *f;
    int fd, bad;
    if (!path || !key || !p || snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp)
        return TKS_EINVAL;
    if (!(text = body(key, p, &len)))
        return TKS_ENOMEM;
    make_parent(path);
    if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(text);
        return TKS_EIO;
    }
    fwrite(text, 1, len, f);
    fprintf(f, "checksum %016llx\n", checksum(text, len));
    free(text);
    bad = fflush(f) != 0 || ferror(f) || fsync(fd) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return TKS_EIO;
    }
    return TKS_OK;
}

int tks__cache_lock(const char *path, double wait_s)
{
    char lock[600];
    struct timespec pause = {0, 10000000}; /* 10 ms between tries */
    int fd;
    if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock)
        return -1;
    make_parent(path);
    if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0)
        return -1;
    for (double waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 0.01) {
        if (errno != EWOULDBLOCK || waited >= wait_s) {
            close(fd);
            return -1;
        }
        nanosleep(&pause, NULL);
    }
    return fd;
}

void tks__cache_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing releases the lock; the lock file stays, for the next process */
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
    return *text == '\0';
}

/* One line into p; returns 1 when understood, 0 when damaged. */
static int parse_line(char *line, tks_platform *p, int *seen_end)
{
    tks_tsc_calibration *c = &p->calibration;
    tks_timer_quantum *q = &p->quantum;
    unsigned long long a, b;
    char *v;
    int src, off = 0;
    if ((v = rest(line, "declared"))) {
        tks_hz_reading *r;
        if (p->n_hz_sources >= TKS_HZ_SOURCE_COUNT)
            return 0;
        r = &p->hz_sources[p->n_hz_sources];
        if (sscanf(v, "%d %lf %n", &src, &r->hz, &off) != 2 || src < 0 ||
            src >= TKS_HZ_SOURCE_COUNT || off == 0 || !(r->hz > 0))
            return 0;
        r->source = (enum tks_hz_source)src;
        snprintf(r->detail, sizeof r->detail, "%.*s", (int)sizeof r->detail - 1, v + off);
        p->n_hz_sources++;
        return 1;
    }
    if ((v = rest(line, "calibration")))
        return sscanf(v, "%lf %lf %zu %zu %lf %lf", &c->hz, &c->ppm, &c->points, &c->used,
                      &c->bracket_ticks, &c->seconds) == 6 && c->hz >= 0 && c->used <= c->points;
    if ((v = rest(line, "quantum"))) {
        if (sscanf(v, "%llu %llu %zu", &a, &b, &q->reads) != 3 || a == 0)
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
    if ((v = rest(line, "cpuid")))
        return sscanf(v, "%lf %lf %d %d", &p->cpuid.min_ticks, &p->cpuid.median_ticks,
                      &p->cpuid.traps, &p->cpuid.available) == 4;
    if (strcmp(line, "end") == 0)
        return *seen_end = 1;
    return 0;
}

static int why_not(tks_diags *why, int rc, enum tks_diag_code reason)
{
    if (why)
        (void)tks__diag0(why, reason);
    return rc;
}

/* The whole file into a buffer; its length, or -1 (absent or unreadable), or -2 (too big). */
static long slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f)
        return -1;
    n = fread(buf, 1, size, f);
    fclose(f);
    if (n == size)
        return -2;
    buf[n] = '\0';
    return (long)n;
}

/* The checksum line ends the file; the text it covers is everything before it. */
static int checksum_holds(const char *text, size_t len)
{
    const char *last;
    unsigned long long want;
    char tail;
    if (len < 2 || text[len - 1] != '\n')
        return 0;
    for (last = text + len - 1; last > text && last[-1] != '\n'; last--)
        ;
    return sscanf(last, "checksum %16llx%c", &want, &tail) == 2 && tail == '\n' &&
           strlen(last) == 26 && want == checksum(text, (size_t)(last - text));
}

int tks__cache_load(const char *path, const char *key, tks_platform *p, tks_diags *why)
{
    char *text, *line, *save = NULL;
    tks_platform copy;
    long len;
    int format, off = 0, seen_end = 0, ok = 1;
    if (!path || !key || !p)
        return TKS_EINVAL;
    if (!(text = malloc(CACHE_MAX)))
        return TKS_ENOMEM;
    if ((len = slurp(path, text, CACHE_MAX)) == -1) {
        free(text);
        return TKS_EUNAVAIL;
    }
    if (len == -2 || strncmp(text, CACHE_MAGIC, strlen(CACHE_MAGIC)) != 0 ||
        sscanf(text + strlen(CACHE_MAGIC), "%d%n", &format, &off) != 1 ||
        text[strlen(CACHE_MAGIC) + (size_t)off] != '\n') {
        free(text);
        return why_not(why, TKS_EINVAL, TKS_DIAG_PLATFORM_CACHE_FOREIGN);
    }
    if (format != TKS__CACHE_FORMAT) {
        free(text);
        return why_not(why, TKS_EINVAL,
                       format > TKS__CACHE_FORMAT ? TKS_DIAG_PLATFORM_CACHE_NEWER
                                                  : TKS_DIAG_PLATFORM_CACHE_OLDER);
    }
    if (!checksum_holds(text, (size_t)len)) {
        free(text);
        return why_not(why, TKS_EINVAL, TKS_DIAG_PLATFORM_CACHE_DAMAGED);
    }
    line = strtok_r(text, "\n", &save); /* the format line */
    line = strtok_r(NULL, "\n", &save);
    if (!line || !rest(line, "key") || strcmp(line + 4, key) != 0) {
        free(text);
        return why_not(why, TKS_EUNAVAIL, TKS_DIAG_PLATFORM_CACHE_OTHER_BOOT);
    }
    copy = *p;
    copy.n_hz_sources = 0;
    while (ok && !seen_end && (line = strtok_r(NULL, "\n", &save)) != NULL)
        ok = parse_line(line, &copy, &seen_end);
    free(text);
    if (!ok || !seen_end)
        return why_not(why, TKS_EINVAL, TKS_DIAG_PLATFORM_CACHE_UNREADABLE_LINE);
    *p = copy;
    return TKS_OK;
}
