/* SPDX-License-Identifier: MIT */
/* record_cli.h: --record FILE on the tickscope command's analyses (validate, resolution;
 * docs/recording.md): the file opened before measuring (its start and the machine's section
 * written), the analysis's sections written through its sink as they come, and the file
 * committed whole when the command succeeds, or removed. */
#ifndef TKS_CLI_RECORD_CLI_H
#define TKS_CLI_RECORD_CLI_H

#include "base/record_file.h"
#include "cli/cli.h"

struct cli_record {
    const char *path;    /* NULL: not recording */
    tks__atomic_file af;
    int failed;          /* errno of the first write that failed */
    tks__rec_sink sink;
};

extern const char cli_record_help[];

/* "--record FILE": 1 (path set), 0 when argv[*i] is not it, or -CLI_EXIT_USAGE. */
int cli_record_option(const char *cmd, int argc, char **argv, int *i, struct cli_record *r);
/* With --kernel nothing is recorded: a usage error (the exit status), else 0. */
int cli_record_refuse_kernel(const char *cmd, const struct cli_record *r, int kernel);
/* Open the file and write its start and p's section: an exit status (its one-line error
 * printed). Nothing without --record. */
int cli_record_open(const char *cmd, struct cli_record *r, const tks_platform *p);
/* The sink, or NULL without --record. */
const tks__rec_sink *cli_record_sink(struct cli_record *r);
/* Commit the file (ok) or remove it: an exit status, the error printed. */
int cli_record_close(const char *cmd, struct cli_record *r, int ok);

#endif
