/* SPDX-License-Identifier: MIT */
/* test_asm.c: the pure parts of `tickscope asm` on hand-checked inputs: the unroll fit and its
 * intervals, the ratio to the reference, table rows, hex, and the placeholders of each copy. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"
#include "asm/window.h"
#include "check.h"
#include "stats/unroll_fit.h"
#include "tickscope.h"

static const uint32_t K[4] = {16, 32, 48, 64};

/* Windows of an exact cost: loops x (k c + o) + h, with two interrupted windows and one that
 * changed CPU. c = 2.5, o = 3, loops = 100, h = 80: ticks per iteration = 2.5 k + 3.8. */
static void test_exact(void)
{
    enum { R = 32 };
    uint64_t t[R * 4];
    tks__unroll_fit f;
    for (size_t r = 0; r < R; r++)
        for (size_t j = 0; j < 4; j++)
            t[r * 4 + j] = (uint64_t)(100 * (2.5 * K[j] + 3) + 80);
    t[5 * 4 + 1] += 50000;              /* an interrupt */
    t[20 * 4 + 3] += 9000;              /* another */
    t[9 * 4 + 2] = TKS__UNROLL_DISCARDED; /* the CPU changed */
    CHECK(tks__unroll_estimate(t, R, K, 4, 100, 26, 8, &f) == 0);
    CHECK_NEAR(f.value, 2.5, 1e-12);
    CHECK_NEAR(f.fit.intercept, 3.8, 1e-10);
    CHECK_NEAR(f.fit.r2, 1.0, 1e-12);
    CHECK_NEAR(f.lo, 2.5, 1e-10);
    CHECK_NEAR(f.hi, 2.5, 1e-10);
    CHECK_EQ_U64(f.fit.n, 32); /* 8 blocks x 4 unrolls */
    CHECK_EQ_U64(f.kept, R * 4 - 3);
    CHECK_EQ_U64(f.discarded, 3);
    CHECK_EQ_U64(f.blocks, 8);
}

/* Blocks alternating between two slopes, 2.0 and 2.1: the blocks' mean is 2.05, their population
 * variance 0.0025, so the between-blocks half-width is t(7) sqrt(0.0025 / 7) = 2.365 x 0.018898
 * = 0.044693; each block's own points lie on a line, but the pooled fit scatters. */
static void test_between_blocks(void)
{
    enum { R = 16 };
    uint64_t t[R * 4];
    tks__unroll_fit f;
    for (size_t r = 0; r < R; r++)
        for (size_t j = 0; j < 4; j++)
            t[r * 4 + j] = (uint64_t)(1000 * ((r / 2) % 2 ? 2.1 : 2.0) * K[j]);
    CHECK(tks__unroll_estimate(t, R, K, 4, 1000, 1, 8, &f) == 0);
    CHECK_NEAR(f.value, 2.05, 1e-9);
    for (size_t b = 0; b < 8; b++)
        CHECK_NEAR(f.block_slope[b], b % 2 ? 2.1 : 2.0, 1e-9);
    CHECK_NEAR(f.half_between, 2.3646243 * sqrt(0.0025 / 7), 1e-6); /* t(0.975, 7 df) */
    CHECK(f.hi - f.value >= f.half_between - 1e-12);
    CHECK(f.hi - f.value >= f.half_fit - 1e-12);
}

static void test_errors(void)
{
    uint64_t t[8 * 4] = {0};
    uint32_t same[4] = {8, 8, 8, 8};
    tks__unroll_fit f;
    CHECK(tks__unroll_estimate(t, 8, same, 4, 1, 1, 4, &f) == TKS_EINVAL);
    CHECK(tks__unroll_estimate(t, 8, K, 1, 1, 1, 4, &f) == TKS_EINVAL);
    CHECK(tks__unroll_estimate(t, 2, K, 4, 1, 1, 4, &f) == TKS_EINVAL); /* more blocks than rounds */
    CHECK(tks__unroll_estimate(t, 8, K, 4, 0, 1, 4, &f) == TKS_EINVAL);
    for (size_t i = 0; i < 8; i++)
        t[i] = TKS__UNROLL_DISCARDED; /* block 0 (rounds 0-1) has no window left */
    CHECK(tks__unroll_estimate(t, 8, K, 4, 1, 1, 4, &f) == TKS_EINVAL);
}

