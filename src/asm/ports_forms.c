/* SPDX-License-Identifier: MIT */
/* ports_forms.c: the forms of `asm --ports`: the default blocking forms, and the result freed. */
#include "tickscope/asm_ports.h"

#include <stdlib.h>

/* Blockers write one register from fixed ones (R14, the scratch pointer, and ymm15), so a
 * single register serves all their copies and the form under test keeps the rest. */
static const tks_asm_row default_blockers[] = {
    {"alu: mov r64, imm", TKS_ASM_THROUGHPUT, "", 0, "mov {r}, 1", ""},
    {"shift: shlx r64, r64, r64", TKS_ASM_THROUGHPUT, "", 0, "shlx {r}, r14, r14", ""},
    {"mul: imul r64, r64, imm", TKS_ASM_THROUGHPUT, "", 0, "imul {r}, r14, 3", ""},
    {"lea: lea r64, [b+i*2+d]", TKS_ASM_THROUGHPUT, "", 0, "lea {r}, [r14+r14*2+8]", ""},
    {"load: mov r64, [m]", TKS_ASM_THROUGHPUT, "", 0, "mov {r}, [r14]", ""},
    {"store: mov [m], r64", TKS_ASM_THROUGHPUT, "", 0, "mov [r14+64], r14", ""},
    {"fadd: vaddpd ymm", TKS_ASM_THROUGHPUT, "", 0, "vaddpd {y}, ymm15, ymm15", ""},
    {"fmul: vmulpd ymm", TKS_ASM_THROUGHPUT, "", 0, "vmulpd {y}, ymm15, ymm15", ""},
    {"shuffle: vshufps ymm", TKS_ASM_THROUGHPUT, "", 0, "vshufps {y}, ymm15, ymm15, 27", ""},
    {"vint: vpaddd ymm", TKS_ASM_THROUGHPUT, "", 0, "vpaddd {y}, ymm15, ymm15", ""},
};

const tks_asm_row *tks_ports_default_blockers(size_t *n)
{
    *n = sizeof default_blockers / sizeof default_blockers[0];
    return default_blockers;
}

void tks_ports_result_free(tks_ports_result *r)
{
    if (!r)
        return;
    free(r->forms);
    free(r->pairs);
    r->forms = NULL;
    r->pairs = NULL;
}
