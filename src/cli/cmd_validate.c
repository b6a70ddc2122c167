/* SPDX-License-Identifier: MIT */
/* cmd_validate.c: `tickscope validate`: which way of reading the clock can be trusted here? Parses the
 * options, runs tks_validate_run and hands the result to the report. */
#include "cli/cmd_validate.h"

#include <string.h>

#include "cli/loop_disasm.h"
#include "analysis/validate.h"
#include "cli/measure.h"
#include "cli/record_cli.h"

static const char validate_help[] =
    "usage: tickscope validate [options]\n"
    "\n"
    "Runs the white paper's empty-window experiment for every clock-reading method this CPU\n"
    "has: E ensembles of S samples with nothing between the two readings. Prints, per method,\n"
    "the overhead (minimum), total variance, absolute max deviation, variance of variances,\n"
    "variance of minimums, spurious minimums, discarded samples, and whether the method is\n"
    "ergodic; measures a 200-add dependent chain with every method to show which let the\n"
    "measured code escape the window; and recommends a method.\n"
    "With --kernel the kernel module takes the samples with the CPU owned (white paper 2.2)\n"
    "and the same tables are printed, to be put side by side with a user-space run.\n"
    "\n"
    "options:\n"
    "  --method LIST    comma-separated methods (default: all); see 'tickscope methods'\n"
    "  --ensembles E    ensembles per method (default 100)\n"
    "  --samples S      samples per ensemble (default 10000)\n"
    "  --budget SECS    wall-time budget per method; slow methods (CPUID under a hypervisor)\n"
    "                   get fewer samples per ensemble, never fewer than 100 (default 0.4;\n"
    "                   60 with --paper; 0 = no budget); a method that can never be\n"
    "                   recommended (unfenced at one end) gets a quarter of it, never\n"
    "                   fewer than 50\n"
    "  --paper          the paper's 1000 ensembles x 100000 samples\n"
    "  --no-chain       skip the dependent-add chain comparison\n"
    "  --plot DIR       write figures for gnuplot to DIR (created if missing): for each method,\n"
    "                   its minimum and variance per ensemble (the white paper's figures) and a\n"
    "                   histogram of all its samples, as NAME.dat and NAME.gp; then render them\n"
    "                   to NAME.svg if gnuplot is installed (else: cd DIR && gnuplot *.gp)\n";

struct validate_cli {
    tks_validate_options o;
    int selected[TKS_METHOD_COUNT];
    struct cli_common common;
    struct cli_kernel kernel;
    const char *plot_dir; /* --plot, or NULL */
    int disasm;           /* --disasm: show the sampling loops' windows instead */
    struct cli_record record; /* --record FILE */
};

static int parse(int argc, char **argv, struct validate_cli *x, int *help)
{
    int i, paper = 0, budget_given = 0, e_given = 0, s_given = 0, m_given = 0, missing, r;
    const char *v;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *help = 1;
            return 0;
        }
        if (strcmp(a, "--paper") == 0) {
            paper = 1;
        } else if (strcmp(a, "--no-chain") == 0) {
            x->o.chain = 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--method", &missing)) || missing) {
            if (missing || cli_parse_methods("validate", v, x->selected))
                return missing ? cli_usage_error("validate", "--method needs a list") : CLI_EXIT_USAGE;
            m_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--ensembles", &missing)) || missing) {
            if (missing || cli_parse_u32("validate", "--ensembles", v, 2, TKS_ENSEMBLES_MAX, &x->o.ensembles))
                return missing ? cli_usage_error("validate", "--ensembles needs a number") : CLI_EXIT_USAGE;
            e_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--samples", &missing)) || missing) {
            if (missing || cli_parse_u32("validate", "--samples", v, 2, TKS_SAMPLES_MAX, &x->o.samples))
                return missing ? cli_usage_error("validate", "--samples needs a number") : CLI_EXIT_USAGE;
            s_given = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--plot", &missing)) || missing) {
            if (missing || !*v)
                return cli_usage_error("validate", "--plot needs a directory");
            x->plot_dir = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--budget", &missing)) || missing) {
            if (missing || cli_parse_seconds("validate", "--budget", v, &x->o.budget_s))
                return missing ? cli_usage_error("validate", "--budget needs seconds") : CLI_EXIT_USAGE;
            budget_given = 1;
        } else if (strcmp(a, "--disasm") == 0) {
            x->disasm = 1;
        } else if ((r = cli_record_option("validate", argc, argv, &i, &x->record)) != 0 ||
                   (r = cli_common_option("validate", argc, argv, &i, &x->common)) != 0 ||
                   (r = cli_kernel_option("validate", argc, argv, &i, &x->kernel)) != 0) {
            if (r < 0)
                return -r;
        } else {
            return cli_usage_error("validate", "unknown option '%s'", a);
        }
    }
    if ((r = cli_kernel_finish("validate", &x->kernel, &x->common, m_given ? x->selected : NULL)) != 0 ||
        (r = cli_record_refuse_kernel("validate", &x->record, x->kernel.requested)) != 0)
        return r;
    if (paper) {
        if (!e_given)
            x->o.ensembles = 1000;
        if (!s_given)
            x->o.samples = 100000;
        if (!budget_given)
            x->o.budget_s = 60;
    }
    x->o.methods = 0;
    for (i = 0; i < TKS_METHOD_COUNT; i++)
        if (x->selected[i])
            x->o.methods |= TKS_METHOD_BIT(i);
    return 0;
}

