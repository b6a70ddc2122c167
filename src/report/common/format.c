/* SPDX-License-Identifier: MIT */
/* format.c: numbers for people. Fixed decimals so columns line up, %.3g once a number is too long
 * to read digit by digit, and no "-0" (a rounding artefact that readers take for a sign). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/common/report.h"

/* "-0" or "-0.00" (from -0.0 or a small negative rounded away) has no nonzero digit: drop the sign. */
static void drop_negative_zero(char *buf)
{
    if (buf[0] != '-')
        return;
    for (const char *p = buf + 1; *p; p++)
        if (*p >= '1' && *p <= '9')
            return;
    memmove(buf, buf + 1, strlen(buf));
}

char *tks__fmt_double(char *buf, size_t size, double v, int decimals)
{
    if (!buf || size == 0)
        return buf;
    if (decimals < 0)
        decimals = 0;
    if (isnan(v))
        snprintf(buf, size, "nan");
    else if (isinf(v))
        snprintf(buf, size, v < 0 ? "-inf" : "inf");
    else if (fabs(v) >= 1e7)
        snprintf(buf, size, "%.3g", v);
    else {
        snprintf(buf, size, "%.*f", decimals, v);
        drop_negative_zero(buf);
    }
    return buf;
}

char *tks__fmt_u64(char *buf, size_t size, uint64_t v)
{
    if (buf && size > 0)
        snprintf(buf, size, "%" PRIu64, v);
    return buf;
}
