/* SPDX-License-Identifier: MIT */
/* bench_disasm.c: `--disasm` for tks_main programs: for every benchmark selected by --filter, the
 * instructions inside the windows of the method its runs use, read back from this program's own
 * machine code, printed instead of measuring. */
#include "program/bench_disasm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/window.h"
#include "runner/name_filter.h"
#include "runner/registry.h"
#include "report/common/report.h"
#include "report/window/window_report.h"

struct found {
    tks__window_set set;
    tks__window *w;
    char symbol[128], error[300], name[128];
};

/* Whether any instance of benchmark s matches the filter; its first matching name in name. */
static int selected(size_t f, const tks__name_filter *filter, char *name, size_t size)
{
    const tks_benchmark_spec *s = tks__registry_get(f);
    for (size_t a = 0; a < tks__registry_runs(f); a++) {
        tks_args args;
        tks__registry_run(f, a, &args, name, size);
        if (tks__name_filter_match(filter, name)) {
            snprintf(name, size, "%s", s->name);
            return 1;
        }
    }
    return 0;
}

int tks__bench_disasm(const tks_options *o, const char *prog)
{
    tks__name_filter filter;
    int rc = 0, status = 0;
    size_t n = 0, count = tks__registry_count();
    struct found *v = calloc(count ? count : 1, sizeof *v);
    tks__window_set *sets = calloc(count ? count : 1, sizeof *sets);
    tks__atomic_file out;
    enum tks_method m = o->method >= 0 ? (enum tks_method)o->method
                                       : tks_method_default(tks_cpu_features_get());
    if (!v || !sets) {
        free(v);
        free(sets);
        fprintf(stderr, "%s: error: %s\n", prog, tks_strerror(TKS_ENOMEM));
        return 1;
    }
    tks__name_filter_init(&filter, o->filter, NULL, 0); /* tks_main compiled it already */
    for (size_t i = 0; i < count; i++) {
        const tks_benchmark_spec *s = tks__registry_get(i);
        struct found *f = &v[n];
        size_t nw = 0;
        if (!selected(i, &filter, f->name, sizeof f->name))
            continue;
        rc = tks__windows_find((const void *)s->fn, &f->w, &nw, f->symbol, sizeof f->symbol,
                               f->error, sizeof f->error);
        f->set.name = f->name;
        f->set.symbol = f->symbol[0] ? f->symbol : NULL;
        f->set.method = tks_method_info(m)->name;
        f->set.w = f->w;
        f->set.n = nw;
        f->set.error = rc ? f->error : NULL;
        status |= rc != 0;
        sets[n++] = f->set;
    }
    tks__name_filter_free(&filter);
    if ((rc = tks__atomic_open(&out, o->out ? o->out : "-")) == 0) {
        if (o->format == TKS_FORMAT_JSON)
            rc = tks__report_windows_json(sets, n, out.f);
        else
            tks__report_windows_text(sets, n, out.f);
        if (rc == 0)
            rc = tks__atomic_commit(&out);
    }
    if (rc) {
        char msg[PATH_MAX + 200];
        fprintf(stderr, "%s: error: %s\n", prog,
                tks__atomic_failure(&out, rc, o->out, msg, sizeof msg));
        status = 1;
    } else if (status) {
        fprintf(stderr, "%s: error: some benchmarks' windows could not be read (see the report)\n",
                prog);
    }
    for (size_t i = 0; i < n; i++)
        tks__windows_free(v[i].w, v[i].set.n);
    free(v);
    free(sets);
    return status ? 1 : 0;
}
