/* SPDX-License-Identifier: MIT */
/* cmd_kernel.h: --kernel for validate and resolution: the same experiments, with the samples taken by
 * the kernel module (kmod/) with the CPU owned, so that user and kernel runs can be compared. */
#ifndef TKS_CLI_KERNEL_H
#define TKS_CLI_KERNEL_H

#include "cli/cli.h"

struct cli_kernel {
    enum tks_where where;   /* cli_kernel_finish: TKS_WHERE_USER unless --kernel */
    int requested;          /* --kernel */
    enum tks_where own;     /* --own: TKS_WHERE_KERNEL_IRQ_OFF (default) or _PREEMPT_OFF */
    int own_given;
    const char *device;     /* --kernel-device; NULL: /dev/tickscope */
    uint32_t methods;       /* cli_kernel_ready: what the module runs (bit per method) */
    int cr0_asked;          /* cli_kernel_finish: --method named cr0 */
};

extern const char cli_kernel_help[];

void cli_kernel_init(struct cli_kernel *k);
/* 1 if argv[*i] was --kernel, --own MODE or --kernel-device PATH (advancing *i past a value),
 * 0 if not, or -CLI_EXIT_USAGE after printing an error. */
int cli_kernel_option(const char *cmd, int argc, char **argv, int *i, struct cli_kernel *k);
/* After parsing: sets k->where; --own and --kernel-device need --kernel, --fifo does not go
 * with it, and a ring-0 method (cr0) among selected[] (may be NULL) needs it. Returns an exit
 * status. */
int cli_kernel_finish(const char *cmd, struct cli_kernel *k, const struct cli_common *c,
                      const int *selected);
/* Before measuring: the module is loaded and usable (filling k->methods), or an error that says
 * how to build and load it; a cr0 that --method named and the module does not offer now is an
 * error that says why (lockdown, say). Returns an exit status; CLI_EXIT_OK at once without
 * --kernel. */
int cli_kernel_ready(const char *cmd, struct cli_kernel *k);
/* Whether method m can run where k says. */
int cli_kernel_available(const struct cli_kernel *k, enum tks_method m);
/* Why the module does not offer method m (its own word for cr0: lockdown, a Xen PV or a
 * confidential-computing guest), or a generic reason. */
const char *cli_kernel_why_missing(const struct cli_kernel *k, enum tks_method m);

#endif
