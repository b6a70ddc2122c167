/* SPDX-License-Identifier: MIT */
/* cmd_replay.c: `tickscope replay FILE [--format F] [--out FILE]`: a recording (--record FILE of
 * a benchmark program, `tickscope validate`, `resolution` or `asm CODE`) analysed again by this
 * tickscope and reported as the live run reported it (docs/recording.md). */
#include "cli/cmd_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/resolution.h"
#include "analysis/validate.h"
#include "asm/asm_record.h"
#include "base/record_file.h"
#include "cli/cli.h"
#include "report/asm/asm_report.h"
#include "report/bench/bench_report.h"
#include "runner/replay.h"

static const char replay_help[] =
    "usage: tickscope replay [options] FILE\n"
    "\n"
    "A recording analysed again: a benchmark program's (its record option: tickscope-bench(3)),\n"
    "or tickscope validate's, resolution's or asm's for one snippet (their record option).\n"
    "Prints the same figures and diagnostics the live run reported (by this tickscope's\n"
    "analysis), in its formats. The machine's facts are the recorded machine's, not this one's.\n"
    "\n"
    "options:\n"
    "  --format FMT    console (default), json, csv or the other formats the recorded command\n"
    "                  takes (a benchmark program's --format, or validate's, resolution's,\n"
    "                  asm's)\n"
    "  --out FILE      write the report to FILE (whole or not at all) instead of stdout\n"
    "  --help          this text\n";

/* A benchmark program's recording, reported by the program's writers. */
static int replay_bench(const char *path, const unsigned char *b, size_t n, const char *format,
                        const char *out)
{
    tks__replay rp;
    struct tks__bench_outputs outs;
    char err[512];
    int rc, status = 0;
    if (tks__replay_bytes(b, n, &rp, err, sizeof err) != 0)
        return cli_failure("replay: %s: %s", path, err);
    rp.o.format = TKS_FORMAT_CONSOLE;
    if (format && tks__bench_format_parse("--format", format, &rp.o.format, err, sizeof err)) {
        tks__replay_free(&rp);
        return cli_usage_error("replay", "%s", err);
    }
    rp.o.out = out;
    rp.o.quiet = 1;
    if (tks__bench_outputs_open(&outs, &rp.o, err, sizeof err) != 0) {
        tks__replay_free(&rp);
        return cli_failure("replay: %s", err);
    }
    rc = tks__bench_report(&outs, &rp.o, &rp.p, rp.results, rp.n_results,
                           rp.prog[0] ? rp.prog : "replay", err, sizeof err);
    if (rc != 0)
        status = cli_failure("replay: %s", err);
    if (tks__bench_outputs_close(&outs, rc == 0, err, sizeof err) != 0 && rc == 0)
        status = cli_failure("replay: %s", err);
    tks__replay_free(&rp);
    return status;
}

/* doc written by the command's writer table t, as the command writes it (cli_write). */
static int write_doc(const tks__writers *t, const char *format, const char *path, const void *doc)
{
    struct cli_common c;
    tks__atomic_file out, raw;
    char why[256];
    int f, rc;
    cli_common_init(&c, t);
    c.out = path;
    c.quiet = 1;
    if (format) {
        if ((f = tks__writers_parse(t, format)) < 0)
            return cli_usage_error("replay", "%s",
                                   tks__writers_unknown(t, "--format", format, why, sizeof why));
        c.format = (enum tks_format)f;
    }
    if ((rc = cli_open_outputs("replay", &c, &out, &raw)) != 0)
        return rc;
    if ((rc = cli_write(&c, out.f, doc)) != 0)
        return cli_write_failure("replay", c.out, &out, rc);
    return cli_close_outputs(&out, &raw, &c);
}

/* `tickscope validate --record`'s recording. */
static int replay_validation(const char *path, const unsigned char *b, size_t n,
                             const char *format, const char *out)
{
    tks_platform p;
    tks_validation *v;
    char err[512];
    int rc;
    if (tks__validate_replay(b, n, &p, &v, err, sizeof err) != 0)
        return cli_failure("replay: %s: %s", path, err);
    rc = write_doc(&tks__validation_writers, format, out, &(tks__validation_doc){v, &p});
    tks_validation_free(v);
    tks_platform_free(&p);
    return rc;
}

/* `tickscope resolution --record`'s recording. */
static int replay_resolution(const char *path, const unsigned char *b, size_t n,
                             const char *format, const char *out)
{
    tks_platform p;
    tks_resolution_result *r;
    char err[512], reason[256];
    int rc;
    if (tks__resolution_replay(b, n, &p, &r, reason, sizeof reason, err, sizeof err) != 0)
        return cli_failure("replay: %s: %s", path, err);
    rc = write_doc(&tks__resolution_writers, format, out, &(tks__resolution_doc){r, &p});
    tks_resolution_result_free(r);
    tks_platform_free(&p);
    return rc;
}

/* `tickscope asm CODE --record`'s recording. */
static int replay_asm(const char *path, const unsigned char *b, size_t n, const char *format,
                      const char *out)
{
    tks__asm_replayed x;
    tks__asm_request q;
    char err[512];
    int rc;
    if (tks__asm_replay(b, n, &x, err, sizeof err) != 0)
        return cli_failure("replay: %s: %s", path, err);
    q = (tks__asm_request){NULL, x.code, x.init, x.chain, (enum tks_asm_syntax)x.syntax,
                           (enum tks_asm_mode)x.mode, x.chase_bytes, x.align,
                           (enum tks_where)x.where};
    rc = write_doc(&tks__asm_writers, format, out,
                   &(tks__asm_doc){&q, &x.r, (const int[]){0}, 1, &x.p});
    tks__asm_replayed_free(&x);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *format = NULL, *out = NULL;
    unsigned char *b;
    size_t n;
    char err[512];
    int rc;
    for (int i = 0; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(replay_help, stdout);
            return 0;
        }
        if ((v = cli_option_value(argc, argv, &i, "--format", &missing)))
            format = v;
        else if ((v = cli_option_value(argc, argv, &i, "--out", &missing)))
            out = v;
        else if (missing)
            return cli_usage_error("replay", "%s needs a value", argv[i]);
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("replay", "unknown option '%s'", argv[i]);
        else if (path)
            return cli_usage_error("replay", "one recording at a time ('%s' and '%s')", path,
                                   argv[i]);
        else
            path = argv[i];
    }
    if (!path)
        return cli_usage_error("replay", "which recording? (tickscope replay FILE)");
    if (tks__rec_read_file(path, &b, &n, err, sizeof err) != 0)
        return cli_failure("replay: %s", err);
    switch (tks__rec_command(b, n)) {
    case TKS__REC_ASM:
        rc = replay_asm(path, b, n, format, out);
        break;
    case TKS__REC_RESOLUTION:
        rc = replay_resolution(path, b, n, format, out);
        break;
    case TKS__REC_VALIDATION:
        rc = replay_validation(path, b, n, format, out);
        break;
    default: /* a benchmark program's, or what its replay refuses in one line */
        rc = replay_bench(path, b, n, format, out);
    }
    free(b);
    return rc;
}
