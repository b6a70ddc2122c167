/* SPDX-License-Identifier: MIT */
/* bytes_text.c: a size in bytes for people (bytes_text.h). */
#include <inttypes.h>
#include <stdio.h>

#include "base/bytes_text.h"

char *tks__fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
    const uint64_t mib = (uint64_t)1 << 20;
    if (bytes >= mib && bytes % mib == 0)
        snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes >= mib)
        snprintf(buf, size, "%.1f MiB", (double)bytes / (double)mib);
    else if (bytes >= 1024)
        snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
    else
        snprintf(buf, size, "%" PRIu64 " B", bytes);
    return buf;
}