/* 3.0 +- 0.03 over 0.6 +- 0.006: 5, each 1% wide, so +- 5 sqrt(2) 1% = 0.070711. */
static void test_ratio(void)
{
    tks__unroll_fit n, d;
    double v, lo, hi;
    memset(&n, 0, sizeof n);
    memset(&d, 0, sizeof d);
    n.value = 3, n.lo = 2.97, n.hi = 3.03, n.blocks = 1;
    d.value = 0.6, d.lo = 0.594, d.hi = 0.606, d.blocks = 1;
    CHECK(tks__unroll_ratio(&n, &d, &v, &lo, &hi) == 0);
    CHECK_NEAR(v, 5, 1e-12);
    CHECK_NEAR(hi - v, 5 * sqrt(2) * 0.01, 1e-9);
    CHECK_NEAR(v - lo, 5 * sqrt(2) * 0.01, 1e-9);
    d.value = 0;
    CHECK(tks__unroll_ratio(&n, &d, &v, &lo, &hi) == TKS_EINVAL);
}

static void test_table(void)
{
    const char *text = "# a comment\n"
                       "\n"
                       "add   | latency | add {r}, 1\n"
                       "chase | latency,chase=32K | mov r14, [r14]\n"
                       "fma   | throughput,chain=xmm3 | vfmadd231ps {x}, {x}, {x} | vxorps xmm0, xmm0, xmm0\n";
    tks_asm_row *rows = NULL;
    size_t n = 0;
    char err[200];
    CHECK(tks_asm_table_parse(text, &rows, &n, err, sizeof err) == 0);
    CHECK_EQ_U64(n, 3);
    if (n == 3) {
        CHECK_STR(rows[0].name, "add");
        CHECK(rows[0].mode == TKS_ASM_LATENCY);
        CHECK_STR(rows[0].code, "add {r}, 1");
        CHECK_STR(rows[0].init, "");
        CHECK_EQ_U64(rows[1].chase_bytes, 32768);
        CHECK(rows[2].mode == TKS_ASM_THROUGHPUT);
        CHECK_STR(rows[2].chain, "xmm3");
        CHECK_STR(rows[2].init, "vxorps xmm0, xmm0, xmm0");
    }
    free(rows);
    CHECK(tks_asm_table_parse("a | sideways | nop\n", &rows, &n, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "line 1") && strstr(err, "sideways"));
    CHECK(tks_asm_table_parse("ok | latency | nop\nbroken nop\n", &rows, &n, err, sizeof err) ==
          TKS_EINVAL);
    CHECK(strstr(err, "line 2") != NULL);
    CHECK(tks_asm_table_parse("# nothing\n", &rows, &n, err, sizeof err) == TKS_EINVAL);
    CHECK(tks_asm_table_parse("a | latency,chase=lots | nop\n", &rows, &n, err, sizeof err) ==
          TKS_EINVAL);
}

static void test_hex_and_placeholders(void)
{
    unsigned char *b = NULL;
    size_t n = 0;
    char err[200], *s;
    CHECK(tks__asm_hex("48 01 c0, 0x90\\xcc", &b, &n, err, sizeof err) == 0);
    CHECK_EQ_U64(n, 5);
    if (n == 5)
        CHECK(b[0] == 0x48 && b[1] == 0x01 && b[2] == 0xc0 && b[3] == 0x90 && b[4] == 0xcc);
    free(b);
    CHECK(tks__asm_hex("48 0", &b, &n, err, sizeof err) == TKS_EINVAL);
    CHECK(tks__asm_hex("zz", &b, &n, err, sizeof err) == TKS_EINVAL);
    CHECK(tks__asm_hex("  ", &b, &n, err, sizeof err) == TKS_EINVAL);

    s = tks__asm_expand("add {r}, {r}; vaddps {y}, {y}, {x}", TKS_ASM_INTEL, "r9", 7);
    CHECK_STR(s, "add r9, r9; vaddps ymm7, ymm7, xmm7");
    free(s);
    s = tks__asm_expand("addq $1, {r}; {z}", TKS_ASM_ATT, "rbx", 0);
    CHECK_STR(s, "addq $1, %rbx; {z}");
    free(s);
    CHECK(tks__asm_has_placeholder("imul {r}, {r}"));
    CHECK(!tks__asm_has_placeholder("imul rax, rax"));
    /* Throughput copies cycle through 13 registers, none of them the harness's R14 and R15. */
    for (unsigned v = 0; v < 13; v++) {
        CHECK(strcmp(tks__asm_pool_gpr(v), "r14") != 0 && strcmp(tks__asm_pool_gpr(v), "r15") != 0);
        CHECK(strcmp(tks__asm_pool_gpr(v), "rsp") != 0);
        for (unsigned w = 0; w < v; w++)
            CHECK(strcmp(tks__asm_pool_gpr(v), tks__asm_pool_gpr(w)) != 0);
    }
    CHECK_STR(tks__asm_pool_gpr(13), tks__asm_pool_gpr(0));
}

/* A throughput copy never takes a register the snippet names itself: in 'andn {r}, r14, rbp' a
 * copy on rbp would feed every other copy, in 'vaddpd {y}, {y}, ymm15' one on ymm15 likewise. */
