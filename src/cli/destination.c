/* SPDX-License-Identifier: MIT */
/* destination.c: where a report goes: stdout or a file that appears whole, the raw-sample CSV, and the
 * directory of --plot figures. */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* Open --raw and --out before measuring, so a bad path fails in a moment, not after a run. */
int cli_open_outputs(const char *cmd, const struct cli_common *c, tks__atomic_file *out,
                     tks__atomic_file *raw)
{
    int rc;
    memset(out, 0, sizeof *out);
    memset(raw, 0, sizeof *raw);
    if ((rc = tks__atomic_open(out, c->out ? c->out : "-")) != 0)
        return cli_write_failure(cmd, c->out, out, rc);
    if (c->raw && (rc = tks__atomic_open(raw, c->raw)) != 0) {
        tks__atomic_abort(out);
        return cli_write_failure(cmd, c->raw, raw, rc);
    }
    if (c->html) { /* tried now, written whole once the results are in (cli_write_page) */
        tks__atomic_file page;
        memset(&page, 0, sizeof page);
        if ((rc = tks__atomic_open(&page, c->html)) != 0) {
            tks__atomic_abort(out);
            tks__atomic_abort(raw);
            return cli_write_failure(cmd, c->html, &page, rc);
        }
        tks__atomic_abort(&page);
    }
    return 0;
}

static int page_failed; /* an --html page could not be written: the command fails */

int cli_write_page(const char *cmd, const tks__writers *t, const char *path, const void *doc)
{
    tks__atomic_file af;
    int rc;
    memset(&af, 0, sizeof af);
    if ((rc = tks__atomic_open(&af, path)) != 0 ||
        (rc = tks__writers_write(t, TKS_FORMAT_HTML, af.f, doc)) != 0 ||
        (rc = tks__atomic_commit(&af)) != 0) {
        page_failed = 1;
        return cli_write_failure(cmd, path, &af, rc);
    }
    return CLI_EXIT_OK;
}

int cli_close_outputs(tks__atomic_file *out, tks__atomic_file *raw, const struct cli_common *c)
{
    int rc_raw = raw->f ? tks__atomic_commit(raw) : 0, rc_out;
    if (rc_raw) {
        /* A report without the samples it describes would be half a result. */
        tks__atomic_abort(out);
        return cli_write_failure(NULL, c->raw, raw, rc_raw);
    }
    rc_out = tks__atomic_commit(out);
    if (rc_out)
        return cli_write_failure(NULL, c->out, out, rc_out);
    return page_failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_write_failure(const char *cmd, const char *path, tks__atomic_file *af, int rc)
{
    char msg[PATH_MAX + 200];
    tks__atomic_failure(af, rc, path, msg, sizeof msg);
    return cmd ? cli_failure("%s: %s", cmd, msg) : cli_failure("%s", msg);
}

int cli_plot_dir_check(const char *cmd, const char *dir)
{
    char why[600];
    if (tks__plot_dir_ready(dir, why, sizeof why) != 0)
        return cli_failure("%s: %s", cmd, why);
    return 0;
}

void cli_plot_render(const char *dir, int quiet)
{
    char msg[1024];
    tks__plot_render(dir, msg, sizeof msg);
    if (!quiet)
        cli_note("%s", msg);
}
