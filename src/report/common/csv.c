/* SPDX-License-Identifier: MIT */
/* csv.c: raw samples as RFC 4180 CSV, one row per reading, for analysis outside tickscope.
 * Runs of 10^8 rows are normal, so rows are assembled by hand instead of through fprintf. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/double_text.h"
#include "report/common/report.h"
#include "tickscope.h"

int tks__csv_header(FILE *f)
{
    if (!f)
        return TKS_EINVAL;
    if (fputs("method,ensemble,sample,ticks\n", f) == EOF || ferror(f))
        return TKS_EIO;
    return 0;
}

void tks__csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Whole precision, as in JSON: a CSV is data for another program, and six digits lose the
 * decimals of a tick count in the hundred thousands. */
void tks__csv_next_double(FILE *f, double v)
{
    char buf[40];

    fputc(',', f);
    if (isfinite(v)) {
        tks__double_text(buf, sizeof buf, v);
        fputs(buf, f);
    }
}

/* Writes the decimal digits of v ending just before end; returns where they start. */
static char *u64_digits(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

/* ",<e>,<s>,<ticks>\n" after the method field. */
static int write_row_tail(FILE *f, uint32_t e, uint32_t s, uint64_t ticks)
{
    char buf[64];
    char *end = buf + sizeof buf, *p = end;

    *--p = '\n';
    p = u64_digits(p, ticks);
    *--p = ',';
    p = u64_digits(p, s);
    *--p = ',';
    p = u64_digits(p, e);
    *--p = ',';
    return fwrite(p, 1, (size_t)(end - p), f) == (size_t)(end - p) ? 0 : TKS_EIO;
}

int tks__csv_samples(FILE *f, const char *method, const uint64_t *ticks,
                    uint32_t ensembles, uint32_t samples)
{
    size_t flen;
    int plain, rc = 0;

    if (!f || !method)
        return TKS_EINVAL;
    if (ensembles == 0 || samples == 0)
        return ferror(f) ? TKS_EIO : 0;
    if (!ticks)
        return TKS_EINVAL;
    /* Method names need no quoting; the check keeps any other name correct. */
    plain = strpbrk(method, ",\"\r\n") == NULL;
    flen = strlen(method);
    for (uint32_t e = 0; e < ensembles && rc == 0; e++) {
        const uint64_t *row = ticks + (size_t)e * samples;
        for (uint32_t s = 0; s < samples && rc == 0; s++) {
            if (plain ? fwrite(method, 1, flen, f) != flen : (tks__csv_field(f, method), ferror(f)))
                rc = TKS_EIO;
            else
                rc = write_row_tail(f, e, s, row[s]);
        }
    }
    if (rc == 0 && ferror(f))
        rc = TKS_EIO;
    return rc;
}