static void test_variant_regs(void)
{
    const char *gpr;
    int xmm, seen_rax = 0, seen_x0 = 0;
    for (unsigned v = 0; v < 16; v++) {
        tks__asm_variant_regs("andn {r}, r14, ebp; vaddpd {y}, {y}, ymm15; addps {x}, xmm3", v,
                              &gpr, &xmm);
        CHECK(strcmp(gpr, "rbp") != 0);
        CHECK(xmm != 15 && xmm != 3 && xmm >= 0 && xmm < 16);
        seen_rax += !strcmp(gpr, "rax");
        seen_x0 += xmm == 0;
    }
    CHECK(seen_rax >= 1);
    CHECK(seen_x0 >= 1);
    /* twelve general registers left: the thirteenth copy starts over */
    tks__asm_variant_regs("andn {r}, r14, rbp", 0, &gpr, &xmm);
    CHECK_STR(gpr, "rax");
    tks__asm_variant_regs("andn {r}, r14, rbp", 12, &gpr, &xmm);
    CHECK_STR(gpr, "rax");
    tks__asm_variant_regs("add {r}, R13", 11, &gpr, &xmm); /* any case, any width */
    CHECK_STR(gpr, "rbp");
    /* AT&T names its registers with %: the same registers */
    tks__asm_variant_regs("addq %rax, {r}", 0, &gpr, &xmm);
    CHECK_STR(gpr, "rbx");
    /* a snippet naming every register of the pool: the whole pool, as before */
    tks__asm_variant_regs("rax rbx rcx rdx rsi rdi r8 r9 r10 r11 r12 r13 rbp {r}", 1, &gpr, &xmm);
    CHECK_STR(gpr, "rbx");
    /* as many variants as registers to rotate over, so each takes the same share of copies */
    CHECK_EQ_U64(tks__asm_variant_count("add {r}, r14"), 13);
    CHECK_EQ_U64(tks__asm_variant_count("andn {r}, r14, rbp"), 12);
    CHECK_EQ_U64(tks__asm_variant_count("vpaddd {y}, {y}, ymm15"), 15);
    CHECK_EQ_U64(tks__asm_variant_count("vmovq {r}, {x}"), 13);
}

/* objdump's text of a function with four windows: an lfence window holding a spilled first
 * reading and a call to a tickscope function; a k-loop; an rdtsc pair (whose ending RDTSC must
 * not begin another window); a cpuid window whose leaf setting belongs to the end sequence. */
static void test_windows(void)
{
    const char *text =
        "0000000000001000 <bm>:\n"
        "    1000:\tlfence\n"
        "    1003:\trdtsc\n"
        "    1005:\tshl    $0x20,%rdx\n"
        "    1009:\tor     %rdx,%rax\n"
        "    100c:\tmov    %rax,%r9\n"
        "    100f:\tlfence\n"
        "    1012:\tmov    %r9,0x8(%rsp)\n"
        "    1017:\tcall   2000 <tks_state_arg>\n"
        "    101c:\tadd    %rbx,%rbx\n"
        "    101f:\trdtscp\n"
        "    1022:\tlfence\n"
        "    1025:\tlfence\n"
        "    1028:\trdtsc\n"
        "    102a:\tshl    $0x20,%rdx\n"
        "    102e:\tor     %rdx,%rax\n"
        "    1031:\tmov    %rax,%r8\n"
        "    1034:\tlfence\n"
        "    1037:\tadd    %rdi,%rbx  # a comment\n"
        "    103a:\tsub    $0x1,%esi\n"
        "    103d:\tjne    1037 <bm+0x37>\n"
        "    103f:\trdtscp\n"
        "    1042:\trdtsc\n"
        "    1044:\tshl    $0x20,%rdx\n"
        "    1048:\tor     %rdx,%rax\n"
        "    104b:\tmov    %rax,%r10\n"
        "    104e:\trdtsc\n"
        "    1050:\tshl    $0x20,%rdx\n"
        "    1054:\tor     %rdx,%rax\n"
        "    1057:\tmov    %rax,%r11\n"
        "    105a:\trdtscp\n"
        "    105d:\txor    %eax,%eax\n"
        "    105f:\tcpuid\n"
        "    1061:\trdtsc\n"
        "    1063:\tshl    $0x20,%rdx\n"
        "    1067:\tor     %rdx,%rax\n"
        "    106a:\tmov    %rax,%r12\n"
        "    106d:\timul   %rbx,%rbx\n"
        "    1071:\txor    %eax,%eax\n"
        "    1073:\tcpuid\n"
        "    1075:\trdtsc\n";
    tks__window *w = NULL;
    size_t n = 0;
    CHECK(tks__windows_parse(text, &w, &n) == 0);
    CHECK_EQ_U64(n, 4);
    if (n == 4) {
        CHECK_STR(w[0].method, "lfence");
        CHECK_EQ_U64(w[0].n, 3);
        CHECK_STR(w[0].insn[0], "mov %r9,0x8(%rsp)");
        CHECK(w[0].flags & TKS__WIN_STORE);
        CHECK(w[0].flags & TKS__WIN_CALL);
        CHECK_STR(w[0].call, "tks_state_arg");
        CHECK(!w[0].loop);
        CHECK_EQ_U64(w[0].address, 0x1012);
        CHECK_STR(w[1].method, "lfence");
        CHECK(w[1].loop);
        CHECK_EQ_U64(w[1].n, 3);
        CHECK_STR(w[1].insn[0], "add %rdi,%rbx");
        CHECK(!(w[1].flags & (TKS__WIN_STORE | TKS__WIN_CALL)));
        CHECK_STR(w[2].method, "rdtsc");
        CHECK_EQ_U64(w[2].n, 0);
        CHECK_STR(w[3].method, "cpuid");
        CHECK_EQ_U64(w[3].n, 1);
        CHECK_STR(w[3].insn[0], "imul %rbx,%rbx");
        CHECK(!(w[3].flags & TKS__WIN_CPUID));
    }
    tks__windows_free(w, n);
    /* A CPUID inside an lfence window is flagged, not taken for an end. */
    CHECK(tks__windows_parse("  10:\tlfence\n  13:\trdtsc\n  15:\tlfence\n  18:\tcpuid\n"
                             "  1a:\trdtscp\n", &w, &n) == 0);
    CHECK_EQ_U64(n, 1);
    if (n == 1)
        CHECK(w[0].flags & TKS__WIN_CPUID);
    tks__windows_free(w, n);
    CHECK(tks__windows_parse("no instructions here\n", &w, &n) == 0);
    CHECK_EQ_U64(n, 0);
}

