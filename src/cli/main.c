/* SPDX-License-Identifier: MIT */
/* main.c: the tickscope command: dispatches to one subcommand per file; with no arguments, a
 * short tour of this machine (validate, resolution, verdict). */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_asm.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_info.h"
#include "cli/cmd_replay.h"
#include "cli/cmd_resolution.h"
#include "cli/cmd_sys.h"
#include "cli/cmd_tour.h"
#include "cli/cmd_validate.h"
#include "method/cpu_override.h"

static const char main_help[] =
    "usage: tickscope [command] [options]\n"
    "\n"
    "Measures clock cycles precisely enough to see one instruction, and says how far the\n"
    "number can be trusted on this machine.\n"
    "\n"
    "commands:\n"
    "  (none)       a short tour: validate, a short resolution run, and a verdict (<10 s)\n"
    "  info         what this machine is: TSC rate, quantum, core clock, hypervisor, noise\n"
    "  validate     which way of reading the clock is trustworthy here (white paper 3.1-3.2)\n"
    "  resolution   how small a difference a method can see (white paper 3.3)\n"
    "  asm          latency and throughput of an instruction sequence, in ticks and core cycles\n"
    "  sys          what this machine's operations cost: cpu, os and mem suites (<2 min)\n"
    "  methods      the clock-reading methods, their instruction sequences, and which this CPU has\n"
    "  compare      did a change make it faster? two benchmark result files, benchmark by benchmark\n"
    "  replay       a recording (--record FILE) analysed again, reported as the live run was\n"
    "  help         this text; 'tickscope COMMAND --help' for a command's options\n"
    "  version      the version\n";

static int cmd_methods(int argc, char **argv)
{
    static const char *const hdr[] = {"method", "begin", "end", "source", "here"};
    const struct tks_cpu_features *f = tks_cpu_features_get();
    tks__table *t;
    const char *cells[5];
    char here[32], overridden[600];
    int m;
    if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        puts("usage: tickscope methods\n\nLists the clock-reading methods, which this CPU can run, and the one used\n"
             "when none is named.");
        return CLI_EXIT_OK;
    }
    if (argc > 0)
        return cli_usage_error("methods", "unexpected argument '%s'", argv[0]);
    t = tks__table_new(5, hdr, "lllll");
    if (!t)
        return cli_failure("%s", tks_strerror(TKS_ENOMEM));
    for (m = 0; m < TKS_METHOD_COUNT; m++) {
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        if (!tks_method_of_arch((enum tks_method)m))
            continue;
        snprintf(here, sizeof here, "%s",
                 mi->flags & TKS_MF_RING0                         ? "kernel only"
                 : m == (int)tks_method_default(f)                ? "yes (the default)"
                 : tks_method_available((enum tks_method)m, f)    ? "yes"
                                                                  : "no");
        cells[0] = mi->name;
        cells[1] = mi->begin;
        cells[2] = mi->end;
        cells[3] = mi->source;
        cells[4] = here;
        tks__table_add_row(t, cells);
    }
    tks__table_print(t, stdout, "");
    tks__table_free(t);
    /* 'here' is then the told CPU's column: said below the table, as info says it */
    tks__cpu_override_text(tks__cpu_override_get(), overridden, sizeof overridden);
    if (overridden[0])
        printf("\nOverridden  %s\n", overridden);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd)
        return cmd_tour(0, NULL);
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0)
        return cmd_validate(argc - 2, argv + 2);
    if (strcmp(cmd, "resolution") == 0)
        return cmd_resolution(argc - 2, argv + 2);
    if (strcmp(cmd, "asm") == 0)
        return cmd_asm(argc - 2, argv + 2);
    if (strcmp(cmd, "sys") == 0)
        return cmd_sys(argc - 2, argv + 2);
    if (strcmp(cmd, "methods") == 0)
        return cmd_methods(argc - 2, argv + 2);
    if (strcmp(cmd, "compare") == 0)
        return cmd_compare(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    if (strcmp(cmd, "tour") == 0)
        return cmd_tour(argc - 2, argv + 2);
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2 && strcmp(argv[2], "help") != 0 && strcmp(argv[2], "version") != 0) {
            char *again[] = {argv[0], argv[2], (char *)"--help", NULL}; /* help CMD = CMD --help */
            return main(3, again);
        }
        fputs(main_help, stdout);
        return CLI_EXIT_OK;
    }
    if (argc > 2 && (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0)) {
        fprintf(stderr, "tickscope: error: version takes no arguments, not '%s'\n", argv[2]);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("tickscope %s\n", TKS_VERSION_STRING);
        return CLI_EXIT_OK;
    }
    fprintf(stderr, "tickscope: error: unknown command '%s'\n", cmd);
    fputs(main_help, stderr);
    return CLI_EXIT_USAGE;
}
