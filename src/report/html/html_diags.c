/* SPDX-License-Identifier: MIT */
/* html_diags.c: diagnostics on an HTML page, in the words the console prints (diag_text.c
 * renders them; this only escapes and places them): one paragraph a line, or joined on one
 * line for a row's tooltip. */
#include <stdlib.h>

#include "report/common/report.h"
#include "report/html/html.h"

size_t tks__html_diags(FILE *f, const tks_diags *ds, const char *subject, const char *cls,
                       const char *sep)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m;
    if (!ds || !ds->n || !(m = open_memstream(&text, &len)))
        return 0;
    if (sep)
        tks__diags_join(m, ds, sep);
    else
        tks__diags_print(m, ds, "", subject);
    if (fclose(m) == 0 && text) {
        if (sep)
            tks__html_text(f, text);
        else
            tks__html_lines(f, text, cls);
    }
    free(text);
    return ds->n;
}
