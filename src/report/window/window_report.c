/* SPDX-License-Identifier: MIT */
/* window_report.c: `--disasm`: per benchmark, the instructions between the end of the begin
 * sequence and the start of the end sequence of the method its runs use, with a warning for an
 * empty window, a call the user did not write, a store of the first reading and a CPUID. */
#include "report/window/window_report.h"

#include <string.h>

#include "report/common/report.h"

void tks__window_pick(const tks__window_set *s, const tks__window **latency,
                      const tks__window **throughput)
{
    size_t longest = 0;
    *latency = *throughput = NULL;
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->w[i].method, s->method) && !s->w[i].loop && s->w[i].n > longest)
            longest = s->w[i].n;
    for (size_t i = 0; i < s->n; i++) {
        const tks__window *w = &s->w[i];
        if (strcmp(w->method, s->method) != 0)
            continue;
        if (w->loop) {
            if (!*throughput || w->n > (*throughput)->n)
                *throughput = w;
        } else if (!*latency || ((*latency)->n == 0 ? w->n > 0 : w->n > 0 && w->n < (*latency)->n &&
                                                                 2 * w->n + 8 >= longest)) {
            /* Without a loop: the empty window, the block once, and (latency mode's correction)
             * the block twice: the latency window is the shortest that is not empty and holds
             * at least half the longest (a sanitiser's check between two windows is neither). */
            *latency = w;
        }
    }
}

static size_t flag_lines(const tks__window *w, const char *kind, char (*lines)[240], size_t k,
                         size_t max)
{
    if (!w)
        return k;
    if ((w->flags & TKS__WIN_CALL) && k < max)
        snprintf(lines[k++], 240, "the %s window calls %s, which the benchmark did not write: "
                 "its cost is measured too", kind, w->call);
    if ((w->flags & TKS__WIN_STORE) && k < max)
        snprintf(lines[k++], 240, "the %s window stores the first reading to memory: the "
                 "compiler spilled it inside the window", kind);
    if ((w->flags & TKS__WIN_CPUID) && k < max)
        snprintf(lines[k++], 240, "the %s window holds a CPUID (thousands of cycles under a "
                 "hypervisor)", kind);
    if ((w->flags & TKS__WIN_JUMPOUT) && k < max)
        snprintf(lines[k++], 240, "the %s window leaves by a jump; shown up to it", kind);
    return k;
}

size_t tks__window_warnings(const tks__window_set *s, char (*lines)[240], size_t max)
{
    const tks__window *lat, *thr;
    size_t k = 0;
    if (s->error) {
        if (max)
            snprintf(lines[k++], 240, "%s", s->error);
        return k;
    }
    tks__window_pick(s, &lat, &thr);
    if (!lat && !thr && max)
        snprintf(lines[k++], 240, "no %s window was found in %s (is the body in another function?)",
                 s->method, s->symbol);
    else if (lat && lat->n == 0 && k < max)
        snprintf(lines[k++], 240, "the latency window is empty: the block was optimised away, "
                 "or there is nothing in it (keep results with tks_do_not_optimize)");
    k = flag_lines(lat, "latency", lines, k, max);
    return flag_lines(thr, "throughput", lines, k, max);
}

static void window_text(const tks__window *w, const char *kind, FILE *f)
{
    if (!w)
        return;
    fprintf(f, "  %s window (%s), %zu instruction%s at 0x%llx:\n", kind, w->method, w->n,
            w->n == 1 ? "" : "s", (unsigned long long)w->address);
    for (size_t i = 0; i < w->n; i++)
        fprintf(f, "    %s\n", w->insn[i]);
}

void tks__report_windows_text(const tks__window_set *s, size_t n, FILE *f)
{
    char warn[8][240];
    for (size_t i = 0; i < n; i++) {
        const tks__window *lat, *thr;
        size_t nw = tks__window_warnings(&s[i], warn, 8);
        tks__window_pick(&s[i], &lat, &thr);
        fprintf(f, "%s (function %s, method %s)\n", s[i].name, s[i].symbol ? s[i].symbol : "?",
                s[i].method);
        if (!s[i].error) {
            window_text(lat, "latency", f);
            window_text(thr, "throughput", f);
        }
        for (size_t k = 0; k < nw; k++)
            fprintf(f, "  warning: %s\n", warn[k]);
    }
}

static void window_json(tks__json *j, const char *key, const tks__window *w)
{
    if (!w) {
        tks__json_null(j, key);
        return;
    }
    tks__json_begin_array(j, key);
    for (size_t i = 0; i < w->n; i++)
        tks__json_string(j, NULL, w->insn[i]);
    tks__json_end_array(j);
}

int tks__report_windows_json(const tks__window_set *s, size_t n, FILE *f)
{
    tks__json j;
    char warn[8][240];
    tks__json_init(&j, f);
    tks__json_begin_object(&j, NULL);
    tks__json_begin_array(&j, "benchmarks");
    for (size_t i = 0; i < n; i++) {
        const tks__window *lat, *thr;
        size_t nw = tks__window_warnings(&s[i], warn, 8);
        tks__window_pick(&s[i], &lat, &thr);
        tks__json_begin_object(&j, NULL);
        tks__json_string(&j, "name", s[i].name);
        tks__json_string(&j, "function", s[i].symbol);
        tks__json_string(&j, "method", s[i].method);
        window_json(&j, "window_instructions", lat);
        window_json(&j, "throughput_window_instructions", thr);
        tks__json_begin_array(&j, "warnings");
        for (size_t k = 0; k < nw; k++)
            tks__json_string(&j, NULL, warn[k]);
        tks__json_end_array(&j);
        tks__json_end_object(&j);
    }
    tks__json_end_array(&j);
    tks__json_end_object(&j);
    return tks__json_finish(&j);
}
