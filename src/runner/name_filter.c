/* SPDX-License-Identifier: MIT */
/* name_filter.c: the benchmark filter's matching (name_filter.h), one for tks_main, --list and
 * --disasm. */
#include "runner/name_filter.h"

#include <stdio.h>
#include <string.h>

int tks__name_filter_init(tks__name_filter *f, const char *spec, char *err, size_t errlen)
{
    int rc;
    memset(f, 0, sizeof *f);
    if (!spec || !*spec || !strcmp(spec, "all"))
        return 0;
    f->negative = spec[0] == '-';
    if ((rc = regcomp(&f->re, spec + f->negative, REG_EXTENDED | REG_NOSUB)) != 0) {
        char why[160];
        regerror(rc, &f->re, why, sizeof why);
        if (err && errlen)
            snprintf(err, errlen, "--filter: '%s' is not a valid regular expression: %s", spec, why);
        return 2;
    }
    f->compiled = 1;
    return 0;
}

int tks__name_filter_match(const tks__name_filter *f, const char *name)
{
    if (!f->compiled)
        return 1;
    return (regexec(&f->re, name, 0, NULL, 0) == 0) != f->negative;
}

void tks__name_filter_free(tks__name_filter *f)
{
    if (f->compiled)
        regfree(&f->re);
    f->compiled = 0;
}
