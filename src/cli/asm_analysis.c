/* SPDX-License-Identifier: MIT */
/* asm_analysis.c: `tickscope asm --ports` (port sets from timing, tickscope/asm_ports.h; the
 * forms from a table, a snippet or the catalogue, asm/ports_catalog.h) and
 * `tickscope asm --explain` (what limits a snippet, tickscope/asm_explain.h): the runs, their
 * progress on a terminal, and the writers of report/asm/ports_report.h. */
#include "cli/asm_analysis.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/ports_catalog.h"
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

/* The bar and the time left on a terminal, as --table has them (report/'s progress). */
struct ports_progress {
    tks__progress bar;
};

static void progress(void *arg, size_t done, size_t total, const char *what)
{
    struct ports_progress *p = arg;
    (void)what;
    tks__progress_update(&p->bar, done, total > done ? total : done);
}

/* Seconds a snippet takes at budget: ports.c runs each until two runs agree (2.05 runs on
 * average), a run stopping once its interval is within 0.5% or at the budget, and assembles it
 * once. On the Zen 5 guest the whole register catalogue took 21,878 runs in 967 s (0.044 s a
 * run at the budget of 0.1 s) and 218 s of assembling for 10,663 snippets (0.02 s each); the
 * snippets' count is an upper bound (a form that is not single-uop has no mixes). */
