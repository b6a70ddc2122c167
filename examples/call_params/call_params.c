/* SPDX-License-Identifier: MIT */
/* call_params.c: the Dr Dobb's "Testing Times" experiment (R. Vaughan, 2006): the cost of calling
 * a function that takes 0, 1, ... 24 int parameters, one benchmark per count (call/0 .. call/24).
 *
 * Build: part of `make` (build/examples/call_params). Run: ./build/examples/call_params --help
 *
 * What is in each window: the caller's argument set-up (six registers, then stack slots for the
 * 7th parameter on, in the x86-64 System V convention), the call, the callee's return and the
 * caller's stack adjustment. The callees do nothing else, so the differences between counts are
 * the cost of passing parameters. */
#include <tickscope/bench.h>

/* The callee must really be called, with every argument really passed, and do nothing else.
 * noinline alone is not enough: compilers still look inside a noinline function they can see,
 * and gcc clones it for its constant arguments or drops the parameters it never reads, while
 * clang stops setting up unread arguments at the call site. A weak definition may be replaced
 * at link time by another one, so the compiler may assume nothing about its body and must make
 * the call by the book, with gcc and clang alike.
 * Why not tks_opaque or tks_do_not_optimize on each parameter, in the callee? They emit no
 * instruction of their own, but they make the value live in a register or in memory of the
 * compiler's choosing: depending on the compiler, the stack parameters get loaded or the
 * register ones spilled, work that is no part of passing them. This way every callee compiles
 * to a bare `ret` (check with objdump -d build/examples/call_params | grep -A1 '<callee_24>:'). */
#define CALLEE __attribute__((noinline, weak))

/* REP_n(X, SEP, EMPTY) expands to X(0) SEP() X(1) SEP() ... X(n-1), or to EMPTY when n is 0.
 * Every parameter list, argument list and body below is generated from this one list, so the 25
 * functions differ only in n. SEP is the name of a function-like macro (COMMA or NOTHING): were
 * it a bare comma, the commas would split the arguments of the nested REP calls. */
#define REP_0(X, SEP, EMPTY) EMPTY
#define REP_1(X, SEP, EMPTY) X(0)
#define REP_2(X, SEP, EMPTY) REP_1(X, SEP, EMPTY) SEP() X(1)
#define REP_3(X, SEP, EMPTY) REP_2(X, SEP, EMPTY) SEP() X(2)
#define REP_4(X, SEP, EMPTY) REP_3(X, SEP, EMPTY) SEP() X(3)
#define REP_5(X, SEP, EMPTY) REP_4(X, SEP, EMPTY) SEP() X(4)
#define REP_6(X, SEP, EMPTY) REP_5(X, SEP, EMPTY) SEP() X(5)
#define REP_7(X, SEP, EMPTY) REP_6(X, SEP, EMPTY) SEP() X(6)
#define REP_8(X, SEP, EMPTY) REP_7(X, SEP, EMPTY) SEP() X(7)
#define REP_9(X, SEP, EMPTY) REP_8(X, SEP, EMPTY) SEP() X(8)
#define REP_10(X, SEP, EMPTY) REP_9(X, SEP, EMPTY) SEP() X(9)
#define REP_11(X, SEP, EMPTY) REP_10(X, SEP, EMPTY) SEP() X(10)
#define REP_12(X, SEP, EMPTY) REP_11(X, SEP, EMPTY) SEP() X(11)
#define REP_13(X, SEP, EMPTY) REP_12(X, SEP, EMPTY) SEP() X(12)
#define REP_14(X, SEP, EMPTY) REP_13(X, SEP, EMPTY) SEP() X(13)
#define REP_15(X, SEP, EMPTY) REP_14(X, SEP, EMPTY) SEP() X(14)
#define REP_16(X, SEP, EMPTY) REP_15(X, SEP, EMPTY) SEP() X(15)
#define REP_17(X, SEP, EMPTY) REP_16(X, SEP, EMPTY) SEP() X(16)
#define REP_18(X, SEP, EMPTY) REP_17(X, SEP, EMPTY) SEP() X(17)
#define REP_19(X, SEP, EMPTY) REP_18(X, SEP, EMPTY) SEP() X(18)
#define REP_20(X, SEP, EMPTY) REP_19(X, SEP, EMPTY) SEP() X(19)
#define REP_21(X, SEP, EMPTY) REP_20(X, SEP, EMPTY) SEP() X(20)
#define REP_22(X, SEP, EMPTY) REP_21(X, SEP, EMPTY) SEP() X(21)
#define REP_23(X, SEP, EMPTY) REP_22(X, SEP, EMPTY) SEP() X(22)
#define REP_24(X, SEP, EMPTY) REP_23(X, SEP, EMPTY) SEP() X(23)
#define COMMA() ,
#define NOTHING()

