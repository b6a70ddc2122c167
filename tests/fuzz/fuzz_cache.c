/* SPDX-License-Identifier: MIT */
/* fuzz_cache.c: the calibration cache file reader (tks__cache_load). The input's first line is
 * the key the reader is asked to match (the boot, the CPU, the version...), the rest the file's
 * bytes, so a seed made from a real cache file (key line, then the file) passes every check the
 * format has, whatever they are. Checked: no crash, leak or undefined behaviour, a documented
 * return, and strings and counts that stay within their arrays. */
#include <math.h>

#include "fuzz.h"
#include "platform/cache.h"
#include "tickscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[300];
    const uint8_t *nl = memchr(data, '\n', size);
    size_t klen = nl ? (size_t)(nl - data) : size;
    char *key = fuzz_string(data, klen);
    tks_platform *p = calloc(1, sizeof *p);
    int rc;
    if (!p)
        abort();
    if (!path[0])
        snprintf(path, sizeof path, "%s/calibration", fuzz_dir());
    fuzz_write(path, nl ? nl + 1 : data + size, nl ? size - klen - 1 : 0);
    tks_diags why = {0};
    rc = tks__cache_load(path, key, p, &why);
    /* a refusal says why with at most one platform.cache.* code; a load says nothing */
    if (why.n > 1 || (rc == 0 && why.n) || (rc == TKS_EINVAL && why.n != 1))
        abort();
    tks_diags_free(&why);
    if (rc > 0)
        abort();
    if (rc == 0) {
        if (p->n_hz_sources > TKS_HZ_SOURCE_COUNT)
            abort();
        for (size_t i = 0; i < p->n_hz_sources; i++)
            if (!memchr(p->hz_sources[i].detail, 0, sizeof p->hz_sources[i].detail))
                abort();
    }
    free(p);
    free(key);
    return 0;
}
