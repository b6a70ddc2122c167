/* SPDX-License-Identifier: MIT */
/* double_text.c: the shortest text that reads back as the same double (double_text.h). */
#include "double_text.h"

#include <stdio.h>
#include <stdlib.h>

void tks__double_text(char *buf, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}
