/* SPDX-License-Identifier: MIT */
/* cmd_resolution.c: `tickscope resolution`: how small a difference can be seen with a method here?
 * Parses the options, runs tks_resolution_run and hands the result to the report. */
#include "cli/cmd_resolution.h"

#include <errno.h>
#include <string.h>

#include "cli/loop_disasm.h"
#include "analysis/resolution.h"
#include "cli/measure.h"
#include "cli/record_cli.h"

static const char resolution_help[] =
    "usage: tickscope resolution [options]\n"
    "\n"
    "The white paper's resolution test (3.3): ensemble n measures n dependent register adds\n"
    "(n = 0..N). Prints per n the minimum, median, phase-averaged mean with its 95% interval,\n"
    "variance and max deviation; spurious minimums; a least-squares line through the means\n"
    "(slope = ticks per add, intercept = overhead); and the resolution, in instructions, of\n"
    "the minimum and of the phase-averaged mean: the smallest step in n that 95% of the\n"
    "time raises the estimate by more than its uncertainty.\n"
    "With --kernel the kernel module takes the samples with the CPU owned.\n"
    "\n"
    "options:\n"
    "  --method M       clock method (default: the one a short validation recommends)\n"
    "  --max N          largest number of adds, 1..200 (default 100)\n"
    "  --samples S      samples per ensemble (default 20000)\n"
    "  --plot DIR       write figures for gnuplot to DIR (created if missing): the staircase\n"
    "                   (phase-averaged mean with its 95% interval against n, and the fitted\n"
    "                   line) and the minimum and variance per n, as NAME.dat and NAME.gp; then\n"
    "                   render them to NAME.svg if gnuplot is installed\n";

struct resolution_cli {
    tks_resolution_options o;
    struct cli_common common;
    struct cli_kernel kernel;
    const char *plot; /* --plot, or NULL */
    int disasm;       /* --disasm: show the sampling loop's windows instead */
    struct cli_record record; /* --record FILE */
};

static int parse(int argc, char **argv, struct resolution_cli *r, int *help)
{
    int i, missing, rc;
    const char *v;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            *help = 1;
            return 0;
        }
        if ((v = cli_option_value(argc, argv, &i, "--method", &missing)) || missing) {
            if (missing)
                return cli_usage_error("resolution", "--method needs a method name");
            r->o.method = tks_method_from_name(v);
            if (r->o.method < 0 || !tks_method_of_arch((enum tks_method)r->o.method)) {
                int sel[TKS_METHOD_COUNT];
                if ((rc = cli_parse_methods("resolution", v, sel)) != 0)
                    return rc; /* an unknown name: the list of methods is printed */
                return cli_usage_error("resolution", "--method takes one method, not the list '%s'", v);
            }
        } else if ((v = cli_option_value(argc, argv, &i, "--max", &missing)) || missing) {
            if (missing || cli_parse_u32("resolution", "--max", v, 1, TKS_WORK_MAX, &r->o.max_work))
                return missing ? cli_usage_error("resolution", "--max needs a number") : CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--samples", &missing)) || missing) {
            if (missing || cli_parse_u32("resolution", "--samples", v, 2, TKS_SAMPLES_MAX, &r->o.samples))
                return missing ? cli_usage_error("resolution", "--samples needs a number") : CLI_EXIT_USAGE;
        } else if ((v = cli_option_value(argc, argv, &i, "--plot", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("resolution", "--plot needs a directory");
            r->plot = v;
        } else if (strcmp(argv[i], "--disasm") == 0) {
            r->disasm = 1;
        } else if ((rc = cli_record_option("resolution", argc, argv, &i, &r->record)) != 0 ||
                   (rc = cli_common_option("resolution", argc, argv, &i, &r->common)) != 0 ||
                   (rc = cli_kernel_option("resolution", argc, argv, &i, &r->kernel)) != 0) {
            if (rc < 0)
                return -rc;
        } else {
            return cli_usage_error("resolution", "unknown option '%s'", argv[i]);
        }
    }
    if ((rc = cli_record_refuse_kernel("resolution", &r->record, r->kernel.requested)) != 0)
        return rc;
    if (r->o.method >= 0) {
        int sel[TKS_METHOD_COUNT] = {0};
        sel[r->o.method] = 1;
        return cli_kernel_finish("resolution", &r->kernel, &r->common, sel);
    }
    return cli_kernel_finish("resolution", &r->kernel, &r->common, NULL);
}

