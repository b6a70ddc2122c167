/* SPDX-License-Identifier: MIT */
/* double_text.h: a double written so that it reads back as the same double, in the fewest digits
 * that do it. Every file a later run reads back (JSON results, the instruction table's CSV and
 * cache) writes its figures through this, so a figure printed from a file is the figure printed
 * when it was measured. */
#ifndef TKS_DOUBLE_TEXT_H
#define TKS_DOUBLE_TEXT_H

#include <stddef.h>

/* v (finite) into buf: the shortest of %.15g, %.16g and %.17g that strtod reads back as v
 * (0.1 stays "0.1"; %.17g always round-trips). size of at least 32 holds any double. */
void tks__double_text(char *buf, size_t size, double v);

#endif
