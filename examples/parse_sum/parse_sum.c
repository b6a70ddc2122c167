/* SPDX-License-Identifier: MIT */
/* parse_sum.c: a small real program instrumented with regions: it writes 100,000 numbers as text,
 * then parses and sums them, line by line, with the C library's strtoll and with a hand-written
 * loop, and checks that both agree. Each step is a region; the report comes at exit.
 *
 * Build: part of `make` (build/examples/parse_sum).
 * Run:   ./build/examples/parse_sum                        the report on stderr, as a table
 *        TICKSCOPE_REGION_FORMAT=json TICKSCOPE_REGION_OUT=r.json ./build/examples/parse_sum
 * Build it with -DTKS_REGIONS_DISABLE and the regions cost nothing: they are not compiled. */
#include <stdio.h>
#include <stdlib.h>

#include <tickscope/region.h>

#define NUMBERS 100000
#define ROUNDS 10

/* "123\n-45\n..." from a fixed pseudo-random sequence, so every run parses the same text. */
static char *make_text(size_t *len)
{
    char *text = malloc((size_t)NUMBERS * 12 + 1), *p = text;
    unsigned long long x = 88172645463325252ull;
    if (!text)
        return NULL;
    for (int i = 0; i < NUMBERS; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        long long v = (long long)(x % 2000001) - 1000000; /* -1,000,000 .. 1,000,000 */
        p += sprintf(p, "%lld\n", v);
    }
    *len = (size_t)(p - text);
    return text;
}

/* One line by hand: an optional minus, then digits; returns the character after the newline. */
static const char *parse_line(const char *p, long long *v)
{
    int neg = *p == '-';
    long long n = 0;
    p += neg;
    while (*p >= '0' && *p <= '9')
        n = n * 10 + (*p++ - '0');
    *v = neg ? -n : n;
    return p + (*p == '\n');
}

static long long sum_strtoll(const char *text)
{
    long long sum = 0;
    char *end;
    while (*text) {
        TKS_REGION_BEGIN("strtoll line");
        sum += strtoll(text, &end, 10);
        TKS_REGION_END("strtoll line");
        text = end + (*end == '\n');
    }
    return sum;
}

static long long sum_by_hand(const char *text)
{
    long long sum = 0, v;
    while (*text) {
        TKS_REGION_BEGIN("hand line");
        text = parse_line(text, &v);
        sum += v;
        TKS_REGION_END("hand line");
    }
    return sum;
}

int main(void)
{
    size_t len = 0;
    long long a = 0, b = 0;
    char *text;

    /* Quantiles and histograms for the per-line regions (TICKSCOPE_REGION_RESERVOIR overrides). */
    tks_region_set_reservoir("strtoll line", 4096);
    tks_region_set_reservoir("hand line", 4096);

    TKS_REGION_BEGIN("make text");
    text = make_text(&len);
    TKS_REGION_END("make text");
    if (!text)
        return 1;

    for (int r = 0; r < ROUNDS; r++) {
        TKS_REGION_BEGIN("strtoll pass");
        a = sum_strtoll(text);
        TKS_REGION_END("strtoll pass");
        TKS_REGION_BEGIN("hand pass");
        b = sum_by_hand(text);
        TKS_REGION_END("hand pass");
    }
    printf("%d numbers, %zu bytes: sum %lld (strtoll) and %lld (by hand)\n", NUMBERS, len, a, b);
    free(text);
    return a == b ? 0 : 1;
}
