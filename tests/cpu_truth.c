/* SPDX-License-Identifier: MIT */
/* cpu_truth.c: tks_cpu_truth, for the shell tests: what the CPU and the kernel say, one
 * "name value" line each, read with CPUID (cpu_truth.h) and a direct system call, never through
 * the library under test: default_method, fenced_both, rdtscp, lfence_serialising, and
 * perf_software: what perf_event_open answers for a software event of this process ("ok", or the
 * errno's name: ENOSYS under QEMU user mode or a kernel without perf events, EACCES or EPERM
 * where a policy refuses it). */
#include <stdio.h>

#include "cpu_truth.h"

int main(void)
{
    struct cpu_truth t;
    cpu_truth_get(&t);
    printf("default_method %s\nfenced_both %d\nrdtscp %d\nlfence_serialising %d\nperf_software %s\n",
           t.default_method, t.fenced_both, t.rdtscp, t.lfence_serialising, cpu_truth_perf_software());
    return 0;
}
