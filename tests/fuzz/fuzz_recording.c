/* SPDX-License-Identifier: MIT */
/* fuzz_recording.c: a recording read back and analysed, by each replay `tickscope replay` may
 * hand it to: a benchmark program's (tks__replay_bytes: the container, the machine's section, the
 * program's and every run's, then the analysis of whatever windows the input holds), validate's
 * (tks__validate_replay: its methods' sections and its end) and resolution's
 * (tks__resolution_replay) and asm's for one snippet (tks__asm_replay: its windows fitted
 * again). Checked: no crash, leak or undefined behaviour; a documented return
 * with a reason; a read recording's results as many as its instances times its repetitions,
 * each named; a read validation's recommendation one of its methods, a read resolution's points
 * n = 0..max_work. */
#include "analysis/resolution.h"
#include "analysis/validate.h"
#include "asm/asm_record.h"
#include "fuzz.h"
#include "runner/replay.h"
#include "tickscope.h"

static void validation(const uint8_t *data, size_t size)
{
    tks_platform p;
    tks_validation *v;
    char err[512] = "";
    int rc = tks__validate_replay(data, size, &p, &v, err, sizeof err);
    if (rc != 0 && (rc != TKS_EINVAL || !err[0] || v))
        abort();
    if (rc == 0) {
        if (v->recommended >= TKS_METHOD_COUNT ||
            (v->recommended >= 0 && !v->methods[v->recommended].selected))
            abort();
        tks_validation_free(v);
        tks_platform_free(&p);
    }
}

static void resolution(const uint8_t *data, size_t size)
{
    tks_platform p;
    tks_resolution_result *r;
    char err[512] = "", reason[128];
    int rc = tks__resolution_replay(data, size, &p, &r, reason, sizeof reason, err, sizeof err);
    if (rc != 0 && (rc != TKS_EINVAL || !err[0] || r))
        abort();
    if (rc == 0) {
        if (r->npoints != r->max_work + 1 || r->points[r->max_work].n != r->max_work ||
            !r->method_reason)
            abort();
        tks_resolution_result_free(r);
        tks_platform_free(&p);
    }
}

static void snippet(const uint8_t *data, size_t size)
{
    tks__asm_replayed x;
    char err[512] = "";
    int rc = tks__asm_replay(data, size, &x, err, sizeof err);
    if (rc != 0 && (rc != TKS_EINVAL || !err[0] || x.code))
        abort();
    if (rc == 0) {
        if (!x.code || x.r.n_disasm > TKS_ASM_DISASM_MAX || !x.r.windows)
            abort();
        tks__asm_replayed_free(&x);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tks__replay rp;
    char err[512] = "";
    int rc = tks__replay_bytes(data, size, &rp, err, sizeof err);
    if (rc != 0 && (rc != TKS_EINVAL || !err[0]))
        abort();
    if (rc == 0) {
        if (!rp.n_results || !rp.o.repetitions || rp.n_results % rp.o.repetitions)
            abort();
        for (size_t i = 0; i < rp.n_results; i++)
            if (!memchr(rp.results[i].name, 0, sizeof rp.results[i].name))
                abort();
        tks__replay_free(&rp);
    }
    validation(data, size);
    resolution(data, size);
    snippet(data, size);
    return 0;
}
