/* SPDX-License-Identifier: MIT */
/* cmd_kernel.c: the --kernel options of validate and resolution and the checks that the module is
 * there. */
#include "cli/cmd_kernel.h"

#include <string.h>
#include "sample/kmod_ensembles.h"

const char cli_kernel_help[] =
    "  --kernel         take the samples in the kernel module (tickscope.ko, /dev/tickscope) with\n"
    "                   preemption and interrupts off, as the white paper does; allows method cr0.\n"
    "                   --pin CPU then names the CPU the module runs on (default: the current one)\n"
    "  --own MODE       with --kernel: irq (preemption and interrupts off, the default) or\n"
    "                   preempt (preemption off, interrupts left on), to see what interrupts cost\n"
    "  --kernel-device PATH  the module's device (default /dev/tickscope)\n";

void cli_kernel_init(struct cli_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->where = TKS_WHERE_USER;
    k->own = TKS_WHERE_KERNEL_IRQ_OFF;
}

int cli_kernel_option(const char *cmd, int argc, char **argv, int *i, struct cli_kernel *k)
{
    const char *v;
    int missing;
    if (strcmp(argv[*i], "--kernel") == 0)
        return k->requested = 1;
    if ((v = cli_option_value(argc, argv, i, "--own", &missing)) || missing) {
        if (missing)
            return -cli_usage_error(cmd, "--own needs irq or preempt");
        if (strcmp(v, "irq") == 0)
            k->own = TKS_WHERE_KERNEL_IRQ_OFF;
        else if (strcmp(v, "preempt") == 0)
            k->own = TKS_WHERE_KERNEL_PREEMPT_OFF;
        else
            return -cli_usage_error(cmd, "--own needs irq or preempt, not '%s'", v);
        return k->own_given = 1;
    }
    if ((v = cli_option_value(argc, argv, i, "--kernel-device", &missing)) || missing) {
        if (missing || !*v)
            return -cli_usage_error(cmd, "--kernel-device needs a path");
        k->device = v;
        return 1;
    }
    return 0;
}

int cli_kernel_finish(const char *cmd, struct cli_kernel *k, const struct cli_common *c,
                      const int *selected)
{
    int m, kernel = k->requested;
    k->where = kernel ? k->own : TKS_WHERE_USER;
    k->cr0_asked = kernel && selected && selected[TKS_METHOD_CR0];
    if (!kernel && k->own_given)
        return cli_usage_error(cmd, "--own goes with --kernel");
    if (!kernel && k->device)
        return cli_usage_error(cmd, "--kernel-device goes with --kernel");
    if (kernel && c->fifo)
        return cli_usage_error(cmd, "--fifo is for user-space runs; in the kernel module "
                                    "preemption is already off");
    if (kernel && k->where == TKS_WHERE_KERNEL_PREEMPT_OFF && selected)
        for (m = 0; m < TKS_METHOD_COUNT; m++)
            if (selected[m] && (tks_method_info((enum tks_method)m)->flags & TKS_MF_RING0))
                return cli_usage_error(cmd, "method '%s' writes a control register and needs "
                                            "interrupts off: use --own irq",
                                       tks_method_info((enum tks_method)m)->name);
    for (m = 0; selected && !kernel && m < TKS_METHOD_COUNT; m++)
        if (selected[m] && (tks_method_info((enum tks_method)m)->flags & TKS_MF_RING0))
            return cli_usage_error(cmd, "method '%s' runs only in ring 0: add --kernel "
                                        "(see kmod/README.md)",
                                   tks_method_info((enum tks_method)m)->name);
    return CLI_EXIT_OK;
}

int cli_kernel_ready(const char *cmd, struct cli_kernel *k)
{
    const char *dev = k->device ? k->device : "/dev/tickscope";
    tks_kernel_info info;
    int rc;
    if (k->where == TKS_WHERE_USER)
        return CLI_EXIT_OK;
    rc = tks_kernel_probe(k->device, &info);
    if (rc == 0) {
        k->methods = info.methods;
        if (k->cr0_asked && !(info.methods & (1u << TKS_METHOD_CR0)))
            return cli_failure("%s --kernel --method cr0: cr0 cannot run %s", cmd,
                               cli_kernel_why_missing(k, TKS_METHOD_CR0));
        return CLI_EXIT_OK;
    }
    cli_failure("%s --kernel: %s: %s", cmd, dev, tks_strerror(rc));
    if (rc == TKS_ENODEV)
        fprintf(stderr,
                "  build it:  make kmod   (needs the kernel headers: apt-get install "
                "linux-headers-$(uname -r), or Debian's linux-headers-amd64)\n"
                "  load it:   sudo insmod build/kmod/tickscope.ko   (see kmod/README.md)\n");
    else if (rc == TKS_EPERM)
        fprintf(stderr, "  the module needs CAP_SYS_RAWIO at open and at every run (the device "
                        "is also mode 0600): run as root; see kmod/README.md\n");
    else if (rc == TKS_EPROTO)
        fprintf(stderr, "  the device is not this version's tickscope module: rmmod tickscope, "
                        "make kmod, insmod build/kmod/tickscope.ko\n");
    return CLI_EXIT_FAIL;
}

int cli_kernel_available(const struct cli_kernel *k, enum tks_method m)
{
    return tks_method_runnable(m, k->where, k->methods);
}

const char *cli_kernel_why_missing(const struct cli_kernel *k, enum tks_method m)
{
    if (k->where == TKS_WHERE_USER)
        return "on this CPU";
    if (m != TKS_METHOD_CR0)
        return "in the kernel module";
    switch (tks__kernel_cr0_refused(k->device)) {
    case 1: return "in the kernel module: a Xen PV guest has no CR0 access";
    case 2: return "in the kernel module: CR0 writes are intercepted in a confidential-computing "
                   "guest";
    case 3: return "in the kernel module: the kernel is locked down (/sys/kernel/security/lockdown), "
                   "and the module refuses CR0 writes then, as the msr driver refuses MSR writes";
    default: return "in the kernel module";
    }
}
