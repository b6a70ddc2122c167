/* SPDX-License-Identifier: MIT */
/* window_methods.c: `validate --disasm` and `resolution --disasm`: what the library's own
 * sampling loops hold between their clock readings, per method: windows of nothing but one
 * dependent add chain (0 to 200 adds), summarised by their lengths, and any other window shown
 * whole, since nothing else belongs there (docs/ARCHITECTURE.md, "The path of one sample"). */
#include "report/window/window_report.h"

#include <string.h>

#include "report/common/report.h"

/* 1 when every instruction of w is the same "add %rA,%rB". */
static int add_chain(const tks__window *w)
{
    for (size_t i = 0; i < w->n; i++)
        if (strncmp(w->insn[i], "add ", 4) != 0 || strchr(w->insn[i], '(') ||
            strcmp(w->insn[i], w->insn[0]) != 0)
            return 0;
    return 1;
}

/* The lengths of the add-chain windows as ranges ("0-200" or "0-3, 7"), into buf. */
static void lengths(const tks__window_set *s, char *buf, size_t size)
{
    enum { MAXLEN = 4096 };
    unsigned char seen[MAXLEN + 1];
    size_t o = 0;
    memset(seen, 0, sizeof seen);
    *buf = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->w[i].method, s->method) && add_chain(&s->w[i]) && s->w[i].n <= MAXLEN)
            seen[s->w[i].n] = 1;
    for (size_t a = 0; a <= MAXLEN && o + 24 < size; a++) {
        size_t b = a;
        if (!seen[a])
            continue;
        while (b + 1 <= MAXLEN && seen[b + 1])
            b++;
        o += (size_t)snprintf(buf + o, size - o, b > a ? "%s%zu-%zu" : "%s%zu", o ? ", " : "",
                              a, b);
        a = b;
    }
}

static size_t count(const tks__window_set *s, int chains)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        k += !strcmp(s->w[i].method, s->method) && add_chain(&s->w[i]) == chains;
    return k;
}

void tks__report_method_windows_text(const tks__window_set *s, size_t n, FILE *f)
{
    char buf[512];
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s (%s): ", s[i].method, s[i].symbol ? s[i].symbol : "?");
        if (s[i].error) {
            fprintf(f, "%s\n", s[i].error);
            continue;
        }
        lengths(&s[i], buf, sizeof buf);
        fprintf(f, "%zu windows of dependent adds only (work %s)", count(&s[i], 1),
                *buf ? buf : "none");
        if (!count(&s[i], 0)) {
            fprintf(f, "; nothing else inside any window\n");
            continue;
        }
        fprintf(f, "\n");
        for (size_t k = 0; k < s[i].n; k++) {
            const tks__window *w = &s[i].w[k];
            if (strcmp(w->method, s[i].method) || add_chain(w))
                continue;
            fprintf(f, "  warning: a window at 0x%llx holds more than the work:\n",
                    (unsigned long long)w->address);
            for (size_t m = 0; m < w->n && m < 12; m++)
                fprintf(f, "    %s\n", w->insn[m]);
            if (w->n > 12)
                fprintf(f, "    ... %zu more\n", w->n - 12);
        }
    }
}

int tks__report_method_windows_json(const char *command, const tks__window_set *s, size_t n,
                                    FILE *f)
{
    tks__json j;
    char buf[512];
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_string(&j, "command", command);
    tks__json_begin_array(&j, "methods");
    for (size_t i = 0; i < n; i++) {
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "method", s[i].method);
        tks__json_string(&j, "function", s[i].symbol);
        tks__json_string(&j, "error", s[i].error);
        lengths(&s[i], buf, sizeof buf);
        tks__json_u64(&j, "add_chain_windows", s[i].error ? 0 : count(&s[i], 1));
        tks__json_string(&j, "work", buf);
        /* The shortest window, work 0: what the empty-window experiment times beside the
         * clock reads (nothing, when the loops hold only the work). */
        {
            const tks__window *e = NULL;
            for (size_t k = 0; !s[i].error && k < s[i].n; k++)
                if (!strcmp(s[i].w[k].method, s[i].method) && (!e || s[i].w[k].n < e->n))
                    e = &s[i].w[k];
            tks__json_begin_array(&j, "window_instructions");
            for (size_t m = 0; e && m < e->n; m++)
                tks__json_string(&j, NULL, e->insn[m]);
            tks__json_end_array(&j);
        }
        tks__json_begin_array(&j, "other_windows");
        for (size_t k = 0; !s[i].error && k < s[i].n; k++) {
            const tks__window *w = &s[i].w[k];
            if (strcmp(w->method, s[i].method) || add_chain(w))
                continue;
            tks__json_begin_array(&j, NULL);
            for (size_t m = 0; m < w->n; m++)
                tks__json_string(&j, NULL, w->insn[m]);
            tks__json_end_array(&j);
        }
        tks__json_end_array(&j);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}

static int method_windows_console(FILE *f, const void *doc)
{
    const tks__method_windows_doc *d = doc;
    tks__report_method_windows_text(d->s, d->n, f);
    return ferror(f) ? TKS_EIO : 0;
}

static int method_windows_json(FILE *f, const void *doc)
{
    const tks__method_windows_doc *d = doc;
    return tks__report_method_windows_json(d->command, d->s, d->n, f);
}

TKS__WRITERS(tks__method_windows_writers, "--disasm", {TKS_FORMAT_CONSOLE, method_windows_console},
             {TKS_FORMAT_JSON, method_windows_json});
