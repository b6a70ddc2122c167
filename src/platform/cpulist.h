/* SPDX-License-Identifier: MIT */
/* cpulist.h: the kernel's CPU lists ("0-3,8,10-11"). An unset mask printed as "(null)" is
 * empty; a malformed list counts as -1 and contains nothing. */
#ifndef TKS_CPULIST_H
#define TKS_CPULIST_H

#include <stddef.h>

/* The list as it should be read: "(null)" becomes "". */
const char *tks__cpulist_text(const char *list);
/* How many CPUs a list names; -1 when malformed. */
long tks__cpulist_count(const char *list);
int tks__cpulist_has(const char *list, long cpu);
/* The first and last CPU of a list, -1 when empty. */
long tks__cpulist_first(const char *list);
long tks__cpulist_last(const char *list);
/* The list without one CPU (the siblings of that CPU), in the kernel's form, into buf. */
void tks__cpulist_without(const char *list, long cpu, char *buf, size_t size);

#endif
