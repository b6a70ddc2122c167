/* SPDX-License-Identifier: MIT */
/* asm_analysis.c: `tickscope asm --ports` (port sets from timing, tickscope/asm_ports.h) and
 * `tickscope asm --explain` (what limits a snippet, tickscope/asm_explain.h): the runs, their
 * progress on a terminal, and the writers of report/asm/ports_report.h. */
#include "cli/asm_analysis.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/asm/ports_report.h"

/* Per snippet: less than a single measurement's default, so a catalogue stays within minutes
 * (a --budget given on the command line wins). */
#define ANALYSIS_BUDGET 0.1

static tks_asm_options analysis_options(const tks_asm_options *o)
{
    tks_asm_options a = *o;
    tks_asm_options d;
    tks_asm_options_init(&d);
    if (a.budget == d.budget)
        a.budget = ANALYSIS_BUDGET;
    return a;
}

static void progress(void *arg, size_t done, size_t total, const char *what)
{
    if (arg)
        fprintf(stderr, "\r[%zu/~%zu] %-48.48s", done, total, what);
}

/* --format was checked against asm's formats; these results have fewer: refused before any
 * measurement. */
static int format_check(const tks__writers *w, const struct cli_common *c, tks__atomic_file *out)
{
    char buf[256];
    if (c->format == TKS_FORMAT_DEFAULT || tks__writers_find(w, c->format))
        return 0;
    tks__atomic_abort(out);
    return cli_usage_error("asm", "%s", tks__writers_unknown(w, "--format",
                           tks_format_name(c->format), buf, sizeof buf));
}

static int write_doc(const tks__writers *w, const struct cli_common *c, const char *cmd,
                     tks__atomic_file *out, const void *doc)
{
    int rc = tks__writers_write(w, c->format, out->f, doc);
    if (rc || (rc = tks__atomic_commit(out)) != 0)
        return cli_write_failure(cmd, c->out, out, rc);
    return CLI_EXIT_OK;
}

/* A --blockers table: small, read whole into buf (NUL-terminated). */
static int read_blockers(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n;
    if (!f)
        return cli_failure("asm: cannot read '%s': %s", path, strerror(errno));
    n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    if (!feof(f) || ferror(f)) {
        fclose(f);
        return cli_usage_error("asm", "--blockers %s: not a table of at most %zu bytes", path,
                               size - 1);
    }
    fclose(f);
    return 0;
}

int cli_asm_ports(const tks_asm_options *o, const char *table_text, const char *table_name,
                  const char *code, const char *blockers, const struct cli_common *c,
                  const tks_platform *p, tks__atomic_file *out)
{
    tks_asm_options a = analysis_options(o);
    tks_asm_row *rows = NULL, one, *brows = NULL;
    size_t n = 0, nb = 0;
    static char btext[65536];
    tks_ports_result r;
    char err[256];
    int rc, tty = !c->quiet && isatty(2);
    if ((rc = format_check(&tks__ports_writers, c, out)) != 0)
        return rc;
    if (blockers && ((rc = read_blockers(blockers, btext, sizeof btext)) != 0 ||
                     (rc = tks_asm_table_parse(btext, &brows, &nb, err, sizeof err)) != 0)) {
        tks__atomic_abort(out);
        return rc < 0 ? cli_usage_error("asm", "--blockers %s: %s", blockers, err) : rc;
    }
    if (blockers && !nb) {
        tks__atomic_abort(out);
        return cli_usage_error("asm", "--blockers %s: no rows", blockers);
    }
    if (table_text && (rc = tks_asm_table_parse(table_text, &rows, &n, err, sizeof err)) != 0) {
        free(brows);
        tks__atomic_abort(out);
        return rc == TKS_EINVAL ? cli_usage_error("asm", "--table %s: %s", table_name, err)
                                : cli_failure("asm: %s", tks_strerror(rc));
    }
    if (!table_text && code) {
        memset(&one, 0, sizeof one);
        snprintf(one.name, sizeof one.name, "%.63s", code);
        snprintf(one.code, sizeof one.code, "%s", code);
        one.mode = TKS_ASM_THROUGHPUT;
        rows = &one;
        n = 1;
    }
    rc = tks_ports_infer(&a, rows, n, brows, nb, progress, tty ? &a : NULL, &r);
    free(brows);
    if (tty)
        fprintf(stderr, "\r%72s\r", "");
    if (rows != &one)
        free(rows);
    if (rc) {
        tks__atomic_abort(out);
        rc = rc == TKS_EINVAL ? cli_usage_error("asm", "--ports: %s", r.error)
                              : cli_failure("asm: --ports: %s", r.error);
        tks_ports_result_free(&r);
        return rc;
    }
    rc = write_doc(&tks__ports_writers, c, "asm", out, &(tks__ports_doc){&r, p});
    tks_ports_result_free(&r);
    return rc;
}

int cli_asm_explain(const tks_asm_options *o, const struct cli_common *c, const tks_platform *p,
                    tks__atomic_file *out)
{
    tks_asm_options a = analysis_options(o);
    tks_sys_cache_level lv[TKS_SYS_LEVEL_MAX];
    uint64_t bytes[TKS_SYS_LEVEL_MAX];
    size_t nl = tks_sys_cache_levels(c->root, lv, TKS_SYS_LEVEL_MAX), n = 0;
    tks_explain_result *r;
    int rc;
    if ((rc = format_check(&tks__explain_writers, c, out)) != 0)
        return rc;
    if (!(r = calloc(1, sizeof *r))) {
        tks__atomic_abort(out);
        return cli_failure("asm: %s", tks_strerror(TKS_ENOMEM));
    }
    /* one size per level (the unified and data caches of a level are the same size) */
    for (size_t i = 0; i < nl; i++)
        if (!n || lv[i].level != lv[i - 1].level)
            bytes[n++] = lv[i].bytes;
    if ((rc = tks_explain_run(&a, bytes, n, r)) != 0) {
        tks__atomic_abort(out);
        rc = rc == TKS_EINVAL ? cli_usage_error("asm", "--explain: %s", r->error)
                              : cli_failure("asm: --explain: %s", r->error);
        free(r);
        return rc;
    }
    rc = write_doc(&tks__explain_writers, c, "asm", out, &(tks__explain_doc){o->code, r, p});
    free(r);
    return rc;
}
