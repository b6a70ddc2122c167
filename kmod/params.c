// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* params.c: the module's parameters (/sys/module/tickscope/parameters/), the limits that make it
 * safe on a shared machine: how long interrupts stay off, how long one run may last. */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/time64.h>

#include "internal.h"

/* No single RUN may hold a CPU longer than this (the caller picks the CPU, and a descriptor can
 * outlive the privilege that opened it). Root may change it through sysfs, up to
 * TKS_KMOD_RUN_MS_MAX (a larger value is taken as that). */
static unsigned int max_run_ms = TKS_KMOD_RUN_MS_DEFAULT;
module_param(max_run_ms, uint, 0644);
MODULE_PARM_DESC(max_run_ms, "longest one run may last, in ms (default 5000, at most 60000)");

/* Snippets (the caller's machine code in ring 0) only when the module was loaded with
 * allow_snippets=1: read-only afterwards (0444), so that it takes whoever loads modules to
 * allow them, not merely root at some later time. */
static bool allow_snippets;
module_param(allow_snippets, bool, 0444);
MODULE_PARM_DESC(allow_snippets, "run callers' machine code in ring 0 (tickscope asm --kernel); "
		 "set only at load, default off");

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

unsigned int tks_max_run_ms(void)
{
	unsigned int ms = READ_ONCE(max_run_ms);

	return clamp(ms, 1u, TKS_KMOD_RUN_MS_MAX);
}

u64 tks_max_run_ns(void)
{
	return (u64)tks_max_run_ms() * NSEC_PER_MSEC;
}

bool tks_allow_snippets(void)
{
	return allow_snippets;
}
