/* SPDX-License-Identifier: MIT */
/* result_doc.c: benchmark result files (tickscope's JSON and Google Benchmark's) read back by
 * the benches: a small JSON reader, the figures they compare across processes, and running a
 * bench's bodies program for them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "result_doc.h"

/* ---------------------------------------------------------------- a small JSON reader
 * Enough of JSON to walk to a key: objects, arrays, strings with escapes, scalars. It trusts the
 * input to be well formed (both writers are libraries) but never reads past its end. */
static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

/* p at an opening quote: the character after the closing one, or NULL if unterminated. */
static const char *skip_string(const char *p)
{
    for (p++; *p; p++) {
        if (*p == '\\' && p[1])
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/* p at a value: the character after it, or NULL if it is cut short. */
static const char *skip_value(const char *p)
{
    int depth = 0;
    p = ws(p);
    if (*p == '"')
        return skip_string(p);
    if (*p != '{' && *p != '[') {
        while (*p && !strchr(",}] \t\r\n", *p))
            p++;
        return p;
    }
    while (*p) {
        if (*p == '"') {
            if (!(p = skip_string(p)))
                return NULL;
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0)
            return p + 1;
        p++;
    }
    return NULL;
}

/* The value of key among the object's own members (not nested ones'), or NULL. */
static const char *member(const char *obj, const char *key)
{
    size_t klen = strlen(key);
    const char *p;
    if (!obj || *(obj = ws(obj)) != '{')
        return NULL;
    p = ws(obj + 1);
    while (*p == '"') {
        const char *k = p + 1, *end = skip_string(p);
        if (!end)
            return NULL;
        p = ws(end);
        if (*p != ':')
            return NULL;
        p = ws(p + 1);
        if ((size_t)(end - 1 - k) == klen && memcmp(k, key, klen) == 0)
            return p;
        if (!(p = skip_value(p)))
            return NULL;
        p = ws(p);
        if (*p != ',')
            return NULL;
        p = ws(p + 1);
    }
    return NULL;
}

/* The i-th element of the array, or NULL. */
static const char *element(const char *arr, size_t i)
{
    const char *p;
    if (!arr || *(arr = ws(arr)) != '[')
        return NULL;
    p = ws(arr + 1);
    if (*p == ']')
        return NULL;
    for (;;) {
        if (i-- == 0)
            return p;
        if (!(p = skip_value(p)))
            return NULL;
        p = ws(p);
        if (*p != ',')
            return NULL;
        p = ws(p + 1);
    }
}

/* A number, or NAN for null, a missing key or anything else. */
static double number(const char *v)
{
    char *end;
    double d;
    if (!v || *v == 'n')
        return NAN;
    d = strtod(v, &end);
    return end == v ? NAN : d;
}

static void string(const char *v, char *out, size_t n)
{
    size_t i = 0;
    if (v && *v == '"')
        for (v++; *v && *v != '"' && i + 1 < n; v++) {
            if (*v == '\\' && v[1])
                v++;
            out[i++] = *v;
        }
    out[i] = 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = 0;
        }
    }
    fclose(f);
    return buf;
}

/* ---------------------------------------------------------------- one report, either harness's */
static double unit_ns(const char *unit)
{
    return !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : !strcmp(unit, "s") ? 1e9 : 1;
}

/* Only "iteration" rows: aggregate rows (from --repetitions) are not figures of one run. */
int parse_doc(const char *text, struct doc *d)
{
    const char *root = ws(text), *ctx = member(root, "context"), *list = member(root, "benchmarks");
    const char *e;
    memset(d, 0, sizeof *d);
    d->cycles_per_tick = number(member(member(ctx, "core"), "cycles_per_tick"));
    d->tsc_hz = number(member(member(ctx, "tsc"), "hz"));
    d->quantum = number(member(member(ctx, "tsc"), "quantum_ticks"));
    for (size_t i = 0; (e = element(list, i)) != NULL && d->n < MAX_BENCH; i++) {
        struct fig *f = &d->b[d->n];
        char type[32], unit[8];
        const char *err = member(e, "error_occurred");
        double scale;
        string(member(e, "run_type"), type, sizeof type);
        if (type[0] && strcmp(type, "iteration") != 0)
            continue;
        string(member(e, "name"), f->name, sizeof f->name);
        string(member(e, "time_unit"), unit, sizeof unit);
        scale = unit_ns(unit);
        f->ok = !(err && !strncmp(err, "true", 4));
        f->ticks = number(member(e, "ticks"));
        f->ns = number(member(e, "real_time")) * scale;
        f->cpu_ns = number(member(e, "cpu_time")) * scale;
        f->core_cycles = number(member(e, "core_cycles"));
        f->cycles_lo = number(element(member(e, "core_cycles_ci"), 0));
        f->cycles_hi = number(element(member(e, "core_cycles_ci"), 1));
        f->ticks_lo = number(element(member(e, "ticks_ci"), 0));
        f->ticks_hi = number(element(member(e, "ticks_ci"), 1));
        f->quantum = number(member(e, "quantum_ticks"));
        f->adds_cycles = number(member(e, "adds_gap_core_cycles"));
        f->adds_lo = number(element(member(e, "adds_gap_core_cycles_ci"), 0));
        f->adds_hi = number(element(member(e, "adds_gap_core_cycles_ci"), 1));
        string(member(e, "harness_gap_source"), f->gap_source, sizeof f->gap_source);
        while (element(member(e, "warnings"), f->n_warnings))
            f->n_warnings++;
        string(element(member(e, "warnings"), 0), f->warning, sizeof f->warning);
        for (size_t k = 0; element(member(e, "diagnostics"), k); k++) {
            char code[48];
            string(member(element(member(e, "diagnostics"), k), "code"), code, sizeof code);
            f->within_process |= !strcmp(code, "bench.within_process");
            f->add_chain_slow |= !strcmp(code, "core.add_chain_slow");
        }
        if (d->n == 0)
            string(member(e, "method"), d->method, sizeof d->method);
        d->n++;
    }
    return d->n ? 0 : -1;
}

