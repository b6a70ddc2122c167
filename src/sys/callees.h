/* SPDX-License-Identifier: MIT */
/* callees.h: the cpu suite's callees (callees.c), 0 to 7 integer arguments, each a bare return. */
#ifndef TKS_SYS_CALLEES_H
#define TKS_SYS_CALLEES_H

void tks__sys_callee_0(void);
void tks__sys_callee_1(int a0);
void tks__sys_callee_2(int a0, int a1);
void tks__sys_callee_3(int a0, int a1, int a2);
void tks__sys_callee_4(int a0, int a1, int a2, int a3);
void tks__sys_callee_5(int a0, int a1, int a2, int a3, int a4);
void tks__sys_callee_6(int a0, int a1, int a2, int a3, int a4, int a5);
void tks__sys_callee_7(int a0, int a1, int a2, int a3, int a4, int a5, int a6);

#endif
