/* SPDX-License-Identifier: MIT */
/* fuzz_json.c: the JSON reader (base/json_read.c) and the result-file reader of `tickscope
 * compare` over it, on any bytes: a parse either fails with a one-line reason or gives a tree
 * every accessor walks within bounds; a file that reads is compared with itself, and a refusal
 * says why (one line but for a benchmark name that holds a line break). */
#include "analysis/compare.h"
#include "base/json_read.h"
#include "fuzz.h"

/* Every node reachable from node, to a bounded depth, through every accessor. */
static void walk(const tks__jr_doc *d, size_t node, int depth)
{
    char s[64];
    if (node == TKS__JR_NONE || depth > 80)
        return;
    (void)tks__jr_number(d, node);
    (void)tks__jr_string(d, node, s, sizeof s);
    (void)tks__jr_string_is(d, node, "name");
    (void)tks__jr_get(d, node, "benchmarks");
    (void)tks__jr_count(d, node);
    for (size_t c = tks__jr_first(d, node); c != TKS__JR_NONE; c = tks__jr_next(d, node, c))
        walk(d, c, depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tks__jr_doc doc;
    tks__cmp_file f;
    char err[300] = "";
    char *buf = fuzz_string(data, size);
    if (tks__jr_parse(&doc, buf, size) == 0)
        walk(&doc, 0, 0);
    tks__jr_free(&doc);
    if (tks__cmp_file_read(buf, size, &f, err, sizeof err) == 0) {
        tks__cmp_result r;
        char why[300] = "";
        if (tks__cmp_files(&f, &f, 0.01, -1, &r, why, sizeof why) == 0)
            tks__cmp_result_free(&r);
        else if (!why[0])
            abort(); /* a refusal says why */
        tks__cmp_file_free(&f);
    } else if (!err[0]) {
        abort();
    }
    free(buf);
    return 0;
}