#define PARAM(i) int a##i          /* callee_3(int a0, int a1, int a2) */
#define ARG(i) i                   /* callee_3(0, 1, 2): constants, as a real caller often has */
#define UNUSED(i) (void)a##i;     /* read by no one, on purpose: see CALLEE */

/* DEFINE_CALL(n): the callee with n parameters and the benchmark body that times one call of it.
 * The callee has external linkage, as a weak function must; its prototype comes first because
 * such a function should have one. */
#define DEFINE_CALL(n)                                                                     \
    CALLEE void callee_##n(REP_##n(PARAM, COMMA, void));                                   \
    CALLEE void callee_##n(REP_##n(PARAM, COMMA, void))                                    \
    {                                                                                      \
        REP_##n(UNUSED, NOTHING, )                                                         \
    }                                                                                      \
    static void measure_##n(tks_state *st)                                                 \
    {                                                                                      \
        TKS_MEASURE(st, { callee_##n(REP_##n(ARG, COMMA, )); });                           \
    }

DEFINE_CALL(0)  DEFINE_CALL(1)  DEFINE_CALL(2)  DEFINE_CALL(3)  DEFINE_CALL(4)
DEFINE_CALL(5)  DEFINE_CALL(6)  DEFINE_CALL(7)  DEFINE_CALL(8)  DEFINE_CALL(9)
DEFINE_CALL(10) DEFINE_CALL(11) DEFINE_CALL(12) DEFINE_CALL(13) DEFINE_CALL(14)
DEFINE_CALL(15) DEFINE_CALL(16) DEFINE_CALL(17) DEFINE_CALL(18) DEFINE_CALL(19)
DEFINE_CALL(20) DEFINE_CALL(21) DEFINE_CALL(22) DEFINE_CALL(23) DEFINE_CALL(24)

/* One registered benchmark with the parameter count as its argument, so the report reads
 * call/0 .. call/24 and --filter 'call/(0|12|24)$' picks counts. The dispatch happens here,
 * outside every window: each measure_n holds its own TKS_MEASURE, so a window holds only the
 * argument set-up, a direct call to callee_n and the stack adjustment after it (plus what any
 * caller keeps across a call: gcc saves the clock's begin reading on the stack). */
static void (*const measure[])(tks_state *) = {
    measure_0,  measure_1,  measure_2,  measure_3,  measure_4,  measure_5,  measure_6,
    measure_7,  measure_8,  measure_9,  measure_10, measure_11, measure_12, measure_13,
    measure_14, measure_15, measure_16, measure_17, measure_18, measure_19, measure_20,
    measure_21, measure_22, measure_23, measure_24};

static void call(tks_state *st)
{
    long long n = tks_state_arg(st);
    if (n < 0 || n >= (long long)(sizeof measure / sizeof measure[0])) {
        tks_state_skip(st, "there is a callee for 0 to 24 parameters only");
        return;
    }
    measure[n](st);
}
TKS_BENCHMARK_ARGS(call, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                   21, 22, 23, 24);

TKS_MAIN();
