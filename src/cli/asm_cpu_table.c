/* SPDX-License-Identifier: MIT */
/* asm_cpu_table.c: the two table commands of `tickscope asm` that are not one snippet:
 * --table without a file (the catalogue on the CPU at hand, with progress and the time left,
 * its console rows streamed to standard output as they are measured) and --diff A.csv B.csv. cmd_asm.c parses their options and calls these. */
#include "cli/asm_cpu_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/asm/asm_report.h"

struct table_progress {
    tks__progress bar;
    char label[96];
    tks__asm_table_stream stream;
};

static void on_row(void *ctx, const tks__asm_table *t, size_t i)
{
    struct table_progress *p = ctx;
    tks__asm_table_stream_row(&p->stream, t, i);
}

static void on_progress(void *ctx, size_t done, size_t total, double eta)
{
    struct table_progress *p = ctx;
    /* the label carries the time left; the bar is the report layer's */
    if (isfinite(eta) && done > 0)
        snprintf(p->label, sizeof p->label, "asm --table: %.0f:%02.0f left", floor(eta / 60),
                 fmod(eta, 60));
    else
        snprintf(p->label, sizeof p->label, "asm --table:");
    tks__progress_update(&p->bar, done, total);
}

int cli_asm_cpu_table(const struct cli_common *c, const tks__asm_table_options *opts,
                      const tks_platform *p, tks__atomic_file *out)
{
    tks__asm_table t;
    tks__asm_table_options o = *opts;
    struct table_progress prog;
    char err[512];
    size_t failed = 0;
    /* on standard output in the console format, each row as it is measured (issue 27) */
    int rc, streamed = (!c->out || !strcmp(c->out, "-")) && tks__asm_table_streams(c->format);
    snprintf(prog.label, sizeof prog.label, "asm --table:");
    tks__progress_begin(&prog.bar, prog.label, 0);
    if (c->quiet)
        prog.bar.enabled = 0;
    tks__asm_table_stream_begin(&prog.stream, out->f);
    o.progress = on_progress;
    o.row = streamed ? on_row : NULL;
    o.ctx = &prog;
    rc = tks__asm_table_build(&o, &t, err, sizeof err);
    tks__progress_end(&prog.bar);
    tks__asm_table_stream_end(&prog.stream);
    if (rc) {
        tks__atomic_abort(out);
        tks__asm_table_free(&t);
        return cli_failure("asm --table: %s", err);
    }
    if (!t.n) {
        tks__atomic_abort(out);
        tks__asm_table_free(&t);
        return cli_usage_error("asm", "--only '%s': no form of the catalogue on this CPU holds "
                               "it (forms are named like 'add r64, m64', 'vaddpd zmm, zmm, zmm')",
                               o.only ? o.only : "");
    }
    rc = cli_write(c, out->f, &(tks__asm_table_doc){&t, p, streamed});
    for (size_t i = 0; i < t.n; i++)
        failed += t.e[i].res.rc != 0;
    tks__asm_table_free(&t);
    if (rc || (rc = tks__atomic_commit(out)) != 0)
        return cli_write_failure("asm", c->out, out, rc);
    if (failed)
        return cli_failure("asm --table: %zu measurements failed (their error is in the table)",
                           failed);
    return CLI_EXIT_OK;
}

int cli_asm_diff(const struct cli_common *c, const char *path_a, const char *path_b,
                 tks__atomic_file *out)
{
    tks__asm_table a, b;
    tks__asm_diff d;
    char err[512];
    int rc;
    if ((rc = tks__asm_table_read_csv(path_a, &a, err, sizeof err)) != 0) {
        tks__atomic_abort(out);
        return rc == TKS_EINVAL ? cli_usage_error("asm", "--diff: %s", err)
                                : cli_failure("asm --diff: %s", err);
    }
    if ((rc = tks__asm_table_read_csv(path_b, &b, err, sizeof err)) != 0) {
        tks__asm_table_free(&a);
        tks__atomic_abort(out);
        return rc == TKS_EINVAL ? cli_usage_error("asm", "--diff: %s", err)
                                : cli_failure("asm --diff: %s", err);
    }
    if ((rc = tks__asm_table_diff(&a, &b, &d)) == 0) {
        d.path_a = path_a;
        d.path_b = path_b;
        rc = cli_write(c, out->f, &d);
        free(d.rows);
    }
    tks__asm_table_free(&a);
    tks__asm_table_free(&b);
    if (rc || (rc = tks__atomic_commit(out)) != 0)
        return cli_write_failure("asm", c->out, out, rc);
    return CLI_EXIT_OK;
}
