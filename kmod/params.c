// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* params.c: the module's parameters (/sys/module/tickscope/parameters/), the limits that make it
 * safe on a shared machine: how long interrupts stay off, how long one run may last. */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/time64.h>

#include "internal.h"

/* No single RUN may hold a CPU longer than this (the caller picks the CPU, and a descriptor can
 * outlive the privilege that opened it). Root may raise it through sysfs. */
static unsigned int max_run_ms = TKS_KMOD_RUN_MS_DEFAULT;
module_param(max_run_ms, uint, 0644);
MODULE_PARM_DESC(max_run_ms, "longest one run may last, in ms (default 5000)");

/* The interrupts-off bound: lower it (never above TKS_KMOD_SECTION_US) where even a millisecond
 * is too long, a real-time CPU say. Read at the start of every run. */
static unsigned int section_us = TKS_KMOD_SECTION_US;
module_param(section_us, uint, 0644);
MODULE_PARM_DESC(section_us, "longest stretch with interrupts off, in us (at most 1000)");

unsigned int tks_section_us(void)
{
	unsigned int us = READ_ONCE(section_us);

	return clamp(us, 1u, TKS_KMOD_SECTION_US);
}

u64 tks_max_run_ns(void)
{
	unsigned int ms = READ_ONCE(max_run_ms);

	return (u64)(ms ? ms : 1) * NSEC_PER_MSEC;
}

unsigned int tks_max_run_ms(void)
{
	return READ_ONCE(max_run_ms);
}
