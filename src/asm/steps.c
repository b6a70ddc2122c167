/* SPDX-License-Identifier: MIT */
/* steps.c: a method's instruction sequence as the method list spells it for people ("MFENCE;
 * LFENCE; RDTSC; LFENCE", "MOV CR0 write-back; RDTSC") read back as mnemonics, so that the window
 * scanner and the harness follow the list instead of a table of their own. */
#include "asm/asm_internal.h"

#include <ctype.h>

size_t tks__method_steps(const char *text, char (*mn)[TKS__STEP_LEN], size_t max)
{
    size_t n = 0;
    while (*text && n < max) {
        size_t k = 0;
        while (*text == ' ' || *text == ';')
            text++;
        while (*text && *text != ';' && *text != ' ' && k + 1 < TKS__STEP_LEN)
            mn[n][k++] = (char)tolower((unsigned char)*text++);
        mn[n][k] = 0;
        while (*text && *text != ';') /* "MOV CR0 write-back": the mnemonic is enough */
            text++;
        if (k)
            n++;
    }
    return n;
}