static void resolution_cli_init(struct resolution_cli *x)
{
    memset(x, 0, sizeof *x);
    tks_resolution_options_init(&x->o);
    x->o.method_reason = "chosen with --method";
    cli_common_init(&x->common, &tks__resolution_writers);
    cli_kernel_init(&x->kernel);
}

int cli_resolution_parse_only(int argc, char **argv)
{
    struct resolution_cli x;
    int help = 0;
    resolution_cli_init(&x);
    return parse(argc, argv, &x, &help);
}

/* The command once the platform has a home: cmd_resolution frees it on every path. */
static int resolution_with(int argc, char **argv, tks_platform *platform)
{
    struct resolution_cli x;
    struct cli_run run;
    tks__atomic_file out, raw;
    tks_resolution_result *r = NULL;
    int help = 0, rc;

    resolution_cli_init(&x);
    if ((rc = parse(argc, argv, &x, &help)) != 0)
        return rc;
    if (help) {
        fputs(resolution_help, stdout);
        fputs(cli_record_help, stdout);
        fputs(cli_disasm_help, stdout);
        fputs(cli_kernel_help, stdout);
        cli_format_help(stdout, x.common.writers);
        fputs(cli_common_help, stdout);
        return CLI_EXIT_OK;
    }
    if (x.disasm) {
        int sel[TKS_METHOD_COUNT] = {0};
        if (x.o.method >= 0)
            sel[x.o.method] = 1;
        return cli_disasm_methods("resolution", &x.common, x.o.method >= 0 ? sel : NULL);
    }
    if ((rc = cli_kernel_ready("resolution", &x.kernel)) != 0)
        return rc;
    if (x.o.method >= 0 && !cli_kernel_available(&x.kernel, (enum tks_method)x.o.method))
        return cli_failure("resolution: method '%s' is not available %s",
                           tks_method_info((enum tks_method)x.o.method)->name,
                           cli_kernel_why_missing(&x.kernel, (enum tks_method)x.o.method));
    if ((rc = cli_open_outputs("resolution", &x.common, &out, &raw)) != 0)
        return rc;
    if (x.plot && (rc = cli_plot_dir_check("resolution", x.plot)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    if ((rc = cli_platform("resolution", &x.common, platform)) != 0 ||
        (rc = cli_record_open("resolution", &x.record, platform)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    if (raw.f && tks__csv_header(raw.f) != 0)
        rc = TKS_EIO;
    cli_run_init(&run, &x.common, &x.kernel, raw.f, NULL);
    cli_run_options(&run, &x.o.common);
    if (!rc)
        rc = tks__resolution_run_recorded(&x.o, cli_record_sink(&x.record), &r);
    if (rc) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        if (x.record.failed)
            return cli_record_close("resolution", &x.record, 1);
        cli_record_close("resolution", &x.record, 0);
        return cli_failure("resolution: %s", tks_strerror(rc));
    }
    if (x.plot) {
        int err;
        rc = tks__report_resolution_plots(r, x.plot);
        err = errno;
        if (rc) {
            tks_resolution_result_free(r);
            tks__atomic_abort(&raw);
            tks__atomic_abort(&out);
            cli_record_close("resolution", &x.record, 0);
            return cli_failure("resolution: cannot write plots to '%s': %s", x.plot,
                               rc == TKS_EIO && err ? strerror(err) : tks_strerror(rc));
        }
    }
    rc = cli_write(&x.common, out.f, &(tks__resolution_doc){r, platform});
    tks_resolution_result_free(r);
    if (rc) {
        tks__atomic_abort(&raw);
        cli_record_close("resolution", &x.record, 0);
        return cli_write_failure("resolution", x.common.out, &out, rc);
    }
    if ((rc = cli_record_close("resolution", &x.record, 1)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    rc = cli_close_outputs(&out, &raw, &x.common);
    if (rc == CLI_EXIT_OK && x.plot)
        cli_plot_render(x.plot, x.common.quiet);
    return rc;
}

int cmd_resolution(int argc, char **argv)
{
    return cli_with_platform(resolution_with, argc, argv);
}
