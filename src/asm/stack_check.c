/* SPDX-License-Identifier: MIT */
/* stack_check.c: --kernel: how far a snippet moves RSP, read off its disassembly, against the
 * stack the module runs it on. Every iteration of the module's loop starts from the RSP the init
 * code left, and the module keeps TKS_KMOD_STACK_REACH bytes below and above it: enough for any
 * push, pop or call the copies can hold, but not for RSP arithmetic (`sub rsp, N`, `enter`), and
 * nothing bounds what `mov rsp, ...` sets. A snippet that would leave the stack is refused here,
 * before the module is asked: in ring 0 a push or an exception with RSP off the stack is a
 * double fault, which the kernel does not survive. A software interrupt (`int n`) is refused too:
 * it runs the kernel's own handler for that vector, which no escape contains. */
#include "asm/asm_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/kmod.h"

/* How far RSP can move, in bytes, while a run of instructions executes: its lowest and highest
 * point and where it ends, relative to where it starts. */
struct reach {
    long long low, high, end;
};

/* The number after the first comma (or the first operand), as objdump prints it: 0x... */
static long long operand(const char *ops, int which)
{
    const char *p = ops;
    if (which == 1 && (p = strchr(ops, ',')) != NULL)
        p++;
    return p ? (long long)strtoull(p, NULL, 0) : 0;
}

static int one_of(const char *mn, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(mn, *list))
            return 1;
    return 0;
}

/* Whether the operands ops start with register reg as the destination ("rsp,..." or "rsp"). */
static int destination(const char *ops, const char *reg)
{
    size_t n = strlen(reg);
    return !strncmp(ops, reg, n) && (ops[n] == ',' || !ops[n] || ops[n] == ' ');
}

/* How one instruction moves RSP (delta), or 0 with *unbounded set when it sets RSP to what the
 * check cannot follow. */
static long long rsp_delta(const char *insn, int *unbounded)
{
    static const char *const pushes[] = {"push", "pushq", "pushw", "pushf", "pushfq", "pushfw",
                                         "call", "callq", NULL};
    static const char *const pops[] = {"pop", "popq", "popw", "popf", "popfq", "popfw", NULL};
    static const char *const rets[] = {"ret", "retq", "retw", "retf", "retfq", NULL};
    char mn[32] = "";
    const char *ops;
    size_t n = strcspn(insn, " ");
    if (n >= sizeof mn)
        return 0;
    memcpy(mn, insn, n);
    ops = insn + n + strspn(insn + n, " ");
    if (one_of(mn, pushes))
        return -8;
    if (one_of(mn, pops) && !destination(ops, "rsp"))
        return 8;
    if (one_of(mn, rets))
        return 8 + (*ops ? operand(ops, 0) : 0);
    if (!strcmp(mn, "enter")) /* the frame, RBP, and up to 31 frame pointers */
        return -(operand(ops, 0) + 8 + 8 * (operand(ops, 1) & 31));
    if (!strcmp(mn, "leave") || !strncmp(mn, "iret", 4) || one_of(mn, pops) ||
        (!strcmp(mn, "xchg") && strstr(ops, "rsp")) || destination(ops, "esp") ||
        destination(ops, "sp")) {
        *unbounded = 1;
        return 0;
    }
    if (!destination(ops, "rsp") || !strcmp(mn, "cmp") || !strcmp(mn, "test") ||
        !strcmp(mn, "bt"))
        return 0; /* RSP is not written */
    if (!strcmp(mn, "sub") && isdigit((unsigned char)ops[4]))
        return -operand(ops, 1);
    if (!strcmp(mn, "add") && isdigit((unsigned char)ops[4]))
        return operand(ops, 1);
    if (!strcmp(mn, "inc") || !strcmp(mn, "dec"))
        return mn[0] == 'i' ? 1 : -1;
    if (!strcmp(mn, "and") && isdigit((unsigned char)ops[4]) && operand(ops, 1) < 0 &&
        operand(ops, 1) > -4096)
        return operand(ops, 1) + 1; /* an alignment: down by less than the boundary */
    *unbounded = 1;
    return 0;
}

