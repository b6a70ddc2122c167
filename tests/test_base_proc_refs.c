/* SPDX-License-Identifier: MIT */
/* test_base_proc_refs.c: the memory a process touched (base/proc_refs.h). The "Referenced:" lines
 * of smaps text summed over anonymous mappings only (kB to bytes; a library's pages left out;
 * none at all, not a number or not in kB: an error); and on this
 * kernel, 16 MiB written before a clear count only once read again after it, and a buffer not
 * read after the clear does not count (the clear flushes the TLB: without it, pages whose
 * translations stay cached are never marked again). */
#include <stdint.h>
#include <stdlib.h>

#include "base/proc_refs.h"
#include "check.h"
#include "tickscope.h"

#define MIB ((uint64_t)1 << 20)

static void parse(void)
{
    static const char smaps[] =
        "55d1c8a00000-55d1c8a21000 rw-p 00000000 00:00 0                          [heap]\n"
        "Rss:                 132 kB\n"
        "Referenced:          120 kB\n"
        "7f3767766000-7f376778c000 r--p 00000000 fe:00 332835                     "
        "/usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "Referenced:          152 kB\n"
        "7f3767900000-7f3767a00000 rw-p 00000000 00:00 0 \n"
        "Referenced:         1024 kB\n"
        "7ffd1a000000-7ffd1a021000 rw-p 00000000 00:00 0                          [stack]\n"
        "Referenced:\t8 kB\n";
    uint64_t v = 0;
    /* the heap, the anonymous mapping and the stack; not libc's pages */
    CHECK(tks__refs_parse(smaps, &v) == 0);
    CHECK_EQ_U64(v, (120u + 1024u + 8u) << 10);
    CHECK(tks__refs_parse("7f00-7f01 r--p 00000000 fe:00 12 /lib/x.so\nReferenced: 4 kB\n",
                          &v) == 0);
    CHECK_EQ_U64(v, 0);
    CHECK(tks__refs_parse("7f00-7f01 rw-p 00000000 00:00 0\nRss: 380 kB\n", &v) == TKS_EINVAL);
    CHECK(tks__refs_parse("7f00-7f01 rw-p 00000000 00:00 0\nReferenced: many kB\n", &v) ==
          TKS_EINVAL);
    CHECK(tks__refs_parse("7f00-7f01 rw-p 00000000 00:00 0\nReferenced: 376 MB\n", &v) ==
          TKS_EINVAL);
    CHECK(tks__refs_parse("", &v) == TKS_EINVAL);
    /* a line that only ends with the word is not it */
    CHECK(tks__refs_parse("7f00-7f01 rw-p 00000000 00:00 0\nNotReferenced: 12 kB\n", &v) ==
          TKS_EINVAL);
}

/* The sum of one word of every 64 bytes of buf: every line, and so every page, read. */
static uint64_t read_all(const volatile uint64_t *buf, size_t bytes)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < bytes / 8; i += 8)
        sum += buf[i];
    return sum;
}

static void this_kernel(void)
{
    size_t bytes = 16 * MIB;
    uint64_t *buf = malloc(bytes), before = 0, after = 0, idle = 0, sum;
    char why[160] = "";
    int rc;
    if (!buf) {
        CHECK_SKIP("no memory for 16 MiB");
        return;
    }
    for (size_t i = 0; i < bytes / 8; i++)
        buf[i] = i;
    if ((rc = tks__refs_clear(why, sizeof why)) != 0) {
        CHECK(rc == TKS_EUNAVAIL && why[0]);
        CHECK_SKIP("this kernel has no referenced-page tracking: %s", why);
        free(buf);
        return;
    }
    CHECK(tks__refs_bytes(&before, why, sizeof why) == 0);
    sum = read_all(buf, bytes);
    CHECK(tks__refs_bytes(&after, why, sizeof why) == 0);
    /* read again: at least the buffer's pages, and the rest of the process is small. Not
     * before + bytes: the kernel's page aging may clear a referenced bit counted before (one
     * page short of that, once, in a full test run under load) */
    CHECK(after >= bytes);
    CHECK(after <= before + bytes + 8 * MIB);
    /* cleared again and not read: none of its pages count */
    CHECK(tks__refs_clear(why, sizeof why) == 0);
    CHECK(tks__refs_bytes(&idle, why, sizeof why) == 0);
    CHECK(idle < bytes / 4);
    if (check_failed)
        fprintf(stderr, "referenced: %llu before reading 16 MiB, %llu after, %llu after a clear "
                "(sum %llu)\n", (unsigned long long)before, (unsigned long long)after,
                (unsigned long long)idle, (unsigned long long)sum);
    free(buf);
}

int main(void)
{
    parse();
    this_kernel();
    CHECK_DONE();
}
