// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/* area.c: the snippet area (snippet.c writes and runs it): 24 KiB of the module's text, reserved
 * at build time, and the exception-table entries and fault sled that catch a fault at any of its
 * bytes. */
#include <linux/compiler.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <asm/extable_fixup_types.h>

#include "snippet.h"

/* Written by the sled's tail (below) and snippet.c's die notifier: the last fault's vector, the
 * sled's count (TKS_AREA_BYTES - its byte), and whether there was one. */
u32 tks_fault_vector, tks_fault_left, tks_fault_hit;

/* To objtool the area is one function: ENDBR64 (its address is taken: IBT wants one there), then
 * INT3s, each an instruction, which is what it holds between runs. Behind it, the fault sled: the
 * exception-table entry for byte i of the area (from TKS_OFF_BODY on: the init code, the loop and
 * the filler after it) has type FAULT (RAX := the vector) with RDX cleared, and lands on the
 * (i - TKS_OFF_BODY)th of AREA - TKS_OFF_BODY "inc edx", so that RDX counts AREA - i when they
 * end. The tail records both and leaves through the escape. 12 bytes an entry, ~285 KiB: the
 * price of catching a fault at any byte, the only fixup the kernel's tables can express. The
 * module's own entry and escape (below TKS_OFF_BODY) have no entry: a fault there is the
 * module's bug, reported as one, and never sent back to the escape it may have come from. */
/* The area itself: page-aligned in the module's text, ENDBR64 then INT3 up to 24 KiB. */
#define TKS_AREA_ASM                                                                       \
    ".pushsection .text.tks_snippet_area, \"ax\", @progbits\n"                           \
    ".balign 4096\n"                                                                       \
    ".type tks_snippet_area, @function\n"                                                  \
    ".globl tks_snippet_area\n"                                                            \
    "tks_snippet_area:\n"                                                                  \
    ".byte 0xf3, 0x0f, 0x1e, 0xfa\n"                                                        \
    ".fill 6 * 4096 - 4, 1, 0xcc\n"
#define TKS_EX_TYPE __stringify(EX_TYPE_FAULT | EX_FLAG_CLEAR_DX)
asm(TKS_AREA_ASM
    "tks_snippet_sled:\n"
    ".rept 6 * 4096 - " __stringify(TKS_OFF_BODY) "\n"
    "incl %edx\n"
    ".endr\n"
    "movl %eax, tks_fault_vector(%rip)\n"
    "movl %edx, tks_fault_left(%rip)\n"
    "movl $1, tks_fault_hit(%rip)\n"
    "jmp tks_snippet_area + " __stringify(TKS_OFF_ESCAPE) "\n"
    ".size tks_snippet_area, . - tks_snippet_area\n"
    ".popsection\n"
    ".pushsection __ex_table, \"a\"\n"
    ".balign 4\n"
    ".set tks_ex_i, " __stringify(TKS_OFF_BODY) "\n"
    ".rept 6 * 4096 - " __stringify(TKS_OFF_BODY) "\n"
    ".long tks_snippet_area + tks_ex_i - .\n"
    ".long tks_snippet_sled + 2 * (tks_ex_i - " __stringify(TKS_OFF_BODY) ") - .\n"
    ".long " TKS_EX_TYPE "\n"
    ".set tks_ex_i, tks_ex_i + 1\n"
    ".endr\n"
    ".popsection\n");
extern u8 tks_snippet_area[];

/* The area's address, hidden from the compiler so that it does not fold an offset into a
 * relocation: objtool (IBT) takes a reference to tks_snippet_area + n for an indirect-branch
 * target without ENDBR. */
unsigned long tks_area(void)
{
	unsigned long a = (unsigned long)tks_snippet_area;

	OPTIMIZER_HIDE_VAR(a);
	return a;
}
