/* SPDX-License-Identifier: MIT */
/* bench_explain_bench.c: a benchmark program's --explain (issue 31's "what limits this code?",
 * for a user's benchmark) on four bodies whose bottleneck is known by construction
 * (bench/explain_bodies.c, the program bodies/bench_explain_bodies next to this one), each
 * explained N times (default 10) in a fresh process: how many times the class was right (target:
 * 9 of 10 each), the wall time of one explanation, and the ratios of the first run.
 *   chain:    sixteen dependent imul: latency (by elimination: the runner cannot lengthen a chain
 *             inside the block, so "latency" is the right answer, never "chain");
 *   ports:    twelve mulpd streams: ports, naming fmul;
 *   chase:    a pointer chase over twice the largest cache: memory (its working set, the pages it touched, is
 *             beyond the caches, and a repetition costs a load from there);
 *   frontend: 96 eight-byte NOPs: front end.
 * It prints figures and targets, and fails only when a child failed.
 * Usage: bench_explain_bench [RUNS] */
#include <limits.h>
#include <math.h>

#include "child.h"
#include "result_doc.h"

struct body {
    const char *name, *want, *kind; /* kind: the port kind a "ports" class must name */
};

static const struct body bodies[] = {
    {"chain", "latency", NULL},
    {"ports", "ports", "fmul"},
    {"chase", "memory", NULL},
    {"frontend", "front end", NULL},
};

/* The value of the first "key": "..." at or after from, into out ("" when absent). */
static const char *string_at(const char *from, const char *key, char *out, size_t n)
{
    char pat[64];
    const char *p;
    size_t len;
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    out[0] = 0;
    if (!from || !(p = strstr(from, pat)))
        return NULL;
    p += strlen(pat);
    len = strcspn(p, "\"");
    snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p);
    return p + len;
}

/* Each experiment's name and ratio, one line each. */
static void print_evidence(const char *json)
{
    const char *p = strstr(json, "\"evidence\"");
    char name[96];
    while (p && (p = string_at(p, "name", name, sizeof name)) != NULL) {
        const char *c = strstr(p, "\"cycles\": "), *r = strstr(p, "\"ratio\": ");
        double cycles = c && strncmp(c + 10, "null", 4) ? strtod(c + 10, NULL) : NAN;
        double ratio = r && strncmp(r + 9, "null", 4) ? strtod(r + 9, NULL) : NAN;
        printf("    %-36.36s %9.3f cycles  ratio %5.2f\n", name, cycles, ratio);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *s;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    if (n < 0 || !(s = malloc((size_t)n + 1))) {
        fclose(f);
        return NULL;
    }
    s[fread(s, 1, (size_t)n, f)] = 0;
    fclose(f);
    return s;
}

int main(int argc, char **argv)
{
    struct bodies b;
    int runs = argc > 1 ? atoi(argv[1]) : 10, failures = 0;
    double load[1] = {NAN};
    FILE *la;
    int status = bench_start(argc, argv, "usage: bench_explain_bench [RUNS]\na benchmark "
                             "program's --explain on four bodies of known bottleneck (a chain, the "
                             "FP multipliers, a 64 MiB chase, NOP-padded code), RUNS times each "
                             "(10): how often the class is right.\n");
    if (status >= 0)
        return status;
    if ((la = fopen("/proc/loadavg", "r")) != NULL) {
        if (fscanf(la, "%lf", &load[0]) != 1)
            load[0] = NAN;
        fclose(la);
    }
    if (runs < 1 || (argc > 1 && argv[1][0] == '/')) /* make bench passes the tickscope binary */
        runs = 10;
    if (bodies_open("bench_explain_bench", "bench_explain_bodies", &b) != 0)
        return 1;
    printf("A benchmark program's --explain on bodies of known bottleneck, %d runs each (each a "
           "fresh process, --min-time 0.1); load average %.2f at the start.\n\n", runs, load[0]);
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        static const char *const classes[] = {"latency", "ports", "front end", "memory",
                                              "undetermined"};
        char filter[64], cls[32], kinds[160];
        int right = 0, counts[6] = {0};
        double secs_sum = 0, secs = 0;
        snprintf(filter, sizeof filter, "--filter=^%s$", bodies[i].name);
        for (int k = 0; k < runs; k++) {
            char *args[] = {b.exe, "--explain", "--format", "json", b.out_opt, filter,
                            "--min-time", "0.1", "--quiet", NULL};
            char *json;
            int rc = bench_run_child(args, &secs);
            secs_sum += secs;
            if (rc != 0 || !(json = slurp(b.out))) {
                printf("  %s: run %d failed (exit %d)\n", bodies[i].name, k + 1, rc);
                failures++;
                continue;
            }
            string_at(json, "class", cls, sizeof cls);
            string_at(json, "port_kinds", kinds, sizeof kinds);
            {
                size_t c = 0;
                while (c < 5 && strcmp(cls, classes[c]))
                    c++;
                counts[c]++; /* 5: another */
            }
            right += !strcmp(cls, bodies[i].want) &&
                     (!bodies[i].kind || strstr(kinds, bodies[i].kind) != NULL);
            if (k == 0) {
                printf("%-9s first run: class %s%s%s%s\n", bodies[i].name, cls,
                       kinds[0] ? " (" : "", kinds, kinds[0] ? ")" : "");
                print_evidence(json);
            }
            free(json);
        }
        printf("%-9s right %d of %d (want %s%s%s; target 9 of 10): %s; %.1f s an explanation\n"
               "          classes: latency %d, ports %d, front end %d, memory %d, undetermined %d, "
               "other %d\n\n",
               bodies[i].name, right, runs, bodies[i].want, bodies[i].kind ? ": " : "",
               bodies[i].kind ? bodies[i].kind : "",
               right * 10 >= 9 * runs ? "met" : "NOT met", secs_sum / runs, counts[0], counts[1],
               counts[2], counts[3], counts[4], counts[5]);
    }
    if ((la = fopen("/proc/loadavg", "r")) != NULL) {
        if (fscanf(la, "%lf", &load[0]) == 1)
            printf("load average %.2f at the end\n", load[0]);
        fclose(la);
    }
    bodies_close(&b);
    return failures ? 1 : 0;
}
