/* SPDX-License-Identifier: MIT */
/* test_base_bytes_text.c: sizes for people, one format for every working set, ring, level and
 * knee printed: whole MiB, MiB with one decimal, whole KiB, bytes. */
#include "base/bytes_text.h"
#include "check.h"

int main(void)
{
    char b[32], small[6];
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 100), "100 B");
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 1023), "1023 B");
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 1024), "1 KiB");
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 4096 + 100), "4 KiB"); /* whole KiB below 1 MiB */
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 3 << 19), "1.5 MiB");
    CHECK_STR(tks__fmt_bytes(b, sizeof b, 32u << 20), "32 MiB");
    CHECK_STR(tks__fmt_bytes(b, sizeof b, (uint64_t)64 << 30), "65536 MiB"); /* past 4 GiB */
    CHECK_STR(tks__fmt_bytes(small, sizeof small, 512u << 10), "512 K"); /* cut, terminated */
    CHECK_DONE();
}
