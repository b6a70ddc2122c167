/* SPDX-License-Identifier: MIT */
/* tickscope/bench_args.h: a benchmark's integer arguments, registered the way Google Benchmark's
 * are, as short to write (included by tickscope/bench.h; not for direct inclusion):
 *
 *     Google Benchmark                                 tickscope
 *     BENCHMARK(BM_x)->Arg(8)->Arg(64);                TKS_BENCHMARK(bm_x, TKS_ARG(8), TKS_ARG(64));
 *     BENCHMARK(BM_x)->Args({64, 8});                  TKS_BENCHMARK(bm_x, TKS_ARGS(64, 8));
 *     BENCHMARK(BM_x)->Range(8, 8 << 10);              TKS_BENCHMARK(bm_x, TKS_RANGE(8, 8 << 10));
 *     ->RangeMultiplier(2)->Range(8, 64)               TKS_RANGE_MULTIPLIER(2), TKS_RANGE(8, 64)
 *     ->DenseRange(0, 1024, 128)                       TKS_DENSE_RANGE(0, 1024, 128)
 *     ->Ranges({{8, 1024}, {1, 8}})                    TKS_RANGES(8, 1024, 1, 8)
 *     ->ArgsProduct({{8, 64}, {1, 2, 4}})              TKS_ARGS_PRODUCT(TKS_LIST(8, 64), TKS_LIST(1, 2, 4))
 *     ->ArgsProduct({CreateRange(8, 128, 2),           TKS_ARGS_PRODUCT(TKS_CREATE_RANGE(8, 128, 2),
 *                    CreateDenseRange(1, 4, 1)})                        TKS_CREATE_DENSE_RANGE(1, 4, 1))
 *     ->ArgNames({"size", "stride"})                   TKS_ARG_NAMES("size", "stride")
 *     ->ArgName("size")                                TKS_ARG_NAME("size")
 *
 * The steps run in order, as Google Benchmark's calls do (a multiplier applies to the ranges
 * after it), and the runs get Google Benchmark's names: "bm_x/4096", "bm_x/size:64/stride:8".
 * The body reads its arguments with tks_state_arg_at(st, i) (tks_state_arg(st) is the first).
 * A step that Google Benchmark would stop on (a range whose high end is below its low end, a
 * multiplier below 2, runs of different arities, more names than arguments) makes the program
 * stop at start with a one-line reason naming the benchmark. */
#ifndef TICKSCOPE_BENCH_ARGS_H
#define TICKSCOPE_BENCH_ARGS_H

#define TKS_ARITY_MAX 8       /* arguments per run */
#define TKS_STEP_VALUES 32    /* values one step holds (TKS_ARGS, TKS_LIST, TKS_RANGES) */
#define TKS_RUNS_MAX 4096     /* runs one benchmark's steps may expand into */

/* The steps' kinds (the macros below fill them; a main of your own may too). */
enum tks_args_step_kind {
    TKS_STEP_END,           /* the end of the list (the registration macros add it) */
    TKS_STEP_ARGS,          /* v[0..n): one run with these arguments (Arg, Args) */
    TKS_STEP_RANGE,         /* v = {lo, hi}: Range */
    TKS_STEP_MULTIPLIER,    /* v = {m}, m >= 2: RangeMultiplier, for the ranges after it */
    TKS_STEP_DENSE,         /* v = {start, limit[, step]}: DenseRange (step 1 by default) */
    TKS_STEP_RANGES,        /* v = {lo1, hi1, lo2, hi2, ...}: Ranges, one argument a pair */
    TKS_STEP_LIST,          /* v[0..n): one argument's values, for the next TKS_STEP_PRODUCT */
    TKS_STEP_LIST_RANGE,    /* v = {lo, hi, m}: CreateRange, for the next TKS_STEP_PRODUCT */
    TKS_STEP_LIST_DENSE,    /* v = {start, limit[, step]}: CreateDenseRange, the same */
    TKS_STEP_PRODUCT,       /* every combination of the lists before it: ArgsProduct */
    TKS_STEP_NAMES          /* names[0..n): the arguments' names (ArgNames, ArgName) */
};

typedef struct tks_args_step {
    int kind;                            /* enum tks_args_step_kind */
    int n;                               /* values in v, or names in names */
    long long v[TKS_STEP_VALUES];
    const char *names[TKS_ARITY_MAX];    /* TKS_STEP_NAMES: "" leaves an argument unnamed */
} tks_args_step;

/* One run's arguments, as the runner hands them to a benchmark. */
typedef struct tks_args {
    size_t n;                            /* 0: a benchmark without arguments */
    long long v[TKS_ARITY_MAX];
    const char *names[TKS_ARITY_MAX];    /* NULL or "": unnamed */
} tks_args;

/* The count of a macro's arguments, 1 to 33 (33 means too many: the initialiser then has more
 * values than a step holds, which the compiler reports). */
#define TKS__NARG(...)                                                                     \
    TKS__NARG_(__VA_ARGS__, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,  \
               17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TKS__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, \
                   a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, \
                   a33, N, ...)                                                            \
    N
#define TKS__STEP(kind, ...) {kind, TKS__NARG(__VA_ARGS__), {__VA_ARGS__}, {""}}
#define TKS__STEP0(kind) {kind, 0, {0}, {""}}

#define TKS_ARG(x) TKS__STEP(TKS_STEP_ARGS, x)
#define TKS_ARGS(...) TKS__STEP(TKS_STEP_ARGS, __VA_ARGS__)
#define TKS_RANGE(lo, hi) TKS__STEP(TKS_STEP_RANGE, lo, hi)
#define TKS_RANGE_MULTIPLIER(m) TKS__STEP(TKS_STEP_MULTIPLIER, m)
#define TKS_DENSE_RANGE(...) TKS__STEP(TKS_STEP_DENSE, __VA_ARGS__)
#define TKS_RANGES(...) TKS__STEP(TKS_STEP_RANGES, __VA_ARGS__)
#define TKS_LIST(...) TKS__STEP(TKS_STEP_LIST, __VA_ARGS__)
#define TKS_CREATE_RANGE(lo, hi, m) TKS__STEP(TKS_STEP_LIST_RANGE, lo, hi, m)
#define TKS_CREATE_DENSE_RANGE(...) TKS__STEP(TKS_STEP_LIST_DENSE, __VA_ARGS__)
#define TKS_ARGS_PRODUCT(...) __VA_ARGS__, TKS__STEP0(TKS_STEP_PRODUCT)
#define TKS_ARG_NAMES(...) {TKS_STEP_NAMES, TKS__NARG(__VA_ARGS__), {0}, {__VA_ARGS__}}
#define TKS_ARG_NAME(name) TKS_ARG_NAMES(name)

#endif /* TICKSCOPE_BENCH_ARGS_H */
