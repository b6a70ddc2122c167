/* SPDX-License-Identifier: MIT */
/* fuzz_kmsg.c: the kernel log's TSC lines ("tsc: Detected 2300.000 MHz processor", "tsc: Refined
 * TSC clocksource calibration: ..."), the text tickscope reads from /dev/kmsg. The input is the
 * log. (fuzz_procfs also reads it through a root directory.) */
#include <math.h>

#include "fuzz.h"
#include "platform/tsc_sources.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *log = fuzz_string(data, size);
    double hz = -1;
    int refined = -1;
    if (tks__parse_kernel_log_tsc(log, &hz, &refined) == 1 &&
        (!(hz > 0) || !isfinite(hz) || (refined != 0 && refined != 1)))
        abort(); /* found a rate that is not one */
    free(log);
    return 0;
}
