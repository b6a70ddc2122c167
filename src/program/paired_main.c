/* SPDX-License-Identifier: MIT */
/* paired_main.c: tks_main --compare A,B: find the two benchmarks (a name, else a regex that must
 * match exactly one), learn the machine, measure them in turns with tks_paired_run and report.
 * A front end like main.c: it prints, and returns an exit status. */
#include "program/paired_main.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/prog.h"
#include "runner/registry.h"
#include "runner/runner.h"
#include "report/bench/paired_report.h"
#include "report/common/report.h"

struct pick {
    const tks_benchmark_spec *spec;
    tks_args args;
    char name[128];
};

/* Calls visit for every registered (benchmark, argument) with its name; stops when it returns
 * nonzero. */
static void each_instance(int (*visit)(void *ctx, const struct pick *p), void *ctx)
{
    for (size_t f = 0; f < tks__registry_count(); f++) {
        size_t runs = tks__registry_runs(f);
        for (size_t a = 0; a < runs; a++) {
            struct pick p;
            p.spec = tks__registry_get(f);
            tks__registry_run(f, a, &p.args, p.name, sizeof p.name);
            if (visit(ctx, &p))
                return;
        }
    }
}

struct search {
    const char *text;
    regex_t *re;
    struct pick found;
    size_t matches;
    char names[160];
};

static int visit(void *ctx, const struct pick *p)
{
    struct search *s = ctx;
    int hit = s->re ? regexec(s->re, p->name, 0, NULL, 0) == 0 : strcmp(s->text, p->name) == 0;
    if (!hit)
        return 0;
    if (s->matches++ == 0)
        s->found = *p;
    if (strlen(s->names) + strlen(p->name) + 8 < sizeof s->names)
        snprintf(s->names + strlen(s->names), sizeof s->names - strlen(s->names), "%s%s",
                 s->matches > 1 ? ", " : "", p->name);
    return 0;
}

/* A benchmark by its name, else by a regex that matches exactly one name. */
static int resolve(const char *prog, const char *text, struct pick *out)
{
    struct search s;
    regex_t re;
    int rc;
    memset(&s, 0, sizeof s);
    s.text = text;
    each_instance(visit, &s);
    if (s.matches == 1) {
        *out = s.found;
        return 0;
    }
    if ((rc = regcomp(&re, text, REG_EXTENDED | REG_NOSUB)) != 0) {
        char why[160];
        regerror(rc, &re, why, sizeof why);
        return tks__prog_error(prog, 2, "--compare: '%s' is no benchmark's name nor a valid regular "
                    "expression: %s", text, why);
    }
    memset(&s, 0, sizeof s);
    s.re = &re;
    each_instance(visit, &s);
    regfree(&re);
    if (s.matches == 0)
        return tks__prog_error(prog, 2, "--compare: '%s' matches no benchmark (--list shows the names)", text);
    if (s.matches > 1)
        return tks__prog_error(prog, 2, "--compare: '%s' matches %zu benchmarks (%s): make it match one "
                    "(anchor it: '^name$')", text, s.matches, s.names);
    *out = s.found;
    return 0;
}

/* "A,B": split at the first comma outside braces and brackets, so regexes may hold {2,3}. */
static int split(const char *prog, const char *text, char *a, char *b, size_t size)
{
    int depth = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '{' || *c == '[')
            depth++;
        else if ((*c == '}' || *c == ']') && depth > 0)
            depth--;
        else if (*c == ',' && depth == 0) {
            size_t n = (size_t)(c - text);
            if (n == 0 || !c[1] || n >= size || strlen(c + 1) >= size)
                break;
            memcpy(a, text, n);
            a[n] = 0;
            snprintf(b, size, "%s", c + 1);
            return 0;
        }
    }
    return tks__prog_error(prog, 2, "--compare needs two benchmarks, A,B (names or regexes), not '%s'", text);
}

static int write_report(const tks_options *o, const tks_platform *p, const tks_paired_result *r,
                        const char *prog)
{
    tks__atomic_file af;
    int rc;
    if (tks__atomic_open(&af, o->out ? o->out : "-") != 0)
        return tks__prog_error(prog, 1, "cannot write %s", o->out);
    rc = tks__writers_write(&tks__paired_writers, o->format, af.f,
                            &(tks__paired_doc){r, o, p, prog});
    if (rc) {
        tks__atomic_abort(&af);
        return tks__prog_error(prog, 1, "cannot write the report: %s", tks_strerror(rc));
    }
    if (tks__atomic_commit(&af) != 0)
        return tks__prog_error(prog, 1, "cannot write %s", o->out ? o->out : "the report");
    return 0;
}

int tks__paired_main(const tks_options *o, const char *prog)
{
    char ta[256], tb[256];
    struct pick a, b;
    tks_platform_options plo;
    tks_paired_options po;
    tks_platform *p;
    tks_paired_result r;
    int rc;
    if (!tks__writers_find(&tks__paired_writers, o->format)) {
        char msg[256];
        return tks__prog_error(prog, 2, "%s", tks__writers_unknown(&tks__paired_writers, "--format",
                                                                   tks_format_name(o->format), msg,
                                                                   sizeof msg));
    }
    if ((rc = split(prog, o->compare, ta, tb, sizeof ta)) != 0 || (rc = resolve(prog, ta, &a)) != 0 ||
        (rc = resolve(prog, tb, &b)) != 0)
        return rc;
    if (!(p = calloc(1, sizeof *p)))
        return tks__prog_error(prog, 1, "%s", tks_strerror(TKS_ENOMEM));
    tks_platform_options_init(&plo);
    plo.tsc_hz_override = o->tsc_hz;
    plo.recalibrate = o->recalibrate;
    plo.cpu = o->pin_cpu;
    if ((rc = tks_platform_probe(&plo, p)) != 0) {
        free(p);
        return tks__prog_error(prog, 1, "cannot examine this machine: %s", tks_strerror(rc));
    }
    tks_paired_options_init(&po);
    po.threshold = o->compare_threshold;
    if (!o->quiet)
        fprintf(stderr, "%s: note: comparing %s (A) with %s (B) in %u ABBA blocks\n", prog, a.name,
                b.name, po.blocks);
    rc = tks__paired_run_args(o, p, &po, a.spec, &a.args, b.spec, &b.args, &r);
    if (rc)
        rc = tks__prog_error(prog, 1, "--compare: %s", r.error[0] ? r.error : tks_strerror(rc));
    else
        rc = write_report(o, p, &r, prog);
    tks_paired_result_free(&r);
    tks_platform_free(p);
    free(p);
    return rc;
}