/* `int n`, `int1` (icebp) and `into`: a gate into whatever the kernel has at that vector. `int3`
 * is not one of them: the module's die chain catches its trap like any other. */
static int software_interrupt(const char *insn)
{
    size_t n = strcspn(insn, " ");
    return (n == 3 && !strncmp(insn, "int", 3)) || (n == 4 && !strncmp(insn, "int1", 4)) ||
           (n == 5 && !strncmp(insn, "icebp", 5)) || (n == 4 && !strncmp(insn, "into", 4));
}

/* The reach of code[0, len), or TKS_EINVAL with err naming an instruction that sets RSP to
 * what cannot be followed; 1 when objdump is missing (nothing checked). */
static int reach_of(const unsigned char *code, size_t len, struct reach *r, char *err,
                    size_t errsz)
{
    enum { MAXL = 4096 };
    char (*lines)[128] = malloc(MAXL * sizeof *lines), why[256];
    int n;
    memset(r, 0, sizeof *r);
    if (!lines)
        return TKS_ENOMEM;
    n = len ? tks__asm_disassemble(code, len, TKS_ASM_INTEL, lines, MAXL, why, sizeof why) : 0;
    if (n < 0) {
        free(lines);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        int unbounded = 0;
        long long d;
        if (software_interrupt(tks__asm_insn_text(lines[i]))) {
            snprintf(err, errsz, "--kernel: `%s` runs the kernel's handler for that vector (an "
                     "interrupt's, a system call's) as if the event had happened, which no "
                     "escape contains: refused before it runs (kmod/README.md, \"What a snippet "
                     "can still break\")", tks__asm_insn_text(lines[i]));
            free(lines);
            return TKS_EINVAL;
        }
        d = rsp_delta(tks__asm_insn_text(lines[i]), &unbounded);
        if (unbounded) {
            snprintf(err, errsz, "--kernel: `%s` sets RSP to a value the module cannot bound, "
                     "and in ring 0 a push or an exception with RSP off the module's stack is a "
                     "double fault, which the kernel does not survive: refused before it runs "
                     "(kmod/README.md, \"What a snippet can still break\")",
                     tks__asm_insn_text(lines[i]));
            free(lines);
            return TKS_EINVAL;
        }
        r->end += d;
        r->low = r->end < r->low ? r->end : r->low;
        r->high = r->end > r->high ? r->end : r->high;
    }
    free(lines);
    return 0;
}

int tks__asm_check_stack(const unsigned char *code, size_t code_len, uint32_t copies,
                         const unsigned char *init, size_t init_len, char *err, size_t errsz)
{
    struct reach c, in;
    long long low, high, reach = TKS_KMOD_STACK_REACH;
    int rc;
    if ((rc = reach_of(code, code_len, &c, err, errsz)) != 0 ||
        (rc = reach_of(init, init_len, &in, err, errsz)) != 0)
        return rc == 1 ? 0 : rc; /* without objdump: the module's own bound only */
    copies = copies ? copies : 1;
    /* one iteration: copies back to back from the RSP the init code left */
    low = (c.end < 0 ? (long long)(copies - 1) * c.end : 0) + c.low + in.end;
    high = (c.end > 0 ? (long long)(copies - 1) * c.end : 0) + c.high + in.end;
    low = low < in.low ? low : in.low;
    high = high > in.high ? high : in.high;
    if (-low <= reach && high <= reach)
        return 0;
    snprintf(err, errsz, "--kernel: the snippet moves RSP by %+lld bytes a copy (%+lld at most "
             "within one), so an iteration of %u copies after the init code reaches %lld bytes "
             "%s where it starts, past the %lld bytes the module's stack keeps: refused before "
             "it runs",
             c.end, -low > high ? c.low : c.high, copies, -low > high ? -low : high,
             -low > high ? "below" : "above", reach);
    return TKS_EINVAL;
}