const struct fig *find(const struct doc *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->b[i].name, name))
            return &d->b[i];
    return NULL;
}

/* Run args (stdout to /dev/null; args write their JSON to out) and read the JSON back. */
int run_json(char *const *args, const char *out, struct doc *d, double *seconds)
{
    int rc = bench_run_child(args, seconds);
    char *text;
    if (rc != 0) {
        fprintf(stderr, "bench_user: %s exited with status %d\n", args[0], rc);
        return 1;
    }
    text = slurp(out);
    if (!text || parse_doc(text, d) != 0) {
        fprintf(stderr, "bench_user: no benchmark figures in %s's JSON (%s)\n", args[0], out);
        free(text);
        return 1;
    }
    free(text);
    remove(out);
    return 0;
}

struct spread spread_of(const double *v, size_t n)
{
    struct spread s = {n, NAN, NAN, NAN, NAN, NAN};
    double *sorted, mean = 0, var = 0;
    if (n == 0 || !(sorted = malloc(n * sizeof *sorted)))
        return s;
    memcpy(sorted, v, n * sizeof *v);
    qsort(sorted, n, sizeof *sorted, bench_cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    free(sorted);
    for (size_t i = 0; i < n; i++)
        mean += v[i] / (double)n;
    for (size_t i = 0; i < n; i++)
        var += (v[i] - mean) * (v[i] - mean) / (double)(n > 1 ? n - 1 : 1);
    s.range = (s.max - s.min) / fabs(s.median);
    s.cv = sqrt(var) / fabs(mean);
    return s;
}

int bodies_open(const char *bench, const char *name, struct bodies *b)
{
    char dir[PATH_MAX], *slash;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    memset(b, 0, sizeof *b);
    if (n <= 0) {
        fprintf(stderr, "%s: cannot read /proc/self/exe: %s\n", bench, strerror(errno));
        return -1;
    }
    dir[n] = 0;
    if ((slash = strrchr(dir, '/')) != NULL)
        *slash = 0;
    snprintf(b->exe, sizeof b->exe, "%s/bodies/%s", dir, name);
    if (bench_check_exe(bench, b->exe))
        return -1;
    snprintf(b->tmp, sizeof b->tmp, "/tmp/tks_%s_XXXXXX", bench);
    if (!mkdtemp(b->tmp)) {
        fprintf(stderr, "%s: temporary directory: %s\n", bench, strerror(errno));
        return -1;
    }
    snprintf(b->out, sizeof b->out, "%s/out.json", b->tmp);
    snprintf(b->out_opt, sizeof b->out_opt, "--out=%s", b->out);
    return 0;
}

int bodies_run_with(struct bodies *b, const char *mode, char *const *more, struct doc *d)
{
    char mode_opt[64];
    double secs;
    char *args[16] = {b->exe, "--format", "json", b->out_opt, mode_opt, "--quiet", NULL};
    for (size_t i = 0; more && more[i] && i < 8; i++)
        args[6 + i] = more[i];
    snprintf(mode_opt, sizeof mode_opt, "--mode=%s", mode);
    if (run_json(args, b->out, d, &secs) != 0)
        return 1;
    d->seconds = secs;
    return 0;
}

int bodies_run(struct bodies *b, const char *mode, struct doc *d)
{
    return bodies_run_with(b, mode, NULL, d);
}

void bodies_close(struct bodies *b)
{
    remove(b->out);
    rmdir(b->tmp);
}
