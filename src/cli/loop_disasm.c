/* SPDX-License-Identifier: MIT */
/* loop_disasm.c: `tickscope validate --disasm` and `resolution --disasm`: for each method, the
 * windows of its sampling loop in the library (ensemble_<method>), read back from the code that
 * would run, so a user sees that nothing but the work sits between the two readings. */
#include "cli/loop_disasm.h"

#include <stdlib.h>
#include <string.h>

#include "asm/window.h"
#include "report/window/window_report.h"

const char cli_disasm_help[] =
    "  --disasm         print what each method's sampling loop holds between its clock\n"
    "                   readings (objdump of this program's code) and exit\n";

int cli_disasm_methods(const char *cmd, const struct cli_common *c, const int *selected)
{
    tks__window_set sets[TKS_METHOD_COUNT];
    tks__window *w[TKS_METHOD_COUNT];
    char sym[TKS_METHOD_COUNT][64], err[TKS_METHOD_COUNT][300];
    tks__atomic_file out, raw;
    size_t n = 0;
    int rc, failed = 0;
    if (!tks__writers_find(&tks__method_windows_writers, c->format)) {
        char msg[256];
        return cli_usage_error(cmd, "%s", tks__writers_unknown(&tks__method_windows_writers, "--format",
                                                               tks_format_name(c->format), msg,
                                                               sizeof msg));
    }
    if ((rc = cli_open_outputs(cmd, c, &out, &raw)) != 0)
        return rc;
    for (int m = 0; m < TKS_METHOD_COUNT; m++) {
        const struct tks_method_info *mi = tks_method_info((enum tks_method)m);
        size_t nw = 0;
        if (!tks_method_of_arch((enum tks_method)m) || (mi->flags & TKS_MF_RING0) ||
            (selected && !selected[m]) ||
            !tks_method_available((enum tks_method)m, tks_cpu_features_get()))
            continue;
        snprintf(sym[n], sizeof sym[n], "ensemble_%s", mi->name);
        rc = tks__windows_find_named((const void *)tks_sample_take, sym[n], &w[n], &nw, err[n],
                                     sizeof err[n]);
        failed |= rc != 0;
        memset(&sets[n], 0, sizeof sets[n]);
        sets[n].name = mi->name;
        sets[n].symbol = sym[n];
        sets[n].method = mi->name;
        sets[n].w = w[n];
        sets[n].n = nw;
        sets[n].error = rc ? err[n] : NULL;
        n++;
    }
    if (n == 0) {
        tks__atomic_abort(&out);
        tks__atomic_abort(&raw);
        return cli_failure("%s: none of the methods asked for is available on this CPU (see "
                           "tickscope info)", cmd);
    }
    rc = tks__writers_write(&tks__method_windows_writers, c->format, out.f,
                            &(tks__method_windows_doc){cmd, sets, n});
    for (size_t i = 0; i < n; i++)
        tks__windows_free(w[i], sets[i].n);
    if (rc) {
        tks__atomic_abort(&raw);
        return cli_write_failure(cmd, c->out, &out, rc);
    }
    rc = cli_close_outputs(&out, &raw, c);
    if (rc == CLI_EXIT_OK && failed)
        return cli_failure("%s: some methods' loops could not be read (see the report)", cmd);
    return rc;
}
