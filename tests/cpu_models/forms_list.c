/* SPDX-License-Identifier: MIT */
/* forms_list.c: the forms the asm catalogue chooses for the CPU at hand, without measuring any
 * (what `tickscope asm --table` would measure: src/asm/cpu_table.c expands the same
 * tks__asm_catalog_forms(tks__asm_cpu_feats())). One line a form, "FORM <feature>[+<feature>]
 * <name>", then "FORMS <count>". The CPU-model boots (run_qemu.sh) hold the features named here
 * to what CPUID says in the VM. */
#include <stdio.h>
#include <stdlib.h>

#include "asm/catalog.h"

int main(void)
{
    tks__asm_form *forms = NULL;
    size_t n = 0;
    if (tks__asm_catalog_forms(tks__asm_cpu_feats(), &forms, &n) != 0) {
        printf("FORMS error\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        printf("FORM %s%s%s %s\n", tks__asm_feat_name(forms[i].feat), forms[i].feat2 ? "+" : "",
               forms[i].feat2 ? tks__asm_feat_name(forms[i].feat2) : "", forms[i].name);
    printf("FORMS %zu\n", n);
    free(forms);
    return 0;
}