static void validate_cli_init(struct validate_cli *x)
{
    int m;
    memset(x, 0, sizeof *x);
    tks_validate_options_init(&x->o);
    for (m = 0; m < TKS_METHOD_COUNT; m++)
        x->selected[m] = 1;
    cli_common_init(&x->common, &tks__validation_writers);
    cli_kernel_init(&x->kernel);
}

int cli_validate_parse_only(int argc, char **argv)
{
    struct validate_cli x;
    int help = 0;
    validate_cli_init(&x);
    return parse(argc, argv, &x, &help);
}

/* The command once the platform has a home: cmd_validate frees it on every path. */
static int validate_with(int argc, char **argv, tks_platform *platform)
{
    struct validate_cli x;
    struct cli_run run;
    tks_validation *v;
    tks__atomic_file out, raw;
    int help = 0, rc;

    validate_cli_init(&x);
    if ((rc = parse(argc, argv, &x, &help)) != 0)
        return rc;
    if (help) {
        fputs(validate_help, stdout);
        fputs(cli_record_help, stdout);
        fputs(cli_disasm_help, stdout);
        fputs(cli_kernel_help, stdout);
        cli_format_help(stdout, x.common.writers);
        fputs(cli_common_help, stdout);
        return CLI_EXIT_OK;
    }
    if (x.disasm)
        return cli_disasm_methods("validate", &x.common, x.selected);
    if ((rc = cli_open_outputs("validate", &x.common, &out, &raw)) != 0)
        return rc;
    if ((x.plot_dir && (rc = cli_plot_dir_check("validate", x.plot_dir)) != 0) ||
        (rc = cli_kernel_ready("validate", &x.kernel)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    if (raw.f && (rc = tks__csv_header(raw.f)) != 0) {
        tks__atomic_abort(&out);
        return cli_write_failure("validate", x.common.raw, &raw, rc);
    }
    if ((rc = cli_platform("validate", &x.common, platform)) != 0 ||
        (rc = cli_record_open("validate", &x.record, platform)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    cli_run_init(&run, &x.common, &x.kernel, raw.f, x.plot_dir);
    cli_run_options(&run, &x.o.common);
    x.o.quantum = platform->quantum.quantum;
    x.o.unfenced_step = platform->quantum.unfenced_step;
    rc = tks__validate_run_recorded(&x.o, cli_record_sink(&x.record), &v);
    if (rc) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        if (x.record.failed)
            return cli_record_close("validate", &x.record, 1);
        cli_record_close("validate", &x.record, 0);
        if (run.plot_rc)
            return cli_failure("validate: cannot write plots to '%s': %s", x.plot_dir,
                               run.plot_rc == TKS_EIO && run.plot_errno ? strerror(run.plot_errno)
                                                                        : tks_strerror(run.plot_rc));
        return cli_failure("validate: %s", tks_strerror(rc));
    }
    rc = cli_write(&x.common, out.f, &(tks__validation_doc){v, platform});
    tks_validation_free(v);
    if (rc) {
        tks__atomic_abort(&raw);
        cli_record_close("validate", &x.record, 0);
        return cli_write_failure("validate", x.common.out, &out, rc);
    }
    if ((rc = cli_record_close("validate", &x.record, 1)) != 0) {
        tks__atomic_abort(&raw);
        tks__atomic_abort(&out);
        return rc;
    }
    rc = cli_close_outputs(&out, &raw, &x.common);
    if (rc == CLI_EXIT_OK && x.plot_dir)
        cli_plot_render(x.plot_dir, x.common.quiet);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    return cli_with_platform(validate_with, argc, argv);
}
