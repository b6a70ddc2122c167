/* SPDX-License-Identifier: MIT */
/* window.h: the instructions inside the measured windows of a function in the running program:
 * from the end of each begin sequence to the start of its end sequence, found in the function's
 * machine code (its address and size from the symbol table, disassembled by objdump), with what
 * does not belong there flagged. x86-64 Linux. */
#ifndef TKS_ASM_WINDOW_H
#define TKS_ASM_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#define TKS__WIN_CALL    1u /* calls a function the user did not write (tickscope, instrumentation) */
#define TKS__WIN_STORE   2u /* stores the first reading to memory */
#define TKS__WIN_CPUID   4u /* holds a CPUID (a trap to the hypervisor in a guest) */
#define TKS__WIN_JUMPOUT 8u /* leaves by an unconditional jump: shown up to it */

typedef struct tks__window {
    char method[16];     /* lfence, mfence, serialize, rdtscp, cpuid or rdtsc */
    int loop;            /* holds a branch back into itself: a throughput window's k-loop */
    uint64_t address;    /* of its first instruction, in the file's addresses */
    size_t n;
    char (*insn)[96];    /* n instructions, "mnemonic operands" (AT&T), malloc'd */
    unsigned flags;      /* TKS__WIN_* */
    char call[64];       /* the first foreign call's target, when TKS__WIN_CALL */
} tks__window;

/* Disassemble the function containing code address fn and find its windows. *symbol gets its
 * name. TKS_EUNAVAIL without objdump or off x86-64 Linux; TKS_EINVAL when no symbol covers fn
 * (a stripped program); err says why. */
int tks__windows_find(const void *fn, tks__window **out, size_t *n, char *symbol,
                      size_t symsize, char *err, size_t errsize);
/* The windows of the function called name in the file that holds code address anchor (the
 * library's own sampling loops, which are not exported). */
int tks__windows_find_named(const void *anchor, const char *name, tks__window **out, size_t *n,
                            char *err, size_t errsize);
/* The same on objdump's output (tests): text is `objdump -d --no-show-raw-insn` of one function. */
int tks__windows_parse(const char *text, tks__window **out, size_t *n);
void tks__windows_free(tks__window *w, size_t n);

#endif
