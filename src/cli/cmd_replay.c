/* SPDX-License-Identifier: MIT */
/* cmd_replay.c: `tickscope replay FILE [--format F] [--out FILE]`: a benchmark program's
 * recording (--record FILE) analysed again by this tickscope and reported as the program
 * reported it (docs/recording.md). */
#include "cli/cmd_replay.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/bench/bench_report.h"
#include "runner/replay.h"

static const char replay_help[] =
    "usage: tickscope replay [options] FILE\n"
    "\n"
    "A benchmark program's recording (its record option: tickscope-bench(3)) analysed again:\n"
    "the same figures and diagnostics the program reported (by this tickscope's analysis), in\n"
    "its formats. The machine's facts are the recorded machine's, not this one's.\n"
    "\n"
    "options:\n"
    "  --format FMT    console (default), json, csv or the other formats of a benchmark\n"
    "                  program's --format\n"
    "  --out FILE      write the report to FILE (whole or not at all) instead of stdout\n"
    "  --help          this text\n";

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *format = NULL, *out = NULL;
    tks__replay rp;
    struct tks__bench_outputs outs;
    char err[512];
    int rc, status = 0;
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
    if ((rc = tks__replay_file(path, &rp, err, sizeof err)) != 0)
        return cli_failure("replay: %s%s%s", rc == TKS_EINVAL ? path : "",
                           rc == TKS_EINVAL ? ": " : "", err);
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
