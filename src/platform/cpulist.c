/* SPDX-License-Identifier: MIT */
/* cpulist.c: the kernel's CPU lists ("0-3,8,10-11") as /sys prints them for SMT siblings,
 * isolated and nohz_full CPUs: counted, searched and rewritten without one CPU. */
#include "platform/cpulist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larger than any CPU number a kernel supports, so a range cannot overflow a count. */
#define CPULIST_LIMIT 1000000L

static int parse_cpu(const char **s, long *v)
{
    char *end;
    if (**s < '0' || **s > '9')
        return -1;
    *v = strtol(*s, &end, 10);
    if (*v >= CPULIST_LIMIT)
        return -1;
    *s = end;
    return 0;
}

/* The next range of a cpulist: 1 with lo..hi, 0 at the end, -1 when malformed. The kernel writes
 * an empty list as "" (and an unset nohz_full mask as "(null)"), which callers treat as empty. */
static int cpulist_next(const char **s, long *lo, long *hi)
{
    if (**s == 0)
        return 0;
    if (parse_cpu(s, lo))
        return -1;
    *hi = *lo;
    if (**s == '-') {
        ++*s;
        if (parse_cpu(s, hi) || *hi < *lo)
            return -1;
    }
    if (**s == ',') {
        ++*s;
        return **s ? 1 : -1;
    }
    return **s == 0 ? 1 : -1;
}

const char *tks__cpulist_text(const char *s)
{
    return strcmp(s, "(null)") == 0 ? "" : s;
}

/* How many CPUs a list names; -1 when malformed. */
long tks__cpulist_count(const char *s)
{
    long lo, hi, n = 0;
    int rc;
    s = tks__cpulist_text(s);
    while ((rc = cpulist_next(&s, &lo, &hi)) == 1)
        n += hi - lo + 1;
    return rc < 0 ? -1 : n;
}

int tks__cpulist_has(const char *s, long cpu)
{
    long lo, hi;
    s = tks__cpulist_text(s);
    while (cpulist_next(&s, &lo, &hi) == 1)
        if (cpu >= lo && cpu <= hi)
            return 1;
    return 0;
}

/* The first CPU of a list, -1 when empty. */
long tks__cpulist_first(const char *s)
{
    long lo, hi;
    s = tks__cpulist_text(s);
    return cpulist_next(&s, &lo, &hi) == 1 ? lo : -1;
}

long tks__cpulist_last(const char *s)
{
    long lo, hi, last = -1;
    s = tks__cpulist_text(s);
    while (cpulist_next(&s, &lo, &hi) == 1)
        last = hi;
    return last;
}

/* Appends "lo" or "lo-hi" (comma first unless buf is empty), keeping buf terminated when full. */
static void append_range(char *buf, size_t size, long lo, long hi)
{
    size_t len = strlen(buf);
    if (lo > hi || len + 1 >= size)
        return;
    if (hi > lo)
        snprintf(buf + len, size - len, "%s%ld-%ld", len ? "," : "", lo, hi);
    else
        snprintf(buf + len, size - len, "%s%ld", len ? "," : "", lo);
}

/* The list without one CPU: the siblings of that CPU. */
void tks__cpulist_without(const char *s, long cpu, char *buf, size_t size)
{
    long lo, hi;
    buf[0] = 0;
    s = tks__cpulist_text(s);
    while (cpulist_next(&s, &lo, &hi) == 1) {
        if (cpu < lo || cpu > hi) {
            append_range(buf, size, lo, hi);
        } else {
            append_range(buf, size, lo, cpu - 1);
            append_range(buf, size, cpu + 1, hi);
        }
    }
}
