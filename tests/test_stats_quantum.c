/* SPDX-License-Identifier: MIT */
/* test_stats_quantum.c: the timer quantum from the deltas between consecutive reads: the
 * largest step dividing 99% of the nonzero deltas. */
#include <stdint.h>

#include "check.h"
#include "tickscope.h"

static uint64_t d[100000];

static void test_multiples_of_26(void)
{
    /* 1000 deltas, 26 * (1..7), with 5 (0.5%) odd ones (27, 53, 79, 105, 131, none a multiple
     * of 13) and some zeros, which are ignored. 26 divides 995 of 1000 nonzero: >= 99%. */
    for (int i = 0; i < 1000; i++)
        d[i] = 26 * (1 + (uint64_t)(i % 7));
    for (int i = 0; i < 5; i++)
        d[100 + 200 * i] = 27 + 26 * (uint64_t)i;
    for (int i = 1000; i < 1100; i++)
        d[i] = 0;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1100), 26);
    /* 100 deltas: 99 multiples of 26 and one 27 is exactly 99%: still 26. With two 27s it is
     * 98%: 26 and 13 fail, and 2 fails too (98 even, 2 odd): 1. */
    for (int i = 0; i < 100; i++)
        d[i] = 26 * (1 + (uint64_t)(i % 3));
    d[50] = 27;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 100), 26);
    d[51] = 27;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 100), 1);
}

static void test_even_and_mixed(void)
{
    /* All even, 2 * (1..13): the smallest is 2, and 2 divides all: 2. */
    for (int i = 0; i < 1000; i++)
        d[i] = 2 * (1 + (uint64_t)(i % 13));
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1000), 2);
    /* Mixed: every other delta odd (1..1000): only 1 divides 99%. */
    for (int i = 0; i < 1000; i++)
        d[i] = 1 + (uint64_t)i;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1000), 1);
}

static void test_edges(void)
{
    /* Nothing to go on: 1. */
    CHECK_EQ_U64(tks_quantum_from_deltas(NULL, 10), 1);
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 0), 1);
    for (int i = 0; i < 10; i++)
        d[i] = 0;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 10), 1);
    /* One delta: itself. */
    d[0] = 78;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1), 78);
    /* The smallest nonzero delta bounds the answer: deltas all 52 but one 26 give 26. */
    for (int i = 0; i < 1000; i++)
        d[i] = 52;
    d[7] = 26;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1000), 26);
    /* Candidates are capped at 4096: deltas all 10000 give the largest divisor <= 4096,
     * 10000 = 2^4 5^4: 2500. */
    for (int i = 0; i < 1000; i++)
        d[i] = 10000;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1000), 2500);
    /* Deltas near 2^64: all UINT64_MAX - 1 = 2 (2^63 - 1) = 2 * 7^2 * 73 * 127 * 337 * 92737
     * * 649657. Its divisors up to 4096 end ..., 1778 (2*7*127), 2359 (7*337), 3577 (7^2*73);
     * the next ones (4718 = 2*7*337, 6223, 7154) are over the cap: 3577. */
    for (int i = 0; i < 1000; i++)
        d[i] = UINT64_MAX - 1;
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 1000), 3577);
}

static void test_large(void)
{
    /* 100,000 deltas of a 26-tick clock, 26 * (1..5), with 0.5% noise of 27: 26, in time
     * (wrong candidates stop after about 1% failures). */
    for (int i = 0; i < 100000; i++)
        d[i] = i % 200 == 0 ? 27 : 26 * (1 + (uint64_t)(i % 5));
    CHECK_EQ_U64(tks_quantum_from_deltas(d, 100000), 26);
}

int main(void)
{
    test_multiples_of_26();
    test_even_and_mixed();
    test_edges();
    test_large();
    CHECK_DONE();
}
