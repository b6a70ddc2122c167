/* SPDX-License-Identifier: MIT */
/* callees.c: the functions the cpu suite calls, with 0 to 7 integer arguments: the Dr Dobb's
 * experiment as examples/call_params runs it, reduced to the counts around the register limit
 * (six in registers on x86-64 System V, the seventh on the stack).
 * Why weak as well as noinline: see examples/call_params/call_params.c. A body the linker may
 * replace cannot be looked into, so the compiler neither inlines the call nor drops the
 * arguments the callee never reads; each callee is a bare `ret`. In their own file, too, so no
 * caller sees them. */
#include "sys/callees.h"

#define CALLEE __attribute__((noinline, weak))

CALLEE void tks__sys_callee_0(void) {}
CALLEE void tks__sys_callee_1(int a0) { (void)a0; }
CALLEE void tks__sys_callee_2(int a0, int a1) { (void)a0, (void)a1; }
CALLEE void tks__sys_callee_3(int a0, int a1, int a2) { (void)a0, (void)a1, (void)a2; }
CALLEE void tks__sys_callee_4(int a0, int a1, int a2, int a3)
{
    (void)a0, (void)a1, (void)a2, (void)a3;
}
CALLEE void tks__sys_callee_5(int a0, int a1, int a2, int a3, int a4)
{
    (void)a0, (void)a1, (void)a2, (void)a3, (void)a4;
}
CALLEE void tks__sys_callee_6(int a0, int a1, int a2, int a3, int a4, int a5)
{
    (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
}
CALLEE void tks__sys_callee_7(int a0, int a1, int a2, int a3, int a4, int a5, int a6)
{
    (void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
}
