/* asm_table.c: a table of measured snippets, a row per snippet, as a console table, Markdown
 * (a user's own uops.info row for this machine), CSV and JSON. */
#include "report/asm/asm_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


#define COLS 7
static const char *const headers[COLS] = {"name", "mode", "ticks", "core cycles",
                                          "95% interval (cycles)", "r2", "code"};

static void num(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.3f", v);
    else
        snprintf(buf, size, "-");
}

static void cells_of(const tks__asm_request *q, const tks_asm_result *r, int rc,
                     char cell[COLS][160])
{
    snprintf(cell[0], 160, "%s", q->name ? q->name : "");
    snprintf(cell[1], 160, "%s", q->mode == TKS_ASM_THROUGHPUT ? "throughput" : "latency");
    if (rc) {
        snprintf(cell[2], 160, "error");
        snprintf(cell[3], 160, "-");
        snprintf(cell[4], 160, "%.150s", r->error);
        snprintf(cell[5], 160, "-");
    } else {
        num(cell[2], 160, r->ticks_per_copy.value);
        num(cell[3], 160, r->core_cycles.value);
        if (isfinite(r->core_cycles.value))
            snprintf(cell[4], 160, "[%.3f, %.3f]", r->core_cycles.lo, r->core_cycles.hi);
        else
            snprintf(cell[4], 160, "-");
        snprintf(cell[5], 160, "%.4f", r->fit.r2);
    }
    snprintf(cell[6], 160, "%.150s", q->code);
}

int tks__report_asm_table(const tks__asm_request *q, const tks_asm_result *r, const int *rc,
                          size_t n, const tks_platform *p, enum tks_format format, FILE *f)
{
    char cell[COLS][160];
    if (format == TKS_FORMAT_JSON) {
        tks__json j;
        tks__report_asm_json_begin(&j, p, f);
        tks__json_begin_array(&j, "rows");
        for (size_t i = 0; i < n; i++) {
            tks__json_begin_object(&j, NULL);
            tks__report_asm_members(&j, &q[i], &r[i]);
            tks__json_string(&j, "error", rc[i] ? r[i].error : NULL);
            tks__json_end_object(&j);
        }
        tks__json_end_array(&j);
        tks__json_end_object(&j);
        return tks__json_finish(&j);
    }
    if (format == TKS_FORMAT_CSV) {
        fputs("name,mode,code,ticks_per_copy,ticks_lo,ticks_hi,core_cycles,core_cycles_lo,"
              "core_cycles_hi,r2,error\n", f);
        for (size_t i = 0; i < n; i++) {
            tks__csv_field(f, q[i].name ? q[i].name : "");
            fputc(',', f);
            tks__csv_field(f, q[i].mode == TKS_ASM_THROUGHPUT ? "throughput" : "latency");
            fputc(',', f);
            tks__csv_field(f, q[i].code);
            if (rc[i]) {
                for (int k = 0; k < 7; k++)
                    tks__csv_next_double(f, NAN);
                fputc(',', f);
                tks__csv_field(f, r[i].error);
            } else {
                tks__csv_next_double(f, r[i].ticks_per_copy.value);
                tks__csv_next_double(f, r[i].ticks_per_copy.lo);
                tks__csv_next_double(f, r[i].ticks_per_copy.hi);
                tks__csv_next_double(f, r[i].core_cycles.value);
                tks__csv_next_double(f, r[i].core_cycles.lo);
                tks__csv_next_double(f, r[i].core_cycles.hi);
                tks__csv_next_double(f, r[i].fit.r2);
                fputc(',', f);
            }
            fputc('\n', f);
        }
        return ferror(f) ? TKS_EIO : 0;
    }
    if (format == TKS_FORMAT_MARKDOWN) {
        fputs("|", f);
        for (int c = 0; c < COLS; c++)
            tks__md_cell(f, headers[c]);
        fputs("\n| --- | --- | ---: | ---: | --- | ---: | --- |\n", f);
        for (size_t i = 0; i < n; i++) {
            cells_of(&q[i], &r[i], rc[i], cell);
            fputs("|", f);
            for (int c = 0; c < COLS; c++) {
                if (c == COLS - 1) {
                    char code[170];
                    snprintf(code, sizeof code, "`%s`", cell[c]);
                    tks__md_cell(f, code);
                } else {
                    tks__md_cell(f, cell[c]);
                }
            }
            fputc('\n', f);
        }
        return ferror(f) ? TKS_EIO : 0;
    }
    {
        tks__table *t = tks__table_new(COLS, headers, "llrrlrl");
        const char *row[COLS];
        if (!t)
            return TKS_ENOMEM;
        for (size_t i = 0; i < n; i++) {
            cells_of(&q[i], &r[i], rc[i], cell);
            for (int c = 0; c < COLS; c++)
                row[c] = cell[c];
            if (tks__table_add_row(t, row) != 0) {
                tks__table_free(t);
                return TKS_ENOMEM;
            }
        }
        fputs("Cost per copy: ticks and core cycles (an estimate from an interleaved dependent-add "
              "reference); latency = result to result, throughput = start to start.\n", f);
        tks__table_print(t, f, "");
        tks__table_free(t);
    }
    return ferror(f) ? TKS_EIO : 0;
}