/* --kernel's pure parts: the loop the module runs for the first unroll (copies of the variants
 * back to back, then dec r15; jnz to its start), and the refusals that come before the module is
 * looked for: too long, init too long, scratch too large; then a device that is not there. */
static void test_kernel(void)
{
    static const unsigned char two[] = {0x48, 0x01, 0xc0, 0x48, 0x01, 0xdb}; /* 2 variants */
    static const unsigned char big[300] = {0};
    unsigned char loop[256];
    tks__asm_kplan p;
    tks__asm_windows w;
    tks__asm_kinfo info;
    char err[256];
    size_t n;
    int32_t rel;
    memset(&p, 0, sizeof p);
    p.code = two;
    p.code_len = sizeof two;
    p.nvar = 2;
    p.unroll = K;
    p.scratch_bytes = 4096;
    p.where = TKS_WHERE_KERNEL_IRQ_OFF;
    n = tks__asm_kernel_loop(&p, loop, sizeof loop);
    CHECK_EQ_U64(n, 8 * sizeof two + 9); /* 16 copies = 8 of the two variants */
    CHECK(memcmp(loop + 7 * sizeof two, two, sizeof two) == 0);
    CHECK(memcmp(loop + 8 * sizeof two, "\x49\xff\xcf\x0f\x85", 5) == 0);
    memcpy(&rel, loop + n - 4, 4);
    CHECK_EQ_U64((uint64_t)(int64_t)((int64_t)n + rel), 0); /* back to the first copy */
    CHECK_EQ_U64(tks__asm_kernel_loop(&p, loop, 50), 0);  /* no room: nothing */

    p.code = big;
    p.code_len = sizeof big;
    p.nvar = 1;
    CHECK(tks__asm_kernel_run(&p, &w, &info, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "300 bytes a copy") && strstr(err, "at most 256"));
    p.code = two;
    p.code_len = 3;
    p.init = big;
    p.init_len = sizeof big;
    CHECK(tks__asm_kernel_run(&p, &w, &info, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "init code is 300 bytes") != NULL);
    p.init_len = 0;
    p.scratch_bytes = (uint64_t)8 << 20;
    CHECK(tks__asm_kernel_run(&p, &w, &info, err, sizeof err) == TKS_EINVAL);
    CHECK(strstr(err, "--scratch is at most 4M") != NULL);
    p.scratch_bytes = 4096;
    p.device = "/nonexistent/tickscope";
    CHECK(tks__asm_kernel_run(&p, &w, &info, err, sizeof err) == TKS_ENODEV);
    CHECK(strstr(err, "not loaded") && strstr(err, "modprobe tickscope"));
    CHECK(w.snip == NULL && w.ref == NULL && w.rounds == 0);
}

int main(void)
{
    test_kernel();
    test_windows();
    test_exact();
    test_between_blocks();
    test_errors();
    test_ratio();
    test_table();
    test_hex_and_placeholders();
    test_variant_regs();
    CHECK_DONE();
}
