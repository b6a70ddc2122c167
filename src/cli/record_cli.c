/* SPDX-License-Identifier: MIT */
/* record_cli.c: --record FILE on validate and resolution (record_cli.h). */
#include "cli/record_cli.h"

#include <errno.h>
#include <string.h>

#include "program/record_main.h"

const char cli_record_help[] =
    "  --record FILE    also write every sample the report is made from, with the machine's\n"
    "                   facts, to FILE; 'tickscope replay FILE' prints the same report from it\n"
    "                   (not with --kernel)\n";

int cli_record_option(const char *cmd, int argc, char **argv, int *i, struct cli_record *r)
{
    int missing = 0;
    const char *v = cli_option_value(argc, argv, i, "--record", &missing);
    if (missing || (v && !*v))
        return -cli_usage_error(cmd, "--record needs a file");
    if (!v)
        return 0;
    r->path = v;
    return 1;
}

int cli_record_refuse_kernel(const char *cmd, const struct cli_record *r, int kernel)
{
    if (r->path && kernel)
        return cli_usage_error(cmd, "--record records user-space runs only, not --kernel");
    return 0;
}

static int write_section(void *ctx, const unsigned char *p, size_t n)
{
    struct cli_record *r = ctx;
    if (!r->failed && fwrite(p, 1, n, r->af.f) != n)
        r->failed = errno ? errno : EIO;
    return r->failed;
}

int cli_record_open(const char *cmd, struct cli_record *r, const tks_platform *p)
{
    tks__rec_buf b = {0};
    int rc;
    if (!r->path)
        return 0;
    if ((rc = tks__atomic_open(&r->af, r->path)) != 0)
        return cli_write_failure(cmd, r->path, &r->af, rc);
    r->sink.write = write_section;
    r->sink.ctx = r;
    tks__rec_put_header(&b);
    tks__recording_platform(&b, p);
    rc = b.oom ? ENOMEM : write_section(r, b.p, b.n);
    tks__rec_free(&b);
    if (rc) {
        tks__atomic_abort(&r->af);
        return cli_failure("%s: --record: %s: %s", cmd, r->path, strerror(rc));
    }
    return 0;
}

const tks__rec_sink *cli_record_sink(struct cli_record *r)
{
    return r->path ? &r->sink : NULL;
}

int cli_record_close(const char *cmd, struct cli_record *r, int ok)
{
    int rc;
    if (!r->path || !r->af.f)
        return CLI_EXIT_OK;
    if (!ok || r->failed) {
        tks__atomic_abort(&r->af);
        return ok ? cli_failure("%s: --record: %s: %s", cmd, r->path, strerror(r->failed))
                  : CLI_EXIT_FAIL;
    }
    if ((rc = tks__atomic_commit(&r->af)) != 0)
        return cli_write_failure(cmd, r->path, &r->af, rc);
    return CLI_EXIT_OK;
}