#define PORTS_RUNS 2.05
#define PORTS_RUN_SECONDS 0.044
#define PORTS_ASSEMBLE_SECONDS 0.02
static double snippet_seconds(double budget)
{
    return PORTS_RUNS * fmin(budget, PORTS_RUN_SECONDS) + PORTS_ASSEMBLE_SECONDS;
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

/* The blocking forms: --blockers FILE's rows into *rows (malloc'd), or the library's (NULL). */
static int load_blockers(const char *blockers, tks_asm_row **rows, size_t *n,
                         tks__atomic_file *out)
{
    static char btext[65536];
    char err[256];
    int rc;
    *rows = NULL;
    *n = 0;
    if (!blockers) {
        tks_ports_default_blockers(n);
        return 0;
    }
    if ((rc = read_blockers(blockers, btext, sizeof btext)) != 0 ||
        (rc = tks_asm_table_parse(btext, rows, n, err, sizeof err)) != 0) {
        tks__atomic_abort(out);
        return rc < 0 ? cli_usage_error("asm", "--blockers %s: %s", blockers, err) : rc;
    }
    if (!*n) {
        free(*rows);
        tks__atomic_abort(out);
        return cli_usage_error("asm", "--blockers %s: no rows", blockers);
    }
    return 0;
}

/* Infer, put back the forms the cached table left out (pc, may be NULL), write. brows NULL:
 * the library's nb blockers. */
static int ports_run(const tks_asm_options *o, const tks_asm_row *rows, size_t n,
                     const tks_asm_row *brows, size_t nb, const tks__ports_catalog *pc,
                     const struct cli_common *c, const tks_platform *p, tks__atomic_file *out)
{
    tks_asm_options a = analysis_options(o);
    struct ports_progress prog;
    tks_ports_result r;
    size_t snippets = tks__ports_snippets(n, nb);
    int rc;
    if (!c->quiet) /* the size of the run before it starts (issue 31: minutes, not hours) */
        fprintf(stderr, "asm --ports: %zu form%s beside %zu blockers: at most %zu snippets, "
                "about %.0f min at %.2g s a snippet\n", n, n == 1 ? "" : "s", nb, snippets,
                ceil(snippets * snippet_seconds(a.budget) / 60), a.budget);
    tks__progress_begin(&prog.bar, "asm --ports:", 0);
    tks__progress_plan(&prog.bar, snippet_seconds(a.budget));
    if (c->quiet)
        prog.bar.enabled = 0;
    rc = tks_ports_infer(&a, rows, n, brows, brows ? nb : 0, progress, &prog, &r);
    tks__progress_end(&prog.bar);
    if (!rc && pc)
        rc = tks__ports_catalog_merge(pc, &r);
    if (rc) {
        tks__atomic_abort(out);
        rc = rc == TKS_EINVAL ? cli_usage_error("asm", "--ports: %s", r.error)
                              : cli_failure("asm: --ports: %s", r.error[0] ? r.error
                                                                           : tks_strerror(rc));
        tks_ports_result_free(&r);
        return rc;
    }
    rc = write_doc(&tks__ports_writers, c, "asm", out, &(tks__ports_doc){&r, p});
    tks_ports_result_free(&r);
    return rc;
}

int cli_asm_ports(const tks_asm_options *o, const char *table_text, const char *table_name,
                  const char *code, const char *blockers, const struct cli_common *c,
                  const tks_platform *p, tks__atomic_file *out)
{
    tks_asm_row *rows = NULL, one, *brows;
    size_t n = 0, nb;
    char err[256];
    int rc;
    if ((rc = format_check(&tks__ports_writers, c, out)) != 0 ||
        (rc = load_blockers(blockers, &brows, &nb, out)) != 0)
        return rc;
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
    rc = ports_run(o, rows, n, brows, nb, NULL, c, p, out);
    free(brows);
    if (rows != &one)
        free(rows);
    return rc;
}

int cli_asm_ports_catalog(const tks_asm_options *o, const char *only, const char *blockers,
                          const struct cli_common *c, const tks_platform *p,
                          tks__atomic_file *out)
{
    tks__ports_catalog pc;
    tks_asm_row *brows;
    size_t nb;
    int rc;
    if ((rc = format_check(&tks__ports_writers, c, out)) != 0)
        return rc;
    if ((rc = tks__ports_catalog_build(only, NULL, &pc)) != 0) {
        tks__atomic_abort(out);
        return cli_failure("asm: %s", tks_strerror(rc));
    }
    if (!pc.n && !pc.n_cached) {
        tks__ports_catalog_free(&pc);
        tks__atomic_abort(out);
        return cli_usage_error("asm", "--ports --table%s%s%s: no register form of the catalogue "
                               "on this CPU to measure (%zu forms hold it: %zu with a memory "
                               "operand, %zu with no placeholder for their destination)",
                               only ? " --only '" : "", only ? only : "", only ? "'" : "",
                               pc.matched, pc.memory, pc.unwritable);
    }
    if ((rc = load_blockers(blockers, &brows, &nb, out)) != 0) {
        tks__ports_catalog_free(&pc);
        return rc;
    }
    if (!c->quiet)
        fprintf(stderr, "asm --ports: %zu forms of the catalogue on this CPU%s%s%s; left out: "
                "%zu with a memory operand, %zu with no placeholder (8/16/32-bit, zmm or mask "
                "destinations, write masks, flag chains), %zu not single-uop by the cached "
                "table%s%s\n", pc.matched, only ? " hold '" : "", only ? only : "",
                only ? "'" : "", pc.memory, pc.unwritable, pc.n_cached,
                pc.cache_path[0] ? " " : " (none cached)", pc.cache_path);
    rc = ports_run(o, pc.rows, pc.n, brows, nb, &pc, c, p, out);
    free(brows);
    tks__ports_catalog_free(&pc);
    return rc;
}

int cli_asm_explain(const tks_asm_options *o, const struct cli_common *c, const tks_platform *p,
                    tks__atomic_file *out)
{
    tks_asm_options a = analysis_options(o);
    uint64_t bytes[TKS_SYS_LEVEL_MAX];
    size_t n = tks_sys_level_bytes(c->root, bytes, TKS_SYS_LEVEL_MAX);
    tks_explain_result *r;
    int rc;
    if ((rc = format_check(&tks__explain_writers, c, out)) != 0)
        return rc;
    if (!(r = calloc(1, sizeof *r))) {
        tks__atomic_abort(out);
        return cli_failure("asm: %s", tks_strerror(TKS_ENOMEM));
    }
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
