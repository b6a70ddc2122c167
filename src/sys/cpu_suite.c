/* SPDX-License-Identifier: MIT */
/* cpu_suite.c: the cpu suite: what a measurement costs, what the repetition loop costs, a call with 0
 * to 7 integer arguments (the Dr Dobb's staircase), an indirect call, and a branch the predictor
 * gets right against one it gets wrong half the time. */
#include <stdio.h>

#include "sys/callees.h"
#include "sys/sys_internal.h"

const char *const tks__sys_cpu_ids[] = {
    "overhead", "loop", "call_0", "call_1", "call_2", "call_3", "call_4", "call_5", "call_6",
    "call_7", "call_indirect", "branch_predicted", "branch_random", "branch_miss", NULL};

static void bm_empty(tks_state *st) { TKS_MEASURE(st, {}); }
/* An empty block the compiler cannot delete, nor the repetition loop around it. */
static void bm_loop(tks_state *st) { TKS_MEASURE(st, { __asm__ __volatile__(""); }); }

static void bm_call_0(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_0(); }); }
static void bm_call_1(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_1(0); }); }
static void bm_call_2(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_2(0, 1); }); }
static void bm_call_3(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_3(0, 1, 2); }); }
static void bm_call_4(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_4(0, 1, 2, 3); }); }
static void bm_call_5(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_5(0, 1, 2, 3, 4); }); }
static void bm_call_6(tks_state *st) { TKS_MEASURE(st, { tks__sys_callee_6(0, 1, 2, 3, 4, 5); }); }
static void bm_call_7(tks_state *st)
{
    TKS_MEASURE(st, { tks__sys_callee_7(0, 1, 2, 3, 4, 5, 6); });
}

/* Through a pointer the compiler cannot see the target of, so it stays an indirect call. */
static void bm_call_indirect(tks_state *st)
{
    void (*fn)(void) = tks__sys_callee_0;
    tks_opaque(fn);
    TKS_MEASURE(st, { fn(); });
}

/* The same xorshift step and one conditional branch per repetition; only the mask differs. With
 * mask 0 the branch is never taken (predicted every time); with mask 1 it follows the low bit of
 * the generator (taken half the time at random: mispredicted about half the time). The volatile
 * asm in the taken arm keeps the compiler from turning the branch into a conditional move. */
static void branch(tks_state *st, unsigned long long mask)
{
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    tks_opaque(mask);
    TKS_MEASURE(st, {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x & mask)
            __asm__ __volatile__("nop");
    });
    tks_do_not_optimize(x);
}
static void bm_branch_predicted(tks_state *st) { branch(st, 0); }
static void bm_branch_random(tks_state *st) { branch(st, 1); }

int tks__sys_cpu(struct tks__sys_run *run)
{
    static const struct {
        tks_bench_fn fn;
        const char *id, *what;
    } calls[] = {
        {bm_call_0, "call_0", "call with 0 integer arguments"},
        {bm_call_1, "call_1", "call with 1 integer argument"},
        {bm_call_2, "call_2", "call with 2 integer arguments"},
        {bm_call_3, "call_3", "call with 3 integer arguments"},
        {bm_call_4, "call_4", "call with 4 integer arguments"},
        {bm_call_5, "call_5", "call with 5 integer arguments"},
        {bm_call_6, "call_6", "call with 6 integer arguments (the last in a register)"},
        {bm_call_7, "call_7", "call with 7 integer arguments (one on the stack)"},
    };
    tks_sys_op *op;
    if (tks__sys_wanted(run, "overhead") &&
        (op = tks__sys_measure_figure(run, "overhead", "measurement overhead (empty window)",
                                      bm_empty, TKS_MODE_LATENCY, 1, 1)) != NULL) {
        tks_diags_free(&op->diags); /* the runner's are about the empty block, not its window */
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_OVERHEAD);
    }
    if (tks__sys_wanted(run, "loop") &&
        (op = tks__sys_measure(run, "loop", "loop overhead (one repetition)", bm_loop,
                               TKS_MODE_THROUGHPUT, 1)) != NULL) {
        tks_diags_free(&op->diags); /* the runner's "at the loop's floor" is this row's subject */
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_LOOP);
    }
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (tks__sys_wanted(run, calls[i].id) &&
            (op = tks__sys_measure(run, calls[i].id, calls[i].what, calls[i].fn,
                                   TKS_MODE_LATENCY, 1)) != NULL)
            tks__sys_note0(op, i == 7 ? TKS_DIAG_SYS_ROW_CALL_STACK : TKS_DIAG_SYS_ROW_CALL);
    if (tks__sys_wanted(run, "call_indirect") &&
        (op = tks__sys_measure(run, "call_indirect", "indirect call (0 arguments)",
                               bm_call_indirect, TKS_MODE_LATENCY, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_CALL_INDIRECT);
    if (tks__sys_wanted(run, "branch_predicted") &&
        (op = tks__sys_measure(run, "branch_predicted", "xorshift step + branch never taken",
                               bm_branch_predicted, TKS_MODE_THROUGHPUT, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_BRANCH_PREDICTED);
    if (tks__sys_wanted(run, "branch_random") &&
        (op = tks__sys_measure(run, "branch_random", "xorshift step + branch taken at random",
                               bm_branch_random, TKS_MODE_THROUGHPUT, 1)) != NULL)
        tks__sys_note0(op, TKS_DIAG_SYS_ROW_BRANCH_RANDOM);
    tks__sys_derive(run, "branch_miss", "branch misprediction penalty", "branch_random",
                    "branch_predicted", 1.0, 2.0, TKS_DIAG_SYS_ROW_BRANCH_MISS);
    return 0;
}
