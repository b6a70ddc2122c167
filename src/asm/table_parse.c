/* SPDX-License-Identifier: MIT */
/* table_parse.c: the text of a `tickscope asm --table` file into rows: "name | mode | code" with an
 * optional "| init", the mode optionally followed by ",chain=REG" and ",chase=SIZE". */
#include "tickscope/asm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* [s, e) trimmed into out (size bytes); 0, or TKS_ERANGE when it does not fit. */
static int field(const char *s, const char *e, char *out, size_t size)
{
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    if ((size_t)(e - s) >= size)
        return TKS_ERANGE;
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = 0;
    return 0;
}

/* "32K", "4M", "1G", "4096": bytes; 0 when not a size. */
static uint64_t parse_size(const char *t)
{
    char *end;
    unsigned long long v = strtoull(t, &end, 10);
    uint64_t mul = 1;
    if (end == t)
        return 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1ull << 10; end++; break;
    case 'M': mul = 1ull << 20; end++; break;
    case 'G': mul = 1ull << 30; end++; break;
    default: break;
    }
    if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I')
        end += strspn(end, "iIbB");
    return *end ? 0 : v * mul;
}

static int parse_mode(char *m, tks_asm_row *row, char *why, size_t size)
{
    char *save = NULL, *tok = strtok_r(m, ",", &save);
    if (!tok || (strcasecmp(tok, "latency") != 0 && strcasecmp(tok, "throughput") != 0)) {
        snprintf(why, size, "the mode is '%s', not latency or throughput", tok ? tok : "");
        return TKS_EINVAL;
    }
    row->mode = strcasecmp(tok, "latency") == 0 ? TKS_ASM_LATENCY : TKS_ASM_THROUGHPUT;
    while ((tok = strtok_r(NULL, ",", &save))) {
        while (isspace((unsigned char)*tok))
            tok++;
        if (strncasecmp(tok, "chain=", 6) == 0 && strlen(tok + 6) < sizeof row->chain) {
            strcpy(row->chain, tok + 6);
        } else if (strncasecmp(tok, "chase=", 6) == 0 && (row->chase_bytes = parse_size(tok + 6))) {
            continue;
        } else {
            snprintf(why, size, "'%s' is not chain=REG or chase=SIZE", tok);
            return TKS_EINVAL;
        }
    }
    return 0;
}

static int parse_line(const char *line, const char *end, tks_asm_row *row, char *why, size_t size)
{
    const char *bar[3];
    char mode[64];
    int nbar = 0;
    for (const char *p = line; p < end && nbar < 3; p++)
        if (*p == '|')
            bar[nbar++] = p;
    memset(row, 0, sizeof *row);
    if (nbar < 2) {
        snprintf(why, size, "expected 'name | mode | code' (and optionally '| init')");
        return TKS_EINVAL;
    }
    if (field(line, bar[0], row->name, sizeof row->name) || !row->name[0]) {
        snprintf(why, size, "the name is empty or longer than %zu characters",
                 sizeof row->name - 1);
        return TKS_EINVAL;
    }
    if (field(bar[0] + 1, bar[1], mode, sizeof mode) || parse_mode(mode, row, why, size))
        return why[0] ? TKS_EINVAL : (snprintf(why, size, "the mode is too long"), TKS_EINVAL);
    if (field(bar[1] + 1, nbar > 2 ? bar[2] : end, row->code, sizeof row->code) ||
        !row->code[0]) {
        snprintf(why, size, "the code is empty or longer than %zu characters",
                 sizeof row->code - 1);
        return TKS_EINVAL;
    }
    if (nbar > 2 && field(bar[2] + 1, end, row->init, sizeof row->init)) {
        snprintf(why, size, "the init code is longer than %zu characters", sizeof row->init - 1);
        return TKS_EINVAL;
    }
    return 0;
}

int tks_asm_table_parse(const char *text, tks_asm_row **rows, size_t *n, char *error,
                        size_t error_size)
{
    size_t cap = 0, count = 0, lineno = 0;
    tks_asm_row *out = NULL;
    const char *p = text;
    if (!text || !rows || !n || !error || !error_size)
        return TKS_EINVAL;
    *error = 0;
    while (*p) {
        const char *e = strchr(p, '\n'), *q = p;
        char why[200] = "";
        if (!e)
            e = p + strlen(p);
        lineno++;
        while (q < e && isspace((unsigned char)*q))
            q++;
        if (q < e && *q != '#') {
            if (count == cap) {
                tks_asm_row *grown = realloc(out, (cap = cap ? 2 * cap : 16) * sizeof *out);
                if (!grown) {
                    free(out);
                    return TKS_ENOMEM;
                }
                out = grown;
            }
            if (parse_line(q, e, &out[count], why, sizeof why) != 0) {
                snprintf(error, error_size, "line %zu: %s", lineno, why);
                free(out);
                return TKS_EINVAL;
            }
            count++;
        }
        p = *e ? e + 1 : e;
    }
    if (!count) {
        snprintf(error, error_size, "the table has no rows");
        free(out);
        return TKS_EINVAL;
    }
    *rows = out;
    *n = count;
    return 0;
}
