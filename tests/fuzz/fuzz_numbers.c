/* SPDX-License-Identifier: MIT */
/* fuzz_numbers.c: the option-value parsers every command and tks_main share (src/base/parse.c:
 * whole numbers, seconds, rates with units such as "2.3GHz") and the kernel's CPU lists
 * ("0-3,8"). The input is one value. */
#include <math.h>

#include "base/parse.h"
#include "fuzz.h"
#include "platform/cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    uint32_t u;
    double d;
    char buf[64];
    long n;
    if (tks__parse_u32(s, 2, 1000000, &u) == 0 && (u < 2 || u > 1000000))
        abort(); /* accepted outside its range */
    if (tks__parse_seconds(s, &d) == 0 && !(d >= 0 && d <= 86400))
        abort();
    if (tks__parse_hz(s, &d) == 0 && !(d > 0 && isfinite(d)))
        abort();
    n = tks__cpulist_count(s);
    if (n > 0) {
        long first = tks__cpulist_first(s), last = tks__cpulist_last(s);
        if (first < 0 || last < 0 || !tks__cpulist_has(s, first) || !tks__cpulist_has(s, last))
            abort(); /* a list of n CPUs without the first or last it names */
        tks__cpulist_without(s, first, buf, sizeof buf);
    }
    (void)tks__cpulist_text(s);
    free(s);
    return 0;
}
